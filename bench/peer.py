"""The fair reference for the pipeline benchmark: the least a play-by-email host must do per
order, with the same libraries and the same durability as pbem, and nothing else.

Per order: fetch the mail over IMAP (imapclient, ``BODY.PEEK[]`` in batches, then MOVE it
out of the inbox), parse one line, update one row in one commit (the same engine settings as
pbem: SQLite in WAL with ``synchronous=FULL``, or PostgreSQL), and send one mail of the given
size to each seat over one reused SMTP connection (aiosmtplib). What it leaves out is what
the host adds: authentication, rules, the move log, rendering, exactly-once bookkeeping.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass

import aiosmtplib
from imapclient import IMAPClient
from sqlalchemy import Engine, text

from pbem.mail.inbound import no_delay
from pbem.mail.settings import ImapSettings, SmtpSettings

ORDER_LINE = re.compile(rb"^(?:secret \S+\r?\n)?(?P<order>[^\r\n]+)", re.MULTILINE)
TAG = re.compile(rb"\[([^\]]+)\]")


@dataclass
class PeerRun:
    orders: int = 0
    sent: int = 0
    seconds: float = 0.0
    cpu: float = 0.0  # process CPU seconds (the in-process servers' threads included)

    def add(self, other: PeerRun) -> None:
        self.orders += other.orders
        self.sent += other.sent
        self.seconds += other.seconds
        self.cpu += other.cpu


def prepare(engine: Engine, tags: list[str]) -> None:
    """One row per game: what the peer updates for each order."""
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE IF NOT EXISTS peer_game "
                          "(tag VARCHAR PRIMARY KEY, last_order TEXT NOT NULL, moves INTEGER)"))
        for tag in tags:
            conn.execute(text("INSERT INTO peer_game (tag, last_order, moves) "
                              "VALUES (:t, '', 0)"), {"t": tag})


def drain(engine: Engine, imap: ImapSettings, smtp: SmtpSettings, seats: dict[str, list[str]],
          mail_size: int, processed_folder: str = "PeerDone") -> PeerRun:
    """Handle every mail in the inbox once; ``seats`` maps a tag to its seats' addresses."""
    import time

    run = PeerRun()
    body = (b"x" * 76 + b"\r\n") * (mail_size // 78)  # SMTP lines stay under 1,000 bytes
    t0, c0 = time.perf_counter(), time.process_time()
    client = IMAPClient(imap.host, port=imap.port, ssl=False, timeout=imap.timeout)
    no_delay(client)  # as pbem's inbox does: no 40 ms Nagle stall per SEARCH
    client.login(imap.user, imap.password)
    if not client.folder_exists(processed_folder):
        client.create_folder(processed_folder)
    client.select_folder(imap.folder)
    with asyncio.Runner() as loop:
        smtp_client = aiosmtplib.SMTP(hostname=smtp.host, port=smtp.port, start_tls=False,
                                      timeout=smtp.timeout)
        loop.run(smtp_client.connect())
        uids = sorted(client.search(["UNDELETED"]))
        for start in range(0, len(uids), 50):
            batch = uids[start:start + 50]
            fetched = client.fetch(batch, ["BODY.PEEK[]"])
            for uid in batch:
                raw: bytes = fetched[uid][b"BODY[]"]
                head, _, rest = raw.partition(b"\r\n\r\n")
                tag = TAG.search(head)
                line = ORDER_LINE.search(rest)
                assert tag is not None and line is not None
                name = tag.group(1).decode()
                with engine.begin() as conn:  # one row, one commit
                    conn.execute(text("UPDATE peer_game SET last_order = :o, moves = moves + 1 "
                                      "WHERE tag = :t"),
                                 {"o": line.group("order").decode(), "t": name})
                for address in seats[name]:
                    mail = (f"From: games@bench.test\r\nTo: {address}\r\n"
                            f"Subject: [{name}] status\r\n\r\n").encode() + body
                    loop.run(smtp_client.sendmail("games@bench.test", [address], mail))
                    run.sent += 1
                client.move([uid], processed_folder)
                run.orders += 1
        loop.run(smtp_client.quit())
    client.logout()
    run.seconds = time.perf_counter() - t0
    run.cpu = time.process_time() - c0
    return run
