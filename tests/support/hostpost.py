"""Mail the host as anyone and read what it queued in answer: the lobby's and the watchers'
tests both write to the host itself, naming no seat."""

from __future__ import annotations

import email
from email import policy
from email.message import EmailMessage

from sqlmodel import col, select

from pbem.pipeline.one_mail import Result, process_raw
from pbem.settings.host import Host
from pbem.store import OutboundMessage, SessionFactory
from tests.support.playermail import mail


def parsed(raw: bytes) -> EmailMessage:
    msg = email.message_from_bytes(raw, policy=policy.default)
    assert isinstance(msg, EmailMessage)
    return msg


def plain_text(msg: EmailMessage) -> str:
    body = msg.get_body(("plain",))
    assert body is not None
    return str(body.get_content())


class HostPost:
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
            return [(r.to_addr, parsed(r.raw)) for r in rows]

    def answer(self, result: Result) -> tuple[str, str]:
        """The one answer's subject and text (as :meth:`text` gives it)."""
        got = self.answers(result)
        assert len(got) == 1, (result, [m["Subject"] for _, m in got])
        return str(got[0][1]["Subject"]), self.text(got[0][1])

    def text(self, msg: EmailMessage) -> str:
        return plain_text(msg)
