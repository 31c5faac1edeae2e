"""The legal steps of a turn, as the rules produce them.

A turn is built step by step on a scratch copy of the state (:class:`TurnInPlay`). The legal
next steps of a kind are the candidates of that kind (every cell of the boards in play, every
colour, every tile, ...) that the rules' own check accepts (``rules.check_step``); action 10 is
legal when the rules would also let the turn end with it (``rules.check_finish``), and a larva
cube when at least one polyp can then be placed (the rules require one before anything else).
Nothing here says what is legal: bots choose among these steps.

As every game's legal.py offers them: :func:`start` (a turn before its first step),
:func:`next_steps` (every legal next step) and :func:`play` (the turn after one of them).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace
from functools import cache
from typing import TypeVar, cast

from pbem.engine.chance import Chance
from pbem.games.reef_encounter.board import Refused, rock_cells, tile_ids
from pbem.games.reef_encounter.components import components
from pbem.games.reef_encounter.context import Turn
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
    Step,
    Take,
)
from pbem.games.reef_encounter.parse import format_order
from pbem.games.reef_encounter.rules import check_finish, finish_turn
from pbem.games.reef_encounter.state import State
from pbem.games.reef_encounter.steps import check_step, do_step

K = TypeVar("K")
KINDS: tuple[type, ...] = (Eat, Larva, Place, NewShrimp, MoveShrimp, ConsumedForLarva, Alga,
                           LarvaForPolyp, Pass, Take)


@cache
def cell_of(key: str) -> Cell:
    """The order language's cell for a state key ("2:D4")."""
    board, spot = key.split(":")
    return Cell(int(board), spot[0], int(spot[1:]))


class TurnInPlay:
    """One seat's turn being built: its steps so far played by the rules on a scratch copy."""

    __slots__ = ("state", "steps", "turn")

    def __init__(self, state: State, seat: int, *, _copy: bool = True) -> None:
        self.state = state.copy_for(seat) if _copy else state
        self.turn = Turn(seat, state.phase == "final")
        self.steps: list[Step] = []

    def copy(self) -> TurnInPlay:
        """An independent copy, to try steps on."""
        other = TurnInPlay(self.state.copy_for(self.turn.seat), self.turn.seat, _copy=False)
        other.turn = replace(self.turn, done=set(self.turn.done), events=[])
        other.steps = list(self.steps)
        return other

    @property
    def seat(self) -> int:
        return self.turn.seat

    def candidates(self, kind: type) -> Iterator[Step]:
        """Every step of ``kind`` this game could name now, legal or not."""
        state = self.state
        comp = components()
        if kind in (Eat, NewShrimp):
            for k in self._cells():
                yield kind(cell_of(k))
        elif kind is Place:
            for consumed in (False, True):
                for k in self._cells():
                    yield Place(cell_of(k), consumed)
        elif kind is MoveShrimp:
            for source in sorted(state.shrimps):
                yield MoveShrimp(cell_of(source), None)
                for k in self._cells():
                    yield MoveShrimp(cell_of(source), cell_of(k))
        elif kind in (Larva, ConsumedForLarva, LarvaForPolyp, Take):
            for colour in comp.coral_colours:
                yield kind(colour)
        elif kind is Alga:
            for colour in comp.alga_colours:
                for tile in (None, *tile_ids()):
                    for paid in comp.coral_colours:
                        yield Alga(colour, tile, paid)
        elif kind is Pass:
            yield Pass()

    def candidates_of(self, kind: type[K]) -> list[K]:
        return [cast(K, step) for step in self.candidates(kind)]

    def _cells(self) -> Iterator[str]:
        for board in self.state.boards:
            yield from rock_cells()[board]

    def cells(self) -> list[str]:
        """The rock cells of the boards in play: what a step may name."""
        return list(self._cells())

    def accepts(self, step: Step) -> bool:
        """Whether the rules accept ``step`` next (and the turn can go on to an end)."""
        try:
            check_step(self.state, self.turn, step)
        except Refused:
            return False
        if isinstance(step, Take):
            return self._may_end(replace(self.turn, take=step.colour, larva_action=None))
        if isinstance(step, Larva):
            trial = self.copy()
            trial.play(step)
            return any(True for _ in trial.legal_iter(Place))
        return True

    def legal_iter(self, kind: type[K]) -> Iterator[K]:
        for step in self.candidates(kind):
            if self.accepts(step):
                yield cast(K, step)

    def legal(self, kind: type[K]) -> list[K]:
        """The legal next steps of ``kind``."""
        return list(self.legal_iter(kind))

    def all_legal(self) -> list[Step]:
        """Every legal next step, kind by kind."""
        out: list[Step] = []
        for kind in KINDS:
            out += self.candidates_legal(kind)
        return out

    def first_legal(self, steps: Iterable[K]) -> K | None:
        """The first of ``steps`` the rules accept next, if any (a bot's preferred order)."""
        for step in steps:
            if self.accepts(cast(Step, step)):
                return step
        return None

    def candidates_legal(self, kind: type) -> list[Step]:
        return [step for step in self.candidates(kind) if self.accepts(step)]

    def play(self, step: Step) -> None:
        """Play ``step`` (one of the legal ones) on the scratch copy."""
        do_step(self.state, self.turn, step, Chance("turn in play"))
        self.steps.append(step)

    def _may_end(self, turn: Turn) -> bool:
        try:
            check_finish(self.state, turn)
        except Refused:
            return False
        return True

    @property
    def over(self) -> bool:
        """No step may follow: action 10 was chosen, or the game ended during the turn."""
        return self.turn.take is not None or self.turn.ended

    def may_stop(self) -> bool:
        """Whether the order may end here (it has a step and the rules let the turn end)."""
        return bool(self.steps) and self._may_end(self.turn)

    def order(self) -> Order:
        return Order(tuple(self.steps))

    def text(self) -> str:
        """The order as a player would type it (canonical English)."""
        return format_order(self.order())

    def finish(self, chance: Chance) -> State:
        """The state after the turn (action 10's polyps and refill drawn through ``chance``)."""
        finish_turn(self.state, self.turn, chance)
        return self.state


def start(state: State, seat: int) -> TurnInPlay:
    """``seat``'s turn before its first step (the state is copied, never changed)."""
    return TurnInPlay(state, seat)


def next_steps(progress: TurnInPlay) -> list[Step]:
    """Every legal next step of the turn, kind by kind (see :meth:`TurnInPlay.all_legal`)."""
    return progress.all_legal()


def play(progress: TurnInPlay, step: Step, chance: Chance) -> TurnInPlay:
    """The turn after ``step`` (a legal next step), played by the rules on a copy; the turn
    given is left as it was."""
    after = progress.copy()
    after.turn.events = list(progress.turn.events)
    do_step(after.state, after.turn, step, chance)
    after.steps.append(step)
    return after
