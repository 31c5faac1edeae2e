"""One order = one turn: the opponent's worm, the mover's lines (step 2), the water (3),
the refill (4), the dice for the next turn; or, from the seat not to move, only ``prefer``.

A line that breaks a rule rejects the whole mail, except after a hidden card has been turned
in it: from then on a line that cannot be done is skipped and said so, because rejecting the
mail would show the hidden card to its sender for free (RULINGS-ADDENDUM.md).

A rejected mail names every bad line it can without a peek: after the first bad line the
later lines are checked on, without the bad ones (the rest of a bad line is not checked), until
a line would turn a hidden card — a mail that is sent back must show no card turned for it, so
the check stops there. A later line that fails for want of what a bad line would have done (a
fish it would have bought) is still reported, marked as checked without the bad lines; lines
do not otherwise depend on each other before the water flows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from pbem.engine.chance import Chance
from pbem.engine.contract import Event
from pbem.engine.errors import IllegalOrder, IllegalOrders, step_in_line
from pbem.games.riff import area, worms
from pbem.games.riff import terms as w
from pbem.games.riff.breeding import colour_fits_a_cross, complete, fits, open_crosses
from pbem.games.riff.buying import COST, card_slot, do_boat, do_buy, do_flip
from pbem.games.riff.context import QuietTurn, RuleError, Turn
from pbem.games.riff.orders import (
    Attach,
    Boat,
    Buy,
    Flip,
    Order,
    Pass,
    Place,
    Prefer,
    SharkArea,
    SharkOwn,
    Step,
)
from pbem.games.riff.state import COLUMNS, Coral, State
from pbem.games.riff.worms import CannotPay
from pbem.i18n.msg import Msg, msg, nmsg

WIN = 5  # completed crosses


def apply_order(state: State, seat: int, order: Order,
                chance: Chance) -> tuple[State, list[Event]]:
    if state.phase == "over":
        raise IllegalOrder(msg("The game is over."))
    new = state.copy()
    turn = Turn(seat)
    if seat != state.to_move:
        for n, step in enumerate(order.steps):
            if not isinstance(step, Prefer):
                raise IllegalOrder(msg(
                    "It is not your turn: only \"prefer\" lines (your worm colours, most "
                    "wanted first) are read from you now."), step=step_in_line(order.lines, n),
                    line=order.lines[n] if n < len(order.lines) else None)
            do_prefer(new, turn, step, chance)
        return new, turn.events
    turn.tell(worms.opponent_pick(new))
    errors: list[IllegalOrder] = []
    for n, step in enumerate(order.steps):
        line = order.lines[n] if n < len(order.lines) else None
        if errors and (line is None or line == errors[-1].line):
            continue  # the rest of a bad line is not checked; nor anything without lines
        try:  # every step checks before it changes anything (a buy's paid turn stays)
            do_step(new, turn, step, chance)
        except (RuleError, CannotPay) as err:
            if errors and turn.revealed:
                break  # its reason may name the card just turned, in a mail sent back
            if not turn.revealed:
                reason = (msg("{reason}. (checked without the lines above that break a rule)",
                              reason=err.message) if errors
                          else msg("{reason}.", reason=err.message))
                places = _places_instead(new, turn, step)
                hint = (nmsg("the nearest place where this would be legal: {places}",
                             "the nearest places where this would be legal: {places}",
                             len(places), places=places) if places else None)
                errors.append(IllegalOrder(reason, step=step_in_line(order.lines, n),
                                           line=line, hint=hint))
                continue
            turn.say("line_skipped", msg(
                "{player}'s line {line} could not be played after the turned card, so it was "
                "skipped.", player=w.seat(seat), line=line or n + 1))
            turn.events.append(Event.of("line_skipped_why", msg("Why: {reason}.",
                                                                reason=err.message),
                                        frozenset({seat})))
        if errors and turn.revealed:
            break  # checking on would turn hidden cards for a mail that is sent back
    if errors:
        raise errors[0] if len(errors) == 1 else IllegalOrders(errors)
    end_turn(new, turn, chance)
    return new, turn.events


def _places_instead(state: State, turn: Turn, step: Step) -> list[Msg]:
    """Up to 3 places of the fishing area nearest the one a failed buy, flip or shark names
    (columns and rows apart, as the status draws them) where that same line would be legal.
    Only places whose legality shows nothing hidden: a buy or a shark on face-up cards, a flip
    on face-down ones (it costs one worm of any colour, whatever the card is)."""
    if not isinstance(step, Buy | Flip | SharkArea):
        return []
    typed = step.place
    places = sorted((Place(c, d) for c in range(COLUMNS) for d in range(len(COST))),
                    key=lambda p: abs(p.column - typed.column) + abs(p.distance - typed.distance))
    found: list[Msg] = []
    for other in places:
        slot = state.slot_at(turn.seat, other)
        if other == typed or slot is None or slot["up"] == isinstance(step, Flip):
            continue
        trial = QuietTurn(turn.seat, set(turn.flipped), turn.revealed, turn.fresh_pearls,
                          turn.fresh_sharks)
        try:
            do_step(state.copy(), trial, replace(step, place=other), Chance("suggest a place"))
        except (RuleError, CannotPay):
            continue
        found.append(w.place(other))
        if len(found) == 3:
            break
    return found


def end_turn(state: State, turn: Turn, chance: Chance) -> None:
    """The game ends at a win or the turn limit; else the water flows, the area refills and
    the dice are rolled for the other player."""
    seat = turn.seat
    if state.players[seat].crosses() >= WIN:
        state.phase, state.winner = "over", seat
        state.end_reason = str(end_reason(state))
        state.dice, state.taken = [], []
        turn.say("game_won", msg("{player} wins with {n} completed crosses.",
                                 player=w.seat(seat), n=WIN))
        return
    turn.tell(area.flow_and_refill(state, chance))
    state.turn += 1
    if state.turn >= int(state.options["turn_limit"]):
        a, b = (p.crosses() for p in state.players)
        state.phase = "over"
        state.winner = None if a == b else (0 if a > b else 1)
        state.end_reason = str(end_reason(state))
        state.dice, state.taken = [], []
        if state.winner is None:
            turn.say("turn_limit_draw", msg("The turn limit is reached: {reason}; a draw.",
                                            reason=end_reason(state)))
        else:
            turn.say("turn_limit_won", msg(
                "The turn limit is reached: {reason}; {player} has more completed crosses "
                "and wins.", reason=end_reason(state), player=w.seat(state.winner)))
        return
    state.to_move = 1 - seat
    turn.tell(worms.roll(state, chance))


def do_step(state: State, turn: Turn, step: Step, chance: Chance) -> None:
    _STEPS[type(step)](state, turn, step, chance)


def do_prefer(state: State, turn: Turn, step: Prefer, chance: Chance) -> None:
    state.players[turn.seat].prefer = list(step.colours)
    if turn.loud:
        turn.say("preference_set", msg("{player} now prefers {colours} worms.",
                                       player=w.seat(turn.seat), colours=w.colours(step.colours)))


def _fish_attached(seat: int, fish: tuple[tuple[str, str], ...], number: int) -> Event:
    return Event.of("fish_attached", msg("{player} put the {fish} on coral {number}.",
                                         player=w.seat(seat),
                                         fish=w.joined([w.fish(c, s) for c, s in fish]),
                                         number=number))


def do_attach(state: State, turn: Turn, step: Attach, chance: Chance) -> None:
    player = state.players[turn.seat]
    if step.coral >= len(player.corals):
        raise RuleError(msg("you have no coral {number} (you have {n})",
                            number=step.coral + 1, n=len(player.corals)))
    coral = player.corals[step.coral]
    if coral.cross is not None:
        raise RuleError(msg("coral {number} is used up: it holds a completed cross",
                            number=step.coral + 1))
    fish = list(player.fish)
    male, female = coral.male, coral.female
    for colour, sex in step.fish:
        if f"{colour}:{sex}" not in fish:
            raise RuleError(msg("you have no {fish} fish that is not on a coral",
                                fish=w.fish(colour, sex)))
        fish.remove(f"{colour}:{sex}")
        if (male if sex == "m" else female) is not None:
            raise RuleError(msg("coral {number} already has a male", number=step.coral + 1)
                            if sex == "m" else
                            msg("coral {number} already has a female", number=step.coral + 1))
        if sex == "m":
            male = colour
        else:
            female = colour
    for c in state.breeding_open:  # fits an open cross? (a loop: no generator to make)
        if c is not None and fits(male, female, c):
            break
    else:
        offer = [w.cross_card(c) for c in open_crosses(state)]
        raise RuleError(msg("these parents on coral {number} make none of the open crosses "
                            "({offer})", number=step.coral + 1,
                            offer=offer or msg("none open")))
    player.fish = fish
    player.corals[step.coral] = Coral(male, female, coral.cross)
    if turn.loud:
        turn.events.append(_fish_attached(turn.seat, step.fish, step.coral + 1))
    said = complete(state, turn.seat, step.coral, chance, loud=turn.loud)
    if said is not None:  # a cross was completed: a hidden breeding card was turned
        turn.tell(said)
        turn.revealed = True


def _shark_to_play(sharks: int, turn: Turn) -> None:
    if sharks - turn.fresh_sharks < 1:
        raise RuleError(msg("you have no shark to play (a shark bought this turn is played "
                            "on a later turn)") if sharks else msg("you have no shark to play"))


def do_shark_area(state: State, turn: Turn, step: SharkArea, chance: Chance) -> None:
    player = state.players[turn.seat]
    _shark_to_play(player.sharks, turn)
    slot = card_slot(state, turn, step.place, need_boat=False)
    if not slot["up"]:
        raise RuleError(msg("{place}: a shark chases only face-up cards",
                            place=w.place(step.place)))
    state.clear_slot(turn.seat, step.place)
    state.discard += [slot["card"], "shark"]
    player.sharks -= 1
    if turn.loud:
        turn.say("shark_chased_card", msg("{player}'s shark chased the {card} from {place}.",
                                          player=w.seat(turn.seat), card=w.card(slot["card"]),
                                          place=w.place(step.place)))


def do_shark_own(state: State, turn: Turn, step: SharkOwn, chance: Chance) -> None:
    player = state.players[turn.seat]
    name = w.fish(step.colour, step.sex)
    _shark_to_play(player.sharks, turn)
    if colour_fits_a_cross(state, step.colour):
        raise RuleError(msg("your {fish} fish still fits an open cross; a shark chases only "
                            "your fish whose colour fits none", fish=name))
    key = f"{step.colour}:{step.sex}"
    if key in player.fish:
        player.fish.remove(key)
    else:
        at = next((i for i, c in enumerate(player.corals) if c.cross is None and
                   (c.male if step.sex == "m" else c.female) == step.colour), None)
        if at is None:
            raise RuleError(msg("you have no {fish} fish", fish=name))
        coral = player.corals[at]
        player.corals[at] = (Coral(None, coral.female) if step.sex == "m"
                             else Coral(coral.male, None))
    state.discard += [f"fish:{key}", "shark"]
    player.sharks -= 1
    if turn.loud:
        turn.say("shark_chased_own", msg("{player}'s shark chased their own {fish} fish.",
                                         player=w.seat(turn.seat), fish=name))


def end_reason(state: State) -> Msg:
    """Why the game ended, from the state (a win by crosses, or the turn limit)."""
    if state.winner is not None and state.players[state.winner].crosses() >= WIN:
        return msg("{player} completed {n} crosses", player=w.seat(state.winner), n=WIN)
    return msg("the turn limit ({n} turns) was reached", n=state.options["turn_limit"])


def _flip(state: State, turn: Turn, step: Flip, chance: Chance) -> None:
    do_flip(state, turn, step.place, step.paying, chance)


def _pass(state: State, turn: Turn, step: Pass, chance: Chance) -> None:
    """Nothing: a turn of no step."""


_STEPS: dict[type, Callable[[State, Turn, Any, Chance], object]] = {
    Buy: do_buy, Attach: do_attach, Boat: do_boat, Prefer: do_prefer, Flip: _flip,
    SharkArea: do_shark_area, SharkOwn: do_shark_own, Pass: _pass}
"""Each kind of step's rule, by the step's type: every one takes the state, the turn, the step
and the chance (for the cards it may turn), checks and then changes the state."""
