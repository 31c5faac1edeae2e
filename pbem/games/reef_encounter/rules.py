"""One order = one whole turn, applied atomically to a copy of the state.

Turn structure (RULINGS.md): action 1 only first; 2, 3, 4 and 10 at most once; 3 after 2;
5-8 repeatable; action 5 anywhere, even between two placements; every other action is finished
before the next begins; a larva cube is followed by at least one placement; action 10 is
compulsory and last; no shrimp of the player is left on bare rock. In a final turn the only
action is action 1.

A failing step is reported with its line, its place within that line and the reason, and —
when the step names a cell — the nearest cells of this game's boards where that same step
would have been legal. Then the later lines are checked too, without the bad step and the rest
of its line (the legal steps before it on that line stay), so one reply can name every bad
line. That is sound only for lines that do not build on the bad step, so the check also leaves
out the placement lines that continue a bad larva cube (they would all fail for want of it) and
stops at the first turn-structure error that may come from the leaving out (a larva cube left
without placements, placements without a larva cube). A later line that fails for want of
something a bad step would have done (a shrimp it would have moved, a cube it would have
traded) is still reported, marked as checked without the bad steps. Nothing of an order with an
illegal step is ever applied.

Each kind of step's check and effect is steps.py's; how the game ends, ending.py's.
"""

from __future__ import annotations

from dataclasses import replace

from pbem.engine.chance import Chance
from pbem.engine.contract import Event
from pbem.engine.errors import IllegalOrder, IllegalOrders, step_in_line
from pbem.games.reef_encounter.board import Refused, key, name
from pbem.games.reef_encounter.context import Turn, seat_ref, who
from pbem.games.reef_encounter.ending import SEA_EMPTY, game_over, next_final
from pbem.games.reef_encounter.nearest import nearest
from pbem.games.reef_encounter.opensea import take
from pbem.games.reef_encounter.orders import (
    Cell,
    Eat,
    Larva,
    MoveShrimp,
    NewShrimp,
    Order,
    Place,
    SetupAnswer,
    Step,
)
from pbem.games.reef_encounter.parse import format_step
from pbem.games.reef_encounter.setup_answer import apply_setup_answer
from pbem.games.reef_encounter.shrimps import shrimps_on_bare_rock
from pbem.games.reef_encounter.state import State
from pbem.games.reef_encounter.steps import OutOfPlace, do_step, larva_closed
from pbem.games.reef_encounter.terms import colour as hue
from pbem.games.reef_encounter.terms import colours, vowel
from pbem.i18n.msg import Msg, cmsg, msg, nmsg

SETUP_EXAMPLE = cmsg("order example", "parrotfish pink; larvae white yellow")
STEP = msg("step {n} ({step}): {why}")
LATER_STEP = msg("step {n} ({step}): {why} (checked without the steps above that break a rule)")
# A polyp a larva line places ("larva white: 2F3"): the player wrote one step, not two.
PLACING = msg("the polyp on {cell}: {why}")
LATER_PLACING = msg("the polyp on {cell}: {why} (checked without the steps above that break a "
                    "rule)")
MAX_ERRORS = 12  # as many bad lines as a reply lists
SUGGESTED = 3  # at most this many cells suggested for a bad cell


class _Failed(Exception):
    def __init__(self, index: int, why: Refused) -> None:
        super().__init__(str(why))
        self.index = index
        self.why = why


def describe(step: Step) -> str:
    """How an error names a step: the cell for a placement, else the step as typed canonically."""
    if isinstance(step, Place):
        return str(step.cell)
    return format_step(step)


def apply_order(state: State, seat: int, order: Order, chance: Chance
                ) -> tuple[State, list[Event]]:
    """The state after ``seat``'s order, and what happened; raises IllegalOrder, never half-done."""
    if state.phase == "over":
        raise IllegalOrder(msg("the game is over; no more orders are taken"))
    if state.phase == "setup":
        return _setup_answer(state, seat, order)
    if seat != state.to_move:
        raise IllegalOrder(msg("it is {player}'s turn, not yours", player=who(state, state.to_move),
                               seat=seat_ref(state.to_move)))
    try:
        new, turn = _steps(state, seat, order, chance)
    except _Failed as failed:
        raise _every_bad_line(state, seat, order, failed) from None
    try:
        _finish(new, turn, chance)
    except Refused as why:
        raise IllegalOrder(msg("your turn cannot end like this: {why}", why=why.why)) from None
    return new, turn.events


def _steps(state: State, seat: int, order: Order, chance: Chance) -> tuple[State, Turn]:
    """Every step on a copy of ``state``; the turn's end is not checked. Raises _Failed."""
    new = state.copy_for(seat)
    turn = Turn(seat, state.phase == "final")  # final
    for i, step in enumerate(order.steps):
        try:
            do_step(new, turn, step, chance)
        except Refused as why:
            raise _Failed(i, why) from None
    return new, turn


def _every_bad_line(state: State, seat: int, order: Order, failed: _Failed) -> IllegalOrder:
    """The first illegal step, then each later bad line found with the bad steps left out
    (see the module's docstring for which steps are left out and when the check stops)."""
    errors = [_illegal(state, seat, order, failed.index, failed.why)]
    left_out: set[int] = set()
    while len(errors) < MAX_ERRORS and failed.index < len(order.lines):
        left_out |= _left_out_with(order, failed.index)
        keep = [i for i in range(len(order.steps)) if i not in left_out]
        if not keep or keep[-1] < failed.index:
            break
        rest = Order(tuple(order.steps[i] for i in keep), tuple(order.lines[i] for i in keep))
        try:
            _steps(state, seat, rest, Chance("check the later lines"))
            break
        except _Failed as again:
            if isinstance(again.why, OutOfPlace):
                break
            failed = _Failed(keep[again.index], again.why)
            errors.append(_illegal(state, seat, order, failed.index, failed.why,
                                   later=True,
                                   suggest=_legal_instead(state, seat, rest, again.index)))
    return errors[0] if len(errors) == 1 else IllegalOrders(errors)


def _left_out_with(order: Order, bad: int) -> set[int]:
    """Step ``bad`` and the rest of its line (the steps before it on the line were legal and
    stay); for a bad larva cube also the following lines that only place polyps for it
    (shrimp moves may stand between them)."""
    line = order.lines[bad]
    out = {i for i in range(bad, len(order.steps)) if order.lines[i] == line}
    if not isinstance(order.steps[bad], Larva):
        return out
    for later in sorted({n for n in order.lines if n > line}):
        steps = [i for i, n in enumerate(order.lines) if n == later]
        kinds = {type(order.steps[i]) for i in steps}
        if kinds == {Place}:
            out.update(steps)
        elif kinds != {MoveShrimp}:
            break
    return out


def _illegal(state: State, seat: int, order: Order, index: int, why: Refused,
             later: bool = False, suggest: list[str] | None = None) -> IllegalOrder:
    """The error for step ``index``: its line, its place in that line, why, and the nearest
    cells where it would have been legal (``suggest``, when found with bad steps left out)."""
    step = order.steps[index]
    line = order.lines[index] if index < len(order.lines) else None
    number = step_in_line(order.lines, index)
    cells = _legal_instead(state, seat, order, index) if suggest is None else suggest
    hint = nmsg("the nearest cell where this would be legal: {cells}",
                "the nearest cells where this would be legal: {cells}", len(cells),
                cells=", ".join(cells)) if cells else None
    # An order built without line numbers is one line, as step_in_line counts it.
    previous = order.lines[index - 1] if 0 < index <= len(order.lines) else None
    if isinstance(step, Place) and index > 0 and previous == line \
            and isinstance(order.steps[index - 1], Larva | Place):
        text = LATER_PLACING if later else PLACING
        said = msg(text.id, cell=str(step.cell), why=why.why)
    else:
        text = LATER_STEP if later else STEP
        said = msg(text.id, n=number, step=describe(step), why=why.why)
    return IllegalOrder(said, step=number, line=line, hint=hint)


def _legal_instead(state: State, seat: int, order: Order, index: int) -> list[str]:
    """Up to SUGGESTED cells of this game's boards, nearest to the cell the failing step
    names, on which that step (after the steps before it) would be legal."""
    step = order.steps[index]
    fields = {Place: ("cell",), Eat: ("cell",), NewShrimp: ("cell",),
              MoveShrimp: ("target", "source")}.get(type(step), ())
    for field in fields:
        typed = getattr(step, field)
        if typed is None:
            continue
        found: list[str] = []
        for k in nearest(key(typed), state.boards):
            if k == key(typed):
                continue
            board, spot = k.split(":")
            other: Step = replace(step, **{field: Cell(int(board), spot[0],  # type: ignore[arg-type]
                                                        int(spot[1:]))})
            trial = Order((*order.steps[:index], other), order.lines[:index + 1])
            try:
                _steps(state, seat, trial, Chance("suggest a cell"))
            except _Failed:
                continue
            found.append(name(k))
            if len(found) == SUGGESTED:
                break
        if found:
            return found
    return []


def _setup_answer(state: State, seat: int, order: Order) -> tuple[State, list[Event]]:
    answers = [s for s in order.steps if isinstance(s, SetupAnswer)]
    if len(order.steps) != 1 or not answers:
        raise IllegalOrder(msg("the game has not started yet: first answer the setup step, e.g. "
                               "\"{example}\"", example=SETUP_EXAMPLE), step=1,
                           line=order.lines[0] if order.lines else None)
    answer = answers[0]
    new = apply_setup_answer(state, seat, answer)
    f = {"colour": hue(answer.parrotfish), "first": hue(answer.larvae[0]),
         "second": hue(answer.larvae[1])}
    events = [
        Event.of("setup_answered", msg("{player} has answered the setup step.",
                                       player=who(state, seat), seat=seat_ref(seat))),
        Event.of("setup_answer", msg("You put an {colour} polyp into your parrotfish and took "
                                     "larva cubes {first} and {second}.", **f)
                 if vowel(answer.parrotfish) else
                 msg("You put a {colour} polyp into your parrotfish and took larva cubes "
                     "{first} and {second}.", **f), visible_to=frozenset({seat})),
    ]
    if new.phase == "play":
        cubes = [msg("{player}: {cubes}", player=who(new, i), seat=seat_ref(i),
                     cubes=colours([c for c, n in sorted(s.larva.items()) for _ in range(n)]))
                 for i, s in enumerate(new.players)]
        events.append(Event.of("setup_done", msg("Everyone has answered. Larva cubes taken — "
                                                 "{cubes}.", cubes=_semicolons(cubes))))
        events.append(Event.of("game_begins", msg("The game begins: {player} plays first.",
                                                  player=who(new, new.to_move),
                                                  seat=seat_ref(new.to_move))))
    return new, events


def check_finish(state: State, turn: Turn) -> None:
    """Refuse to end the turn after its steps so far, changing nothing."""
    larva_closed(turn)
    if not turn.ended:
        stray = shrimps_on_bare_rock(state, turn.seat)
        if stray:
            raise Refused(msg("your shrimp on {cell} stands on bare rock; by the end of your "
                              "turn it must be on a polyp or back behind your screen",
                              cell=name(stray[0])))
    if turn.final or turn.ended:
        return
    if turn.take is None:
        raise Refused(msg("every turn ends with action 10: take a larva cube and its polyps "
                          "from the open sea, e.g. \"{example}\"",
                          example=cmsg("order example", "take pink")))


def _finish(state: State, turn: Turn, chance: Chance) -> None:
    check_finish(state, turn)
    turn.larva_action = None
    if turn.ended:
        for k in shrimps_on_bare_rock(state, turn.seat):  # stranded shrimps go home
            del state.shrimps[k]
            state.players[turn.seat].shrimps_in_hand += 1
    state.turn += 1
    if turn.final:
        state.final_turns.pop(0)
        turn.say("final_turn_played", msg("{player} has played their final turn.",
                                          player=who(state, turn.seat), seat=seat_ref(turn.seat)))
        next_final(state)
        if state.phase == "over":
            turn.say("game_over", msg("The game is over: every final turn has been played."))
        return
    if turn.ended:
        next_final(state)
        return
    assert turn.take is not None
    if not take(state, turn, turn.take, chance):
        game_over(state, turn, SEA_EMPTY)
        return
    state.to_move = (turn.seat + 1) % len(state.players)


def finish_turn(state: State, turn: Turn, chance: Chance) -> None:
    """End the turn played step by step on ``state`` (a scratch copy): action 10's polyps and
    the refill, the next player or the end. Raises Refused if the turn may not end so."""
    _finish(state, turn, chance)


def _semicolons(parts: list[Msg]) -> Msg:
    """Several players' parts of one sentence, separated by semicolons."""
    if len(parts) == 1:
        return parts[0]
    return msg("{first}; {rest}", first=parts[0], rest=_semicolons(parts[1:]))


