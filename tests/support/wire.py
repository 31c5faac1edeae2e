"""The host between real mail servers: mail delivered to a pymap inbox, one pass of
``process_inbox``, and what it sent read back from aiosmtpd, pass by pass."""

from __future__ import annotations

import email
from email import policy
from email.message import EmailMessage
from typing import Any

from pbem.mail.inbound import ImapInbox
from pbem.mail.outbound import SmtpSender
from pbem.ops import api
from pbem.settings.host import Host
from pbem.store import SessionFactory


def parsed(raw: bytes) -> EmailMessage:
    msg = email.message_from_bytes(raw, policy=policy.default)
    assert isinstance(msg, EmailMessage)
    return msg


class Wire:
    """Runs passes; each returns (recipient, subject) of every mail that pass sent."""

    def __init__(self, factory: SessionFactory, host: Host, imap: Any, smtp: Any) -> None:
        self.factory, self.host, self.imap, self.smtp = factory, host, imap, smtp
        self.seen = 0

    def run(self, *mails: bytes) -> list[tuple[str, str]]:
        """Deliver ``mails`` to the inbox, run one pass; what it sent."""
        for raw in mails:
            self.imap.deliver(raw)
        api.process_inbox(self.factory, ImapInbox(self.imap.settings),
                          SmtpSender(self.smtp.settings), self.host)
        new = self.smtp.received[self.seen:]
        self.seen = len(self.smtp.received)
        return [(to, str(parsed(r.raw)["Subject"])) for r in new for to in r.rcpt_tos]
