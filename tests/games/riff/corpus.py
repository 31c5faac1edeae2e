"""A corpus of recorded bot games, to prove a rules change exact: record the games once with
the old code, then replay their orders (not the bot's: the bot may choose differently) with
the new code and compare every byte.

    python -m tests.games.riff.corpus record FILE [--games 300]
    python -m tests.games.riff.corpus check FILE
    python -m tests.games.riff.corpus sample FILE --games 6   # a pinned sample (JSON)

A game is its seed, its options, the setup's draws and state JSON, then per order the seat,
its text, its draws, its events and the state JSON after it, one JSON line each (gzip). The
games play as bench/engine.py does (the mover, now and then the other seat's preference),
half with every on/off option switched.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import random
import sys
from collections.abc import Iterator, Sequence
from typing import Any

from pbem.engine.chance import Chance
from pbem.games.riff import GAME
from pbem.games.riff.state import State

FLIPPED = {"face_down_at_sea_edge_counts_as_water": True,
           "completed_corals_count_toward_limit": False,
           "may_buy_fish_without_a_free_coral": False}


def _dump(data: object) -> str:
    return json.dumps(data, ensure_ascii=False)


def _applied(state: State, seat: int, text: str, chance: Chance) -> tuple[State, str]:
    """The state after ``text`` and the line recording it (draws, events, state JSON)."""
    order = GAME.parse(state, seat, text)
    applied = GAME.apply(state, seat, order, chance)
    line = _dump({"seat": seat, "text": text, "draws": [d.to_json() for d in chance.draws],
                  "events": [e.to_json() for e in applied.events],
                  "state": GAME.to_json(applied.state)})
    return applied.state, line


def _setup(seed: str, options: dict[str, Any]) -> tuple[State, str]:
    chance = Chance(f"{seed}/setup")
    state = GAME.setup(2, options, chance)
    return state, _dump({"seed": seed, "options": options,
                         "draws": [d.to_json() for d in chance.draws],
                         "state": GAME.to_json(state)})


def record_game(seed: str, options: dict[str, Any]) -> list[str]:
    """One bot game's lines: the setup's, then one per order."""
    state, first = _setup(seed, options)
    lines = [first]
    rng = random.Random(seed)
    n = 0
    while waiting := GAME.waiting_for(state):
        assert n < 1000, seed
        seat = min(waiting) if rng.random() < 0.9 else 1 - state.to_move
        text = GAME.random_order(state, seat, rng)
        state, line = _applied(state, seat, text, Chance(f"{seed}/{n}"))
        lines.append(line)
        n += 1
    lines.append(_dump({"outcome": GAME.outcome(state).to_json()}))  # type: ignore[union-attr]
    return lines


def replay_game(lines: Sequence[str]) -> list[str]:
    """The lines the current rules make from a recorded game's orders."""
    head = json.loads(lines[0])
    orders = [(e["seat"], e["text"]) for e in map(json.loads, lines[1:-1])]
    return replay(head["seed"], head["options"], orders)


def replay(seed: str, options: dict[str, Any], orders: Sequence[tuple[int, str]]) -> list[str]:
    """The lines the current rules make from a game's seed, options and orders."""
    state, first = _setup(seed, options)
    made = [first]
    for n, (seat, text) in enumerate(orders):
        state, again = _applied(state, seat, text, Chance(f"{seed}/{n}"))
        made.append(again)
    made.append(_dump({"outcome": GAME.outcome(state).to_json()}))  # type: ignore[union-attr]
    return made


def digest(lines: Sequence[str]) -> str:
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()


def games(count: int) -> Iterator[list[str]]:
    for i in range(count):
        yield record_game(f"corpus-{i}", dict(FLIPPED) if i % 2 else {})


def read(path: str) -> list[list[str]]:
    """The recorded games of a corpus file (a blank line ends each)."""
    found: list[list[str]] = [[]]
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            if line == "\n":
                found.append([])
            else:
                found[-1].append(line.rstrip("\n"))
    return [g for g in found if g]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("command", choices=["record", "check", "sample"])
    parser.add_argument("file")
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args(argv)
    if args.command == "record":
        with gzip.open(args.file, "wt", encoding="utf-8") as f:
            for lines in games(args.games):
                f.write("\n".join(lines) + "\n\n")
        print(f"recorded {args.games} games in {args.file}")
        return 0
    if args.command == "sample":  # the pinned sample of tests/games/riff/test_corpus.py
        sample = [{"seed": json.loads(lines[0])["seed"],
                   "options": json.loads(lines[0])["options"],
                   "orders": [[e["seat"], e["text"]] for e in map(json.loads, lines[1:-1])],
                   "digest": digest(lines)} for lines in games(args.games)]
        with open(args.file, "w", encoding="utf-8") as out:
            json.dump(sample, out, ensure_ascii=False, indent=0)
            out.write("\n")
        return 0
    recorded = read(args.file)
    bad = 0
    orders = 0
    for lines in recorded:
        made = replay_game(lines)
        orders += len(lines) - 2
        if made != lines:
            bad += 1
            n = next((i for i, (a, b) in enumerate(zip(made, lines, strict=False)) if a != b),
                     min(len(made), len(lines)))
            print(f"{json.loads(lines[0])['seed']}: differs at line {n}", file=sys.stderr)
    print(f"replayed {len(recorded)} games, {orders} orders: {bad} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
