"""The bench's two-seat test game over real mail servers (``servers``: pymap in, aiosmtpd out)
and over Maildirs (``maildir``), each beside the raw mail I/O floor of the same run."""

from __future__ import annotations

import argparse
import mailbox
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path

from bench.common import HOST, Table, TimedSender, fresh_db, make_games, ms, pct, wave
from pbem.mail.inbound import ImapInbox, Inbox, MaildirInbox
from pbem.mail.outbound import MaildirSender, SmtpSender
from pbem.ops import api
from pbem.pipeline.one_mail import Result
from pbem.store.db import SessionFactory
from pbem_testkit.imap import PymapServer
from pbem_testkit.smtp import SmtpTestServer


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


def bench_servers(args: argparse.Namespace) -> None:
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
