"""Das Riff's invariants (invariants.py, run after every order of the shared suite's random
games) catch what they should."""

from __future__ import annotations

from tests.games.riff.invariants import violations
from tests.games.riff.positions import FULL, build


def test_invariants_catch_a_lost_card_and_a_lost_worm() -> None:
    state = build(FULL)
    assert violations(state) == []
    state.pile.pop()
    state.players[0].worms["red"] += 1
    problems = violations(state)
    assert any(p.startswith("59 reef cards") for p in problems)
    assert "red worms: [1, 0, 8]" in problems
