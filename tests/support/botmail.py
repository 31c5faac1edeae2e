"""The bots' side of the real mail test servers: read what the host sent over SMTP (aiosmtpd),
post replies into the host's IMAP inbox (pymap) as a mail server would."""

from __future__ import annotations

from typing import Any

from pbem.ops.bots import Mail


class ServerMailroom:
    """A :class:`pbem.ops.bots.Mailroom` over the ``smtp_server`` and ``imap_server`` fixtures."""

    def __init__(self, smtp: Any, imap: Any) -> None:
        self.smtp = smtp
        self.imap = imap
        self._read = 0

    def new_mail(self) -> list[Mail]:
        got = self.smtp.messages
        new = [Mail(f"smtp#{i}", raw) for i, raw in enumerate(got[self._read:], start=self._read)]
        self._read = len(got)
        return new

    def post(self, raw: bytes) -> None:
        self.imap.deliver(raw)
