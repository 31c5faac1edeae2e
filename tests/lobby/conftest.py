"""Fixtures for the lobby: the test game registered, a host whose lobby is on, mail to it."""

from __future__ import annotations

import email
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email import policy
from email.message import EmailMessage

import pytest
from sqlmodel import col, select

from pbem.engine import registry
from pbem.pipeline.one_mail import Result, process_raw
from pbem.settings.config import Lobby, MailConfig
from pbem.settings.host import Host
from pbem.store import OutboundMessage, SessionFactory
from tests.support.playermail import mail
from tests.support.testgame import GAME

ANN = "ann@players.test"
BEN = "ben@players.test"
CY = "cy@players.test"
CODE = re.compile(r"([A-Z2-9]{4}-[A-Z2-9]{4})")


class Clock:
    """A clock the test moves: seats expire by it."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 28, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@pytest.fixture(autouse=True)
def testcards() -> Iterator[None]:
    registry.register(GAME)
    yield
    registry.unregister(GAME.name)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def host(clock: Clock) -> Host:
    return Host(mail=MailConfig(from_address="games@host.test", from_name="Test Host",
                                operator_address="op@host.test"),
                lobby=Lobby(enabled=True), clock=clock, key=bytes(range(32)))


class Post:
    """Mail the host and read what it queued in answer."""

    def __init__(self, factory: SessionFactory, host: Host) -> None:
        self.factory, self.host = factory, host

    def send(self, frm: str, body: str, subject: str = "hello", *, name: str = "",
             lang: str = "") -> Result:
        return process_raw(self.factory, mail(frm, subject, body, name=name, lang=lang),
                           self.host)

    def answers(self, result: Result) -> list[tuple[str, EmailMessage]]:
        with self.factory() as s:
            rows = s.exec(select(OutboundMessage).where(col(OutboundMessage.id).in_(
                result.queued)).order_by(col(OutboundMessage.id))).all()
            return [(r.to_addr, _parsed(r.raw)) for r in rows]

    def answer(self, result: Result) -> tuple[str, str]:
        """The one answer's subject and text."""
        got = self.answers(result)
        assert len(got) == 1, (result, [m["Subject"] for _, m in got])
        return str(got[0][1]["Subject"]), text(got[0][1])

    def seat(self, frm: str, body: str, **kw: str) -> tuple[str, str]:
        """Send a new/join mail; returns the code and the answer's subject."""
        result = self.send(frm, body, **kw)
        subject, _ = self.answer(result)
        found = CODE.search(subject)
        assert found, subject
        return found.group(1), subject

    def never(self, frm: str) -> Result:
        """A proven "never": the host asks first; the address's answer to that mail (its
        subject kept, as a mail client's List-Unsubscribe sends it) is the proof."""
        subject, _ = self.answer(self.send(frm, "never"))
        assert CODE.search(subject), subject
        return self.send(frm, "", subject=f"Re: {subject}")

    def sent_count(self) -> int:
        with self.factory() as s:
            return len(s.exec(select(OutboundMessage.id)).all())


def _parsed(raw: bytes) -> EmailMessage:
    msg = email.message_from_bytes(raw, policy=policy.default)
    assert isinstance(msg, EmailMessage)
    return msg


def text(msg: EmailMessage) -> str:
    body = msg.get_body(("plain",))
    assert body is not None
    return str(body.get_content())


@pytest.fixture
def post(factory: SessionFactory, host: Host) -> Post:
    return Post(factory, host)
