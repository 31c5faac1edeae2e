"""The legal steps the rules produce (legal.py): every one is accepted by the rules, and every
step the rules accept is among them, over positions of random games (part-played turns too)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from pbem.engine.chance import Chance
from pbem.engine.errors import IllegalOrder
from pbem.games.reef_encounter import GAME, legal
from pbem.games.reef_encounter.board import Refused
from pbem.games.reef_encounter.bot import random_turn
from pbem.games.reef_encounter.legal import KINDS, TurnInPlay
from pbem.games.reef_encounter.orders import (
    Alga,
    Cell,
    ConsumedForLarva,
    Eat,
    Larva,
    LarvaForPolyp,
    MoveShrimp,
    NewShrimp,
    Order,
    Pass,
    Place,
    SetupAnswer,
    Step,
    Take,
)
from pbem.games.reef_encounter.rules import apply_order, do_step
from pbem.games.reef_encounter.setup_answer import apply_setup_answer, legal_setup_answers
from pbem.games.reef_encounter.state import State

CORALS = ("grey", "orange", "pink", "white", "yellow")
ALGAE = ("blue", "green", "purple", "red")


def _positions(seed: str, games: int) -> Iterator[tuple[State, TurnInPlay]]:
    """Turns part-played by the random bot, at a random point, in seeded random games."""
    rng = random.Random(seed)
    for g in range(games):
        state = GAME.setup(2 + g % 3, {"advanced": g % 2 == 1}, Chance(f"{seed}-{g}"))
        n = 0
        while waiting := GAME.waiting_for(state):
            seat = min(waiting)
            text = GAME.random_order(state, seat, rng)
            if state.phase != "setup" and rng.random() < 0.25:
                steps = random_turn(state, seat, rng).steps
                play = TurnInPlay(state, seat)
                for step in steps[:rng.randint(0, len(steps) - 1)]:
                    play.play(step)
                yield state, play
            state = GAME.apply(state, seat, GAME.parse(state, seat, text),
                               Chance(f"{seed}-{g}-{n}")).state
            n += 1


def _accepted(before: State, play: TurnInPlay, step: Step) -> bool:
    """The rules' answer to ``step`` next: played on a copy; action 10 (and a larva cube) as
    part of a whole order the rules apply, with a way on to the end for a larva cube."""
    trial = play.copy()
    try:
        do_step(trial.state, trial.turn, step, Chance("trial"))
    except Refused:
        return False
    trial.steps.append(step)
    if isinstance(step, Take):
        try:  # the whole order, from the state before the turn
            apply_order(before, play.seat, Order(tuple(trial.steps)), Chance("trial"))
        except IllegalOrder:
            return False
        return True
    if isinstance(step, Larva):
        return bool(trial.legal(Place))
    return True


def _any_step(rng: random.Random) -> Step:
    """A step of any kind naming anything (any board, cell, colour, tile)."""
    def cell() -> Cell:
        return Cell(rng.randint(1, 4), rng.choice("ABCDEFG"), rng.randint(1, 6))
    kind = rng.choice(KINDS)
    if kind in (Eat, NewShrimp):
        return kind(cell())
    if kind is Place:
        return Place(cell(), rng.random() < 0.3)
    if kind is MoveShrimp:
        return MoveShrimp(cell(), None if rng.random() < 0.2 else cell())
    if kind in (Larva, ConsumedForLarva, LarvaForPolyp, Take):
        return kind(rng.choice(CORALS))
    if kind is Alga:
        return Alga(rng.choice(ALGAE), rng.choice([None, *range(1, 11)]), rng.choice(CORALS))
    return Pass()


@pytest.mark.parametrize("seed", ["legal-a", pytest.param("legal-b", marks=pytest.mark.slow)])
def test_the_legal_steps_are_what_the_rules_accept(seed: str) -> None:
    rng = random.Random(seed)
    checked = 0
    for before, play in _positions(seed, 3):
        legal = play.all_legal()
        assert legal or play.over  # a turn in play can always go on, or is over
        for step in legal:  # each is accepted
            assert _accepted(before, play, step), (play.steps, step)
        for step in {_any_step(rng) for _ in range(60)}:  # and nothing else is
            assert _accepted(before, play, step) == (step in legal), (play.steps, step)
        # Anything in the turn's own shrimps' reach, precisely (random cells rarely are).
        for source in sorted(play.state.shrimps):
            for target in [None, *sorted(play.state.polyps)]:
                b, spot = source.split(":")
                step = MoveShrimp(Cell(int(b), spot[0], int(spot[1:])),
                                  None if target is None else Cell(int(target[0]), target[2],
                                                                   int(target[3:])))
                assert _accepted(before, play, step) == (step in legal)
        checked += 1
    assert checked > 20


def test_any_turn_of_legal_steps_ends_and_applies() -> None:
    rng = random.Random("legal-ends")
    for before, play in list(_positions("legal-ends", 2))[:12]:
        while not play.over and not (play.may_stop() and rng.random() < 0.5):
            takes = play.legal(Take)
            play.play(rng.choice(takes if takes and rng.random() < 0.5 else play.all_legal()))
        new, _ = apply_order(before, play.seat, play.order(), Chance("x"))
        assert new.turn == before.turn + 1


def test_the_setup_answers_are_exactly_those_the_rules_accept() -> None:
    state = GAME.setup(3, {}, Chance("legal-setup"))
    state = apply_setup_answer(state, 1, legal_setup_answers(state, 1)[0])
    for seat in range(3):
        legal = legal_setup_answers(state, seat)
        for fish in CORALS:
            for first in CORALS:
                for second in CORALS:
                    answer = SetupAnswer(fish, (first, second))
                    try:
                        apply_setup_answer(state, seat, answer)
                    except IllegalOrder:
                        assert answer not in legal
                    else:
                        assert answer in legal
        assert (legal == []) == (seat == 1)


def test_the_steps_as_every_games_legal_offers_them() -> None:
    """start, next_steps and play (the names every game's legal.py gives): the legal steps of
    the turn so far, and the turn after one of them on a copy, the turn given unchanged."""
    checked = 0
    for state, turn in _positions("every game", 3):
        if checked == 0:
            fresh = legal.start(state, turn.seat)
            assert legal.next_steps(fresh) == TurnInPlay(state, turn.seat).all_legal()
        steps = legal.next_steps(turn)
        assert steps == turn.all_legal()
        if not steps:
            continue
        before = turn.state.to_json()
        after = legal.play(turn, steps[0], Chance("next"))
        assert turn.state.to_json() == before and after.steps == [*turn.steps, steps[0]]
        in_place = turn.copy()
        in_place.play(steps[0])
        assert after.state.to_json() == in_place.state.to_json()
        checked += 1
    assert checked > 5
