"""Setup and turns: every rule of the French rulebook (see RULINGS-ADDENDUM.md for the gaps).

Each function takes a state it may not change and returns a new one with the events, or raises
:class:`IllegalOrder` saying which rule the order breaks. A turn is one order (one take or one
play, however many lines it is written on), so there are no independent later lines to check:
the one reason is the whole answer, and an error has no step within a line to count.
"""

from __future__ import annotations

from collections import Counter

from pbem.engine.chance import Chance
from pbem.engine.contract import Event
from pbem.engine.errors import IllegalOrder
from pbem.games.reef2018.cards import CENTRE, COLOURS, MAX_HEIGHT, SIZE, cards, square_name
from pbem.games.reef2018.orders import Order, Play, Start, TakeDeck, TakeMarket
from pbem.games.reef2018.scoring import score_card, score_in_hand
from pbem.games.reef2018.state import Seat, State

SUPPLY = {2: 18, 3: 24, 4: 28}  # pieces of each colour in play, by player count
START_TOKENS = 3
HAND_LIMIT = 4
MARKET = 3


def player(seat: int) -> str:
    return f"Player {seat + 1}"


def setup(players: int, advanced: bool, chance: Chance) -> State:
    """Supplies, 3 one-point tokens, 2 hidden cards each, the starfish board, the market."""
    if players not in SUPPLY:
        raise ValueError("Reef is for 2 to 4 players")
    deck = chance.shuffle("deck", sorted(cards()))
    seats = []
    for _ in range(players):
        seat = Seat()
        seat.add_points(START_TOKENS, "3 one-point tokens at the start")
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
        raise IllegalOrder("the game is over")
    if state.phase == "setup":
        if not isinstance(order, Start):
            raise IllegalOrder("first place your 4 starting corals, e.g. "
                               + _start_example(state.advanced))
        return _start(state, seat, order)
    if isinstance(order, Start):
        raise IllegalOrder("the starting corals are already placed")
    if seat != state.to_move:
        raise IllegalOrder(f"it is {player(state.to_move)}'s turn, not yours")
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


def _start_example(advanced: bool) -> str:
    if advanced:
        return "start: red A1, yellow D1, green A4, purple D4"
    return "start: red B2, yellow C2, green B3, purple C3"


def _start(state: State, seat: int, order: Start) -> tuple[State, list[Event]]:
    if state.seats[seat].answered_setup:
        raise IllegalOrder("you have already placed your starting corals")
    colours = sorted(c for c, _ in order.pieces)
    if colours != sorted(COLOURS):
        raise IllegalOrder("the 4 starting corals are one of each colour: red, yellow, green, "
                           f"purple (you named {', '.join(c for c, _ in order.pieces)})")
    squares = [s for _, s in order.pieces]
    if state.advanced:
        inside = [square_name(s) for s in squares if s in CENTRE]
        if inside:
            raise IllegalOrder(f"in the advanced variant no starting coral goes on the 4 "
                               f"central squares (B2, C2, B3, C3): {', '.join(inside)}")
    elif sorted(squares) != list(CENTRE):
        raise IllegalOrder("the starting corals go one on each of the 4 central squares "
                           "B2, C2, B3, C3")
    new = state.copy(only_seat=seat)
    mine = new.seats[seat]
    for colour, square in order.pieces:
        mine.reef[square].append(colour)
    mine.answered_setup = True
    placed = ", ".join(f"{c} {square_name(s)}" for c, s in order.pieces)
    events = [Event(f"You placed your starting corals: {placed}.", frozenset({seat}))]
    if all(s.answered_setup for s in new.seats):
        new.phase = "play"
        new.to_move = new.start_player
        events.append(Event(f"Every reef is started. {player(new.start_player)} has the "
                            "starfish board and plays first."))
    return new, events


def _cheapest(state: State) -> list[int]:
    lowest = min(cards()[c].points for c in state.market)
    return [c for c in state.market if cards()[c].points == lowest]


def _check_hand_room(state: State, seat: int) -> None:
    if len(state.seats[seat].hand) >= HAND_LIMIT:
        raise IllegalOrder(f"you already hold {HAND_LIMIT} cards, the limit: play a card instead")


def _take_market(state: State, seat: int, card: int) -> list[Event]:
    _check_hand_room(state, seat)
    if card not in state.market:
        raise IllegalOrder(f"card {card} is not in the market; it holds "
                           + ", ".join(str(c) for c in state.market))
    slot = state.market.index(card)
    mine = state.seats[seat]
    tokens = state.market_tokens[slot]
    mine.hand.append(card)
    text = f"{player(seat)} took card {card} from the market"
    if tokens:
        mine.add_points(tokens, f"{tokens} token{'s' if tokens > 1 else ''} on card {card}")
        text += f" with the {tokens} point{'s' if tokens > 1 else ''} on it"
    new_card = state.deck.pop(0)
    state.market[slot] = new_card
    state.market_tokens[slot] = 0
    return [Event(f"{text}; card {new_card} from the deck takes its place.")]


def _take_deck(state: State, seat: int, token_on: int | None) -> list[Event]:
    _check_hand_room(state, seat)
    mine = state.seats[seat]
    if mine.score < 1:
        raise IllegalOrder("taking the deck's top card costs a one-point token and you have "
                           "none: take a market card or play a card")
    cheapest = _cheapest(state)
    if token_on is None:
        if len(cheapest) > 1:
            raise IllegalOrder("cards " + " and ".join(str(c) for c in cheapest) + " tie as the "
                               "cheapest in the market: say which gets your token, e.g. "
                               f"take deck, token on {cheapest[0]}")
        token_on = cheapest[0]
    elif token_on not in state.market:
        raise IllegalOrder(f"card {token_on} is not in the market")
    elif token_on not in cheapest:
        raise IllegalOrder(f"your token goes on the market card with the lowest printed value: "
                           f"{' or '.join(str(c) for c in cheapest)}, not {token_on}")
    card = state.deck.pop(0)
    mine.hand.append(card)
    mine.add_points(-1, f"a token onto card {token_on} for the deck's top card")
    state.market_tokens[state.market.index(token_on)] += 1
    return [Event(f"{player(seat)} took card {card} from the top of the deck, paying a "
                  f"one-point token onto card {token_on}.")]


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
        raise IllegalOrder(f"card {order.card} is not in your hand; you hold "
                           + (", ".join(str(c) for c in mine.hand) or "no card")
                           + (" (take a card first)" if not mine.hand else ""))
    card = cards()[order.card]
    due = pieces_due(state, seat, order.card)
    placed = _colours_for(order, due, card.corals)
    heights = []
    for colour, square in placed:
        stack = mine.reef[square]
        if len(stack) >= MAX_HEIGHT:
            raise IllegalOrder(f"the stack on {square_name(square)} is already {MAX_HEIGHT} "
                               "high: no piece may go on it", hint=_room_near(mine.reef, square))
        stack.append(colour)
        heights.append(len(stack))
        state.supply[colour] -= 1
    mine.hand.remove(order.card)
    mine.played.append(order.card)
    where = ", ".join(f"{c} on {square_name(s)} ({h} high)"
                      for (c, s), h in zip(placed, heights, strict=True))
    events = [Event(f"{player(seat)} played card {order.card}: {where}." if placed else
                    f"{player(seat)} played card {order.card} but no coral was left to place.")]
    if len(due) < 2:
        short = Counter(card.corals) - Counter(due)
        events.append(Event(f"{_count(short)} could not be taken (short supply or a full "
                            "reef)."))
    scored = score_card(mine.reef, order.card)
    if scored.points:
        mine.add_points(scored.points, f"card {order.card}: {scored.times} × {card.points}")
        events.append(Event(f"{player(seat)} scores {scored.points} for card {order.card} "
                            f"({scored.times} × {card.points}, {scored.where})."))
    else:
        events.append(Event(f"Card {order.card}'s pattern is not on {player(seat)}'s reef: "
                            "no points."))
    empty = [c for c in COLOURS if state.supply[c] == 0]
    if empty and not state.last_round:
        state.last_round = True
        events.append(Event(f"The {' and '.join(empty)} supply is used up: the game ends at "
                            "the end of this round."))
    return events


def _room_near(reef: list[list[str]], square: int) -> str | None:
    """The (at most 3) squares nearest ``square`` that still take a piece, after the pieces
    this order placed before: where that piece would be legal."""
    def far(other: int) -> int:
        return abs(other % SIZE - square % SIZE) + abs(other // SIZE - square // SIZE)
    free = sorted((sq for sq, stack in enumerate(reef) if len(stack) < MAX_HEIGHT), key=far)[:3]
    if not free:
        return None
    return (f"the nearest square{'s' if len(free) > 1 else ''} where it would be legal: "
            + ", ".join(square_name(sq) for sq in free))


def _count(colours: Counter[str]) -> str:
    return ", ".join(f"{n} {c}" for c, n in sorted(colours.items())).capitalize()


def _colours_for(order: Play, due: list[str], printed: tuple[str, str]
                 ) -> list[tuple[str, int]]:
    """Give each named square its coral: named colours must be due, unnamed ones take the
    remaining due pieces in printed order."""
    if len(order.pieces) != len(due):
        if len(due) < 2:
            what = (f"only {len(due)} of its corals can be placed ({', '.join(due)})" if due
                    else "none of its corals can be placed")
            raise IllegalOrder(f"card {order.card} gives {printed[0]} and {printed[1]} but "
                               f"{what}: name {len(due)} square{'s' if len(due) != 1 else ''}")
        raise IllegalOrder(f"card {order.card} gives two corals ({printed[0]} and "
                           f"{printed[1]}): name a square for each")
    left = list(due)
    for colour, _ in order.pieces:
        if colour is not None:
            if colour not in left:
                raise IllegalOrder(f"card {order.card} gives {printed[0]} and {printed[1]}, "
                                   + (f"not {colour}" if colour not in printed else
                                      f"and the {colour} is named twice or not in the supply"))
            left.remove(colour)
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
        reason = "the deck ran out"
    elif state.last_round and seat == state.last_in_round():
        reason = "a coral supply ran out and the round is over"
    if not reason:
        state.to_move = (seat + 1) % state.players
        return []
    state.phase = "over"
    state.end_reason = reason
    state.seats = [s.copy() for s in state.seats]  # every seat's hand now scores
    events = [Event(f"The game ends: {reason}. Cards still in hand score their pattern once.")]
    for i, s in enumerate(state.seats):
        for card in sorted(s.hand):
            points = score_in_hand(s.reef, card)
            if points:
                s.add_points(points, f"card {card} in hand at the end")
            events.append(Event(f"{player(i)}'s card {card} in hand: "
                                + (f"{points} points." if points else "its pattern is not there.")))
    return events
