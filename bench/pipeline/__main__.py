"""Pipeline benchmark: the real pipeline (parse, apply, log, snapshot, render and queue every
seat's email, send) over real mail servers and over Maildirs.

    python -m bench.pipeline                  # the goals: reef, clocks, flat, burst (~4 min)
    python -m bench.pipeline --db postgresql+psycopg://postgres@127.0.0.1:5432/test
    python -m bench.pipeline all              # every part below (~3 more minutes)
    python -m bench.pipeline servers --games 20 --rounds 10
    python -m bench.pipeline maildir | history | backlog
    python -m bench.pipeline backlog --sizes 1000,10000 --orders-only --tracemalloc
    python -m bench.pipeline workers --db postgresql+psycopg://...   # 2 workers vs 1
    python -m bench.pipeline burst [--db ...]  # 400 orders at once at idle workers

- ``reef`` (default): Reef Encounter, 4 players, orders in by IMAP (pymap, in-process) and
  every mail out by SMTP (aiosmtpd), then the same orders through the fair peer (``peer``,
  in a process of its own: fetch over IMAP, parse one line, update one row in one commit,
  send each seat a mail of the same mean size carrying the same pictures, drawn with the
  same library and caching, through pbem's own SMTP path), round by round in turn
  with the pipeline so both meet the same machine load. Prints the time per order by stage,
  the CPU time of both, ``overhead vs peer`` (goal <= 1.5x) and, for comparison, the ratio
  against a peer that sends text only.
- ``clocks`` (default): a clock pass with 10 and with 1,000 timed games none of which is due
  (goal <= 1.2x), and the case-blind tag lookup at both sizes.
- ``flat`` (default): an order's cost with 10 and with 1,000 idle games in the database, and
  a status mail of a seat after 10 and after 1,000 default orders played at deadlines (the
  log a status reads must not grow with them); the sizes take turns mail by mail.
- ``servers``: the bench's two-seat test game; orders go in by IMAP (pymap, in-process) and
  every reply out by SMTP (aiosmtpd, in-process). Prints orders/s and p50/p95 per-order
  latency (fetch → committed) and per-email send time, next to the raw mail I/O floor of the
  same run: fetching and moving the same messages and sending as many emails with no work.
- ``maildir``: the same on the embedded transports (Maildir in and out).
- ``history``: per-order cost in a game whose log holds 10 and then 1,000 entries (padded
  with log entries and snapshots shaped like real ones); must not grow with history. Also
  shows the old full-log read of the status mail for comparison.
- ``backlog``: 1,000 and 10,000 waiting messages drained the way ``pbem serve`` does (passes
  of 100), each size in a fresh process, printing peak RSS (and with ``--tracemalloc`` the
  traced peak). The default mix is a realistic flood: 10% orders, 10% status requests, 30%
  bounces and auto-replies, 30% strangers, 20% replayed Message-IDs; ``--orders-only`` makes
  every message an order (slower: ~50 orders/s on SQLite).

- ``workers`` (with the goals when ``--db`` is given): ``bench.workers``, a backlog of Reef
  Encounter orders across many games in one Dovecot mailbox drained by 1, then 2 worker
  processes into PostgreSQL, three times each in alternation; prints ``2 workers vs 1 on
  PostgreSQL`` (goal >= 1.7x, from each count's fastest run) with exactly-once checked after
  each run.

- ``burst`` (default): ``bench.burst``, 400 orders across 100 games of Reef Encounter arriving
  at once at idle ``pbem serve`` workers (IMAP IDLE on Dovecot, SMTP out): ``burst: p95 reply
  after N s`` and the time to drain, for 1 worker and, with ``--db``, 2.

``--db URL`` runs on PostgreSQL: a fresh database is created next to the one in the URL and
dropped afterwards. The default is a fresh SQLite file in a temporary folder. Each part is a
module of this package (reef, clocks, flat, transports, history, backlog); this one only
chooses and runs them.
"""

from __future__ import annotations

import argparse
import time

from bench import burst, workers
from bench.machine import describe
from bench.pipeline.backlog import backlog_child, bench_backlog
from bench.pipeline.clocks import bench_clocks
from bench.pipeline.flat import bench_flat
from bench.pipeline.history import bench_history
from bench.pipeline.reef import bench_reef
from bench.pipeline.transports import bench_maildir, bench_servers
from pbem.engine import registry
from pbem.ops.services import start
from pbem_testkit.testgame import GAME


def main() -> None:
    start()  # the services `pbem` sets up before any command
    parser = argparse.ArgumentParser(prog="python -m bench.pipeline",
                                     description=(__doc__ or "").splitlines()[0])
    parser.add_argument("part", nargs="?", default="goals",
                        choices=["goals", "reef", "clocks", "flat", "all", "servers", "maildir",
                                 "history", "backlog", "backlog-child", "workers", "burst"])
    parser.add_argument("--reef-games", type=int, default=8)
    parser.add_argument("--reef-rounds", type=int, default=12)
    parser.add_argument("--clock-passes", type=int, default=50)
    parser.add_argument("--flat-mails", type=int, default=20)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--history-orders", type=int, default=20)
    parser.add_argument("--sizes", default="1000,10000", help="backlog sizes, comma-separated")
    parser.add_argument("--orders-only", action="store_true",
                        help="every backlog message an order (slow)")
    parser.add_argument("--tracemalloc", action="store_true",
                        help="also trace Python allocations while draining (about 2x slower)")
    parser.add_argument("--size", type=int, default=1000, help=argparse.SUPPRESS)
    parser.add_argument("--db", default=None, help="a PostgreSQL URL (default: SQLite)")
    parser.add_argument("--worker-games", type=int, default=40,
                        help="games in the backlog of the 2-workers-vs-1 part (4 orders each)")
    parser.add_argument("--worker-rounds", type=int, default=3,
                        help="runs of 1 and of 2 workers in that part, alternating")
    parser.add_argument("--burst-games", type=int, default=100,
                        help="games in the burst part (4 orders each)")
    args = parser.parse_args()
    registry.register(GAME)
    if args.part == "backlog-child":
        backlog_child(args.size, args.orders_only, args.tracemalloc, args.db)
        return
    print(f"database: {'PostgreSQL' if args.db else 'SQLite'}")
    print(describe())
    started = time.perf_counter()
    for part, run, goal in (("reef", bench_reef, True), ("clocks", bench_clocks, True),
                            ("flat", bench_flat, True),
                            ("servers", bench_servers, False), ("maildir", bench_maildir, False),
                            ("history", bench_history, False), ("backlog", bench_backlog, False)):
        if args.part in ("all", part) or (goal and args.part == "goals"):
            run(args)
    if args.part in ("all", "workers") or (args.part == "goals" and args.db):
        if args.db:  # needs PostgreSQL
            workers.run(args.db, args.worker_games, args.worker_rounds)
        else:
            print("[workers] 2 workers vs 1: needs --db postgresql+psycopg://...")
    if args.part in ("all", "goals", "burst"):
        burst.run(args.db, args.burst_games)
    print(f"(total {time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
