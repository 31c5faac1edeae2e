"""Reef Encounter's invariants (invariants.py, run after every order of the shared suite's
random games) catch what they should."""

from __future__ import annotations

from pbem.engine import replay
from pbem.games.reef_encounter import GAME
from pbem.games.reef_encounter.state import State
from tests.games.reef_encounter.invariants import violations
from tests.games.reef_encounter.positions import build


def test_invariants_catch_a_lost_polyp() -> None:
    state, _ = replay.start(GAME, 2, {}, "broken")
    colour = next(iter(state.bonus))
    state.bonus[colour] -= 1
    assert violations(state) == [f"39 {colour} polyps instead of 40"]


TWO_ON_ONE_CORAL = """
~ ~ ~ . . . ~
W1 W2 . . . . ~
. . . . ~ . .
. ~ . . . . .
. . . . . . .
~ . . . . . ~
"""
THREE_ON_ONE_BOARD = """
~ ~ ~ . . . ~
W1 . P1 . . . ~
. . . . ~ . .
. ~ . . . . .
O1 . . . . . .
~ . . . . . ~
"""


def _position(picture: str) -> State:
    fed = {"parrotfish": ["grey"]}
    return build({2: picture}, seats={0: dict(fed), 1: dict(fed)})


def test_invariants_catch_two_shrimps_on_one_coral() -> None:
    state = _position(TWO_ON_ONE_CORAL)
    assert violations(state) == ["the coral on 2:A2 holds shrimps on 2:A2 and 2:B2"]


def test_invariants_catch_three_own_shrimps_on_one_board() -> None:
    state = _position(THREE_ON_ONE_BOARD)
    assert violations(state) == ["seat 0 has 3 shrimps on board 2"]


def test_invariants_allow_a_shrimp_on_bare_rock_only_mid_turn() -> None:
    state = _position(THREE_ON_ONE_BOARD.replace("O1", ".2"))
    assert violations(state, between_turns=False) == []
    assert violations(state) == ["seat 1's shrimp on 2:A5 stands on bare rock between turns"]
