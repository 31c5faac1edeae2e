"""The rules and the bot, pinned: one digest of everything seeded random games produce.

Speed work on the engine must not change behaviour by a single byte. The digest
covers, for every order of 24 seeded bot games (2-4 players, both options): the bot's order
text (so its random calls stay the same calls with the same results), the default order, the
events and their audiences, ``to_json`` of every state, that the old state is left untouched,
the outcome, and two spoiled copies of each order (a step dropped, a cell changed) with the
error they get (message, step and line) or what they do if still legal. If a change is meant to
alter behaviour, the digest is updated in the same commit and the commit says why.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
from typing import Any

from pbem.engine.chance import Chance
from pbem.engine.contract import Event
from pbem.engine.errors import GameError
from pbem.engine.hashing import canonical_json
from pbem.games.reef_encounter import GAME
from pbem.games.reef_encounter.orders import Cell, Order
from pbem.games.reef_encounter.state import State

PINNED = "52b3b5be39e829e92c7af9ca473dae82eb9e5b51361ea2b242c175b729b37e88"
DATA_PINNED = "8e2844cd050254a8ac826ea325b594403b2a3e93a9daf4307ae4691ffe397b5f"
GAMES = 24


def _spoiled(order: Order, rng: random.Random) -> list[Order]:
    """Two wrong copies of ``order``: one step dropped (with its line number, as the parser
    would have read the order without it), one cell replaced by a random cell."""
    out = []
    if len(order.steps) > 1:
        drop = rng.randrange(len(order.steps))
        out.append(Order(order.steps[:drop] + order.steps[drop + 1:],
                         order.lines[:drop] + order.lines[drop + 1:]))
    with_cells = [i for i, s in enumerate(order.steps)
                  if any(isinstance(getattr(s, f.name), Cell) for f in dataclasses.fields(s))]
    if with_cells:
        i = rng.choice(with_cells)
        step = order.steps[i]
        cell = Cell(rng.randint(1, 4), rng.choice("ABCDEFG"), rng.randint(1, 6))
        field = rng.choice([f.name for f in dataclasses.fields(step)
                            if isinstance(getattr(step, f.name), Cell)])
        changed: Any = dataclasses.replace(step, **{field: cell})  # type: ignore[arg-type]
        out.append(Order((*order.steps[:i], changed, *order.steps[i + 1:]), order.lines))
    return out


def _outcome(state: State, seat: int, order: Order, chance: Chance) -> Any:
    try:
        applied = GAME.apply(state, seat, order, chance)
    except GameError as err:
        return {"error": str(err), "step": getattr(err, "step", None),
                "line": getattr(err, "line", None)}
    return {"state": GAME.to_json(applied.state), "events": [_event(e) for e in applied.events]}


def _event(e: Event) -> dict[str, Any]:
    """An event as the digest was pinned on: its English text and audience (kind and msg,
    added with the translations, are pinned by DATA_PINNED)."""
    return {"text": e.text, "visible_to": None if e.visible_to is None else sorted(e.visible_to)}


def digest(games: int = GAMES) -> tuple[str, str]:
    """The pinned digest, and one of the events' and the outcome's data (kind, msg fields)."""
    h, data = hashlib.sha256(), hashlib.sha256()

    def feed(data: Any) -> None:
        h.update(canonical_json(data).encode("utf-8"))
        h.update(b"\n")

    for i in range(games):
        seed = f"pinned-{i}"
        players, advanced = 2 + i % 3, i % 2 == 1
        rng, spoil = random.Random(seed), random.Random(f"{seed}/spoil")
        state = GAME.setup(players, {"advanced": advanced}, Chance(f"{seed}/setup"))
        feed(GAME.to_json(state))
        n = 0
        while waiting := GAME.waiting_for(state):
            assert n < 1000
            seat = rng.choice(sorted(waiting))
            before = GAME.to_json(state)
            text = GAME.random_order(state, seat, rng)
            feed([seat, text, GAME.default_order(state, seat)])
            order = GAME.parse(state, seat, text)
            for j, wrong in enumerate(_spoiled(order, spoil)):
                feed(_outcome(state, seat, wrong, Chance(f"{seed}/{n}/spoiled-{j}")))
            applied = GAME.apply(state, seat, order, Chance(f"{seed}/{n}"))
            assert GAME.to_json(state) == before  # an order never changes the state it read
            feed([_event(e) for e in applied.events])
            data.update(canonical_json([e.to_json() for e in applied.events]).encode("utf-8"))
            state = applied.state
            feed(GAME.to_json(state))
            n += 1
        outcome = GAME.outcome(state)
        assert outcome is not None
        pinned = outcome.to_json()
        feed({"scores": pinned["scores"], "ranking": pinned["ranking"],
              "explanation": [str(x) for x in outcome.explanation]})
        data.update(canonical_json(outcome.to_json()).encode("utf-8"))
    return h.hexdigest(), data.hexdigest()


def test_seeded_bot_games_are_exactly_as_pinned() -> None:
    assert digest() == (PINNED, DATA_PINNED)
