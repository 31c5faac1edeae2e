"""What the benches share: scratch databases, seated games, order mails, waves of orders,
timed sending, exactly-once checks, and the way figures are printed."""

from __future__ import annotations

import contextlib
import random
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from typing import Any

from sqlalchemy import text
from sqlmodel import func, select

from pbem.engine.contract import GameRules
from pbem.engine.hashing import canonical_json
from pbem.mail.outbound import Sender, one_connection, send_bytes
from pbem.ops import api
from pbem.settings.config import MailConfig
from pbem.settings.host import Host
from pbem.store import queries
from pbem.store.db import SessionFactory
from pbem.store.tables import InboundMessage, LogEntry, OutboundMessage, Snapshot
from pbem_testkit.databases import scratch_database
from pbem_testkit.dovecot import DovecotServer
from pbem_testkit.imap import message_ids
from pbem_testkit.smtp import SmtpTestServer
from pbem_testkit.testgame import GAME

ROOT = Path(__file__).resolve().parent.parent  # the checkout: where `python -m bench.…` runs
HOST = Host(mail=MailConfig(from_address="games@bench.test"))


@contextlib.contextmanager
def fresh_db(url: str | None) -> Iterator[SessionFactory]:
    """A migrated, empty database: a temporary SQLite file, or a new PostgreSQL database."""
    if url is None:
        with tempfile.TemporaryDirectory(prefix="pbem-bench-") as d:
            yield api.connect(f"sqlite:///{Path(d) / 'pbem.sqlite'}")
        return
    with scratch_database(url, "pbem_bench") as scratch:
        yield api.connect(scratch)


@dataclass
class Table:
    tag: str
    addresses: list[str]
    secrets: list[str]


def make_games(factory: SessionFactory, games: int, rounds: int) -> list[Table]:
    """``games`` two-seat games of the test game, ``rounds`` rounds each."""
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


def reef_tables(factory: SessionFactory, games: int) -> list[Table]:
    """``games`` four-seat games of Reef Encounter."""
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


def welcomes_set_aside(factory: SessionFactory) -> int:
    """Marks the queued welcome mails sent (they are not part of a backlog); their count."""
    with factory() as s:
        welcomes = len(s.exec(select(OutboundMessage.id)).all())
        s.exec(text("UPDATE outboundmessage SET status = 'sent'"))  # type: ignore[call-overload]
        s.commit()
        s.get_bind().dispose()  # type: ignore[union-attr]
    return welcomes


def exactly_once(url: str, orders: list[bytes], welcomes: int, imap: DovecotServer,
                 smtp: SmtpTestServer) -> None:
    """Every order applied once, each mail once in the processed folder, every queued reply
    sent once."""
    factory = api.connect(url)
    with factory() as s:
        applied = s.exec(select(func.count()).select_from(InboundMessage)
                         .where(InboundMessage.status == "applied")).one()
        entries = s.exec(select(LogEntry.source_message_id)
                         .where(LogEntry.kind == "order")).all()
        rows = s.exec(select(OutboundMessage.status)).all()
        s.get_bind().dispose()  # type: ignore[union-attr]
    assert applied == len(orders), f"{applied} of {len(orders)} orders applied"
    assert len(entries) == len(orders) and len(set(entries)) == len(entries)
    assert set(rows) == {"sent"}
    assert imap.messages("INBOX") == []
    processed = Counter(message_ids(imap.messages("pbem-processed")))
    assert processed == Counter(message_ids(orders)), "a mail moved twice, or not at all"
    sent = Counter(message_ids([r.raw for r in smtp.received]))
    assert len(sent) == sum(sent.values()), "a reply sent twice"
    assert len(sent) == len(rows) - welcomes, "a reply not sent, or one too many"


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


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[round(q * (len(ordered) - 1))] if ordered else float("nan")


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def pad_log(factory: SessionFactory, tag: str, entries: int, kind: str,
            events: list[dict[str, Any]]) -> None:
    """Append ``entries`` log entries of ``kind`` (the two seats taking turns, each playing 7
    with ``events``) and a snapshot after each, shaped like real ones."""
    with factory() as s:
        game = api.get_game(s, tag)
        snap = queries.latest_snapshot(s, game.id or 0)
        setup = queries.log(s, game.id or 0)[0]
        shown = canonical_json(events)
        for i in range(1, entries + 1):
            s.add(LogEntry(game_id=game.id or 0, index=i, kind=kind, seat=i % 2,
                           text="play 7", draws_json="[]", events_json=shown,
                           state_hash=setup.state_hash))
            s.add(Snapshot(game_id=game.id or 0, log_index=i, state_json=snap.state_json))
        s.commit()
