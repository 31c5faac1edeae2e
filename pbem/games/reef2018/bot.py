"""Reef's computer players, choosing among the legal orders the rules produce (rules.py).

``random_order`` (tests, the demo, fuzzing) walks the rules' legal steps at random.
``bot_order`` is the strategy: it sees a :func:`redeal` of the game (other hands and the deck
below its face-up top drawn afresh from the cards its seat has not seen) and weighs every
legal order by what it leaves the seat: its points, plus for each card it would still hold
the points that card's pattern is worth on its reef now (with some credit for half-built
patterns), discounted as not yet scored. Playing a card scores it at once; taking one adds its
worth (and any tokens on it). ``strong`` then looks one of its own turns further for the best
few orders, on fresh redeals (about four times the thinking).

Measured (bench/bots.py and a like loop, 2 cores shared): normal won every game against random
seats (42 at 2 players, 42 at 3, 56 at 4), 18-21 ms CPU per decision at p50, 65-71 ms at p95;
strong beat normal in 41 of 60 two-player games at about 63 ms mean, 230 ms p95.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from pbem.games.reef2018.cards import CENTRE, COLOURS, cards, checks
from pbem.games.reef2018.orders import Order, Play, Start, TakeDeck, TakeMarket
from pbem.games.reef2018.parse import format_order
from pbem.games.reef2018.rules import (
    Step,
    apply_order,
    legal_orders,
    legal_takes,
    piece_steps,
    playable,
    start_steps,
)
from pbem.games.reef2018.scoring import times_on
from pbem.games.reef2018.state import Seat, State


def random_order(state: State, seat: int, rng: random.Random) -> str:
    """Any legal order: a take about half the time the hand allows one (the deck now and then),
    else a card from the hand with its corals on random stacks."""
    if state.phase == "setup":
        return format_order(Start(_walk(lambda placed: start_steps(state, seat, placed), rng)))
    takes = legal_takes(state, seat)
    hand = playable(state, seat)
    if takes and (not hand or rng.random() < 0.45):
        market = [t for t in takes if isinstance(t, TakeMarket)]
        deck = [t for t in takes if isinstance(t, TakeDeck)]
        return format_order(rng.choice(deck) if deck and rng.random() < 0.2
                            else rng.choice(market))
    card = rng.choice(hand)
    return format_order(Play(card, _walk(
        lambda placed: piece_steps(state, seat, card, placed), rng)))


def _walk(steps: Callable[[tuple[Step, ...]], list[Step]],
          rng: random.Random) -> tuple[Step, ...]:
    placed: tuple[Step, ...] = ()
    while after := steps(placed):
        placed = (*placed, rng.choice(after))
    return placed


def one_tap_orders(state: State, seat: int) -> list[str]:
    """The whole turns a player may choose with one tap: each card it may take (action A),
    from the market or the deck; playing a card takes a choice of squares, so it is typed."""
    return [format_order(take) for take in legal_takes(state, seat)]


def default_order(state: State, seat: int) -> str:
    """Setup: the colours in order on the free squares; then the market card with the most
    tokens while the hand has room (it costs nothing), else the first card in hand, each coral
    on the lowest stack."""
    return format_order(default(state, seat))


def default(state: State, seat: int) -> Order:
    if state.phase == "setup":
        squares = (0, 3, 12, 15) if state.advanced else CENTRE
        return Start(tuple(zip(COLOURS, squares, strict=True)))
    market = [t for t in legal_takes(state, seat) if isinstance(t, TakeMarket)]
    if market:
        return max(market, key=lambda t: (state.market_tokens[state.market.index(t.card)],
                                          -state.market.index(t.card)))
    card = playable(state, seat)[0]
    reef = state.seats[seat].reef
    placed: tuple[Step, ...] = ()
    while after := piece_steps(state, seat, card, placed):
        heights = [len(stack) for stack in reef]
        for _, square in placed:
            heights[square] += 1
        first = [step for step in after if step[0] == after[0][0]]  # the card's next piece
        placed = (*placed, min(first, key=lambda step: (heights[step[1]], step[1])))
    return Play(card, placed)


# --- what the seat may see ---------------------------------------------------------------------

def redeal(state: State, seat: int, rng: random.Random) -> State:
    """A state ``seat`` cannot tell from ``state``: the boards, the market, the played cards,
    its own hand and the deck's face-up top kept; the other hands and the rest of the deck
    dealt afresh from the cards it has not seen (hand sizes kept); during the setup step the
    other seats' hidden starting corals placed afresh. The seat also saw which market cards
    others took, but the state does not keep it: the redeal forgets it (never a leak)."""
    new = state.copy()
    if state.phase == "over":
        return new
    seen = set(state.seats[seat].hand) | set(state.market) | set(state.deck[:1])
    for s in state.seats:
        seen.update(s.played)
    unseen = [card for card in sorted(cards()) if card not in seen]
    rng.shuffle(unseen)
    for i, other in enumerate(new.seats):
        if i == seat:
            continue
        n = len(other.hand)
        other.hand, unseen = unseen[:n], unseen[n:]
        if state.phase == "setup" and other.answered_setup:
            other.reef = [[] for _ in other.reef]
            for colour, square in _any_start(new, i, rng):
                other.place(square, colour)
    new.deck = new.deck[:1] + unseen
    return new


def _any_start(state: State, seat: int, rng: random.Random) -> tuple[Step, ...]:
    """Random legal starting corals for ``seat``, as if it had not placed them yet."""
    blank = state.copy(only_seat=seat)
    blank.seats[seat] = Seat()
    return _walk(lambda placed: start_steps(blank, seat, placed), rng)


# --- the strategy ------------------------------------------------------------------------------

HELD = 0.7  # a held card's worth, against points scored now: it may be spoilt or never played
HALF_BUILT = 0.35  # the credit for the best half-built occurrence of a held card's pattern
LOOK = {"normal": 0, "strong": 3}  # the best orders looked at one own turn further
REDEALS = 2  # fresh redeals each looked-at order's next turn is weighed on
SETUP_SAMPLE = 60  # starting placements weighed in the advanced variant (there are 32,760)


def bot_order(state: State, seat: int, rng: random.Random, level: str, budget: float) -> str:
    """The order whose outcome :func:`worth` rates best for ``seat``; ``strong`` rates its best
    three again by the seat's best next turn after each, on two fresh redeals (seven rankings,
    about four times normal's CPU: a ranking after a turn is shorter). Stops weighing when
    ``budget`` CPU seconds are nearly spent and plays the best order found so far."""
    deadline = time.process_time() + 0.8 * budget
    ranked = _ranked(state, seat, rng, deadline)
    if not ranked:
        raise ValueError(f"seat {seat} has no order to give now")
    looked: list[tuple[float, int, Order]] = []
    for n, (_, order) in enumerate(ranked[:LOOK[level]]):
        later = 0.0
        for _ in range(REDEALS):
            if time.process_time() > deadline:
                return format_order(ranked[0][1])
            after = apply_order(redeal(state, seat, rng), seat, order)[0]
            later += _next_turn(after, seat, rng, deadline)
        looked.append((later, -n, order))
    best = max(looked, key=lambda entry: entry[:2])[2] if looked else ranked[0][1]
    return format_order(best)


def _ranked(state: State, seat: int, rng: random.Random,
            deadline: float) -> list[tuple[float, Order]]:
    """The legal orders with their worth, best first (ties: the rules' order)."""
    orders: Sequence[Order]
    if state.phase == "setup" and state.advanced:
        orders = [Start(_walk(lambda placed: start_steps(state, seat, placed), rng))
                  for _ in range(SETUP_SAMPLE)]
    else:
        orders = list(legal_orders(state, seat))
    weighed: list[tuple[float, int, Order]] = []
    for n, order in enumerate(orders):
        if weighed and time.process_time() > deadline:
            break
        weighed.append((worth(apply_order(state, seat, order)[0], seat), -n, order))
    weighed.sort(key=lambda entry: entry[:2], reverse=True)
    return [(value, order) for value, _, order in weighed]


def _next_turn(state: State, seat: int, rng: random.Random, deadline: float) -> float:
    """The worth of the seat's best next turn, the others' turns between passed over (they
    change only the market and the deck)."""
    if state.phase != "play":
        return worth(state, seat)
    state = state.copy()
    state.to_move = seat
    return _ranked(state, seat, rng, deadline)[0][0]


def worth(state: State, seat: int) -> float:
    """What ``seat`` holds in ``state``: its points, plus each card in hand at what its
    pattern is worth on the reef now and a part of its best half-built occurrence."""
    mine = state.seats[seat]
    if state.phase == "over":
        return float(mine.score)
    total = float(mine.score)
    for card in mine.hand:
        points = cards()[card].points
        total += HELD * points * (times_on(mine.reef, card)
                                  + HALF_BUILT * _half_built(mine.reef, card))
    return total


def _half_built(reef: list[list[str]], card: int) -> float:
    """How near the reef is to one more occurrence of the card's pattern (0..1): the best
    placement's share of pieces already right, a piece of the right colour too low counting
    half."""
    best = 0.0
    for _, needs in checks(card):
        done = 0.0
        for square, colour, lowest, highest in needs:
            stack = reef[square]
            height = len(stack)
            if height and (colour is None or stack[-1] == colour):
                if lowest <= height <= highest:
                    done += 1.0
                elif height < lowest:
                    done += 0.5
        share = done / len(needs)
        if share > best:
            best = share
    return best if best < 1.0 else 0.0
