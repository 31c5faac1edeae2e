"""Fixtures for watching: the test game seated (Ann and Ben), a host that lets anyone watch,
mail to it from a stranger, and the watchers' pass."""

from __future__ import annotations

import re
from collections.abc import Iterator
from email.message import EmailMessage

import pytest
from sqlmodel import col, select

from pbem.engine import registry
from pbem.pipeline.one_mail import Result
from pbem.pipeline.watch.mail import send_watch_mail
from pbem.settings.config import MailConfig, Watch
from pbem.settings.host import Host
from pbem.store import OutboundMessage, SessionFactory
from tests.support.hostpost import HostPost, parsed, plain_text
from tests.support.seated import Table, seat_table
from tests.support.testgame import GAME

ZOE = "zoe@watchers.test"
WATCH_CODE = re.compile(r"((?:[A-Z2-9]{5}-){3}[A-Z2-9]{5})")


@pytest.fixture(autouse=True)
def testcards() -> Iterator[None]:
    registry.register(GAME)
    yield
    registry.unregister(GAME.name)


@pytest.fixture
def host() -> Host:
    return Host(mail=MailConfig(from_address="games@host.test", from_name="Test Host",
                                operator_address="op@host.test"),
                key=bytes(range(32)), watch=Watch(open="anyone"))


@pytest.fixture
def table(factory: SessionFactory) -> Table:
    return seat_table(factory, GAME.name)


def text(msg: EmailMessage) -> str:
    """The plain text, its words on one line."""
    return " ".join(plain_text(msg).split())


class Post(HostPost):
    """Mail the host as anyone, and read what it queued."""

    def __init__(self, factory: SessionFactory, host: Host) -> None:
        super().__init__(factory, host)
        self.seen = 0

    def text(self, msg: EmailMessage) -> str:
        return text(msg)

    def watch(self, frm: str, line: str, lang: str = "") -> Result:
        """``line`` sent, then the confirmation's subject replied to (with the body a phone's
        client leaves: nothing but the quote); the reply's result."""
        subject, _ = self.answer(self.send(frm, line, lang=lang))
        assert WATCH_CODE.search(subject), subject
        return self.send(frm, "> the host's mail, quoted", subject=f"Re: {subject}", lang=lang)

    def new_mail(self, to: str | None = None) -> list[tuple[str, EmailMessage]]:
        """Mail queued since the last look (to ``to`` only, if given)."""
        with self.factory() as s:
            rows = s.exec(select(OutboundMessage).where(col(OutboundMessage.id) > self.seen)
                          .order_by(col(OutboundMessage.id))).all()
            if rows:
                self.seen = rows[-1].id or 0
            return [(r.to_addr, parsed(r.raw)) for r in rows if to is None or r.to_addr == to]

    def watchers_pass(self, to: str = ZOE) -> list[EmailMessage]:
        self.new_mail()
        send_watch_mail(self.factory, self.host)
        return [m for _, m in self.new_mail(to)]


@pytest.fixture
def post(factory: SessionFactory, host: Host) -> Post:
    return Post(factory, host)
