"""Reef's invariants (invariants.py, run after every order of the shared suite's random games)
catch what they should."""

from __future__ import annotations

from tests.games.reef2018.invariants import violations
from tests.games.reef2018.positions import EMPTY, build


def test_invariants_catch_a_lost_piece_a_tall_stack_and_a_wrong_score() -> None:
    state = build([EMPTY, EMPTY])
    assert violations(state) == []
    state.supply["red"] -= 1
    state.players[0].reef[0] = ["green"] * 5
    state.players[1].score += 1
    state.players[1].hand = [state.deck.pop() for _ in range(5)]
    assert violations(state) == [
        "17 red pieces instead of 18", "23 green pieces instead of 18",
        "seat 0: a stack 5 high on square 0", "seat 1 holds 5 cards",
        "seat 1: score 4 is not the sum of its ledger"]
