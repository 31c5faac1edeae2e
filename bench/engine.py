"""Rules-engine benchmark: complete random Reef Encounter games on one core, no host, no mail.

    python bench/engine.py                      # 200 four-player games, basic and advanced
    python bench/engine.py --games 500 --players 3
    python bench/engine.py --profile            # cProfile of the same run: top functions

Each game is set up, then every order is written by the engine's own random bot
(``GAME.random_order``), parsed and applied until the game is over, and scored. Prints complete
games per second, orders per second and steps (lines of an order) per second, for the whole loop
and for the rules alone (parse + apply, without the bot writing the order). The target is 50
complete four-player games per second.

Times are the process's CPU time (one core), so a busy shared machine slows the run but not the
figures much; the wall time is printed too.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbem.engine.chance import Chance  # noqa: E402
from pbem.games.reef_encounter import GAME  # noqa: E402

TARGET_GAMES_PER_S = 50
MAX_ORDERS = 1000


@dataclass
class Totals:
    games: int = 0
    orders: int = 0
    steps: int = 0
    seconds: float = 0.0  # the whole loop
    rules_seconds: float = 0.0  # parse + apply + outcome only


def play_one(players: int, advanced: bool, seed: str, totals: Totals) -> None:
    """One complete random game; adds its counts and times to ``totals``."""
    rng = random.Random(seed)
    start = time.process_time()
    state = GAME.setup(players, {"advanced": advanced}, Chance(f"{seed}/setup"))
    rules = time.process_time() - start
    orders = 0
    while waiting := GAME.waiting_for(state):
        if orders >= MAX_ORDERS:
            raise RuntimeError(f"{seed}: no end after {MAX_ORDERS} orders")
        seat = rng.choice(sorted(waiting))
        text = GAME.random_order(state, seat, rng)
        t = time.process_time()
        order = GAME.parse(state, seat, text)
        state = GAME.apply(state, seat, order, Chance(f"{seed}/{orders}")).state
        rules += time.process_time() - t
        totals.steps += len(order.steps)
        orders += 1
    t = time.process_time()
    if GAME.outcome(state) is None:
        raise RuntimeError(f"{seed}: over but no outcome")
    end = time.process_time()
    totals.rules_seconds += rules + end - t
    totals.seconds += end - start
    totals.games += 1
    totals.orders += orders


def run(games: int, players: int) -> Totals:
    totals = Totals()
    for i in range(games):
        play_one(players, i % 2 == 1, f"bench-{players}-{i}", totals)
    return totals


def report(totals: Totals, players: int) -> None:
    def rate(n: int, s: float) -> str:
        return f"{n / s:,.0f}/s" if s else "-"

    print(f"{totals.games} complete random {players}-player games (half basic, half advanced), "
          f"{totals.orders} orders, {totals.steps} steps; "
          f"{totals.orders / totals.games:.1f} orders and {totals.steps / totals.games:.0f} "
          "steps per game")
    print(f"  whole loop (bot writes, parse, apply): {totals.games / totals.seconds:,.1f} games/s"
          f"  {rate(totals.orders, totals.seconds)} orders  {rate(totals.steps, totals.seconds)}"
          f" steps  ({totals.seconds:.2f} CPU s)")
    print(f"  rules only (parse + apply + score):    "
          f"{totals.games / totals.rules_seconds:,.1f} games/s"
          f"  {rate(totals.orders, totals.rules_seconds)} orders"
          f"  {rate(totals.steps, totals.rules_seconds)} steps  ({totals.rules_seconds:.2f} CPU s)")
    verdict = "meets" if totals.games / totals.seconds >= TARGET_GAMES_PER_S else "MISSES"
    print(f"  target {TARGET_GAMES_PER_S} games/s (whole loop): {verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--profile", action="store_true", help="print the top 25 functions")
    args = parser.parse_args()
    run(2, args.players)  # warm the caches (board tables, grammar) outside the figures
    wall = time.perf_counter()
    if args.profile:
        profiler = cProfile.Profile()
        totals = profiler.runcall(run, args.games, args.players)
        report(totals, args.players)
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)
    else:
        report(run(args.games, args.players), args.players)
    print(f"  wall time {time.perf_counter() - wall:.2f} s")


if __name__ == "__main__":
    main()
