"""The fair reference for the pipeline benchmark: the least a play-by-email host must do per
order, with the same libraries, the same pictures and the same durability as pbem, and
nothing else.

Per order: fetch the mail over IMAP (imapclient, ``BODY.PEEK[]`` in batches of 50, each batch
moved out of the inbox with one MOVE, as pbem does), parse one line, update one row in one
commit (the same engine settings as pbem: SQLite in WAL with ``synchronous=FULL``, or
PostgreSQL), and send each seat one mail of the given size over one reused SMTP connection,
through pbem's own sending path (``SmtpSender.send_bytes``). Each mail carries the same
pictures as pbem's mail of that order, drawn with the same library and the same per-board
caching (``pbem.drawing.pictures.inline_pictures``). What it leaves out is what the host adds:
authentication, rules, the move log, rendering the text, exactly-once bookkeeping.

It runs in a process of its own (:func:`serve`), so its picture caches are its own, warm from
its own earlier rounds as pbem's are from its own.
"""

from __future__ import annotations

import itertools
import re
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection

from imapclient import IMAPClient
from sqlalchemy import Engine, text

from pbem.drawing.pictures import base64_lines, inline_pictures
from pbem.mail.inbound import no_delay
from pbem.mail.outbound import SmtpSender
from pbem.mail.settings import ImapSettings, SmtpSettings
from pbem.store.db import make_engine

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
          mail_size: int, pictures: list[str] | None = None,
          processed_folder: str = "PeerDone") -> PeerRun:
    """Handle every mail in the inbox once; ``seats`` maps a tag to its seats' addresses.

    ``pictures`` are the pictures (each an HTML fragment of SVGs) of pbem's mails, one per
    mail in the order pbem sent them, dealt out to the peer's mails in turn; None for mails of
    text only."""
    run = PeerRun()
    dealt = itertools.cycle(pictures) if pictures else None
    t0, c0 = time.perf_counter(), time.process_time()
    client = IMAPClient(imap.host, port=imap.port, ssl=False, timeout=imap.timeout)
    no_delay(client)  # as pbem's inbox does: no 40 ms Nagle stall per SEARCH
    client.login(imap.user, imap.password)
    if not client.folder_exists(processed_folder):
        client.create_folder(processed_folder)
    client.select_folder(imap.folder)
    sender = SmtpSender(smtp)
    with sender.session():
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
                    sender.send_bytes(mail(address, name, next(dealt) if dealt else "",
                                           mail_size))
                    run.sent += 1
                run.orders += 1
            client.move(batch, processed_folder)
    client.logout()
    run.seconds = time.perf_counter() - t0
    run.cpu = time.process_time() - c0
    return run


def mail(address: str, tag: str, picture_html: str, size: int) -> bytes:
    """A status mail of about ``size`` bytes: a text part, then the PNG of each picture."""
    html, drawn = inline_pictures(picture_html, "bench.test")
    parts = [(f"From: games@bench.test\nTo: {address}\nSubject: [{tag}] status\n"
              "MIME-Version: 1.0\nContent-Type: multipart/related; boundary=\"b\"\n\n"
              "--b\nContent-Type: text/html; charset=utf-8\n\n").encode(), html.encode(), b"\n"]
    for picture in drawn:
        parts.append((f"--b\nContent-Type: image/png\nContent-Transfer-Encoding: base64\n"
                      f"Content-ID: <{picture.cid}>\n\n").encode())
        parts.append(base64_lines(picture.png).encode("ascii"))
    parts.append(b"--b--\n")
    missing = size - sum(len(p) for p in parts)
    if missing > 0:  # the text pbem writes around its pictures, as lines under 1,000 bytes
        parts.insert(3, (b"x" * 76 + b"\n") * (missing // 77))
    return b"".join(parts)


def serve(conn: Connection) -> None:
    """The peer in a process of its own: each request a round to drain, each answer its run."""
    while (request := conn.recv()) is not None:
        url, imap, smtp, seats, size, pictures = request
        engine = make_engine(url)
        try:
            conn.send(drain(engine, imap, smtp, seats, size, pictures))
        finally:
            engine.dispose()
