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

from dataclasses import dataclass, field, replace
from functools import cache

from pbem.engine.chance import Chance
from pbem.engine.contract import Event
from pbem.engine.errors import IllegalOrder, IllegalOrders, step_in_line
from pbem.games.riff import area, worms
from pbem.games.riff.breeding import colour_fits_a_cross, complete, fits, open_crosses
from pbem.games.riff.components import card_name, cross_colours, known
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
from pbem.games.riff.state import COLUMNS, Coral, State, area_row
from pbem.games.riff.worms import CannotPay, who

COST = (1, 2, 2, 3)  # by distance from the player: near, the two middle rows, far
BOAT_COST = 3
WIN = 5  # completed crosses


class RuleError(ValueError):
    """A line breaks a rule; the message is written for the player."""


@dataclass
class Turn:
    seat: int
    flipped: set[tuple[int, int]] = field(default_factory=set)  # paid turns, this turn
    revealed: bool = False  # a hidden card was turned: later failures are skipped
    # Pearls and sharks bought this turn: kept to play on a later turn.
    fresh_pearls: int = 0
    fresh_sharks: int = 0
    events: list[Event] = field(default_factory=list)

    def say(self, text: str) -> None:
        self.events.append(Event(text))


@cache  # the box's facts never change; asked at every coral bought or tried
def max_corals() -> int:
    return int(known()["max_corals_per_player"])


def max_boats_each() -> int:
    return COLUMNS


def apply_order(state: State, seat: int, order: Order,
                chance: Chance) -> tuple[State, list[Event]]:
    if state.phase == "over":
        raise IllegalOrder("The game is over.")
    new = state.copy()
    turn = Turn(seat)
    if seat != state.to_move:
        for n, step in enumerate(order.steps):
            if not isinstance(step, Prefer):
                raise IllegalOrder(
                    "It is not your turn: only \"prefer\" lines (your worm colours, most "
                    "wanted first) are read from you now.", step=step_in_line(order.lines, n),
                    line=order.lines[n] if n < len(order.lines) else None)
            do_prefer(new, turn, step)
        return new, turn.events
    for text in worms.opponent_pick(new):
        turn.say(text)
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
                note = " (checked without the lines above that break a rule)" if errors else ""
                places = _places_instead(new, turn, step)
                hint = (f"the nearest place{'s' if len(places) > 1 else ''} where this would be "
                        f"legal: {', '.join(places)}" if places else None)
                errors.append(IllegalOrder(f"{err}.{note}", step=step_in_line(order.lines, n),
                                           line=line, hint=hint))
                continue
            turn.say(f"{who(seat)}'s line {line or n + 1} could not be played after the turned "
                     "card, so it was skipped.")
            turn.events.append(Event(f"Why: {err}.", frozenset({seat})))
        if errors and turn.revealed:
            break  # checking on would turn hidden cards for a mail that is sent back
    if errors:
        raise errors[0] if len(errors) == 1 else IllegalOrders(errors)
    end_turn(new, turn, chance)
    return new, turn.events


def _places_instead(state: State, turn: Turn, step: Step) -> list[str]:
    """Up to 3 places of the fishing area nearest the one a failed buy, flip or shark names
    (columns and rows apart, as the status draws them) where that same line would be legal.
    Only places whose legality shows nothing hidden: a buy or a shark on face-up cards, a flip
    on face-down ones (it costs one worm of any colour, whatever the card is)."""
    if not isinstance(step, Buy | Flip | SharkArea):
        return []
    typed = step.place
    places = sorted((Place(c, d) for c in range(COLUMNS) for d in range(len(COST))),
                    key=lambda p: abs(p.column - typed.column) + abs(p.distance - typed.distance))
    found: list[str] = []
    for other in places:
        slot = state.area[area_row(turn.seat, other.distance)][other.column]
        if other == typed or slot is None or slot["up"] == isinstance(step, Flip):
            continue
        trial = Turn(turn.seat, set(turn.flipped), turn.revealed, turn.fresh_pearls,
                     turn.fresh_sharks)
        try:
            do_step(state.copy(), trial, replace(step, place=other), Chance("suggest a place"))
        except (RuleError, CannotPay):
            continue
        found.append(str(other))
        if len(found) == 3:
            break
    return found


def end_turn(state: State, turn: Turn, chance: Chance) -> None:
    """The game ends at a win or the turn limit; else the water flows, the area refills and
    the dice are rolled for the other player."""
    seat = turn.seat
    if state.players[seat].crosses() >= WIN:
        state.phase, state.winner = "over", seat
        state.end_reason = f"{who(seat)} completed {WIN} crosses"
        state.dice, state.taken = [], []
        turn.say(f"{who(seat)} wins with {WIN} completed crosses.")
        return
    for text in area.flow(state, chance) + area.refill(state, chance):
        turn.say(text)
    state.turn += 1
    if state.turn >= int(state.options["turn_limit"]):
        a, b = (p.crosses() for p in state.players)
        state.phase = "over"
        state.winner = None if a == b else (0 if a > b else 1)
        state.end_reason = (f"the turn limit ({state.options['turn_limit']} turns) was "
                            "reached")
        state.dice, state.taken = [], []
        turn.say(f"The turn limit is reached: {state.end_reason}; "
                 + ("a draw." if state.winner is None else
                    f"{who(state.winner)} has more completed crosses and wins."))
        return
    state.to_move = 1 - seat
    for text in worms.roll(state, chance):
        turn.say(text)


def do_step(state: State, turn: Turn, step: Step, chance: Chance) -> None:
    if isinstance(step, Prefer):
        do_prefer(state, turn, step)
    elif isinstance(step, Buy):
        do_buy(state, turn, step, chance)
    elif isinstance(step, Flip):
        do_flip(state, turn, step.place, step.paying, chance)
    elif isinstance(step, Boat):
        do_boat(state, turn, step)
    elif isinstance(step, Attach):
        do_attach(state, turn, step, chance)
    elif isinstance(step, SharkArea):
        do_shark_area(state, turn, step)
    elif isinstance(step, SharkOwn):
        do_shark_own(state, turn, step)
    elif isinstance(step, Pass):
        pass


def do_prefer(state: State, turn: Turn, step: Prefer) -> None:
    state.players[turn.seat].prefer = list(step.colours)
    turn.say(f"{who(turn.seat)} now prefers {', '.join(step.colours)} worms.")


def _slot(state: State, turn: Turn, place: Place, *, need_boat: bool = True) -> dict[str, str]:
    if need_boat and place.column >= state.players[turn.seat].boats:
        raise RuleError(f"{place}: you have no boat in column {place.column + 1} (your boats "
                        f"lie under columns 1-{state.players[turn.seat].boats})")
    slot = state.area[area_row(turn.seat, place.distance)][place.column]
    if slot is None:
        raise RuleError(f"{place}: there is no card there")
    return slot


def do_flip(state: State, turn: Turn, place: Place, paying: tuple[str, ...] | None,
            chance: Chance) -> str:
    if place.distance not in (1, 2):
        raise RuleError(f"{place}: only cards of the two middle rows are face down")
    slot = _slot(state, turn, place)
    if slot["up"]:
        raise RuleError(f"{place}: the card is already face up ({card_name(slot['card'])})")
    worms.pay(state, turn.seat, 1, None, paying, f"turning {place}", turn.fresh_pearls)
    row = area_row(turn.seat, place.distance)
    card = area.reveal(state, row, place.column, chance)
    turn.flipped.add((row, place.column))
    turn.revealed = True
    turn.say(f"{who(turn.seat)} turned {place}: a {card_name(card)}.")
    return card


def do_buy(state: State, turn: Turn, step: Buy, chance: Chance) -> None:
    place = step.place
    slot = _slot(state, turn, place)
    row = area_row(turn.seat, place.distance)
    paying = step.paying
    if not slot["up"]:  # a middle card face down: the first worm turns it
        card = do_flip(state, turn, place, None if paying is None else paying[:1], chance)
        paying = None if paying is None else paying[1:]
    else:
        card = slot["card"]
    if step.condition is not None and not any(d.matches(card) for d in step.condition):
        turn.say(f"{who(turn.seat)} left the {card_name(card)} on {place} (not what the "
                 "order asked for).")
        return
    cost = 1 if (row, place.column) in turn.flipped else COST[place.distance]
    _may_own(state, turn.seat, card, place)
    colour = card.split(":")[1] if card.startswith("fish:") else None
    worms.pay(state, turn.seat, cost, colour, paying, f"the {card_name(card)} on {place}",
              turn.fresh_pearls)
    state.area[row][place.column] = None
    player = state.players[turn.seat]
    if card.startswith("fish:"):
        player.fish.append(card[len("fish:"):])
    elif card == "coral":
        player.corals.append(Coral())
    elif card == "pearl":
        player.pearls += 1
        turn.fresh_pearls += 1
    elif card == "shark":
        player.sharks += 1
        turn.fresh_sharks += 1
    turn.say(f"{who(turn.seat)} bought the {card_name(card)} on {place}"
             + (f" as coral {len(player.corals)}." if card == "coral" else "."))


def _may_own(state: State, seat: int, card: str, place: Place) -> None:
    player = state.players[seat]
    if card == "water":
        raise RuleError(f"{place}: a water card shows nothing to fish")
    if card == "coral":
        count_done = bool(state.options["completed_corals_count_toward_limit"])
        held = sum(1 for c in player.corals if count_done or c.cross is None)
        if held >= max_corals():
            raise RuleError(f"{place}: you hold {max_corals()} corals already, the most "
                            "allowed")
    if (card.startswith("fish:") and not state.options["may_buy_fish_without_a_free_coral"]
            and all(c.cross is not None for c in player.corals)):
        raise RuleError(f"{place}: you need a coral without a completed cross before "
                        "you buy fish (option may_buy_fish_without_a_free_coral)")


def do_boat(state: State, turn: Turn, step: Boat) -> None:
    player = state.players[turn.seat]
    if state.boats_left <= 0:
        raise RuleError("all 15 boats are in play")
    if player.boats >= max_boats_each():
        raise RuleError(f"you have a boat under every one of the {COLUMNS} columns")
    worms.pay(state, turn.seat, BOAT_COST, None, step.paying, "a boat", turn.fresh_pearls)
    state.boats_left -= 1
    player.boats += 1
    turn.say(f"{who(turn.seat)} bought a boat, under column {player.boats}.")


def do_attach(state: State, turn: Turn, step: Attach, chance: Chance) -> None:
    player = state.players[turn.seat]
    if step.coral >= len(player.corals):
        raise RuleError(f"you have no coral {step.coral + 1} (you have "
                        f"{len(player.corals)})")
    coral = player.corals[step.coral]
    if coral.cross is not None:
        raise RuleError(f"coral {step.coral + 1} is used up: it holds a completed cross")
    fish = list(player.fish)
    male, female = coral.male, coral.female
    for colour, sex in step.fish:
        name = f"{colour} {'male' if sex == 'm' else 'female'}"
        if f"{colour}:{sex}" not in fish:
            raise RuleError(f"you have no {name} fish that is not on a coral")
        fish.remove(f"{colour}:{sex}")
        if (male if sex == "m" else female) is not None:
            raise RuleError(f"coral {step.coral + 1} already has a "
                            f"{'male' if sex == 'm' else 'female'}")
        if sex == "m":
            male = colour
        else:
            female = colour
    if not any(fits(male, female, c) for c in open_crosses(state)):
        offer = ", ".join("+".join(cross_colours(c)) for c in open_crosses(state))
        raise RuleError(f"these parents on coral {step.coral + 1} make none of the open "
                        f"crosses ({offer or 'none open'})")
    player.fish = fish
    coral.male, coral.female = male, female
    names = " and ".join(f"{c} {'male' if s == 'm' else 'female'}" for c, s in step.fish)
    turn.say(f"{who(turn.seat)} put the {names} on coral {step.coral + 1}.")
    said = complete(state, turn.seat, step.coral, chance)
    for text in said:
        turn.say(text)
    turn.revealed = turn.revealed or bool(said)  # a hidden breeding card was turned


def _shark_to_play(sharks: int, turn: Turn) -> None:
    if sharks - turn.fresh_sharks < 1:
        raise RuleError("you have no shark to play" + (
            " (a shark bought this turn is played on a later turn)" if sharks else ""))


def do_shark_area(state: State, turn: Turn, step: SharkArea) -> None:
    player = state.players[turn.seat]
    _shark_to_play(player.sharks, turn)
    slot = _slot(state, turn, step.place, need_boat=False)
    if not slot["up"]:
        raise RuleError(f"{step.place}: a shark chases only face-up cards")
    row = area_row(turn.seat, step.place.distance)
    state.area[row][step.place.column] = None
    state.discard += [slot["card"], "shark"]
    player.sharks -= 1
    turn.say(f"{who(turn.seat)}'s shark chased the {card_name(slot['card'])} from "
             f"{step.place}.")


def do_shark_own(state: State, turn: Turn, step: SharkOwn) -> None:
    player = state.players[turn.seat]
    name = f"{step.colour} {'male' if step.sex == 'm' else 'female'}"
    _shark_to_play(player.sharks, turn)
    if colour_fits_a_cross(state, step.colour):
        raise RuleError(f"your {name} fish still fits an open cross; a shark chases only "
                        "your fish whose colour fits none")
    key = f"{step.colour}:{step.sex}"
    if key in player.fish:
        player.fish.remove(key)
    else:
        coral = next((c for c in player.corals if c.cross is None and
                      (c.male if step.sex == "m" else c.female) == step.colour), None)
        if coral is None:
            raise RuleError(f"you have no {name} fish")
        if step.sex == "m":
            coral.male = None
        else:
            coral.female = None
    state.discard += [f"fish:{key}", "shark"]
    player.sharks -= 1
    turn.say(f"{who(turn.seat)}'s shark chased their own {name} fish.")
