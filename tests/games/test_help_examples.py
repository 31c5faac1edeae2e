"""Every example of every game's help reads with that game's parser: the generic help and the
help for a game in progress (its examples drawn from that game), for each player count."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from pbem.engine import registry
from pbem.engine.chance import Chance
from pbem.games.reef_encounter.board import neighbours

# each game's help: at least this many examples
GAMES = {"reef-encounter": 25, "reef-2018": 7, "das-riff": 14}
# An example is the left column of a line indented 2 or 5 spaces (after an action number or
# letter); the explanations sit in the right column, 3+ spaces away, or deeper indented.
EXAMPLE = re.compile(r"^(?:  (?:\d{1,2}|[AB]) {1,2}|  |     )(?=\S)(.+?)(?:\s{3,}.*)?$")


def examples(game: str, text: str) -> list[str]:
    if game == "reef-2018":  # its patterns section draws card patterns, not orders
        text = text.split("\nPATTERNS", 1)[0]
    found = [m[1] for line in text.splitlines() if (m := EXAMPLE.match(line))]
    found += re.findall(r"e\.g\.  (.+)$", text, flags=re.M)
    return [part for ex in found for part in ex.split(" / ")]


def whole_turn(text: str) -> str | None:
    """The help's "A WHOLE TURN, FOR EXAMPLE" block, as one order."""
    block = re.search(r"A WHOLE TURN, FOR EXAMPLE\n((?:  .+\n)+)", text)
    return None if block is None else "\n".join(ln.strip() for ln in block[1].splitlines())


def played(game: str, players: int, seed: int) -> Any:
    """A game a few random turns in (its reef, market or area no longer as set up)."""
    rules = registry.get(game)
    state = rules.setup(players, {}, Chance(f"help-{game}-{players}-{seed}"))
    rng = random.Random(seed)
    for i in range(6):
        waiting = rules.waiting_for(state)
        if not waiting:
            break
        seat = min(waiting)
        order = rules.parse(state, seat, rules.random_order(state, seat, rng))
        state = rules.apply(state, seat, order, Chance(f"move-{i}")).state
    return state


def counts(game: str) -> range:
    rules = registry.get(game)
    return range(rules.min_players, rules.max_players + 1)


@pytest.mark.parametrize(("game", "players"),
                         [(g, n) for g in GAMES for n in counts(g)])
def test_every_example_of_the_help_reads(game: str, players: int) -> None:
    rules = registry.get(game)
    for seed in range(3):
        state = played(game, players, seed)
        for text in (rules.help_text(), rules.help_text(state)):
            lines = examples(game, text)
            assert len(lines) >= GAMES[game], lines
            for line in lines:
                assert rules.parse(state, min(range(players)), line) is not None, line
            turn = whole_turn(text)
            if turn is not None:
                rules.parse(state, 0, turn)


def test_a_renamed_colour_game_gets_examples_in_its_own_colours() -> None:
    rules = registry.get("das-riff")
    names = ["rot", "gelb", "blau", "gruen", "rosa", "lila"]
    state = rules.setup(2, {"colour_names": names}, Chance("colours"))
    text = rules.help_text(state)
    assert "This game's colours: rot, gelb, blau, gruen, rosa, lila." in text
    assert "  attach rot male and gelb female to coral 1" in text
    for line in examples("das-riff", text):
        rules.parse(state, 0, line)
    with pytest.raises(ValueError, match="red"):  # the generic example would not read here
        rules.parse(state, 0, "attach red male to coral 2")


@pytest.mark.parametrize("seed", range(12))
def test_a_reef_encounter_help_names_only_the_boards_in_play(seed: int) -> None:
    rules = registry.get("reef-encounter")
    state = played("reef-encounter", 3, seed)
    text = rules.help_text(state)
    cells = re.findall(r"\b([1-4])([A-G])([1-6])\b", text)
    assert len(cells) > 20
    for board, column, row in cells:
        assert int(board) in state.boards, f"{board}{column}{row} of {state.boards}"
        assert f"{board}:{column}{row}" in neighbours(), "a sand cell"
    missing = ({1, 2, 3, 4} - set(state.boards)).pop()
    assert not re.search(rf"\b{missing}[A-G][1-6]\b", text)
    assert f"This game's boards: {', '.join(map(str, state.boards))}." in text
    # The parrotfish and attack examples name polyps really on this game's reef.
    eat = re.search(r"^  1  eat ([1-4])([A-G])([1-6])", text, flags=re.M)
    assert eat is not None and f"{eat[1]}:{eat[2]}{eat[3]}" in state.polyps
    attack = re.search(r"^  larva (\w+): ([1-4])([A-G])([1-6]) +if \S+ holds an? (\w+) polyp",
                       text, flags=re.M)
    assert attack is not None
    assert state.polyps[f"{attack[2]}:{attack[3]}{attack[4]}"] == attack[5] != attack[1]
