"""Pipeline benchmark: the real pipeline (parse, apply, log, snapshot, render and queue every
seat's email, send) over real mail servers and over Maildirs.

    python bench/pipeline.py                  # the goals: reef, clocks, flat, burst (~4 min)
    python bench/pipeline.py --db postgresql+psycopg://postgres@127.0.0.1:5432/test
    python bench/pipeline.py all              # every part below (~3 more minutes)
    python bench/pipeline.py servers --games 20 --rounds 10
    python bench/pipeline.py maildir | history | backlog
    python bench/pipeline.py backlog --sizes 1000,10000 --orders-only --tracemalloc
    python bench/pipeline.py workers --db postgresql+psycopg://...   # 2 workers vs 1
    python bench/pipeline.py burst [--db ...]  # 400 orders at once at idle workers

- ``reef`` (default): Reef Encounter, 4 players, orders in by IMAP (pymap, in-process) and
  every mail out by SMTP (aiosmtpd), then the same orders through the fair peer
  (bench/peer.py, in a process of its own: fetch over IMAP, parse one line, update one row in
  one commit, send each seat a mail of the same mean size carrying the same pictures, drawn
  with the same library and caching, through pbem's own SMTP path), round by round in turn
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

- ``workers`` (with the goals when ``--db`` is given): bench/workers.py, a backlog of Reef
  Encounter orders across many games in one Dovecot mailbox drained by 1, then 2 worker
  processes into PostgreSQL, three times each in alternation; prints ``2 workers vs 1 on
  PostgreSQL`` (goal >= 1.7x, from each count's fastest run) with exactly-once checked after
  each run.

- ``burst`` (default): bench/burst.py, 400 orders across 100 games of Reef Encounter arriving
  at once at idle ``pbem serve`` workers (IMAP IDLE on Dovecot, SMTP out): ``burst: p95 reply
  after N s`` and the time to drain, for 1 worker and, with ``--db``, 2.

``--db URL`` runs on PostgreSQL: a fresh database is created next to the one in the URL and
dropped afterwards. The default is a fresh SQLite file in a temporary folder.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import mailbox
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from machine import describe  # noqa: E402  (bench/machine.py, beside this file)
from sqlalchemy import create_engine, text  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402

from pbem.drawing.pictures import picture_spans  # noqa: E402
from pbem.engine import registry  # noqa: E402
from pbem.engine.contract import GameRules  # noqa: E402
from pbem.engine.hashing import canonical_json  # noqa: E402
from pbem.mail.inbound import ImapInbox, Inbox, MaildirInbox  # noqa: E402
from pbem.mail.outbound import (  # noqa: E402
    MaildirSender,
    Sender,
    SmtpSender,
    one_connection,
    send_bytes,
)
from pbem.ops import api  # noqa: E402
from pbem.pipeline.one_mail import Result, process_raw  # noqa: E402
from pbem.pipeline.warmup import warm_up  # noqa: E402
from pbem.settings.host import Host  # noqa: E402
from pbem.store import queries  # noqa: E402
from pbem.store.db import SessionFactory  # noqa: E402
from pbem.store.tables import LogEntry, Snapshot  # noqa: E402
from tests.support.testgame import GAME  # noqa: E402

HOST = Host(from_address="games@bench.test")


# -- shared pieces ------------------------------------------------------------------------------


@contextlib.contextmanager
def fresh_db(url: str | None) -> Iterator[SessionFactory]:
    """A migrated, empty database: a temporary SQLite file, or a new PostgreSQL database."""
    if url is None:
        with tempfile.TemporaryDirectory(prefix="pbem-bench-") as d:
            yield api.connect(f"sqlite:///{Path(d) / 'pbem.sqlite'}")
        return
    base = make_url(url)
    name = f"pbem_bench_{uuid.uuid4().hex[:10]}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield api.connect(base.set(database=name).render_as_string(hide_password=False))
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@dataclass
class Table:
    tag: str
    addresses: list[str]
    secrets: list[str]


def make_games(factory: SessionFactory, games: int, rounds: int) -> list[Table]:
    tables = []
    with factory() as s:
        for g in range(games):
            addresses = [f"a{g}@players.test", f"b{g}@players.test"]
            game, secrets = api.create_game(s, GAME.name, [("A", addresses[0]),
                                                           ("B", addresses[1])],
                                            {"rounds": rounds, "hand": 3}, seed=f"bench-{g}")
            tables.append(Table(game.tag, addresses, secrets))
        s.commit()
    return tables


def order_mail(address: str, tag: str, secret: str, order: str,
               message_id: str | None = None) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = address, "games@bench.test", f"Re: [{tag}] Test"
    msg["Message-ID"] = message_id or make_msgid(domain="players.test")
    msg.set_content(f"secret {secret}\n{order}\n")
    return bytes(msg)


def wave(factory: SessionFactory, tables: list[Table], rng: random.Random,
         rules: GameRules = GAME) -> list[bytes]:
    """One order (written by ``rules``'s bot) from every seat the games are waiting for."""
    raws = []
    with factory() as s:
        for t in tables:
            state = api.current_state(s, api.get_game(s, t.tag))
            for seat in sorted(rules.waiting_for(state)):
                raws.append(order_mail(t.addresses[seat], t.tag, t.secrets[seat],
                                       rules.random_order(state, seat, rng)))
    return raws


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[round(q * (len(ordered) - 1))] if ordered else float("nan")


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


class TimedSender:
    """The real sender, timing each send."""

    def __init__(self, inner: Sender) -> None:
        self.inner = inner
        self.times: list[float] = []

    def send(self, msg: EmailMessage) -> None:
        t0 = time.perf_counter()
        self.inner.send(msg)
        self.times.append(time.perf_counter() - t0)

    def send_bytes(self, raw: bytes) -> None:
        t0 = time.perf_counter()
        send_bytes(self.inner, raw)
        self.times.append(time.perf_counter() - t0)

    def session(self) -> contextlib.AbstractContextManager[None]:
        return one_connection(self.inner)


@dataclass
class Run:
    orders: int = 0
    busy: float = 0.0
    latencies: list[float] = field(default_factory=list)
    sent: int = 0
    raws: list[bytes] = field(default_factory=list)


def drive(factory: SessionFactory, tables: list[Table], rounds: int,
          deliver: Callable[[list[bytes]], None], inbox: Inbox, sender: TimedSender) -> Run:
    """Deliver each round's orders (untimed), then time one inbox pass over them."""
    run = Run()
    rng = random.Random(7)
    for _ in range(rounds):
        raws = wave(factory, tables, rng)
        run.raws += raws
        deliver(raws)
        last = start = time.perf_counter()

        def tick(_result: Result) -> None:
            nonlocal last
            now = time.perf_counter()
            run.latencies.append(now - last)
            last = now

        seen = 0
        while seen < len(raws):  # pymap may show mail appended meanwhile only on a later pass
            done = api.process_inbox(factory, inbox, sender, HOST, limit=100_000,
                                     after_commit=tick)
            seen += len(done.results)
            run.orders += sum(1 for r in done.results if r.status == "applied")
            run.sent += done.delivery.sent
        run.busy += time.perf_counter() - start
    return run


def floor_mail() -> EmailMessage:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "games@bench.test", "p@players.test", "floor"
    msg.set_content("x" * 2000)  # about a status email's size
    return msg


def report(label: str, run: Run, games: int, floor: float, send_times: list[float]) -> None:
    print(f"[{label}] orders applied: {run.orders} in {games} games; {run.sent} emails sent")
    print(f"[{label}] pipeline:       {run.orders / run.busy:8.1f} orders/s  "
          f"({run.busy:.2f} s)")
    print(f"[{label}] per order (fetch → committed): p50 {ms(statistics.median(run.latencies))}"
          f", p95 {ms(pct(run.latencies, 0.95))}")
    if send_times:
        print(f"[{label}] per email sent: p50 {ms(statistics.median(send_times))}, "
              f"p95 {ms(pct(send_times, 0.95))}")
    print(f"[{label}] mail I/O floor: {len(run.raws) / floor:8.1f} orders/s  ({floor:.2f} s: "
          f"fetch+move {len(run.raws)} and send {run.sent} with no processing)")
    print(f"[{label}] overhead ratio: {run.busy / floor:8.1f}x the raw mail I/O")


# -- goals: Reef Encounter against the fair peer, and the clock pass -------------

STAGES = ("fetch", "parse", "rules", "store", "render", "pictures", "compose", "redact", "send")


class Stages:
    """Seconds spent in each stage while ``on``, by wrapping the functions that do it.

    fetch is IMAP; parse reads the mail and its orders; store is every SQL statement and
    commit (engine events and the dialect's commit), so it includes the flushes wherever they
    happen; render is the templates; pictures the PNGs of their SVGs; compose builds and
    serialises the MIME; redact blanks secrets (the inbound mail, each mail once sent); the
    rest is the host's own Python ("other": ORM objects, clocks, bookkeeping)."""

    def __init__(self) -> None:
        self.seconds = dict.fromkeys(STAGES, 0.0)
        self.on = False
        self._undo: list[Callable[[], None]] = []

    def timed(self, stage: str, fn: Callable[..., object]) -> Callable[..., object]:
        def wrapper(*a: object, **k: object) -> object:
            if not self.on:
                return fn(*a, **k)
            t0 = time.perf_counter()
            try:
                return fn(*a, **k)
            finally:
                self.seconds[stage] += time.perf_counter() - t0
        return wrapper

    def patch(self, owner: object, name: str, stage: str) -> None:
        original = getattr(owner, name, None)
        if original is None:  # an older tree without this step: nothing to time
            return
        setattr(owner, name, self.timed(stage, original))
        self._undo.append(lambda: setattr(owner, name, original))

    def timed_iter(self, stage: str, fn: Callable[..., Iterator[object]]
                   ) -> Callable[..., Iterator[object]]:
        def wrapper(*a: object, **k: object) -> Iterator[object]:
            it = fn(*a, **k)
            while True:
                t0 = time.perf_counter()
                try:
                    item = next(it)
                except StopIteration:
                    return
                finally:
                    if self.on:
                        self.seconds[stage] += time.perf_counter() - t0
                yield item
        return wrapper

    def install(self, factory: SessionFactory, rules: object) -> None:
        from sqlalchemy import event

        from pbem.outbox import delivery as outbox
        from pbem.pipeline import one_mail as pipeline
        from pbem.pipeline import outgoing as mails
        from pbem.pipeline import stored

        engine = factory().get_bind()
        t0: list[float] = []

        def before(*_a: object) -> None:
            t0.append(time.perf_counter())

        def after(*_a: object) -> None:
            start = t0.pop()
            if self.on:
                self.seconds["store"] += time.perf_counter() - start
        event.listen(engine, "before_cursor_execute", before)
        event.listen(engine, "after_cursor_execute", after)
        self.patch(engine.dialect, "do_commit", "store")
        original_fetch = ImapInbox.fetch
        ImapInbox.fetch = self.timed_iter("fetch", original_fetch)  # type: ignore[method-assign,assignment]
        self._undo.append(lambda: setattr(ImapInbox, "fetch", original_fetch))
        self.patch(ImapInbox, "mark_processed", "fetch")
        self.patch(ImapInbox, "mark_all_processed", "fetch")
        self.patch(pipeline, "read_message", "parse")
        self.patch(rules, "parse", "parse")
        self.patch(rules, "apply", "rules")
        self.patch(mails, "render_status", "render")
        self.patch(mails, "render_notice", "render")
        self.patch(mails, "inline_pictures", "pictures")
        self.patch(mails, "compose", "compose")
        self.patch(mails, "mail_bytes", "compose")
        self.patch(mails, "compose_bytes", "compose")
        self.patch(outbox, "as_email", "compose")
        for module in (mails, outbox, stored):
            self.patch(module, "redact", "redact")

    def uninstall(self) -> None:
        for undo in reversed(self._undo):
            undo()
        self._undo.clear()


def reef_tables(factory: SessionFactory, games: int) -> list[Table]:
    tables = []
    with factory() as s:
        for g in range(games):
            addresses = [f"{c}{g}@players.test" for c in "abcd"]
            game, secrets = api.create_game(s, "reef-encounter", [(f"P{c}", a) for c, a in
                                                        zip("ABCD", addresses, strict=True)],
                                            seed=f"bench-reef-{g}")
            tables.append(Table(game.tag, addresses, secrets))
        s.commit()
    return tables


def bench_reef(args: argparse.Namespace) -> None:
    """Reef Encounter, 4 players, over real IMAP and SMTP, next to the peer (bench/peer.py)."""
    import multiprocessing

    import peer  # bench/peer.py, beside this script

    from pbem.pipeline import outgoing
    from tests.support.mailservers import PymapServer, SmtpTestServer

    rules = registry.get("reef-encounter")
    imap, smtp = PymapServer().start(), SmtpTestServer(auth=False).start()
    stages = Stages()
    ref, text_only = peer.PeerRun(), peer.PeerRun()
    cpu = 0.0
    # The peer in a process of its own: its picture caches are its own (warm from its own
    # earlier rounds), not the ones the pipeline just filled. Its CPU time is its own plus
    # this process's while it runs (the mail servers run here).
    spawn = multiprocessing.get_context("spawn")
    here, there = spawn.Pipe()
    worker = spawn.Process(target=peer.serve, args=(there,), daemon=True)
    worker.start()

    def peer_round(url: str, seats: dict[str, list[str]], size: int,
                   pictures: list[str] | None) -> peer.PeerRun:
        c0 = time.process_time()
        here.send((url, imap.settings, smtp.settings, seats, size, pictures))
        run: peer.PeerRun = here.recv()
        run.cpu += time.process_time() - c0
        return run

    original_inline = outgoing.inline_pictures
    try:
        with fresh_db(args.db) as factory, fresh_db(args.db) as peer_factory:
            tables = reef_tables(factory, args.reef_games)
            engine = peer_factory().get_bind()
            peer.prepare(engine, [t.tag for t in tables])  # type: ignore[arg-type]
            peer_url = engine.url.render_as_string(hide_password=False)  # type: ignore[union-attr]
            seats = {t.tag: t.addresses for t in tables}
            feeder = imap.client()
            inbox = ImapInbox(imap.settings, batch_size=50)
            sender = TimedSender(SmtpSender(smtp.settings))
            warm_up()  # as `pbem serve` does before its first pass
            api.process_inbox(factory, inbox, sender, HOST)  # the welcome mails: not timed
            stages.install(factory, rules)
            rng, raws, busy, orders, sent = random.Random(7), [], 0.0, 0, 0
            # The pictures of every mail the pipeline sends, for the peer's mails to carry.
            pictures: list[str] = []
            staged_inline = outgoing.inline_pictures  # timed as the "pictures" stage

            def recorded(html: str, domain: str) -> tuple[str, list[Any]]:
                if stages.on:
                    pictures.append("".join(html[a:b] for a, b in picture_spans(html)))
                return staged_inline(html, domain)
            outgoing.inline_pictures = recorded  # type: ignore[assignment]
            sizes: list[int] = []
            sender.times.clear()
            # Interleaved, round by round: on a shared machine the load changes by the
            # minute, and both sides of the ratio should meet the same load.
            for _ in range(args.reef_rounds):
                wave_raws = wave(factory, tables, rng, rules)
                raws += wave_raws
                for raw in wave_raws:
                    feeder.append("INBOX", raw)
                before = len(smtp.received)
                stages.on, seen = True, 0
                t0, c0 = time.perf_counter(), time.process_time()
                while seen < len(wave_raws):
                    done = api.process_inbox(factory, inbox, sender, HOST, limit=100_000)
                    seen += len(done.results)
                    orders += sum(1 for r in done.results if r.status == "applied")
                    sent += done.delivery.sent
                busy += time.perf_counter() - t0
                cpu += time.process_time() - c0
                stages.on = False
                wave_sizes = [len(r.raw) for r in smtp.received[before:]]
                sizes += wave_sizes
                size = round(statistics.mean(wave_sizes))
                # The peer: the same orders, mails of this round's mean size with the same
                # pictures; then again with text only, for comparison.
                for run, drawn in ((ref, pictures), (text_only, None)):
                    for raw in wave_raws:
                        feeder.append("INBOX", raw)
                    run.add(peer_round(peer_url, seats, size, drawn))
                pictures.clear()
            outgoing.inline_pictures = staged_inline
            stages.uninstall()
            stages.seconds["send"] = sum(sender.times)
            inbox.close()
            assert orders == len(raws), f"only {orders} of {len(raws)} orders applied"
            assert ref.orders == len(raws), f"the peer took {ref.orders} of {len(raws)}"
            size = round(statistics.mean(sizes))
        feeder.logout()
    finally:
        stages.uninstall()
        outgoing.inline_pictures = original_inline
        here.send(None)
        worker.join(30)
        imap.stop()
        smtp.stop()
    db = "PostgreSQL" if args.db else "SQLite"
    print(f"[reef] {db}: {orders} orders in {len(tables)} 4-player games of Reef Encounter, "
          f"{sent} mails sent (mean {size / 1024:.1f} kB), real IMAP (pymap) and SMTP (aiosmtpd)")
    print(f"[reef] pipeline: {busy:.2f} s = {ms(busy / orders)} per order "
          f"({orders / busy:.1f} orders/s)")
    print(f"[reef] peer:     {ref.seconds:.2f} s = {ms(ref.seconds / ref.orders)} per order "
          f"({ref.orders} orders, {ref.sent} mails of the same size and pictures)")
    counted = sum(stages.seconds.values())
    parts = [f"{k} {ms(v / orders)}" for k, v in stages.seconds.items()]
    parts.append(f"other {ms((busy - counted) / orders)}")
    print(f"[reef] per order by stage: {', '.join(parts)}")
    print(f"[reef] CPU time (mail servers included): pipeline {ms(cpu / orders)}, "
          f"peer {ms(ref.cpu / ref.orders)} per order: {cpu / ref.cpu:.2f}x (less swayed by "
          "the machine's load than the wall clock)")
    print(f"[reef] a text-only peer (no pictures): {ms(text_only.seconds / text_only.orders)} "
          f"per order; overhead vs it: {busy / text_only.seconds:.2f}x (for comparison)")
    print(f"overhead vs peer: {busy / ref.seconds:.2f}x  (goal <= 1.5x; {db})")


def timed_games(factory: SessionFactory, count: int) -> None:
    """``count`` games with clocks, none of them due for days."""
    from pbem.pipeline.clock import run_clocks

    with factory() as s:
        for g in range(count):
            api.create_game(s, GAME.name, [("A", f"a{g}@players.test"),
                                           ("B", f"b{g}@players.test")],
                            {"rounds": 5, "hand": 3}, seed=f"clock-{g}",
                            clocks=api.ClockSettings(deadline_hours=72, reminder_hours=24))
        s.commit()
    run_clocks(factory, HOST)  # the first pass looks at each new game once
    with factory() as s:
        if s.get_bind().dialect.name == "postgresql":
            # What autovacuum does within a minute on a live server: without statistics the
            # planner takes the fresh table for a tiny one and scans all 1,000 rows.
            s.exec(text("ANALYZE game"))  # type: ignore[call-overload]
            s.commit()


def bench_clocks(args: argparse.Namespace) -> None:
    """A clock pass (and a tag lookup) with 10 and 1,000 timed games none of which is due.

    Both databases are built first, then the sizes take turns pass by pass (and lookup by
    lookup): measured one size after the other, the ratio swung 0.8-1.6x with whatever the
    machine did in between, while interleaved it stays within a few percent.
    """
    from pbem.pipeline.clock import run_clocks

    sizes = (10, 1000)
    passes: dict[int, list[float]] = {n: [] for n in sizes}
    looks: dict[int, list[float]] = {n: [] for n in sizes}
    with contextlib.ExitStack() as stack:
        factories = {n: stack.enter_context(fresh_db(args.db)) for n in sizes}
        for n, factory in factories.items():
            timed_games(factory, n)
        for _ in range(args.clock_passes):
            for n, factory in factories.items():
                t0 = time.perf_counter()
                report = run_clocks(factory, HOST)
                passes[n].append(time.perf_counter() - t0)
                assert report.reminders == report.timeouts == 0
        sessions = {n: stack.enter_context(f()) for n, f in factories.items()}
        for i in range(200):
            for n, s in sessions.items():
                tag = f"{GAME.name}-{1 + (i * 7919) % n}".upper()
                t0 = time.perf_counter()
                assert queries.game_by_tag(s, tag) is not None
                looks[n].append(time.perf_counter() - t0)
    # The fastest pass is the pass's own cost: on a shared machine the median is mostly noise.
    pass_s = {n: min(v) for n, v in passes.items()}
    lookup_s = {n: statistics.median(v) for n, v in looks.items()}
    print(f"[clocks] pass (fastest of {args.clock_passes}, sizes interleaved): "
          f"{ms(pass_s[10])} at 10 timed games, {ms(pass_s[1000])} at 1,000; "
          f"tag lookup {lookup_s[10] * 1e6:.0f} µs vs {lookup_s[1000] * 1e6:.0f} µs "
          f"({lookup_s[1000] / lookup_s[10]:.2f}x)")
    print(f"clock pass, 1,000 vs 10 timed games: {pass_s[1000] / pass_s[10]:.2f}x  "
          "(goal <= 1.2x)")


def pad_defaults(factory: SessionFactory, tag: str, entries: int) -> None:
    """``entries`` default orders played at deadlines (kind ``timeout``), every seat's: a
    table whose seats never mail an order, as a status mail after them reads the log."""
    with factory() as s:
        game = api.get_game(s, tag)
        snap = queries.latest_snapshot(s, game.id or 0)
        setup = queries.log(s, game.id or 0)[0]
        events = canonical_json([{"text": "Seat 1's deadline passed; its default was played.",
                                  "visible_to": None}])
        for i in range(1, entries + 1):
            s.add(LogEntry(game_id=game.id or 0, index=i, kind="timeout", seat=i % 2,
                           text="play 7", draws_json="[]", events_json=events,
                           state_hash=setup.state_hash))
            s.add(Snapshot(game_id=game.id or 0, log_index=i, state_json=snap.state_json))
        s.commit()


def timed_mail(factory: SessionFactory, table: Table, seat: int, body: str,
               expect: str) -> float:
    """The cost of one mail from ``seat`` through the whole pipeline."""
    raw = order_mail(table.addresses[seat], table.tag, table.secrets[seat], body)
    t0 = time.perf_counter()
    result = process_raw(factory, raw, HOST)
    cost = time.perf_counter() - t0
    assert result.status == expect, result.reason
    return cost


def bench_flat(args: argparse.Namespace) -> None:
    """An order's cost beside 10 and 1,000 idle games; a status after 10 and 1,000 default
    orders played at deadlines. The two sizes take turns, mail by mail, so a change in the
    machine's load meets both."""
    rng = random.Random(5)
    idle: dict[int, list[float]] = {10: [], 1000: []}
    status: dict[int, list[float]] = {10: [], 1000: []}
    with contextlib.ExitStack() as stack:
        games: dict[int, tuple[SessionFactory, list[Table]]] = {}
        timeouts: dict[int, tuple[SessionFactory, Table]] = {}
        for count in (10, 1000):
            factory = stack.enter_context(fresh_db(args.db))
            make_games(factory, count, 5)  # idle: nobody writes to them
            # the games ordered in: a fresh one every 4 orders (the test game's deck is short)
            games[count] = (factory, make_games(factory, (args.flat_mails + 3) // 4, 5))
            factory = stack.enter_context(fresh_db(args.db))
            (table,) = make_games(factory, 1, 5)
            pad_defaults(factory, table.tag, count)
            timeouts[count] = (factory, table)
        for n in range(args.flat_mails):
            for count in ((10, 1000) if n % 2 else (1000, 10)):
                factory, tables = games[count]
                table = tables[n // 4]
                for seat in (0, 1):  # seat 0's order is timed, seat 1's answer is not
                    with factory() as s:
                        state = api.current_state(s, api.get_game(s, table.tag))
                    cost = timed_mail(factory, table, seat,
                                      GAME.random_order(state, seat, rng), "applied")
                    if seat == 0:
                        idle[count].append(cost)
                factory, table = timeouts[count]
                status[count].append(timed_mail(factory, table, 0, "status", "ignored"))
    p50 = {k: statistics.median(v) for k, v in idle.items()}
    s50 = {k: statistics.median(v) for k, v in status.items()}
    print(f"[flat] order beside 10 / 1,000 idle games: p50 {ms(p50[10])} / {ms(p50[1000])}; "
          f"status after 10 / 1,000 default orders: p50 {ms(s50[10])} / {ms(s50[1000])} "
          f"({args.flat_mails} of each, interleaved)")
    print(f"order cost, 1,000 vs 10 idle games: {p50[1000] / p50[10]:.2f}x  (goal <= 1.2x)")
    print(f"status after 1,000 vs 10 default orders (deadline seats): "
          f"{s50[1000] / s50[10]:.2f}x  (goal <= 1.2x)")


# -- servers: pymap IMAP in, aiosmtpd SMTP out --------------------------------------------------


def bench_servers(args: argparse.Namespace) -> None:
    from tests.support.mailservers import PymapServer, SmtpTestServer

    imap, smtp = PymapServer().start(), SmtpTestServer(auth=False).start()
    try:
        with fresh_db(args.db) as factory:
            tables = make_games(factory, args.games, args.rounds)
            feeder = imap.client()

            def deliver(raws: list[bytes], folder: str = "INBOX") -> None:
                for raw in raws:
                    feeder.append(folder, raw)

            inbox = ImapInbox(imap.settings, batch_size=50)
            sender = TimedSender(SmtpSender(smtp.settings))
            run = drive(factory, tables, args.rounds, deliver, inbox, sender)
            assert len(smtp.messages) == run.sent
            # The floor: the same messages fetched and moved, as many emails sent, no work.
            deliver(run.raws)
            t0 = time.perf_counter()
            for fetched in list(inbox.fetch(limit=None)):
                inbox.mark_processed(fetched.key)
            floor_sender, template = SmtpSender(smtp.settings), floor_mail()
            for _ in range(run.sent):
                floor_sender.send(template)
            floor = time.perf_counter() - t0
            inbox.close()
            feeder.logout()
        report("servers", run, args.games, floor, sender.times)
    finally:
        imap.stop()
        smtp.stop()


# -- maildir: the embedded transports -----------------------------------------------------------


def bench_maildir(args: argparse.Namespace) -> None:
    with fresh_db(args.db) as factory, tempfile.TemporaryDirectory() as d:
        work = Path(d)
        tables = make_games(factory, args.games, args.rounds)
        box = mailbox.Maildir(work / "inbox", create=True)

        def deliver(raws: list[bytes]) -> None:
            for raw in raws:
                box.add(raw)

        sender = TimedSender(MaildirSender(work / "outbox"))
        run = drive(factory, tables, args.rounds, deliver, MaildirInbox(work / "inbox"),
                    sender)
        fbox = mailbox.Maildir(work / "floor-in", create=True)
        for raw in run.raws:
            fbox.add(raw)
        t0 = time.perf_counter()
        floor_inbox = MaildirInbox(work / "floor-in")
        for fetched in list(floor_inbox.fetch(limit=None)):
            floor_inbox.mark_processed(fetched.key)
        floor_out, template = MaildirSender(work / "floor-out"), floor_mail()
        for _ in range(run.sent):
            floor_out.send(template)
        floor = time.perf_counter() - t0
    report("maildir", run, args.games, floor, sender.times)


# -- history: cost per order at 10 and 1,000 log entries ----------------------------------------


def pad_history(factory: SessionFactory, tag: str, entries: int) -> None:
    """Append ``entries`` log entries (alternating seats) and snapshots shaped like real ones."""
    with factory() as s:
        game = api.get_game(s, tag)
        snap = queries.latest_snapshot(s, game.id or 0)
        setup = queries.log(s, game.id or 0)[0]
        events = canonical_json([{"text": "Seat 1 played a card.", "visible_to": None},
                                 {"text": "You played 7.", "visible_to": [0]}])
        for i in range(1, entries + 1):
            s.add(LogEntry(game_id=game.id or 0, index=i, kind="order", seat=i % 2,
                           text="play 7", draws_json="[]", events_json=events,
                           state_hash=setup.state_hash))
            s.add(Snapshot(game_id=game.id or 0, log_index=i, state_json=snap.state_json))
        s.commit()


def per_order_cost(factory: SessionFactory, history: int, orders: int) -> list[float]:
    (table,) = make_games(factory, 1, orders // 2 + 1)
    pad_history(factory, table.tag, history)
    rng = random.Random(3)
    costs = []
    for n in range(orders):
        seat = n % 2
        with factory() as s:
            state = api.current_state(s, api.get_game(s, table.tag))
        raw = order_mail(table.addresses[seat], table.tag, table.secrets[seat],
                         GAME.random_order(state, seat, rng))
        t0 = time.perf_counter()
        result = process_raw(factory, raw, HOST)
        costs.append(time.perf_counter() - t0)
        assert result.status == "applied", result.reason
    return costs


def bench_history(args: argparse.Namespace) -> None:
    results: dict[str, float] = {}
    for label, old in (("", False), (" (old full-log read)", True)):
        saved = queries.log_since_last_order
        if old:  # what status mails did before: read the game's whole log
            queries.log_since_last_order = lambda s, g, _seat, _kinds=(): queries.log(s, g)  # type: ignore[assignment]
        try:
            for history in (10, 1000):
                with fresh_db(args.db) as factory:
                    costs = per_order_cost(factory, history, args.history_orders)
                p50 = statistics.median(costs)
                results[f"{history}{label}"] = p50
                print(f"[history] {history:5d} log entries{label}: per order p50 {ms(p50)}, "
                      f"p95 {ms(pct(costs, 0.95))}  ({len(costs)} orders)")
        finally:
            queries.log_since_last_order = saved
        print(f"[history] ratio 1,000 vs 10{label}: "
              f"{results[f'1000{label}'] / results[f'10{label}']:.2f}x")


# -- backlog: a big inbox drained with flat memory ----------------------------------------------


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
        cmd = [sys.executable, str(Path(__file__).resolve()), "backlog-child", "--size",
               str(size)]
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


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
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
        import workers  # bench/workers.py, beside this script: needs PostgreSQL

        if args.db:
            workers.run(args.db, args.worker_games, args.worker_rounds)
        else:
            print("[workers] 2 workers vs 1: needs --db postgresql+psycopg://...")
    if args.part in ("all", "goals", "burst"):
        import burst  # bench/burst.py, beside this script

        burst.run(args.db, args.burst_games)
    print(f"(total {time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
