"""Fixtures for the lobby: the test game registered, a host whose lobby is on, mail to it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage

import pytest
from sqlmodel import select

from pbem.engine import registry
from pbem.pipeline.one_mail import Result
from pbem.settings.config import Lobby, MailConfig
from pbem.settings.host import Host
from pbem.store import OutboundMessage, SessionFactory
from tests.support.hostpost import HostPost, plain_text
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


class Post(HostPost):
    """Mail the host and read what it queued in answer."""

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


def text(msg: EmailMessage) -> str:
    return plain_text(msg)


@pytest.fixture
def post(factory: SessionFactory, host: Host) -> Post:
    return Post(factory, host)
