"""The legal orders the rules produce (legal.legal_orders and its steps): each is accepted by
``apply``, no two have the same outcome, and every order ``apply`` accepts, however written
(colours left out, pieces in another order, a single cheapest card's token not named), has the
outcome of one of them. Checked over positions of seeded random games, both variants, 2-4
players, and in the edge positions: a short supply, a full hand, no point to pay the deck."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

from pbem.engine.chance import Chance
from pbem.engine.errors import IllegalOrder
from pbem.games.reef2018 import GAME
from pbem.games.reef2018.cards import COLOURS, SQUARES
from pbem.games.reef2018.legal import (
    Progress,
    legal_orders,
    next_steps,
    piece_steps,
    play,
    start,
    start_steps,
)
from pbem.games.reef2018.orders import Order, Play, Start, TakeDeck, TakeMarket
from pbem.games.reef2018.rules import apply_order
from pbem.games.reef2018.state import State
from tests.games.reef2018.positions import build

FULL = """
PPPP YYYY GGGG RRRR
PPPP YYYY GGGG RRRR
PPPP YYYY GGGG RRRR
PPPP YYYY GGGG RRR
"""


def positions(games: int, seed: str, every: int) -> Iterator[tuple[State, int]]:
    """Positions of random games (every ``every``-th), with a seat that may order in each."""
    for i in range(games):
        players = 2 + i % 3
        state = GAME.setup(players, {"advanced": i % 2 == 1}, Chance(f"{seed}-{i}"))
        rng = random.Random(f"{seed}-{i}")
        n = 0
        while waiting := GAME.waiting_for(state):
            seat = rng.choice(sorted(waiting))
            if n % every == 0:
                yield state, seat
            state = apply_order(state, seat, GAME.parse(
                state, seat, GAME.random_order(state, seat, rng)), Chance("play"))[0]
            n += 1


def outcome(state: State, seat: int, order: Order) -> str | None:
    """The state an order leads to (JSON), None if the rules refuse it."""
    try:
        return json.dumps(apply_order(state, seat, order, Chance("outcome"))[0].to_dict(),
                          sort_keys=True)
    except IllegalOrder:
        return None


def produced(state: State, seat: int) -> dict[str, Order]:
    """The outcomes of the orders the rules produce; each must be accepted, none repeated."""
    found: dict[str, Order] = {}
    for order in legal_orders(state, seat):
        after = outcome(state, seat, order)
        assert after is not None, f"the rules refuse their own order {order}"
        assert after not in found, f"{order} and {found[after]} have the same outcome"
        found[after] = order
    return found


def random_orders(state: State, seat: int, rng: random.Random) -> Iterator[Order]:
    """Orders of every form, mostly illegal: any card, colours named or not, in any order."""
    hand = state.players[seat].hand
    for _ in range(40):
        card = rng.choice(hand) if hand and rng.random() < 0.8 else rng.randint(1, 60)
        pieces = tuple((rng.choice([*COLOURS, None]), rng.randrange(SQUARES))
                       for _ in range(rng.choice([0, 1, 2, 2, 2, 3])))
        yield Play(card, pieces)
    for card in {*state.market, rng.randint(1, 60)}:
        yield TakeMarket(card)
    for token_on in {*state.market, None, rng.randint(1, 60)}:
        yield TakeDeck(token_on)


def test_every_order_the_rules_accept_is_one_they_produce() -> None:
    rng = random.Random("legal")
    checked = accepted = 0
    for state, seat in positions(3, "legal", 5):
        if state.phase == "setup":
            continue
        found = produced(state, seat)
        for order in random_orders(state, seat, rng):
            after = outcome(state, seat, order)
            checked += 1
            if after is not None:
                accepted += 1
                assert after in found, f"{order} is legal but not produced"
    assert accepted > 200 and checked > 2 * accepted  # a real mix of legal and illegal


def test_the_setup_steps_are_the_legal_starting_corals() -> None:
    rng = random.Random("start")
    for advanced in (False, True):
        state = GAME.setup(3, {"advanced": advanced}, Chance(f"start-{advanced}"))
        starts = set(legal_orders(state, 1))
        assert len(starts) == (32760 if advanced else 24)
        for order in rng.sample(sorted(starts, key=repr), min(50, len(starts))):
            assert apply_order(state, 1, order, Chance("start"))[0].players[1].answered_setup
        for _ in range(300):
            squares = rng.sample(range(SQUARES), 4) if rng.random() < 0.5 else [
                rng.randrange(SQUARES) for _ in COLOURS]
            order = Start(tuple(zip(rng.sample(COLOURS, 4), squares, strict=True)))
            canonical = Start(tuple(sorted(order.pieces, key=lambda piece: piece[1])))
            assert (outcome(state, 1, order) is not None) == (canonical in starts), order
        answered = apply_order(state, 1, next(iter(starts)), Chance("start"))[0]
        assert list(legal_orders(answered, 1)) == [] and start_steps(answered, 1, ()) == []


def test_the_edges_produce_exactly_the_legal_orders() -> None:
    """A full hand (no take), no point (no deck), two cheapest cards (a token on either), one
    purple left (a card giving two gives one), a reef with room for one piece."""
    cases = [
        build([".  . . .\n" * 4] * 2, hands=[[17, 33, 2, 5], [9]], market=[25, 14, 41]),
        build([".  . . .\n" * 4] * 2, hands=[[17], [9]], market=[25, 14, 41], scores=[0, 3]),
        build([".  . . .\n" * 4] * 2, hands=[[17, 33], [9]], market=[25, 14, 41],
              supply={"red": 5, "yellow": 5, "green": 5, "purple": 1}),
        build([FULL, ".  . . .\n" * 4], hands=[[17, 33], [9]], market=[25, 14, 41]),
    ]
    kinds: list[list[object]] = []
    for state in cases:
        found = produced(state, 0)
        rng = random.Random(len(found))
        for order in random_orders(state, 0, rng):
            after = outcome(state, 0, order)
            assert after is None or after in found, order
        kinds.append(list(sorted({type(o).__name__ for o in found.values()})))
        kinds.append(list(sorted({o.card if isinstance(o, TakeMarket) else o.token_on or 0
                                  for o in found.values()
                                  if isinstance(o, TakeMarket | TakeDeck)})))
    assert kinds[0:2] == [["Play"], []]  # full hand: play only
    assert kinds[2:4] == [["Play", "TakeMarket"], [14, 25, 41]]  # no point: no deck
    assert kinds[4:6] == [["Play", "TakeDeck", "TakeMarket"], [14, 25, 41]]
    assert piece_steps(cases[2], 0, 17, ()) == [("purple", sq) for sq in range(SQUARES)]
    assert piece_steps(cases[2], 0, 17, (("purple", 0),)) == []  # the supply's last purple
    assert piece_steps(cases[3], 0, 17, ()) == [("purple", 15)]  # room for one piece: D4
    assert piece_steps(cases[3], 0, 17, (("purple", 15),)) == []


def _written(progress: Progress) -> Iterator[Order]:
    """Every whole order a step-by-step walk of the legal next steps writes."""
    steps = next_steps(progress)
    if not steps and progress.order is not None:
        yield progress.order
    for step in steps:
        yield from _written(play(progress, step, Chance("write")))


def test_the_steps_one_by_one_write_every_legal_order_and_only_those() -> None:
    """The step-by-step walk every game's legal.py offers gives Reef's legal orders: the same
    outcomes as the whole orders, each accepted by the rules."""
    walked = 0
    for state, seat in positions(2, "steps", 9):
        if state.phase == "setup" and state.advanced:
            continue  # 32,760 starts: the whole orders are checked above
        whole = produced(state, seat)
        outcomes = {outcome(state, seat, order) for order in _written(start(state, seat))}
        assert None not in outcomes
        assert outcomes == set(whole)
        walked += 1
    assert walked > 5
    over = build([FULL, FULL])
    over.phase = "over"
    assert next_steps(start(over, 0)) == []
