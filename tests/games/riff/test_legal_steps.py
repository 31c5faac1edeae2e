"""The rules list the legal next steps of a turn (pbem/games/riff/legal.py): every step they
list is one ``apply`` plays, and every step ``apply`` plays is listed. Checked over positions of
random games, at the start of a turn and after steps that turn no hidden card (after one,
``apply`` skips what no longer fits instead of refusing it, so nothing more is checkable)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from pbem.engine.chance import Chance
from pbem.engine.errors import IllegalOrder
from pbem.games.riff import GAME
from pbem.games.riff.legal import Progress, next_steps, play, start
from pbem.games.riff.orders import (
    Attach,
    Boat,
    Buy,
    Flip,
    Place,
    SharkArea,
    SharkOwn,
    Step,
    step_text,
)
from pbem.games.riff.state import State
from tests.games.riff.played import positions

SEXES = ("m", "f")


def every_step(state: State, seat: int) -> Iterator[Step]:
    """Every step the order language can write (the rules choosing the worms), whatever the
    position: the test's own list, not the rules'."""
    colours = state.colours
    for column in range(8):
        for distance in range(4):
            place = Place(column, distance)
            yield from (Buy(place), Flip(place), SharkArea(place))
    yield Boat()
    for coral in range(len(state.players[seat].corals) + 1):
        for male in colours:
            yield Attach(((male, "m"),), coral)
            for female in colours:
                yield Attach(((male, "m"), (female, "f")), coral)
        for female in colours:
            yield Attach(((female, "f"),), coral)
    for colour in colours:
        for sex in SEXES:
            yield SharkOwn(colour, sex)


def accepted(state: State, seat: int, lines: list[str]) -> bool:
    try:
        GAME.apply(state, seat, GAME.parse(state, seat, "\n".join(lines)), Chance("accepted"))
    except IllegalOrder:
        return False
    return True


def turns(games: int, seed: str, every: int) -> Iterator[tuple[State, Progress]]:
    """Turns under way: each position's turn before its first step, then after up to two
    steps chosen at random among those that turn no hidden card."""
    rng = random.Random(seed)
    for state in positions(games, seed, every):
        progress = start(state, state.to_move)
        for _ in range(3):
            yield state, progress
            quiet = [p for s in next_steps(progress)
                     if not (p := play(progress, s, Chance("walk"))).turn.revealed]
            if not quiet:
                break
            progress = rng.choice(quiet)


@pytest.mark.parametrize(("games", "every", "least"), [
    (1, 10, 10),
    pytest.param(3, 5, 60, marks=pytest.mark.slow, id="many"),  # about a minute
])
def test_every_listed_step_is_played_by_apply_and_every_played_step_is_listed(
        games: int, every: int, least: int) -> None:
    looked = listed = refused = 0
    for state, progress in turns(games, "legal", every):
        seat = progress.turn.seat
        before = [step_text(s) for s in progress.steps]
        legal = set(next_steps(progress))
        for step in every_step(state, seat):
            ok = accepted(state, seat, [*before, step_text(step)])
            assert ok == (step in legal), (before, step_text(step), ok)
            listed += ok
            refused += not ok
        looked += 1
    assert looked >= least and listed > 10 * least and refused > 200 * least


def test_listing_the_steps_changes_nothing() -> None:
    for state in positions(1, "unchanged", every=3):
        before = GAME.to_json(state)
        progress = start(state, state.to_move)
        next_steps(progress)
        assert GAME.to_json(progress.state) == before
        assert GAME.to_json(state) == before
