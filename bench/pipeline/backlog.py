"""1,000 and 10,000 waiting messages drained the way ``pbem serve`` does (passes of 100), each
size in a fresh process, with the peak RSS of the drain."""

from __future__ import annotations

import argparse
import contextlib
import json
import mailbox
import random
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from email.utils import make_msgid
from pathlib import Path

from bench.common import HOST, ROOT, fresh_db, make_games, order_mail
from pbem.engine import registry
from pbem.mail.inbound import MaildirInbox
from pbem.mail.outbound import MaildirSender
from pbem.ops import api
from pbem_testkit.testgame import GAME


def rss_kb() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() // 1024


def reset_peak_rss() -> bool:
    """Start a new peak-RSS measurement (Linux: writing 5 to clear_refs resets VmHWM)."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def peak_rss_kb() -> int:
    """VmHWM since the last reset, else the whole process's peak."""
    with contextlib.suppress(OSError), open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def backlog_child(size: int, orders_only: bool, traced: bool, db: str | None) -> None:
    """Fill a Maildir with ``size`` messages, drain it in passes of 100, print JSON."""
    registry.register(GAME)
    rng = random.Random(11)
    with fresh_db(db) as factory, tempfile.TemporaryDirectory() as d:
        work = Path(d)
        n_orders = size if orders_only else size // 10
        tables = make_games(factory, (n_orders + 1) // 2, 1)
        with factory() as s:  # each seat's lowest card: a legal first order
            lowest = [[min(h) for h in api.current_state(s, api.get_game(s, t.tag)).hands]
                      for t in tables]
        box = mailbox.Maildir(work / "inbox", create=True)
        first_ids: list[str] = []
        orders = statuses = 0
        for i in range(size):
            kind = "order" if orders_only else ("order", "status", "auto", "auto", "auto",
                                                "stranger", "stranger", "stranger",
                                                "replay", "replay")[i % 10]
            if kind == "replay" and not first_ids:
                kind = "stranger"
            if kind == "order":
                t, seat = tables[orders // 2], orders % 2
                mid = make_msgid(domain="players.test")
                first_ids.append(mid)
                raw = order_mail(t.addresses[seat], t.tag, t.secrets[seat],
                                 f"play {lowest[orders // 2][seat]}", mid)
                orders += 1
            elif kind == "status":
                t = tables[statuses % len(tables)]
                raw = order_mail(t.addresses[0], t.tag, t.secrets[0], "status")
                statuses += 1
            elif kind == "auto":
                raw = order_mail(f"mailer-daemon@mx{i % 7}.test", tables[0].tag, "x",
                                 "Undelivered mail returned")
            elif kind == "stranger":
                raw = order_mail(f"stranger{i % 50}@elsewhere.test", tables[0].tag, "x",
                                 "play 1")
            else:
                t = tables[0]
                raw = order_mail(t.addresses[0], t.tag, t.secrets[0], "play 1",
                                 rng.choice(first_ids))
            box.add(raw)
        del first_ids
        inbox, sender = MaildirInbox(work / "inbox"), MaildirSender(work / "outbox")
        before = rss_kb()
        reset_peak_rss()  # the peak of the drain alone, not of setting up the backlog
        if traced:
            tracemalloc.start()
        t0 = time.perf_counter()
        counts: dict[str, int] = {}
        while True:  # what `pbem serve` does: passes of 100
            done = api.process_inbox(factory, inbox, sender, HOST, limit=100)
            if not done.results:
                break
            for r in done.results:
                counts[r.status] = counts.get(r.status, 0) + 1
        seconds = time.perf_counter() - t0
        peak_traced = tracemalloc.get_traced_memory()[1] if traced else None
        peak = peak_rss_kb()
        print(json.dumps({"size": size, "seconds": seconds, "rss_before_kb": before,
                          "peak_rss_kb": peak, "traced_peak_kb": (peak_traced or 0) // 1024
                          if traced else None, "counts": counts,
                          "sent": len(mailbox.Maildir(work / "outbox"))}))


def bench_backlog(args: argparse.Namespace) -> None:
    rows = []
    for size in (int(s) for s in args.sizes.split(",")):
        cmd = [sys.executable, "-m", "bench.pipeline", "backlog-child", "--size", str(size)]
        if args.orders_only:
            cmd.append("--orders-only")
        if args.tracemalloc:
            cmd.append("--tracemalloc")
        if args.db:
            cmd += ["--db", args.db]
        out = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=ROOT)
        row = json.loads(out.stdout.strip().splitlines()[-1])
        rows.append(row)
        traced = (f", tracemalloc peak {row['traced_peak_kb'] / 1024:.1f} MB"
                  if row["traced_peak_kb"] is not None else "")
        print(f"[backlog] {size:6d} messages drained in {row['seconds']:.1f} s "
              f"({size / row['seconds']:.0f} msg/s; {row['counts']}; {row['sent']} emails); "
              f"RSS before {row['rss_before_kb'] / 1024:.1f} MB, peak while draining "
              f"{row['peak_rss_kb'] / 1024:.1f} MB{traced}")
    if len(rows) >= 2:
        a, b = rows[0], rows[-1]
        growth = (b["peak_rss_kb"] - b["rss_before_kb"]) - (a["peak_rss_kb"] - a["rss_before_kb"])
        print(f"[backlog] drain growth (peak − before) at {b['size']} vs {a['size']}: "
              f"{growth / 1024:+.1f} MB")
