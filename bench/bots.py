"""How well each game's computer player plays: whole games against random seats, and against
itself with more thinking time.

    python -m bench.bots                          # every game, every player count (~9 minutes)
    python -m bench.bots --game reef-2018 --minutes 2 --games 100

Prints one line per game and player count:

    reef-2018 2p: normal vs random, 120 games: bot wins 91% (draws 1%) ... goal >= 80%: meets
    reef-2018 4p: normal vs 3 random, 80 games: bot's win share 63% (random 25%) ...

and one line per game of ``strong`` against ``normal`` at two players (does more time help?).
A tie for first counts as a draw at two players and as a share of the win at more (1/k of a
k-way tie). The bot's seat rotates through the turn order so no seat's advantage counts.

Games are played by the engine directly (setup, the bot's or the random bot's order, parse,
apply), through ``pbem.engine.contract.bot_order`` — the same call a bot seat makes on the host,
which hands the strategy only what its seat may see. Each line gets an equal share of the time
(``--minutes``, default 9) and plays up to ``--games`` games in one process per core; the line
says how many it played. Decision times are CPU time per bot decision, p50 and p95.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from bench.machine import describe
from pbem.engine import registry
from pbem.engine.chance import Chance
from pbem.engine.contract import bot_order
from pbem.ops.services import start

MAX_ORDERS = 2000
WIN_GOAL_2P = 0.80  # the bot's wins against one random seat
SHARE_GOAL = 2.0  # the bot's win share against random seats, as a multiple of theirs,
GOAL_PLAYERS = 4  # at this many players
BUDGET = {"random": 1.0, "normal": 1.0, "strong": 4.0}  # CPU seconds a decision may take


@dataclass
class Played:
    """One game's result for the seat under test."""

    share: float  # 1 a win, 1/k a k-way tie for first, 0 otherwise
    tied: bool
    finished: bool
    decisions_ms: list[float] = field(default_factory=list)


def play(name: str, levels: list[str], tested: int, seed: str) -> Played:
    """One whole game with ``levels[seat]`` playing each seat; the result for ``tested``."""
    game = registry.get(name)
    state = game.setup(len(levels), dict(game.default_options()), Chance(f"{seed}/setup"))
    timed: list[float] = []
    orders = 0
    while waiting := game.waiting_for(state):
        if orders >= MAX_ORDERS:
            return Played(0.0, False, False, timed)
        seat = min(waiting)
        rng = random.Random(f"{seed}/{orders}/bot")
        start = time.process_time()
        text = bot_order(game, state, seat, rng, levels[seat], BUDGET[levels[seat]])
        if seat == tested:
            timed.append((time.process_time() - start) * 1000)
        order = game.parse(state, seat, text)
        state = game.apply(state, seat, order, Chance(f"{seed}/{orders}")).state
        orders += 1
    outcome = game.outcome(state)
    if outcome is None:
        raise RuntimeError(f"{name} {seed}: over but no outcome")
    first = outcome.ranking[0]
    share = 1 / len(first) if tested in first else 0.0
    return Played(share, tested in first and len(first) > 1, True, timed)


@dataclass
class Line:
    name: str
    players: int
    tested: str  # the level under test
    against: str  # every other seat's level
    results: list[Played] = field(default_factory=list)

    def run(self, pool: ProcessPoolExecutor, seconds: float, most: int, workers: int) -> None:
        deadline = time.monotonic() + seconds
        played = 0
        while played < most and time.monotonic() < deadline:
            batch = min(workers, most - played)
            futures = []
            for g in range(played, played + batch):
                tested = g % self.players
                levels = [self.against] * self.players
                levels[tested] = self.tested
                seed = f"bots-{self.name}-{self.players}-{self.tested}-{self.against}-{g}"
                futures.append(pool.submit(play, self.name, levels, tested, seed))
            self.results.extend(f.result() for f in futures)
            played += batch

    def text(self) -> str:
        done = [r for r in self.results if r.finished]
        n = len(done)
        share = sum(r.share for r in done) / n if n else 0.0
        margin = 1.96 * math.sqrt(share * (1 - share) / n) if n else 0.0
        times = sorted(t for r in self.results for t in r.decisions_ms)
        timing = ""
        if times:
            p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
            timing = f"; {statistics.median(times):.1f} ms p50, {p95:.0f} ms p95 per decision"
        unfinished = len(self.results) - n
        stalled = f"; {unfinished} games with no end" if unfinished else ""
        if self.players == 2:
            ties = sum(r.tied for r in done) / n if n else 0.0
            head = (f"{self.name} 2p: {self.tested} vs {self.against}, {n} games: "
                    f"{self.tested} wins {share - ties / 2:.0%} (draws {ties:.0%}) ±{margin:.0%}")
            goal = ""
            if self.against == "random":
                verdict = "meets" if share - ties / 2 >= WIN_GOAL_2P else "MISSES"
                goal = f"; goal >= {WIN_GOAL_2P:.0%}: {verdict}"
            return head + goal + timing + stalled
        fair = 1 / self.players
        goal = ""
        if self.players == GOAL_PLAYERS:
            verdict = "meets" if share >= SHARE_GOAL * fair else "MISSES"
            goal = f"; goal >= {SHARE_GOAL * fair:.0%}: {verdict}"
        return (f"{self.name} {self.players}p: {self.tested} vs {self.players - 1} "
                f"{self.against}, {n} games: bot's win share {share:.0%} ±{margin:.0%} "
                f"(random {fair:.0%})" + goal + timing + stalled)


def lines_for(name: str) -> list[Line]:
    game = registry.get(name)
    out = [Line(name, n, "normal", "random")
           for n in range(game.min_players, game.max_players + 1)]
    if game.min_players <= 2 <= game.max_players:
        out.append(Line(name, 2, "strong", "normal"))
    return out


def main() -> None:
    start()  # the services `pbem` sets up before any command
    parser = argparse.ArgumentParser(prog="python -m bench.bots",
                                     description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--game", choices=sorted(registry.games()),
                        help="only this game (default: every registered game)")
    parser.add_argument("--games", type=int, default=200, help="most games per line")
    parser.add_argument("--minutes", type=float, default=9.0, help="the whole run's time")
    args = parser.parse_args()
    names = [args.game] if args.game else sorted(registry.games())
    lines = [line for name in names for line in lines_for(name)]
    workers = os.cpu_count() or 1
    seconds = args.minutes * 60 / len(lines)
    print(describe())
    print(f"{len(lines)} lines, {seconds:.0f} s each, up to {args.games} games, "
          f"{workers} processes")
    with ProcessPoolExecutor(workers) as pool:
        for line in lines:
            line.run(pool, seconds, args.games, workers)
            print(line.text(), flush=True)


if __name__ == "__main__":
    main()
