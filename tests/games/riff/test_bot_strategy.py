"""The computer player (pbem/games/riff/strategy.py: bot_order, judged by worth): legal
orders at every level, the same order for the same generator, within its budget, and better
than the random bot. It is always handed a redeal (pbem.engine.contract.bot_order)."""

from __future__ import annotations

import json
import random

import pytest

from pbem.engine.chance import Chance
from pbem.engine.contract import bot_order
from pbem.engine.errors import IllegalOrder
from pbem.games.riff import GAME
from pbem.games.riff.area import face_down_places
from pbem.games.riff.redeal import redeal
from pbem.games.riff.state import State
from tests.games.riff.played import positions


def _unseen(state: State) -> list[str]:
    cards = [state.area[r][c]["card"] for r, c in face_down_places(state.area)]  # type: ignore[index]
    return sorted(cards + state.pile)


def _play(state: State, seat: int, text: str) -> State:
    try:
        return GAME.apply(state, seat, GAME.parse(state, seat, text), Chance("real")).state
    except IllegalOrder as err:
        raise AssertionError(f"{text!r}: {err}") from None


@pytest.mark.parametrize("level", ["normal", "strong"])
def test_the_computer_players_orders_are_legal_and_the_same_for_the_same_generator(
        level: str) -> None:
    played = bought_hidden = 0
    for n, state in enumerate(positions(2, f"legal-{level}", every=3)):
        for seat in (0, 1):
            text = bot_order(GAME, state, seat, random.Random(n), level, budget=60.0)
            assert text == bot_order(GAME, state, seat, random.Random(n), level, budget=60.0)
            _play(state, seat, text)
            if seat == state.to_move:
                played += text != "pass"
                bought_hidden += " if " in text
            else:
                assert text.startswith("prefer ")
    assert played > 20 and bought_hidden > 3


def test_a_redeal_keeps_what_the_seat_sees_and_deals_the_rest_from_the_same_cards() -> None:
    changed = 0
    for n, state in enumerate(positions(2, "redeal", every=3)):
        before = json.dumps(GAME.to_json(state))
        dealt = redeal(state, state.to_move, random.Random(n))
        assert json.dumps(GAME.to_json(state)) == before  # the real state stays
        assert GAME.view(dealt, state.to_move) == GAME.view(state, state.to_move)
        assert _unseen(dealt) == _unseen(state)
        assert sorted(dealt.breeding_pile) == sorted(state.breeding_pile)
        changed += dealt.pile != state.pile
    assert changed > 20


def test_a_spent_budget_ends_the_order_where_it_is() -> None:
    for state in positions(1, "budget", every=10):
        assert bot_order(GAME, state, state.to_move, random.Random(1), "normal",
                         budget=0.0) == "pass"


def _match(games: int, seed: str) -> list[int | None]:
    """The computer player (normal) against the random bot, seats alternating: the winners,
    0 for the computer player, None for a draw."""
    winners: list[int | None] = []
    for g in range(games):
        levels = ("normal", "random") if g % 2 == 0 else ("random", "normal")
        state = GAME.setup(2, {}, Chance(f"{seed}-{g}/setup"))
        rng = random.Random(f"{seed}-{g}")
        n = 0
        while GAME.waiting_for(state):
            seat = state.to_move
            text = bot_order(GAME, state, seat, rng, levels[seat], budget=60.0)
            state = GAME.apply(state, seat, GAME.parse(state, seat, text),
                               Chance(f"{seed}-{g}/{n}")).state
            n += 1
        winners.append(None if state.winner is None else int(levels[state.winner] != "normal"))
    return winners


@pytest.mark.slow  # ten whole games
def test_the_computer_player_beats_the_random_bot() -> None:
    winners = _match(10, "versus")
    assert winners.count(0) >= 8, winners


@pytest.mark.parametrize(("lang", "heading"), [
    ("en", "PLAYING AGAINST THE COMPUTER."), ("de", "GEGEN DEN COMPUTER SPIELEN."),
    ("fr", "JOUER CONTRE L'ORDINATEUR."), ("it", "GIOCARE CONTRO IL COMPUTER."),
    ("nl", "TEGEN DE COMPUTER SPELEN.")])
def test_help_tells_players_how_the_computer_plays(lang: str, heading: str) -> None:
    assert heading in GAME.help_text(None, lang)
