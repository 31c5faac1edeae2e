"""Each kind of step of a turn: its check (refuses, changes nothing) and its effect (once
checked), and the turn-structure rules they share (rules.py has the order of the rules)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pbem.engine.chance import Chance
from pbem.games.reef_encounter.algae import all_covered, check_alga, play_alga
from pbem.games.reef_encounter.board import Refused
from pbem.games.reef_encounter.context import Turn, seat_ref, who
from pbem.games.reef_encounter.ending import (
    ALL_COVERED,
    ROCK_FULL,
    all_shrimps_eaten,
    end_early,
    game_over,
    rock_full,
)
from pbem.games.reef_encounter.opensea import check_take
from pbem.games.reef_encounter.orders import (
    Alga,
    ConsumedForLarva,
    Eat,
    Larva,
    LarvaForPolyp,
    MoveShrimp,
    NewShrimp,
    Pass,
    Place,
    SetupAnswer,
    Step,
    Take,
)
from pbem.games.reef_encounter.parrotfish import check_eat, eat, eats_shrimps
from pbem.games.reef_encounter.placement import check_place, put_polyp
from pbem.games.reef_encounter.shrimps import (
    check_move_shrimp,
    check_new_shrimp,
    move_shrimp,
    new_shrimp,
)
from pbem.games.reef_encounter.state import State
from pbem.games.reef_encounter.supply import add, remove, take_from_bag, to_bag, use_bonus
from pbem.games.reef_encounter.terms import colour as hue
from pbem.games.reef_encounter.terms import colours, vowel
from pbem.i18n.msg import Msg, cmsg, msg

MAX_FROM_SCREEN = 4
SHRIMPS = 4
ENDED = msg("the game ended earlier in this turn; nothing more may be done")
FINAL_ONLY = msg("in your final turn the only action is action 1: eat a coral (or pass)")


class OutOfPlace(Refused):
    """A step out of the turn's structure around larva actions: when the later lines are
    checked without a bad one, this may come from the leaving out, so the check stops."""


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


def larva_closed(turn: Turn) -> None:
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
        end_early(state, turn, all_shrimps_eaten(state, turn.seat))


def _check_larva(state: State, turn: Turn, step: Larva) -> int:
    """Refuse a larva cube; return its action (2, or 3 if 2 was done)."""
    larva_closed(turn)
    done = turn.done
    action = 2 if 2 not in done else 3
    if 3 in done:
        raise Refused(msg("you have already played two larva cubes this turn (actions 2 "
                          "and 3)"))
    _may_act(turn, action)
    seat = state.players[turn.seat]
    if seat.larva.get(step.colour, 0) < 1:
        raise Refused(_no_larva(seat.larva, step.colour))
    return action


def _larva(state: State, turn: Turn, step: Larva, action: int) -> None:
    _begin(turn, action)
    colour = step.colour
    remove(state.players[turn.seat].larva, colour)
    add(state.larva_supply, colour)
    turn.larva_action, turn.larva_colour = action, colour
    turn.from_screen = turn.placed = 0
    turn.say("larva_played", _larva_played(state, turn.seat, step, action))


def _check_new_shrimp(state: State, turn: Turn, step: NewShrimp) -> None:
    larva_closed(turn)
    _may_act(turn, 4)
    check_new_shrimp(state, turn.seat, step.cell.key)


def _new_shrimp(state: State, turn: Turn, step: NewShrimp, checked: None) -> None:
    _begin(turn, 4)
    new_shrimp(state, turn, step.cell.key)


def _check_consumed_for_larva(state: State, turn: Turn, step: ConsumedForLarva) -> None:
    larva_closed(turn)
    _may_act(turn, 6)
    if state.players[turn.seat].consumed.get(step.colour, 0) < 1:
        raise Refused(msg("you have no consumed {colour} polyp in front of your screen",
                          colour=hue(step.colour)))
    if state.larva_supply.get(step.colour, 0) < 1:
        raise Refused(msg("no {colour} larva cube is left in the supply",
                          colour=hue(step.colour)))


def _consumed_for_larva(state: State, turn: Turn, step: ConsumedForLarva, checked: None
                        ) -> None:
    _begin(turn, 6)
    seat = state.players[turn.seat]
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
    larva_closed(turn)
    _may_act(turn, 7)
    check_alga(state, turn, step.colour, step.tile, step.paid)


def _alga(state: State, turn: Turn, step: Alga, checked: None) -> None:
    _begin(turn, 7)
    play_alga(state, turn, step.colour, step.tile, step.paid)
    if all_covered(state):
        end_early(state, turn, ALL_COVERED)


def _check_larva_for_polyp(state: State, turn: Turn, step: LarvaForPolyp) -> None:
    larva_closed(turn)
    _may_act(turn, 8)
    if state.players[turn.seat].larva.get(step.colour, 0) < 1:
        raise Refused(_no_larva(state.players[turn.seat].larva, step.colour))
    if state.bag.get(step.colour, 0) < 1 and state.bonus.get(step.colour, 0) < 1:
        raise Refused(msg("no {colour} polyp is left in the bag", colour=hue(step.colour)))


def _larva_for_polyp(state: State, turn: Turn, step: LarvaForPolyp, checked: None) -> None:
    _begin(turn, 8)
    seat = state.players[turn.seat]
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
    larva_closed(turn)
    _may_act(turn, 9)


def _pass(state: State, turn: Turn, step: Pass, checked: None) -> None:
    _begin(turn, 9)


def _check_setup_step(state: State, turn: Turn, step: SetupAnswer) -> None:
    raise Refused(msg("the setup step is over"))


def _check_take(state: State, turn: Turn, step: Take) -> None:
    larva_closed(turn)
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
    seat = state.players[turn.seat]
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
    seat = state.players[turn.seat]
    if step.consumed:
        remove(seat.consumed, colour)
    else:
        remove(seat.screen, colour)
        turn.from_screen += 1
    turn.placed += 1
    # End condition 3 holds from this placement on: the game stops at once.
    if rock_full(state):
        turn.ended = True
        game_over(state, turn, ROCK_FULL)


def _no_larva(larvae: dict[str, int], colour: str) -> Msg:
    """In the status's words: larva cubes are public, listed for every player."""
    have = [c for c, n in sorted(larvae.items()) for _ in range(n)]
    if not have:
        return msg("you have no {colour} larva cube (your larva cubes, as your status lists "
                   "them: none)", colour=hue(colour))
    return msg("you have no {colour} larva cube (your larva cubes, as your status lists them: "
               "{have})", colour=hue(colour), have=colours(have))


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
