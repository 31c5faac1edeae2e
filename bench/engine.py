"""Rules-engine benchmark: complete random games of every registered game, one core, no host.

    python -m bench.engine                      # 200 games of each game, at its most players
    python -m bench.engine --game NAME --games 500 --players 3
    python -m bench.engine --profile            # cProfile of the same runs: top functions

For each game, every game is set up, then every order is written by the game's own random bot
(``random_order``), parsed and applied until the game is over, and scored. Half the games use
the default options, half switch every on/off option (e.g. an advanced variant). Prints
complete games per second and orders per second, for the whole loop and for the rules alone
(parse + apply + outcome, without the bot writing the order), and steps (lines of an order)
per second for games whose orders have steps (an ``steps`` attribute).

Times are the process's CPU time (one core), so a busy shared machine slows the run but not the
figures much; the wall time is printed too.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import time
from dataclasses import dataclass
from typing import Any

from bench.machine import describe
from pbem.engine import registry
from pbem.engine.chance import Chance
from pbem.engine.contract import GameRules
from pbem.ops.services import start

MAX_ORDERS = 1000


@dataclass
class Totals:
    games: int = 0
    orders: int = 0
    steps: int = 0
    stepped: bool = False  # the game's orders have steps
    seconds: float = 0.0  # the whole loop
    rules_seconds: float = 0.0  # parse + apply + outcome only


def variants(game: GameRules) -> list[dict[str, Any]]:
    """The default options and, if the game has on/off options, all of them switched."""
    default = dict(game.default_options())
    switched = {k: not v if isinstance(v, bool) else v for k, v in default.items()}
    return [default, switched] if switched != default else [default]


def play_one(game: GameRules, players: int, options: dict[str, Any], seed: str,
             totals: Totals) -> None:
    """One complete random game; adds its counts and times to ``totals``."""
    rng = random.Random(seed)
    start = time.process_time()
    state = game.setup(players, options, Chance(f"{seed}/setup"))
    rules = time.process_time() - start
    orders = 0
    while waiting := game.waiting_for(state):
        if orders >= MAX_ORDERS:
            raise RuntimeError(f"{seed}: no end after {MAX_ORDERS} orders")
        seat = rng.choice(sorted(waiting))
        text = game.random_order(state, seat, rng)
        t = time.process_time()
        order = game.parse(state, seat, text)
        state = game.apply(state, seat, order, Chance(f"{seed}/{orders}")).state
        rules += time.process_time() - t
        steps = getattr(order, "steps", None)
        if steps is not None:
            totals.stepped = True
            totals.steps += len(steps)
        orders += 1
    t = time.process_time()
    if game.outcome(state) is None:
        raise RuntimeError(f"{seed}: over but no outcome")
    end = time.process_time()
    totals.rules_seconds += rules + end - t
    totals.seconds += end - start
    totals.games += 1
    totals.orders += orders


def run(game: GameRules, games: int, players: int) -> Totals:
    totals = Totals()
    options = variants(game)
    for i in range(games):
        play_one(game, players, options[i % len(options)], f"bench-{players}-{i}", totals)
    return totals


def report(game: GameRules, totals: Totals, players: int) -> None:
    def rate(n: int, s: float) -> str:
        return f"{n / s:,.0f}/s" if s else "-"

    def steps(s: float) -> str:
        return f"  {rate(totals.steps, s)} steps" if totals.stepped else ""

    mix = " (half default options, half switched)" if len(variants(game)) > 1 else ""
    per_game = (f"{totals.orders / totals.games:.1f} orders"
                + (f" and {totals.steps / totals.games:.0f} steps" if totals.stepped else ""))
    print(f"{game.title} ({game.name}): {totals.games} complete random {players}-player "
          f"games{mix}, {totals.orders} orders; {per_game} per game")
    print(f"  whole loop (bot writes, parse, apply): {totals.games / totals.seconds:,.1f} games/s"
          f"  {rate(totals.orders, totals.seconds)} orders{steps(totals.seconds)}"
          f"  ({totals.seconds:.2f} CPU s)")
    print(f"  rules only (parse + apply + score):    "
          f"{totals.games / totals.rules_seconds:,.1f} games/s"
          f"  {rate(totals.orders, totals.rules_seconds)} orders{steps(totals.rules_seconds)}"
          f"  ({totals.rules_seconds:.2f} CPU s)")


def main() -> None:
    start()  # the services `pbem` sets up before any command
    parser = argparse.ArgumentParser(prog="python -m bench.engine",
                                     description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--game", choices=sorted(registry.games()),
                        help="only this game (default: every registered game)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, help="default: each game's most players")
    parser.add_argument("--profile", action="store_true", help="print the top 25 functions")
    args = parser.parse_args()
    names = [args.game] if args.game else sorted(registry.games())
    print(describe())
    for name in names:
        game = registry.get(name)
        players = args.players or game.max_players
        if not game.min_players <= players <= game.max_players:
            print(f"{game.title} ({name}): not for {players} players, skipped")
            continue
        run(game, 2, players)  # warm the caches (tables, grammars) outside the figures
        wall = time.perf_counter()
        if args.profile:
            profiler = cProfile.Profile()
            totals = profiler.runcall(run, game, args.games, players)
            report(game, totals, players)
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
            pstats.Stats(profiler).sort_stats("tottime").print_stats(15)
        else:
            report(game, run(game, args.games, players), players)
        print(f"  wall time {time.perf_counter() - wall:.2f} s")


if __name__ == "__main__":
    main()
