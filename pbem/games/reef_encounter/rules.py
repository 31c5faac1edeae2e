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
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from pbem.engine.chance import Chance
from pbem.engine.contract import Event
from pbem.engine.errors import IllegalOrder, IllegalOrders, step_in_line
from pbem.games.reef_encounter.algae import all_covered, check_alga, play_alga
from pbem.games.reef_encounter.board import (
    Refused,
    key,
    name,
    rock_cells,
)
from pbem.games.reef_encounter.context import Turn, seat_ref, who
from pbem.games.reef_encounter.nearest import nearest
from pbem.games.reef_encounter.opensea import check_take, take
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
from pbem.games.reef_encounter.parrotfish import check_eat, eat, eats_shrimps
from pbem.games.reef_encounter.parse import format_step
from pbem.games.reef_encounter.placement import check_place, put_polyp
from pbem.games.reef_encounter.setup_answer import apply_setup_answer
from pbem.games.reef_encounter.shrimps import (
    check_move_shrimp,
    check_new_shrimp,
    move_shrimp,
    new_shrimp,
    shrimps_on_bare_rock,
)
from pbem.games.reef_encounter.state import State
from pbem.games.reef_encounter.supply import add, remove, take_from_bag, to_bag, use_bonus
from pbem.games.reef_encounter.terms import colour as hue
from pbem.games.reef_encounter.terms import colours, vowel
from pbem.i18n.msg import Msg, cmsg, msg, nmsg

MAX_FROM_SCREEN = 4
SHRIMPS = 4
SETUP_EXAMPLE = cmsg("order example", "parrotfish pink; larvae white yellow")
# Why a game ends (the state keeps the English text; view.end_message turns it back into data).
ALL_COVERED = msg("all ten coral tiles are covered by algae")
ROCK_FULL = msg("no polyp can be placed anywhere: every rock space is taken")
SEA_EMPTY = msg("the open sea cannot be refilled (not enough polyps or larva cubes)")
ENDED = msg("the game ended earlier in this turn; nothing more may be done")
FINAL_ONLY = msg("in your final turn the only action is action 1: eat a coral (or pass)")
STEP = msg("step {n} ({step}): {why}")
LATER_STEP = msg("step {n} ({step}): {why} (checked without the steps above that break a rule)")
# A polyp a larva line places ("larva white: 2F3"): the player wrote one step, not two.
PLACING = msg("the polyp on {cell}: {why}")
LATER_PLACING = msg("the polyp on {cell}: {why} (checked without the steps above that break a "
                    "rule)")
MAX_ERRORS = 12  # as many bad lines as a reply lists
SUGGESTED = 3  # at most this many cells suggested for a bad cell


class OutOfPlace(Refused):
    """A step out of the turn's structure around larva actions: when the later lines are
    checked without a bad one, this may come from the leaving out, so the check stops."""


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
                 for i, s in enumerate(new.seats)]
        events.append(Event.of("setup_done", msg("Everyone has answered. Larva cubes taken — "
                                                 "{cubes}.", cubes=_semicolons(cubes))))
        events.append(Event.of("game_begins", msg("The game begins: {player} plays first.",
                                                  player=who(new, new.to_move),
                                                  seat=seat_ref(new.to_move))))
    return new, events


def _may_act(turn: Turn, action: int) -> None:
    """Refuse an action that is out of place (turn-structure rules other than action 5)."""
    if turn.ended:
        raise Refused(ENDED)
    if turn.final and action not in (1, 9):
        raise Refused(FINAL_ONLY)
    if action in (1, 2, 3, 4, 10) and action in turn.done:
        once = {1: msg("you may eat with the parrotfish (action 1) only once per turn"),
                4: msg("you may put in a new shrimp (action 4) only once per turn"),
                10: msg("you may take from the open sea (action 10) only once per turn")}
        raise Refused(once.get(action) or msg("you may do that only once per turn"))


def _larva_closed(turn: Turn) -> None:
    """Refuse to end the open larva action (if one is open) before it placed a polyp."""
    if turn.larva_action is not None and turn.placed == 0:
        raise OutOfPlace(msg("the {colour} larva cube of action {action} must be followed by at "
                             "least one polyp placement before any other action",
                             colour=hue(turn.larva_colour), action=turn.larva_action))


def _begin(turn: Turn, action: int) -> None:
    """A new action (not action 5) begins: the open larva action is over."""
    turn.larva_action = None
    turn.done.add(action)


def check_step(state: State, turn: Turn, step: Step) -> Any:
    """Refuse ``step`` after the turn's steps so far, changing nothing; what the check found
    is what :func:`do_step` needs (the colour a placement eats)."""
    if turn.take is not None:
        raise Refused(msg("action 10 (take) ends the turn; nothing may follow it"))
    check = _CHECKS.get(type(step))
    if check is None:
        raise AssertionError(step)
    return check(state, turn, step)


def do_step(state: State, turn: Turn, step: Step, chance: Chance) -> None:
    """Apply one step to ``state`` (a scratch copy) or raise Refused. Action 10 only marks the
    turn's end: its polyps and the refill come when the turn is finished (finish_turn)."""
    checked = check_step(state, turn, step)
    _EFFECTS[type(step)](state, turn, step, checked)
    turn.steps += 1


def _check_move_shrimp(state: State, turn: Turn, step: MoveShrimp) -> None:
    if turn.ended or turn.final:
        _may_act(turn, 5)
    check_move_shrimp(state, turn.seat, step.source.key,
                      None if step.target is None else step.target.key)


def _move_shrimp(state: State, turn: Turn, step: MoveShrimp, checked: None) -> None:
    move_shrimp(state, turn, step.source.key, None if step.target is None else step.target.key)


def _check_eat(state: State, turn: Turn, step: Eat) -> None:
    if turn.steps > 0:
        raise Refused(msg("action 1 (the parrotfish eats) may only be the first action of a "
                          "turn"))
    _may_act(turn, 1)
    check_eat(state, turn.seat, step.cell.key)


def _eat(state: State, turn: Turn, step: Eat, checked: None) -> None:
    _begin(turn, 1)
    eat(state, turn, step.cell.key)
    if not turn.final and eats_shrimps(state, turn.seat) == SHRIMPS:
        _end(state, turn, all_shrimps_eaten(state, turn.seat))


def _check_larva(state: State, turn: Turn, step: Larva) -> int:
    """Refuse a larva cube; return its action (2, or 3 if 2 was done)."""
    _larva_closed(turn)
    done = turn.done
    action = 2 if 2 not in done else 3
    if 3 in done:
        raise Refused(msg("you have already played two larva cubes this turn (actions 2 "
                          "and 3)"))
    _may_act(turn, action)
    seat = state.seats[turn.seat]
    if seat.larva.get(step.colour, 0) < 1:
        raise Refused(_no_larva(seat.larva, step.colour))
    return action


def _larva(state: State, turn: Turn, step: Larva, action: int) -> None:
    _begin(turn, action)
    colour = step.colour
    remove(state.seats[turn.seat].larva, colour)
    add(state.larva_supply, colour)
    turn.larva_action, turn.larva_colour = action, colour
    turn.from_screen = turn.placed = 0
    turn.say("larva_played", _larva_played(state, turn.seat, step, action))


def _check_new_shrimp(state: State, turn: Turn, step: NewShrimp) -> None:
    _larva_closed(turn)
    _may_act(turn, 4)
    check_new_shrimp(state, turn.seat, step.cell.key)


def _new_shrimp(state: State, turn: Turn, step: NewShrimp, checked: None) -> None:
    _begin(turn, 4)
    new_shrimp(state, turn, step.cell.key)


def _check_consumed_for_larva(state: State, turn: Turn, step: ConsumedForLarva) -> None:
    _larva_closed(turn)
    _may_act(turn, 6)
    if state.seats[turn.seat].consumed.get(step.colour, 0) < 1:
        raise Refused(msg("you have no consumed {colour} polyp in front of your screen",
                          colour=hue(step.colour)))
    if state.larva_supply.get(step.colour, 0) < 1:
        raise Refused(msg("no {colour} larva cube is left in the supply",
                          colour=hue(step.colour)))


def _consumed_for_larva(state: State, turn: Turn, step: ConsumedForLarva, checked: None
                        ) -> None:
    _begin(turn, 6)
    seat = state.seats[turn.seat]
    remove(seat.consumed, step.colour)
    to_bag(state, step.colour)
    remove(state.larva_supply, step.colour)
    add(seat.larva, step.colour)
    f = {"player": who(state, turn.seat), "seat": seat_ref(turn.seat),
         "colour": hue(step.colour)}
    turn.say("consumed_for_larva",
             msg("{player} traded a consumed {colour} polyp for an {colour} larva cube.", **f)
             if vowel(step.colour) else
             msg("{player} traded a consumed {colour} polyp for a {colour} larva cube.", **f))


def _check_alga(state: State, turn: Turn, step: Alga) -> None:
    _larva_closed(turn)
    _may_act(turn, 7)
    check_alga(state, turn, step.colour, step.tile, step.paid)


def _alga(state: State, turn: Turn, step: Alga, checked: None) -> None:
    _begin(turn, 7)
    play_alga(state, turn, step.colour, step.tile, step.paid)
    if all_covered(state):
        _end(state, turn, ALL_COVERED)


def _check_larva_for_polyp(state: State, turn: Turn, step: LarvaForPolyp) -> None:
    _larva_closed(turn)
    _may_act(turn, 8)
    if state.seats[turn.seat].larva.get(step.colour, 0) < 1:
        raise Refused(_no_larva(state.seats[turn.seat].larva, step.colour))
    if state.bag.get(step.colour, 0) < 1 and state.bonus.get(step.colour, 0) < 1:
        raise Refused(msg("no {colour} polyp is left in the bag", colour=hue(step.colour)))


def _larva_for_polyp(state: State, turn: Turn, step: LarvaForPolyp, checked: None) -> None:
    _begin(turn, 8)
    seat = state.seats[turn.seat]
    if state.bag.get(step.colour, 0) > 0:
        take_from_bag(state, step.colour)
    else:
        use_bonus(state, step.colour)
    remove(seat.larva, step.colour)
    add(state.larva_supply, step.colour)
    add(seat.screen, step.colour)
    f = {"player": who(state, turn.seat), "seat": seat_ref(turn.seat),
         "colour": hue(step.colour)}
    turn.say("larva_for_polyp",
             msg("{player} traded an {colour} larva cube for an {colour} polyp.", **f)
             if vowel(step.colour) else
             msg("{player} traded a {colour} larva cube for a {colour} polyp.", **f))


def _check_pass(state: State, turn: Turn, step: Pass) -> None:
    _larva_closed(turn)
    _may_act(turn, 9)


def _pass(state: State, turn: Turn, step: Pass, checked: None) -> None:
    _begin(turn, 9)


def _check_setup_step(state: State, turn: Turn, step: SetupAnswer) -> None:
    raise Refused(msg("the setup step is over"))


def _check_take(state: State, turn: Turn, step: Take) -> None:
    _larva_closed(turn)
    _may_act(turn, 10)
    check_take(state, step.colour)


def _take(state: State, turn: Turn, step: Take, checked: None) -> None:
    _begin(turn, 10)
    turn.take = step.colour


def _larva_played(state: State, seat: int, step: Larva, action: int) -> Msg:
    f = {"player": who(state, seat), "seat": seat_ref(seat), "colour": hue(step.colour),
         "action": action}
    return (msg("{player} played an {colour} larva cube (action {action}).", **f)
            if vowel(step.colour) else
            msg("{player} played a {colour} larva cube (action {action}).", **f))


def _check_place(state: State, turn: Turn, step: Place) -> str | None:
    """Refuse a placement; return the colour it eats (None: growth on bare rock)."""
    if turn.ended:
        raise Refused(ENDED)
    if turn.larva_action is None:
        if turn.final:
            raise Refused(FINAL_ONLY)
        if 2 in turn.done:
            raise OutOfPlace(msg("polyps are placed right after their larva cube; another "
                                 "action came in between (only shrimp moves may)"))
        raise OutOfPlace(msg("play a larva cube first, e.g. \"{example}\"",
                             example=cmsg("order example", "larva white: 2F3")))
    colour = turn.larva_colour
    seat = state.seats[turn.seat]
    if step.consumed:
        if seat.consumed.get(colour, 0) < 1:
            raise Refused(msg("you have no consumed {colour} polyp in front of your screen",
                              colour=hue(colour)))
    else:
        if turn.from_screen >= MAX_FROM_SCREEN:
            raise Refused(msg("at most four polyps from behind the screen per larva cube (write "
                              "\"{consumed}\" before cells for polyps from in front of it)",
                              consumed=cmsg("order example", "consumed")))
        if seat.screen.get(colour, 0) < 1:
            raise Refused(msg("you have no {colour} polyp left behind your screen",
                              colour=hue(colour)))
    return check_place(state, turn.seat, step.cell.key, colour)


def _place(state: State, turn: Turn, step: Place, target: str | None) -> None:
    """The polyp, its growth and attack, the source, the counts, the end."""
    colour = turn.larva_colour
    put_polyp(state, turn, step.cell.key, colour, target)
    seat = state.seats[turn.seat]
    if step.consumed:
        remove(seat.consumed, colour)
    else:
        remove(seat.screen, colour)
        turn.from_screen += 1
    turn.placed += 1
    # End condition 3 holds from this placement on: the game stops at once.
    if _rock_full(state):
        turn.ended = True
        _over(state, turn, ROCK_FULL)


def _rock_full(state: State) -> bool:
    """Every rock cell of the boards in play holds a polyp."""
    return all(k in state.polyps for b in state.boards for k in rock_cells()[b])


def _end(state: State, turn: Turn, reason: Msg) -> None:
    """End condition 1 or 2: the game ends at once; the others get a final turn each."""
    turn.ended = True
    state.end_reason = str(reason)
    n = state.players
    state.final_turns = [(turn.seat + i) % n for i in range(1, n)]
    turn.say("game_ends", msg("The game ends: {reason}. Every other player has one final turn, "
                              "in which the only action is action 1 (the parrotfish eats).",
                              reason=reason))


def check_finish(state: State, turn: Turn) -> None:
    """Refuse to end the turn after its steps so far, changing nothing."""
    _larva_closed(turn)
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
            state.seats[turn.seat].shrimps_in_hand += 1
    state.turn += 1
    if turn.final:
        state.final_turns.pop(0)
        turn.say("final_turn_played", msg("{player} has played their final turn.",
                                          player=who(state, turn.seat), seat=seat_ref(turn.seat)))
        _next_final(state)
        if state.phase == "over":
            turn.say("game_over", msg("The game is over: every final turn has been played."))
        return
    if turn.ended:
        _next_final(state)
        return
    assert turn.take is not None
    if not take(state, turn, turn.take, chance):
        _over(state, turn, SEA_EMPTY)
        return
    state.to_move = (turn.seat + 1) % state.players


def finish_turn(state: State, turn: Turn, chance: Chance) -> None:
    """End the turn played step by step on ``state`` (a scratch copy): action 10's polyps and
    the refill, the next player or the end. Raises Refused if the turn may not end so."""
    _finish(state, turn, chance)


def _next_final(state: State) -> None:
    if state.final_turns:
        state.phase = "final"
        state.to_move = state.final_turns[0]
    else:
        state.phase = "over"


def all_shrimps_eaten(state: State, seat: int) -> Msg:
    """End condition 2, naming the player whose parrotfish ate its fourth shrimp."""
    return msg("{player}'s parrotfish has eaten all four of {player}'s shrimps",
               player=who(state, seat), seat=seat_ref(seat))


def end_message(state: State) -> Msg | None:
    """Why the game ended, as a message (the state keeps its English text)."""
    if not state.end_reason:
        return None
    for reason in (ALL_COVERED, ROCK_FULL, SEA_EMPTY):
        if state.end_reason == str(reason):
            return reason
    for seat in range(len(state.seats)):
        if state.end_reason == str(all_shrimps_eaten(state, seat)):
            return all_shrimps_eaten(state, seat)
    return msg(state.end_reason)  # an older English text: shown as stored


def _over(state: State, turn: Turn, reason: Msg) -> None:
    state.phase = "over"
    state.end_reason = str(reason)
    state.final_turns = []
    turn.say("game_ends", msg("The game ends: {reason}.", reason=reason))


def _no_larva(larvae: dict[str, int], colour: str) -> Msg:
    """In the status's words: larva cubes are public, listed for every player."""
    have = [c for c, n in sorted(larvae.items()) for _ in range(n)]
    if not have:
        return msg("you have no {colour} larva cube (your larva cubes, as your status lists "
                   "them: none)", colour=hue(colour))
    return msg("you have no {colour} larva cube (your larva cubes, as your status lists them: "
               "{have})", colour=hue(colour), have=colours(have))


def _semicolons(parts: list[Msg]) -> Msg:
    """Several players' parts of one sentence, separated by semicolons."""
    if len(parts) == 1:
        return parts[0]
    return msg("{first}; {rest}", first=parts[0], rest=_semicolons(parts[1:]))


# Each kind of step's check (refuses, changes nothing) and effect (once checked).
_CHECKS: dict[type, Callable[[State, Turn, Any], Any]] = {
    Place: _check_place, Larva: _check_larva, MoveShrimp: _check_move_shrimp,
    NewShrimp: _check_new_shrimp, Eat: _check_eat, LarvaForPolyp: _check_larva_for_polyp,
    ConsumedForLarva: _check_consumed_for_larva, Alga: _check_alga, Pass: _check_pass,
    SetupAnswer: _check_setup_step, Take: _check_take,
}
_EFFECTS: dict[type, Callable[[State, Turn, Any, Any], None]] = {
    Place: _place, Larva: _larva, MoveShrimp: _move_shrimp, NewShrimp: _new_shrimp, Eat: _eat,
    LarvaForPolyp: _larva_for_polyp, ConsumedForLarva: _consumed_for_larva, Alga: _alga,
    Pass: _pass, Take: _take,
}
