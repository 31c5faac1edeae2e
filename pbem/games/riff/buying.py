"""Buying: a card of the fishing area (turned first if it lies face down, or only turned) and a
boat, each for the worms it costs; which card a place names, and whether the seat's boats
reach it."""

from __future__ import annotations

from pbem.engine.chance import Chance
from pbem.engine.contract import Event
from pbem.games.riff import area, worms
from pbem.games.riff import terms as w
from pbem.games.riff.components import known
from pbem.games.riff.context import RuleError, Turn
from pbem.games.riff.orders import Boat, Buy, Place
from pbem.games.riff.state import COLUMNS, ROW_OF, Coral, State
from pbem.i18n.msg import msg

COST = (1, 2, 2, 3)  # by distance from the player: near, the two middle rows, far


BOAT_COST = 3


def max_corals() -> int:
    return int(known()["max_corals_per_player"])


def max_boats_each() -> int:
    return COLUMNS


def card_slot(state: State, turn: Turn, place: Place, *, need_boat: bool = True) -> dict[str, str]:
    if need_boat and place.column >= state.players[turn.seat].boats:
        boats = state.players[turn.seat].boats
        if boats == 1:
            raise RuleError(msg("{place}: you have no boat in column {column} (your only boat "
                                "lies under column 1)", place=w.place(place),
                                column=place.column + 1))
        raise RuleError(msg("{place}: you have no boat in column {column} (your boats lie "
                            "under columns 1-{boats})", place=w.place(place),
                            column=place.column + 1, boats=boats))
    slot = state.slot_at(turn.seat, place)
    if slot is None:
        raise RuleError(msg("{place}: there is no card there", place=w.place(place)))
    return slot


def do_flip(state: State, turn: Turn, place: Place, paying: tuple[str, ...] | None,
            chance: Chance) -> str:
    _check_middle_row(place)
    slot = card_slot(state, turn, place)
    if slot["up"]:
        raise RuleError(msg("{place}: the card is already face up ({card})",
                            place=w.place(place), card=w.card(slot["card"])))
    return _turn_over(state, turn, place, paying, chance)


def _check_middle_row(place: Place) -> None:
    """Only the two middle rows hold face-down cards to turn."""
    if place.distance not in (1, 2):
        raise RuleError(msg("{place}: only cards of the two middle rows are face down",
                            place=w.place(place)))


def _turn_over(state: State, turn: Turn, place: Place, paying: tuple[str, ...] | None,
               chance: Chance) -> str:
    """Pay one worm and turn the face-down card on ``place`` (checked by the caller)."""
    worms.pay(state, turn.seat, 1, None, paying,
              lambda: msg("turning {place}", place=w.place(place)), turn.fresh_pearls)
    row = ROW_OF[turn.seat][place.distance]
    card = area.reveal(state, row, place.column, chance)
    turn.flipped.add((row, place.column))
    turn.revealed = True
    if turn.loud:
        turn.events.append(_card_turned(turn.seat, place.column, place.distance, card))
    return card


def _card_turned(seat: int, column: int, distance: int, card: str) -> Event:
    return Event.of("card_turned", msg("{player} turned {place}: a {card}.", player=w.seat(seat),
                                       place=w.place(Place(column, distance)),
                                       card=w.card(card)))


def _card_bought(seat: int, card: str, column: int, distance: int, coral: int) -> Event:
    """``coral``: the number of the coral bought (0 for any other card)."""
    place = Place(column, distance)
    if coral:
        return Event.of("card_bought", msg(
            "{player} bought the {card} on {place} as coral {number}.", player=w.seat(seat),
            card=w.card(card), place=w.place(place), number=coral))
    return Event.of("card_bought", msg("{player} bought the {card} on {place}.",
                                       player=w.seat(seat), card=w.card(card),
                                       place=w.place(place)))


def do_buy(state: State, turn: Turn, step: Buy, chance: Chance) -> str | None:
    """Buy the card on the step's place; returns it, or None if the step's condition left it.
    Every check is made before anything changes, except that a face-down card is turned
    (and its worm paid) before the checks of what it shows."""
    place = step.place
    slot = card_slot(state, turn, place)
    row = ROW_OF[turn.seat][place.distance]
    paying = step.paying
    if not slot["up"]:  # a middle card face down: the first worm turns it
        _check_middle_row(place)  # do_flip's one check not passed already
        card = _turn_over(state, turn, place, None if paying is None else paying[:1], chance)
        paying = None if paying is None else paying[1:]
    else:
        card = slot["card"]
    if step.condition is not None and not any(d.matches(card) for d in step.condition):
        if turn.loud:
            turn.say("card_left", msg("{player} left the {card} on {place} (not what the order "
                                      "asked for).", player=w.seat(turn.seat), card=w.card(card),
                                      place=w.place(place)))
        return None
    cost = 1 if (row, place.column) in turn.flipped else COST[place.distance]
    _may_own(state, turn.seat, card, place)
    colour = fish_colour(card)
    worms.pay(state, turn.seat, cost, colour, paying,
              lambda: msg("the {card} on {place}", card=w.card(card), place=w.place(place)),
              turn.fresh_pearls)
    take_card(state, turn, place, card, colour)
    return card


def take_card(state: State, turn: Turn, place: Place, card: str, colour: str | None) -> None:
    """The mover takes the (paid) ``card`` from ``place``; ``colour``: a fish's colour."""
    state.clear_slot(turn.seat, place)
    player = state.players[turn.seat]
    if colour is not None:
        player.fish.append(card[5:])  # "fish:red:m" -> "red:m"
    elif card == "coral":
        player.corals.append(Coral())
    elif card == "pearl":
        player.pearls += 1
        turn.fresh_pearls += 1
    elif card == "shark":
        player.sharks += 1
        turn.fresh_sharks += 1
    if turn.loud:
        turn.events.append(_card_bought(turn.seat, card, place.column, place.distance,
                                        len(player.corals) if card == "coral" else 0))


def fish_colour(card: str) -> str | None:
    """The colour of a fish card ("fish:red:m" -> "red"), None for any other card."""
    return card.split(":")[1] if card.startswith("fish:") else None


def _may_own(state: State, seat: int, card: str, place: Place) -> None:
    refusal = refusal_to_own(state, seat, card)
    if refusal == "water":
        raise RuleError(msg("{place}: a water card shows nothing to fish", place=w.place(place)))
    if refusal == "corals":
        raise RuleError(msg("{place}: you hold {n} corals already, the most allowed",
                            place=w.place(place), n=max_corals()))
    if refusal == "free_coral":
        raise RuleError(msg("{place}: you need a coral without a completed cross before you "
                            "buy fish (option may_buy_fish_without_a_free_coral)",
                            place=w.place(place)))


def refusal_to_own(state: State, seat: int, card: str) -> str | None:
    """Why ``seat`` may not take ``card`` (a paid buy aside): "water", "corals" (the most
    allowed) or "free_coral" (a fish wants one, by option); None if it may."""
    corals = state.players[seat].corals
    if card == "water":
        return "water"
    if card == "coral":
        held = (len(corals) if state.options["completed_corals_count_toward_limit"]
                else [c.cross for c in corals].count(None))
        if held >= max_corals():
            return "corals"
    elif (card.startswith("fish:") and not state.options["may_buy_fish_without_a_free_coral"]
            and None not in [c.cross for c in corals]):  # no free coral
        return "free_coral"
    return None


def do_boat(state: State, turn: Turn, step: Boat, chance: Chance) -> None:
    player = state.players[turn.seat]
    if state.boats_left <= 0:
        raise RuleError(msg("all 15 boats are in play"))
    if player.boats >= max_boats_each():
        raise RuleError(msg("you have a boat under every one of the {n} columns", n=COLUMNS))
    worms.pay(state, turn.seat, BOAT_COST, None, step.paying, lambda: msg("a boat"),
              turn.fresh_pearls)
    state.boats_left -= 1
    player.boats += 1
    if turn.loud:
        turn.events.append(_boat_bought(turn.seat, player.boats))


def _boat_bought(seat: int, column: int) -> Event:
    return Event.of("boat_bought", msg("{player} bought a boat, under column {column}.",
                                       player=w.seat(seat), column=column))
