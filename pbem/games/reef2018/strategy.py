"""Reef's strategy: the computer player at levels normal and strong.

``bot_order`` sees a redeal of the game (redeal.py: other hands and the deck below its face-up
top drawn afresh from the cards its seat has not seen) and weighs every legal order by what it
leaves the seat: its points, plus for each card it would still hold the points that card's
pattern is worth on its reef now (with some credit for half-built patterns), discounted as not
yet scored. Playing a card scores it at once; taking one adds its worth (and any tokens on
it). ``strong`` then looks one of its own turns further for the best few orders, on fresh
redeals (about four times the thinking).

Measured (bench/bots.py and a like loop, 2 cores shared): normal won every game against random
seats (42 at 2 players, 42 at 3, 56 at 4), 18-21 ms CPU per decision at p50, 65-71 ms at p95;
strong beat normal in 41 of 60 two-player games at about 63 ms mean, 230 ms p95.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from pbem.engine.chance import Chance
from pbem.games.reef2018.bot import walk
from pbem.games.reef2018.cards import cards, checks
from pbem.games.reef2018.legal import legal_orders, start_steps
from pbem.games.reef2018.orders import Order, Start
from pbem.games.reef2018.parse import format_order
from pbem.games.reef2018.redeal import redeal
from pbem.games.reef2018.rules import apply_order
from pbem.games.reef2018.scoring import times_on
from pbem.games.reef2018.state import State

HELD = 0.7  # a held card's worth, against points scored now: it may be spoilt or never played
HALF_BUILT = 0.35  # the credit for the best half-built occurrence of a held card's pattern
LOOK = {"normal": 0, "strong": 3}  # the best orders looked at one own turn further
REDEALS = 2  # fresh redeals each looked-at order's next turn is weighed on
LOOKING = Chance("strategy")  # a turn draws nothing: the orders weighed need no chance
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
            after = apply_order(redeal(state, seat, rng), seat, order, LOOKING)[0]
            later += _next_turn(after, seat, rng, deadline)
        looked.append((later, -n, order))
    best = max(looked, key=lambda entry: entry[:2])[2] if looked else ranked[0][1]
    return format_order(best)


def _ranked(state: State, seat: int, rng: random.Random,
            deadline: float) -> list[tuple[float, Order]]:
    """The legal orders with their worth, best first (ties: the rules' order)."""
    orders: Sequence[Order]
    if state.phase == "setup" and state.advanced:
        orders = [Start(walk(lambda placed: start_steps(state, seat, placed), rng))
                  for _ in range(SETUP_SAMPLE)]
    else:
        orders = list(legal_orders(state, seat))
    weighed: list[tuple[float, int, Order]] = []
    for n, order in enumerate(orders):
        if weighed and time.process_time() > deadline:
            break
        weighed.append((worth(apply_order(state, seat, order, LOOKING)[0], seat), -n, order))
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
    mine = state.players[seat]
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
