"""A recorded corpus of seeded bot games, to prove a rules change leaves the rules unchanged.

    python -m tests.games.reef_encounter.corpus record DIR [--games 300]
    python -m tests.games.reef_encounter.corpus check DIR

``record`` plays bot games (2, 3 and 4 players, both option sets) and writes, per game, one
gzipped JSON line per order: the seat, the order text, the default order, the draws, the events
(text, audience, kind, data), the state JSON after it, and two spoiled copies of the order (a
step dropped, a cell changed) with what the rules answer to each. ``check`` replays every
recorded order text through the current rules (no bot involved) and compares each line byte for
byte, so the bot may change while the rules must not. The corpus is large (tens of MB): it lives
outside the repository; the pinned digest (test_engine_pinned.py) is the committed sample.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pbem.engine.chance import Chance
from pbem.engine.contract import Event
from pbem.engine.errors import GameError
from pbem.engine.hashing import canonical_json
from pbem.games.reef_encounter import GAME
from pbem.games.reef_encounter.orders import Order
from pbem.games.reef_encounter.state import State
from tests.games.reef_encounter.test_engine_pinned import _spoiled


def _event(e: Event) -> dict[str, Any]:
    return {"text": e.text, "visible_to": None if e.visible_to is None else sorted(e.visible_to),
            "data": e.to_json()}


def _answer(state: State, seat: int, order: Order, chance: Chance) -> dict[str, Any]:
    """What the rules make of ``order``: the error, or the draws, events and state."""
    try:
        applied = GAME.apply(state, seat, order, chance)
    except GameError as err:
        return {"error": str(err), "step": getattr(err, "step", None),
                "line": getattr(err, "line", None)}
    return {"draws": [d.to_json() for d in chance.draws],
            "events": [_event(e) for e in applied.events],
            "state": GAME.to_json(applied.state)}


def _lines(seed: str, players: int, advanced: bool, texts: list[tuple[int, str]] | None
           ) -> Iterator[str]:
    """The corpus lines of one game: played by the bot (``texts`` None) or replayed from
    ``texts`` (seat, order text) with the current rules."""
    setup = Chance(f"{seed}/setup")
    state = GAME.setup(players, {"advanced": advanced}, setup)
    yield canonical_json({"seed": seed, "players": players, "advanced": advanced,
                          "draws": [d.to_json() for d in setup.draws],
                          "state": GAME.to_json(state)})
    rng, spoil = random.Random(seed), random.Random(f"{seed}/spoil")
    n = 0
    while waiting := GAME.waiting_for(state):
        if texts is None:
            if n >= 1000:
                raise RuntimeError(f"{seed}: no end after 1000 orders")
            seat = rng.choice(sorted(waiting))
            text = GAME.random_order(state, seat, rng)
        else:
            if n >= len(texts):
                raise RuntimeError(f"{seed}: the game goes on after the recorded orders")
            seat, text = texts[n]
        before = GAME.to_json(state)
        default = GAME.default_order(state, seat)
        order = GAME.parse(state, seat, text)
        spoiled = [_answer(state, seat, wrong, Chance(f"{seed}/{n}/spoiled-{j}"))
                   for j, wrong in enumerate(_spoiled(order, spoil))]
        chance = Chance(f"{seed}/{n}")
        applied = GAME.apply(state, seat, order, chance)
        if GAME.to_json(state) != before:
            raise AssertionError(f"{seed}/{n}: the order changed the state it read")
        state = applied.state
        yield canonical_json({"n": n, "seat": seat, "text": text,
                              "default": default,
                              "draws": [d.to_json() for d in chance.draws],
                              "events": [_event(e) for e in applied.events],
                              "state": GAME.to_json(state), "spoiled": spoiled})
        n += 1
    outcome = GAME.outcome(state)
    assert outcome is not None
    yield canonical_json({"outcome": outcome.to_json(),
                          "explanation": [str(x) for x in outcome.explanation]})


def games(count: int) -> list[tuple[str, int, bool]]:
    """(seed, players, advanced) of the corpus's games: every mix of players and options."""
    return [(f"corpus-{i}", 2 + i % 3, (i // 3) % 2 == 1) for i in range(count)]


def record(folder: Path, count: int) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for seed, players, advanced in games(count):
        with gzip.open(folder / f"{seed}.jsonl.gz", "wt", encoding="utf-8") as f:
            for line in _lines(seed, players, advanced, None):
                f.write(line + "\n")


def check(folder: Path) -> list[str]:
    """Every difference between the corpus in ``folder`` and the current rules (first one
    per game)."""
    problems = []
    files = sorted(folder.glob("*.jsonl.gz"), key=lambda p: int(p.name.split(".")[0][7:]))
    if not files:
        return [f"no corpus in {folder}"]
    for path in files:
        with gzip.open(path, "rt", encoding="utf-8") as f:
            recorded = f.read().splitlines()
        head = json.loads(recorded[0])
        texts = [(json.loads(line)["seat"], json.loads(line)["text"])
                 for line in recorded[1:-1]]
        try:
            replayed = list(_lines(head["seed"], head["players"], head["advanced"], texts))
        except Exception as err:  # any failure is a difference to report
            problems.append(f"{path.name}: {type(err).__name__}: {err}")
            continue
        for i, (old, new) in enumerate(zip(recorded, replayed, strict=False)):
            if old != new:
                problems.append(f"{path.name}: line {i + 1} differs")
                break
        else:
            if len(recorded) != len(replayed):
                problems.append(f"{path.name}: {len(recorded)} lines recorded, "
                                f"{len(replayed)} replayed")
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("action", choices=["record", "check"])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args()
    if args.action == "record":
        record(args.folder, args.games)
        print(f"recorded {args.games} games in {args.folder}")
        return
    problems = check(args.folder)
    for p in problems:
        print(p)
    count = len(list(args.folder.glob("*.jsonl.gz")))
    print(f"{count} games replayed: " + ("identical" if not problems else
                                         f"{len(problems)} differ"))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
