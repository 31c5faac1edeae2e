"""Pipeline benchmark on the embedded transports (Maildir in, Maildir out, SQLite).

    python bench/pipeline.py [--games 10] [--rounds 10]

Pushes every order of M two-seat games of the test game through the real pipeline (parse,
apply, log, snapshot, render and queue every seat's email, send), and prints orders/s and
p50/p95 per-order latency next to the raw mail I/O floor: reading the same messages from a
Maildir and writing the same number of emails with no processing. Real IMAP/SMTP servers
come next (issue 6).
"""

from __future__ import annotations

import argparse
import mailbox
import random
import statistics
import sys
import tempfile
import time
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pbem.engine import registry
from pbem.mail.inbound import MaildirInbox
from pbem.mail.outbound import MaildirSender
from pbem.processor import api
from pbem.processor.host import Host
from tests.support.testgame import GAME


def order_mail(address: str, tag: str, secret: str, order: str) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = address, "games@bench.test", f"Re: [{tag}] Test"
    msg["Message-ID"] = make_msgid(domain="players.test")
    msg.set_content(f"secret {secret}\n{order}\n")
    return bytes(msg)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    registry.register(GAME)
    work = Path(tempfile.mkdtemp(prefix="pbem-bench-"))
    factory = api.connect(f"sqlite:///{work / 'pbem.sqlite'}")
    host = Host(from_address="games@bench.test")
    tables = []
    with factory() as s:
        for g in range(args.games):
            addresses = [f"a{g}@players.test", f"b{g}@players.test"]
            game, secrets = api.create_game(s, GAME.name, [("A", addresses[0]),
                                            ("B", addresses[1])], {"rounds": args.rounds,
                                            "hand": 3}, seed=f"bench-{g}")
            tables.append((game.tag, addresses, secrets))
        s.commit()
    inbox_path, out_path = work / "inbox", work / "outbox"
    inbox, sender = MaildirInbox(inbox_path), MaildirSender(out_path)
    rng = random.Random(7)
    latencies: list[float] = []
    orders = 0
    busy = 0.0
    raws: list[bytes] = []
    for _ in range(args.rounds):
        box = mailbox.Maildir(inbox_path)
        with factory() as s:
            for tag, addresses, secrets in tables:
                state = api.current_state(s, api.get_game(s, tag))
                for seat in sorted(GAME.waiting_for(state)):
                    raw = order_mail(addresses[seat], tag, secrets[seat],
                                     GAME.random_order(state, seat, rng))
                    raws.append(raw)
                    box.add(raw)
        last = time.perf_counter()
        start = last

        def tick(_result: object) -> None:
            nonlocal last
            now = time.perf_counter()
            latencies.append(now - last)
            last = now

        result = api.process_inbox(factory, inbox, sender, host, limit=10_000, after_commit=tick)
        busy += time.perf_counter() - start
        orders += sum(1 for r in result.results if r.status == "applied")
    sent = len(mailbox.Maildir(out_path))

    # The floor: the same mail I/O with no processing.
    floor_in, floor_out = work / "floor-in", MaildirSender(work / "floor-out")
    fbox = mailbox.Maildir(floor_in, create=True)
    for raw in raws:
        fbox.add(raw)
    t0 = time.perf_counter()
    floor_inbox = MaildirInbox(floor_in)
    for fetched in list(floor_inbox.fetch(limit=None)):
        floor_inbox.mark_processed(fetched.key)
    template = EmailMessage()
    template["From"], template["To"], template["Subject"] = "g@b.test", "p@b.test", "floor"
    template.set_content("x" * 2000)
    for _ in range(sent):
        floor_out.send(template)
    floor = time.perf_counter() - t0

    latencies.sort()
    p95 = latencies[int(0.95 * (len(latencies) - 1))]
    print(f"orders applied:      {orders} in {args.games} games ({sent} emails sent)")
    print(f"pipeline:            {orders / busy:8.1f} orders/s  ({busy:.2f} s)")
    print(f"per-order latency:   p50 {statistics.median(latencies) * 1000:.1f} ms, "
          f"p95 {p95 * 1000:.1f} ms")
    print(f"mail I/O floor:      {len(raws) / floor:8.1f} orders/s  ({floor:.2f} s)")
    print(f"overhead ratio:      {busy / floor:8.1f}x the raw mail I/O")
    print(f"(work dir: {work})")


if __name__ == "__main__":
    main()
