"""Turns: every rule of the French rulebook (see RULINGS-ADDENDUM.md for the gaps).

Each function takes a state it may not change and returns a new one with the events, or raises
:class:`IllegalOrder` saying which rule the order breaks. A turn is one order (one take or one
play, however many lines it is written on), so there are no independent later lines to check:
the one reason is the whole answer, and an error has no step within a line to count.

Every rule is a check of its own (:func:`check_turn`, :func:`start_colour_fits`,
:func:`start_square_fits`, :func:`check_take_market`, :func:`deck_token`,
:func:`check_in_hand`, :func:`pieces_due`, :func:`has_room`): the order's effects call them,
and legal.py keeps the candidate steps they accept, so each rule is written once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from pbem.engine.chance import Chance
from pbem.engine.contract import Event
from pbem.engine.errors import IllegalOrder
from pbem.games.reef2018 import terms
from pbem.games.reef2018.cards import CENTRE, COLOURS, MAX_HEIGHT, SIZE, cards, square_name
from pbem.games.reef2018.orders import Order, Play, Start, TakeDeck, TakeMarket
from pbem.games.reef2018.scoring import score_card, score_in_hand
from pbem.games.reef2018.state import State
from pbem.games.reef2018.terms import colour as colour_word
from pbem.games.reef2018.terms import colours_and, either, numbers
from pbem.i18n.msg import Msg, SeatRef, cmsg, msg, nmsg

HAND_LIMIT = 4

Step = tuple[str, int]  # one coral placed: (colour, square)


def apply_order(state: State, seat: int, order: Order, chance: Chance
                ) -> tuple[State, list[Event]]:
    """The state after ``seat``'s order, and what happened; raises IllegalOrder, never
    half-done. ``chance`` draws nothing here: the deck was shuffled at the setup, and a turn
    takes its cards from the top."""
    check_turn(state, seat, order)
    if isinstance(order, Start):
        return _start(state, seat, order)
    new = state.copy(only_seat=seat)
    events = _ACTIONS[type(order)](new, seat, order)
    new.turn += 1
    events += _next(new, seat)
    return new, events


def _start_example(advanced: bool) -> Msg:
    if advanced:
        return cmsg("order example", "start: red A1, yellow D1, green A4, purple D4")
    return cmsg("order example", "start: red B2, yellow C2, green B3, purple C3")


def check_turn(state: State, seat: int, order: Order) -> None:
    """Refuse an order of this kind from ``seat`` now: the game's phase and whose turn it is."""
    if state.phase == "over":
        raise IllegalOrder(msg("the game is over"))
    if state.phase == "setup":
        if not isinstance(order, Start):
            raise IllegalOrder(msg("first place your 4 starting corals, e.g. {example}",
                                   example=_start_example(state.advanced)))
        if state.players[seat].answered_setup:
            raise IllegalOrder(msg("you have already placed your starting corals"))
        return
    if isinstance(order, Start):
        raise IllegalOrder(msg("the starting corals are already placed"))
    if seat != state.to_move:
        raise IllegalOrder(msg("it is {player}'s turn, not yours",
                               player=SeatRef(state.to_move)))


def start_colour_fits(placed: Sequence[Step], colour: str) -> bool:
    """Whether a starting coral of ``colour`` may follow ``placed``: one of each colour."""
    return colour in COLOURS and all(c != colour for c, _ in placed)


def start_square_fits(state: State, placed: Sequence[Step], square: int) -> bool:
    """Whether a starting coral may go on ``square`` after ``placed``: outside the 4 central
    squares in the advanced variant, else one on each central square."""
    if state.advanced:
        return square not in CENTRE
    return square in CENTRE and all(s != square for _, s in placed)


def _start(state: State, seat: int, order: Start) -> tuple[State, list[Event]]:
    pieces = order.pieces
    if len(pieces) != len(COLOURS) or not all(
            start_colour_fits(pieces[:i], c) for i, (c, _) in enumerate(pieces)):
        raise IllegalOrder(msg("the 4 starting corals are one of each colour: {colours} (you "
                               "named {named})", colours=[colour_word(c) for c in COLOURS],
                               named=[colour_word(c) for c, _ in pieces]))
    astray = [square_name(s) for i, (_, s) in enumerate(pieces)
              if not start_square_fits(state, pieces[:i], s)]
    if astray and state.advanced:
        raise IllegalOrder(msg("in the advanced variant no starting coral goes on the 4 "
                               "central squares (B2, C2, B3, C3): {squares}",
                               squares=", ".join(astray)))
    if astray:
        raise IllegalOrder(msg("the starting corals go one on each of the 4 central squares "
                               "B2, C2, B3, C3"))
    new = state.copy(only_seat=seat)
    mine = new.players[seat]
    for colour, square in order.pieces:
        mine.place(square, colour)
    mine.answered_setup = True
    placed = [msg("{colour} {square}", colour=colour_word(c), square=square_name(s))
              for c, s in order.pieces]
    events = [Event.of("start_placed", msg("You placed your starting corals: {pieces}.",
                                           pieces=placed), frozenset({seat}))]
    if all(s.answered_setup for s in new.players):
        new.phase = "play"
        new.to_move = new.start_player
        events.append(Event.of("reefs_started", msg(
            "Every reef is started. {player} has the starfish board and plays first.",
            player=SeatRef(new.start_player))))
    return new, events


def has_room(height: int) -> bool:
    """Whether a stack this high takes another piece."""
    return height < MAX_HEIGHT


def can_take(state: State, seat: int) -> bool:
    """Whether the seat's hand has room for a card (action A)."""
    return len(state.players[seat].hand) < HAND_LIMIT


def can_pay_deck(state: State, seat: int) -> bool:
    """Whether the seat has the one-point token the deck's top card costs."""
    return state.players[seat].score >= 1


def cheapest(state: State) -> list[int]:
    """The market cards the deck's token may go on (the lowest printed value), in order."""
    lowest = min(cards()[c].points for c in state.market)
    return [c for c in state.market if cards()[c].points == lowest]


def _check_hand_room(state: State, seat: int) -> None:
    if not can_take(state, seat):
        raise IllegalOrder(msg("you already hold {n} cards, the limit: play a card instead",
                               n=HAND_LIMIT))


def check_take_market(state: State, seat: int, card: int) -> None:
    """Refuse taking ``card`` from the market (action A): a full hand, a card not there."""
    _check_hand_room(state, seat)
    if card not in state.market:
        raise IllegalOrder(msg("card {card} is not in the market; it holds {cards}",
                               card=card, cards=numbers(state.market)))


def _take_market(state: State, seat: int, order: TakeMarket) -> list[Event]:
    card = order.card
    check_take_market(state, seat, card)
    slot = state.market.index(card)
    mine = state.players[seat]
    tokens = state.market_tokens[slot]
    mine.hand.append(card)
    new_card = state.deck.pop(0)
    fields = {"player": SeatRef(seat), "card": card, "new": new_card}
    if tokens:
        mine.add_points(tokens, terms.tokens_on(tokens, card))
        said = nmsg("{player} took card {card} from the market with the {n} point on it; "
                    "card {new} from the deck takes its place.",
                    "{player} took card {card} from the market with the {n} points on it; "
                    "card {new} from the deck takes its place.", tokens, **fields)
    else:
        said = msg("{player} took card {card} from the market; card {new} from the deck "
                   "takes its place.", **fields)
    state.market[slot] = new_card
    state.market_tokens[slot] = 0
    return [Event.of("card_taken", said)]


def deck_token(state: State, seat: int, token_on: int | None) -> int:
    """The market card the token for the deck's top card goes on (action A), or refuse the
    take: a full hand, no token to pay, a card that is not the cheapest (or several tie and
    ``token_on`` is None)."""
    _check_hand_room(state, seat)
    if not can_pay_deck(state, seat):
        raise IllegalOrder(msg("taking the deck's top card costs a one-point token and you "
                               "have none: take a market card or play a card"))
    lowest = cheapest(state)
    if token_on is None:
        if len(lowest) > 1:
            raise IllegalOrder(msg(
                "cards {cards} tie as the cheapest in the market: say which gets your token, "
                "e.g. {example}", cards=either(lowest, "and"),
                example=cmsg("order example", "take deck, token on {card}", card=lowest[0])))
        token_on = lowest[0]
    elif token_on not in state.market:
        raise IllegalOrder(msg("card {card} is not in the market", card=token_on))
    elif token_on not in lowest:
        raise IllegalOrder(msg("your token goes on the market card with the lowest printed "
                               "value: {cards}, not {card}",
                               cards=either(lowest, "or"), card=token_on))
    return token_on


def _take_deck(state: State, seat: int, order: TakeDeck) -> list[Event]:
    token_on = deck_token(state, seat, order.token_on)
    mine = state.players[seat]
    card = state.deck.pop(0)
    mine.hand.append(card)
    mine.add_points(-1, terms.token_onto(token_on))
    state.market_tokens[state.market.index(token_on)] += 1
    return [Event.of("deck_taken", msg(
        "{player} took card {card} from the top of the deck, paying a one-point token onto "
        "card {token_on}.", player=SeatRef(seat), card=card, token_on=token_on))]


def pieces_due(state: State, seat: int, card: int) -> list[str]:
    """The corals a card gives now: the printed two, less what the supply lacks, at most as
    many as the reef still has room for."""
    left = dict(state.supply)
    due = []
    for colour in cards()[card].corals:
        if left[colour] > 0:
            left[colour] -= 1
            due.append(colour)
    room = 0
    for stack in state.players[seat].reef:
        room += MAX_HEIGHT - len(stack)
        if room >= len(due):
            return due
    return due[:room]


def check_in_hand(state: State, seat: int, card: int) -> None:
    """Refuse playing ``card`` (action B) from a hand that does not hold it."""
    hand = state.players[seat].hand
    if card not in hand:
        raise IllegalOrder(msg("card {card} is not in your hand; you hold {cards}",
                               card=card, cards=numbers(hand)) if hand else
                           msg("card {card} is not in your hand; you hold no card (take a "
                               "card first)", card=card))


def _play(state: State, seat: int, order: Play) -> list[Event]:
    mine = state.players[seat]
    check_in_hand(state, seat, order.card)
    card = cards()[order.card]
    due = pieces_due(state, seat, order.card)
    placed = _colours_for(order, due, card.corals)
    heights = []
    for colour, square in placed:
        if not has_room(len(mine.reef[square])):
            raise IllegalOrder(msg("the stack on {square} is already {n} high: no piece may "
                                   "go on it", square=square_name(square), n=MAX_HEIGHT),
                               hint=_room_near(mine.reef, square))
        heights.append(mine.place(square, colour))
        state.supply[colour] -= 1
    mine.hand.remove(order.card)
    mine.played.append(order.card)
    who = SeatRef(seat)
    where = [_placed(c, s, h) for (c, s), h in zip(placed, heights, strict=True)]
    events = [Event.of("card_played", msg("{player} played card {card}: {placements}.",
                                          player=who, card=order.card, placements=where)
                       if placed else
                       msg("{player} played card {card} but no coral was left to place.",
                           player=who, card=order.card))]
    if len(due) < 2:
        short = Counter(card.corals) - Counter(due)
        events.append(Event.of("corals_short", msg(
            "{corals} could not be taken (short supply or a full reef).",
            corals=[msg("{n} {colour}", n=n, colour=colour_word(c))
                    for c, n in sorted(short.items())])))
    scored = score_card(mine.reef, order.card)
    if scored.points:
        mine.add_points(scored.points, terms.card_scored(order.card, scored.times,
                                                           card.points))
        events.append(Event.of("card_scored", msg(
            "{player} scores {points} for card {card} ({times} × {value}, {where}).",
            player=who, points=scored.points, card=order.card, times=scored.times,
            value=card.points, where=scored.where)))
    else:
        events.append(Event.of("card_not_scored", _not_scored(order.card, seat)))
    if not state.last_round and 0 in state.supply.values():
        empty = [c for c in COLOURS if state.supply[c] == 0]
        state.last_round = True
        events.append(Event.of("supply_out", msg(
            "The {colours} supply is used up: the game ends at the end of this round.",
            colours=colours_and(empty))))
    return events


def _placed(colour: str, square: int, height: int) -> Msg:
    return msg("{colour} on {square} ({height} high)", colour=colour_word(colour),
               square=square_name(square), height=height)


def _not_scored(card: int, seat: int) -> Msg:
    return msg("Card {card}'s pattern is not on {player}'s reef: no points.", card=card,
               player=SeatRef(seat))


def _room_near(reef: list[list[str]], square: int) -> Msg | None:
    """The (at most 3) squares nearest ``square`` that still take a piece, after the pieces
    this order placed before: where that piece would be legal."""
    def far(other: int) -> int:
        return abs(other % SIZE - square % SIZE) + abs(other // SIZE - square // SIZE)
    free = sorted((sq for sq, stack in enumerate(reef) if has_room(len(stack))), key=far)[:3]
    if not free:
        return None
    return nmsg("the nearest square where it would be legal: {squares}",
                "the nearest squares where it would be legal: {squares}", len(free),
                squares=[square_name(sq) for sq in free])


def _colours_for(order: Play, due: list[str], printed: tuple[str, str]
                 ) -> list[tuple[str, int]]:
    """Give each named square its coral: named colours must be due, unnamed ones take the
    remaining due pieces in printed order."""
    if len(order.pieces) != len(due):
        if len(due) < 2:
            gives = {"card": order.card, "first": colour_word(printed[0]),
                     "second": colour_word(printed[1])}
            if due:
                raise IllegalOrder(nmsg(
                    "card {card} gives {first} and {second} but only {n} of its corals can be "
                    "placed ({due}): name {n} square",
                    "card {card} gives {first} and {second} but only {n} of its corals can be "
                    "placed ({due}): name {n} squares", len(due),
                    due=[colour_word(c) for c in due], **gives))
            raise IllegalOrder(msg("card {card} gives {first} and {second} but none of its "
                                   "corals can be placed: name 0 squares", **gives))
        raise IllegalOrder(msg("card {card} gives two corals ({first} and {second}): name a "
                               "square for each", card=order.card, first=colour_word(printed[0]),
                               second=colour_word(printed[1])))
    left = list(due)
    for named, _ in order.pieces:
        if named is not None:
            if named not in left:
                gives = {"card": order.card, "first": colour_word(printed[0]),
                         "second": colour_word(printed[1]), "named": colour_word(named)}
                raise IllegalOrder(
                    msg("card {card} gives {first} and {second}, not {named}", **gives)
                    if named not in printed else
                    msg("card {card} gives {first} and {second}, and the {named} is named "
                        "twice or not in the supply", **gives))
            left.remove(named)
    out = []
    for colour, square in order.pieces:
        if colour is None:
            colour = left.pop(0)
        out.append((colour, square))
    return out


def _next(state: State, seat: int) -> list[Event]:
    """After a turn: the game ends (deck out at once; supply out at the round's end) or the
    next player to the left moves."""
    reason = ""
    if not state.deck:
        reason = terms.DECK_OUT
    elif state.last_round and seat == state.last_in_round():
        reason = terms.SUPPLY_OUT
    if not reason:
        state.to_move = (seat + 1) % len(state.players)
        return []
    state.phase = "over"
    state.end_reason = reason
    state.players = [s.copy() for s in state.players]  # every seat's hand now scores
    events = [Event.of("game_ends", msg(
        "The game ends: {reason}. Cards still in hand score their pattern once.",
        reason=terms.end_reason(reason)))]
    for i, s in enumerate(state.players):
        for card in sorted(s.hand):
            points = score_in_hand(s.reef, card)
            if points:
                s.add_points(points, terms.in_hand(card))
            events.append(Event.of("hand_scored", nmsg(
                "{player}'s card {card} in hand: {n} point.",
                "{player}'s card {card} in hand: {n} points.", points, player=SeatRef(i),
                card=card) if points else msg(
                "{player}'s card {card} in hand: its pattern is not there.", player=SeatRef(i),
                card=card)))
    return events


_ACTIONS: dict[type, Callable[[State, int, Any], list[Event]]] = {
    TakeMarket: _take_market, TakeDeck: _take_deck, Play: _play}
"""Each action of a turn (A: a take, B: a play) by the kind of order; the setup step's
starting corals are :func:`_start`'s."""
