"""Helpers for the clock, vacation and command tests: a clock the test moves by hand, a
seated game with a deadline, and the queued mail read back with its headers."""

from __future__ import annotations

import email
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email import policy
from email.message import EmailMessage

from sqlmodel import col, select

from pbem.ops import api
from pbem.ops.api import ClockSettings
from pbem.pipeline.one_mail import Result, process_raw
from pbem.settings.config import MailConfig
from pbem.settings.host import Host
from pbem.store import OutboundMessage, SessionFactory
from pbem.store.tables import LogEntry
from tests.pipeline.conftest import ALICE, BOB, Table
from tests.support.playermail import mail

START = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
OPERATOR = "operator@host.test"


class FakeClock:
    """``now`` as the test says; call it like ``datetime.now``."""

    def __init__(self, start: datetime = START) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now

    def at(self, **delta: float) -> datetime:
        """Set the time to START + delta."""
        self.now = START + timedelta(**delta)
        return self.now


def clocked_host(clock: FakeClock) -> Host:
    return Host(mail=MailConfig(from_address="games@host.test", from_name="Test Host",
                                operator_address=OPERATOR), clock=clock)


def new_game(factory: SessionFactory, host: Host, **settings: object) -> Table:
    with factory() as s:
        game, secrets = api.create_game(s, "testcards", [("Alice", ALICE), ("Bob", BOB)],
                                        seed="fixed-seed",
                                        clocks=ClockSettings(**settings),  # type: ignore[arg-type]
                                        now=host.clock())
        s.commit()
        assert game.id is not None
        return Table(game.id, game.tag, secrets)


@dataclass
class Sent:
    to: str
    kind: str
    text: str
    msg: EmailMessage


def outbound(factory: SessionFactory, since: int = 0) -> list[Sent]:
    """Every queued mail with id > ``since``, oldest first."""
    with factory() as s:
        rows = s.exec(select(OutboundMessage).where(col(OutboundMessage.id) > since)
                      .order_by(col(OutboundMessage.id))).all()
        out = []
        for r in rows:
            msg = email.message_from_bytes(r.raw, policy=policy.default)
            assert isinstance(msg, EmailMessage)
            body = msg.get_body(("plain",))
            assert body is not None
            out.append(Sent(r.to_addr, r.kind, str(body.get_content()), msg))
        return out


def last_id(factory: SessionFactory) -> int:
    with factory() as s:
        ids = s.exec(select(OutboundMessage.id).order_by(col(OutboundMessage.id).desc())).first()
        return ids or 0


def send(factory: SessionFactory, host: Host, table: Table, seat: int, body: str,
         secret: bool = True, message_id: str | None = None) -> Result:
    frm = (ALICE, BOB)[seat]
    text = f"{body}\nsecret {table.secrets[seat]}" if secret else body
    return process_raw(factory, mail(frm, f"[{table.tag}]", text, message_id=message_id), host)


def log_kinds(factory: SessionFactory, table: Table) -> list[tuple[str, int | None]]:
    with factory() as s:
        rows = s.exec(select(LogEntry).where(LogEntry.game_id == table.game_id)
                      .order_by(col(LogEntry.index))).all()
        return [(e.kind, e.seat) for e in rows]


def flat(text: str) -> str:
    """Mail text with its line wrapping undone, for asserting whole sentences."""
    return " ".join(text.split())
