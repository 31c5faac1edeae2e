"""The redeal (redeal.py) and the computer player (strategy.py) on Reef Encounter positions."""

from __future__ import annotations

import random
import time

from pbem.engine.chance import Chance
from pbem.engine.contract import BOT_LEVELS, bot_order
from pbem.games.reef_encounter import GAME
from pbem.games.reef_encounter.board import group
from pbem.games.reef_encounter.state import State
from tests.games.reef_encounter.invariants import violations
from tests.games.reef_encounter.positions import bot_game, build, play


def _positions(seed: str) -> list[tuple[int, State]]:
    rng = random.Random(seed)
    out = []
    for players in (2, 3, 4):
        game = list(bot_game(rng, f"{seed}-{players}", players, players == 3))
        out += [(n, state) for n, state in game if n < players or rng.random() < 0.15]
    return out


def test_a_redeal_keeps_what_each_seat_sees_and_redraws_the_rest() -> None:
    changed = 0
    for n, state in _positions("redeal"):
        for seat in range(len(state.players)):
            seen = GAME.redeal(state, seat, random.Random(n))
            assert GAME.view(seen, seat) == GAME.view(state, seat)
            assert not violations(seen, between_turns=True)  # every polyp and cube accounted
            mine, theirs = seen.players[seat], state.players[seat]
            assert (mine.screen, mine.parrotfish, mine.larva) == (
                theirs.screen, theirs.parrotfish, theirs.larva)
            others = [(s.screen, s.parrotfish[:1]) for i, s in enumerate(seen.players) if i != seat]
            real = [(s.screen, s.parrotfish[:1]) for i, s in enumerate(state.players) if i != seat]
            changed += others != real
            assert GAME.to_json(GAME.redeal(state, seat, random.Random(n))) == GAME.to_json(seen)
    assert changed > 20  # the others' secrets really are drawn afresh


def test_in_the_setup_step_the_others_picks_are_drawn_again_from_the_supply_seen() -> None:
    state = GAME.setup(3, {}, Chance("redeal-setup"))
    state = GAME.apply(state, 1, GAME.parse(state, 1, "parrotfish " + min(
        state.players[1].screen) + "; larvae pink pink"), Chance("x")).state
    picks = set()
    for k in range(20):
        seen = GAME.redeal(state, 0, random.Random(k))
        assert GAME.view(seen, 0) == GAME.view(state, 0)
        picks.add(tuple(sorted(seen.players[1].larva.items())))
        assert sum(seen.players[1].larva.values()) == 2
    assert len(picks) > 3
    assert GAME.redeal(state, 1, random.Random(0)).players[1].larva == {"pink": 2}


def test_the_bot_plays_legal_turns_at_every_level_and_is_deterministic() -> None:
    for n, state in _positions("bot-legal")[::8]:
        seat = min(GAME.waiting_for(state))
        for level in BOT_LEVELS:
            text = bot_order(GAME, state, seat, random.Random(n), level, 30.0)
            GAME.apply(state, seat, GAME.parse(state, seat, text), Chance("x"))  # legal
            assert bot_order(GAME, state, seat, random.Random(n), level, 30.0) == text


def test_the_bot_stays_within_its_budget() -> None:
    for n, state in _positions("bot-budget")[::5]:
        seat = min(GAME.waiting_for(state))
        start = time.process_time()
        text = bot_order(GAME, state, seat, random.Random(n), "strong", 0.02)
        assert time.process_time() - start < 0.2  # one candidate at most after the budget
        GAME.apply(state, seat, GAME.parse(state, seat, text), Chance("x"))


def test_the_bot_eats_a_big_coral_its_shrimp_guards_and_grows_its_corals() -> None:
    picture = """
~ ~ ~ . . . ~
W1 W W W W . ~
. W W . ~ . .
. ~ . . . . .
. . . . . . .
~ . . . . . ~
"""
    hungry = build({2: picture})  # nothing to grow it with: it eats
    text = GAME.bot_order(hungry, 0, random.Random(0), "normal", 1.0)
    assert text.startswith("eat 2"), text
    assert len(play(hungry, 0, text).state.players[0].parrotfish) == 3  # 7 polyps: 4 to the bag
    growing = build({2: picture}, seats={0: {"screen": {"white": 4}, "larva": {"white": 1}}})
    text = GAME.bot_order(growing, 0, random.Random(0), "normal", 1.0)
    after = play(growing, 0, text).state
    assert len(group(after, "2:A2")) >= 10, text  # it grows its guarded coral (3 or more)
