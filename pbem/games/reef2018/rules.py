"""Setup and turns: every rule of the French rulebook (see RULINGS-ADDENDUM.md for the gaps).

Each function takes a state it may not change and returns a new one with the events, or raises
:class:`IllegalOrder` saying which rule the order breaks. A turn is one order (one take or one
play, however many lines it is written on), so there are no independent later lines to check:
the one reason is the whole answer, and an error has no step within a line to count.

The same predicates that refuse an order (:func:`can_take`, :func:`can_pay_deck`,
:func:`cheapest`, :func:`has_room`, :func:`pieces_due`) produce the legal ones at the end of
this module: whole orders (:func:`legal_orders`) or step by step, for the bots to choose from.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from functools import partial

from pbem.engine.chance import Chance
from pbem.engine.contract import Event
from pbem.engine.errors import IllegalOrder
from pbem.games.reef2018 import ledger
from pbem.games.reef2018.cards import (
    CENTRE,
    COLOURS,
    MAX_HEIGHT,
    SIZE,
    SQUARES,
    cards,
    square_name,
)
from pbem.games.reef2018.orders import Order, Play, Start, TakeDeck, TakeMarket
from pbem.games.reef2018.scoring import score_card, score_in_hand
from pbem.games.reef2018.state import Seat, State
from pbem.i18n.msg import Msg, SeatRef, cmsg, msg, nmsg

SUPPLY = {2: 18, 3: 24, 4: 28}  # pieces of each colour in play, by player count
START_TOKENS = 3
HAND_LIMIT = 4
MARKET = 3
OUTSIDE = tuple(s for s in range(SQUARES) if s not in CENTRE)  # the advanced variant's start

Step = tuple[str, int]  # one coral placed: (colour, square)


def colour_word(name: str) -> Msg:
    return cmsg("colour", name)


def colours_and(names: list[str]) -> Msg:
    """'red', 'red and green' (a supply may run out of two colours with one card)."""
    if len(names) == 1:
        return colour_word(names[0])
    return msg("{first} and {last}", first=[colour_word(c) for c in names[:-1]],
               last=colour_word(names[-1]))


def either(cards: list[int], word: str) -> Msg:
    """'14 and 41', '14, 41 or 52': tied cards, listed as each language lists them."""
    first = [str(c) for c in cards[:-1]]
    if word == "and":
        return msg("{first} and {last}", first=first, last=cards[-1])
    return msg("{first} or {last}", first=first, last=cards[-1])


def numbers(cards: list[int]) -> str:
    return ", ".join(str(c) for c in cards)


def setup(players: int, advanced: bool, chance: Chance) -> State:
    """Supplies, 3 one-point tokens, 2 hidden cards each, the starfish board, the market."""
    if players not in SUPPLY:
        raise ValueError("Reef is for 2 to 4 players")
    deck = chance.shuffle("deck", sorted(cards()))
    seats = []
    for _ in range(players):
        seat = Seat()
        seat.add_points(START_TOKENS, ledger.START)
        seat.hand = sorted(deck[:2])
        del deck[:2]
        seats.append(seat)
    start = chance.choice("starfish board", list(range(players)))
    # Each player takes 1 piece of each colour for the starting corals, placed in the setup step.
    supply = {c: SUPPLY[players] - players for c in COLOURS}
    market = deck[:MARKET]
    del deck[:MARKET]
    return State(players, supply, deck, market, [0] * MARKET, seats, start_player=start,
                 to_move=start, advanced=advanced)


def apply_order(state: State, seat: int, order: Order) -> tuple[State, list[Event]]:
    if state.phase == "over":
        raise IllegalOrder(msg("the game is over"))
    if state.phase == "setup":
        if not isinstance(order, Start):
            raise IllegalOrder(msg("first place your 4 starting corals, e.g. {example}",
                                   example=_start_example(state.advanced)))
        return _start(state, seat, order)
    if isinstance(order, Start):
        raise IllegalOrder(msg("the starting corals are already placed"))
    if seat != state.to_move:
        raise IllegalOrder(msg("it is {player}'s turn, not yours",
                               player=SeatRef(state.to_move)))
    new = state.copy(only_seat=seat)
    if isinstance(order, TakeMarket):
        events = _take_market(new, seat, order.card)
    elif isinstance(order, TakeDeck):
        events = _take_deck(new, seat, order.token_on)
    else:
        events = _play(new, seat, order)
    new.turn += 1
    events += _next(new, seat)
    return new, events


def _start_example(advanced: bool) -> Msg:
    if advanced:
        return cmsg("order example", "start: red A1, yellow D1, green A4, purple D4")
    return cmsg("order example", "start: red B2, yellow C2, green B3, purple C3")


def _start(state: State, seat: int, order: Start) -> tuple[State, list[Event]]:
    if state.seats[seat].answered_setup:
        raise IllegalOrder(msg("you have already placed your starting corals"))
    colours = sorted(c for c, _ in order.pieces)
    if colours != sorted(COLOURS):
        raise IllegalOrder(msg("the 4 starting corals are one of each colour: {colours} (you "
                               "named {named})", colours=[colour_word(c) for c in COLOURS],
                               named=[colour_word(c) for c, _ in order.pieces]))
    squares = [s for _, s in order.pieces]
    if state.advanced:
        inside = [square_name(s) for s in squares if s in CENTRE]
        if inside:
            raise IllegalOrder(msg("in the advanced variant no starting coral goes on the 4 "
                                   "central squares (B2, C2, B3, C3): {squares}",
                                   squares=", ".join(inside)))
    elif sorted(squares) != list(CENTRE):
        raise IllegalOrder(msg("the starting corals go one on each of the 4 central squares "
                               "B2, C2, B3, C3"))
    new = state.copy(only_seat=seat)
    mine = new.seats[seat]
    for colour, square in order.pieces:
        mine.place(square, colour)
    mine.answered_setup = True
    placed = [msg("{colour} {square}", colour=colour_word(c), square=square_name(s))
              for c, s in order.pieces]
    events = [Event.of("start_placed", msg("You placed your starting corals: {pieces}.",
                                           pieces=placed), frozenset({seat}))]
    if all(s.answered_setup for s in new.seats):
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
    return len(state.seats[seat].hand) < HAND_LIMIT


def can_pay_deck(state: State, seat: int) -> bool:
    """Whether the seat has the one-point token the deck's top card costs."""
    return state.seats[seat].score >= 1


def cheapest(state: State) -> list[int]:
    """The market cards the deck's token may go on (the lowest printed value), in order."""
    lowest = min(cards()[c].points for c in state.market)
    return [c for c in state.market if cards()[c].points == lowest]


def _check_hand_room(state: State, seat: int) -> None:
    if not can_take(state, seat):
        raise IllegalOrder(msg("you already hold {n} cards, the limit: play a card instead",
                               n=HAND_LIMIT))


def _take_market(state: State, seat: int, card: int) -> list[Event]:
    _check_hand_room(state, seat)
    if card not in state.market:
        raise IllegalOrder(msg("card {card} is not in the market; it holds {cards}",
                               card=card, cards=numbers(state.market)))
    slot = state.market.index(card)
    mine = state.seats[seat]
    tokens = state.market_tokens[slot]
    mine.hand.append(card)
    new_card = state.deck.pop(0)
    fields = {"player": SeatRef(seat), "card": card, "new": new_card}
    if tokens:
        mine.add_points(tokens, ledger.tokens_on(tokens, card))
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


def _take_deck(state: State, seat: int, token_on: int | None) -> list[Event]:
    _check_hand_room(state, seat)
    mine = state.seats[seat]
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
    card = state.deck.pop(0)
    mine.hand.append(card)
    mine.add_points(-1, ledger.token_onto(token_on))
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
    for stack in state.seats[seat].reef:
        room += MAX_HEIGHT - len(stack)
        if room >= len(due):
            return due
    return due[:room]


def _play(state: State, seat: int, order: Play) -> list[Event]:
    mine = state.seats[seat]
    if order.card not in mine.hand:
        raise IllegalOrder(msg("card {card} is not in your hand; you hold {cards}",
                               card=order.card, cards=numbers(mine.hand)) if mine.hand else
                           msg("card {card} is not in your hand; you hold no card (take a "
                               "card first)", card=order.card))
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
        mine.add_points(scored.points, ledger.card_scored(order.card, scored.times,
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
        reason = ledger.DECK_OUT
    elif state.last_round and seat == state.last_in_round():
        reason = ledger.SUPPLY_OUT
    if not reason:
        state.to_move = (seat + 1) % state.players
        return []
    state.phase = "over"
    state.end_reason = reason
    state.seats = [s.copy() for s in state.seats]  # every seat's hand now scores
    events = [Event.of("game_ends", msg(
        "The game ends: {reason}. Cards still in hand score their pattern once.",
        reason=ledger.end_reason(reason)))]
    for i, s in enumerate(state.seats):
        for card in sorted(s.hand):
            points = score_in_hand(s.reef, card)
            if points:
                s.add_points(points, ledger.in_hand(card))
            events.append(Event.of("hand_scored", nmsg(
                "{player}'s card {card} in hand: {n} point.",
                "{player}'s card {card} in hand: {n} points.", points, player=SeatRef(i),
                card=card) if points else msg(
                "{player}'s card {card} in hand: its pattern is not there.", player=SeatRef(i),
                card=card)))
    return events


# --- the legal orders, as these rules produce them ---------------------------------------------
# Bots choose among these; tests/games/reef2018/test_legal.py checks that apply accepts each
# one and that every order apply accepts has the outcome of one of them.

def start_steps(state: State, seat: int, placed: Sequence[Step]) -> list[Step]:
    """The legal next starting corals after ``placed``: a colour not yet placed, on an outside
    square (advanced variant) or on a central square still empty (basic)."""
    if (state.phase != "setup" or state.seats[seat].answered_setup
            or len(placed) >= len(COLOURS)):
        return []
    named = {c for c, _ in placed}
    taken = {s for _, s in placed}
    squares = OUTSIDE if state.advanced else tuple(s for s in CENTRE if s not in taken)
    return [(c, s) for c in COLOURS if c not in named for s in squares]


def legal_takes(state: State, seat: int) -> list[TakeMarket | TakeDeck]:
    """Action A as the seat may take it now: each market card, and the deck's top card with
    the token on each cheapest market card (if the seat can pay)."""
    if state.phase != "play" or seat != state.to_move or not can_take(state, seat):
        return []
    takes: list[TakeMarket | TakeDeck] = [TakeMarket(card) for card in state.market]
    if can_pay_deck(state, seat):
        takes += [TakeDeck(card) for card in cheapest(state)]
    return takes


def playable(state: State, seat: int) -> list[int]:
    """The cards the seat may play now (action B): its whole hand, on its turn."""
    if state.phase != "play" or seat != state.to_move:
        return []
    return list(state.seats[seat].hand)


def piece_steps(state: State, seat: int, card: int, placed: Sequence[Step]) -> list[Step]:
    """The legal next corals of ``card`` after ``placed``: a piece the card gives now not yet
    placed, on any stack with room (counting the pieces placed before it)."""
    left = pieces_due(state, seat, card)
    for colour, _ in placed:
        left.remove(colour)
    heights = [len(stack) for stack in state.seats[seat].reef]
    for _, square in placed:
        heights[square] += 1
    free = [sq for sq, height in enumerate(heights) if has_room(height)]
    return [(colour, sq) for colour in dict.fromkeys(left) for sq in free]


def legal_orders(state: State, seat: int) -> Iterator[Order]:
    """Every legal order of ``seat`` now, one per distinct outcome (orders placing the same
    pieces on the same stacks in the same order count once): the starting corals in the setup
    step, else the takes and then each card in hand with each way to place its corals."""
    if state.phase == "setup":
        if start_steps(state, seat, ()):
            for pieces in _sequences(lambda placed: start_steps(state, seat, placed)):
                yield Start(pieces)
        return
    yield from legal_takes(state, seat)
    for card in playable(state, seat):
        for pieces in _sequences(partial(piece_steps, state, seat, card)):
            yield Play(card, pieces)


def _sequences(steps: Callable[[tuple[Step, ...]], list[Step]],
               placed: tuple[Step, ...] = ()) -> Iterator[tuple[Step, ...]]:
    """Every whole sequence of steps, squares in rising order: pieces on different squares
    may go in any order to the same outcome, so each outcome is made once."""
    after = steps(placed)
    if not after:
        yield placed
        return
    lowest = placed[-1][1] if placed else 0
    for step in after:
        if step[1] >= lowest:
            yield from _sequences(steps, (*placed, step))
