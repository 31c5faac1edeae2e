"""Where emails go: SMTP (aiosmtplib) or a Maildir people can read (the embedded default)."""

from __future__ import annotations

import asyncio
import mailbox
from email.message import EmailMessage
from pathlib import Path
from typing import Protocol

import aiosmtplib

from pbem.mail.settings import SmtpSettings


class SendError(Exception):
    """Sending failed. ``transient`` errors (4xx, connection) are retried; others are not."""

    def __init__(self, message: str, transient: bool = True) -> None:
        super().__init__(message)
        self.transient = transient


class Sender(Protocol):
    def send(self, msg: EmailMessage) -> None: ...


class MaildirSender:
    """Writes each email into a Maildir: the demo's outbox, readable by any mail client."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.box = mailbox.Maildir(self.path, create=True)

    def send(self, msg: EmailMessage) -> None:
        try:
            self.box.add(bytes(msg))
        except OSError as exc:
            raise SendError(f"cannot write to {self.path}: {exc}", transient=True) from exc


class SmtpSender:
    """Sends over SMTP with TLS, STARTTLS or neither, authenticating when a user is set."""

    def __init__(self, settings: SmtpSettings) -> None:
        self.settings = settings

    async def _send(self, msg: EmailMessage) -> None:
        s = self.settings
        await aiosmtplib.send(
            msg,
            hostname=s.host,
            port=s.port,
            username=s.user,
            password=s.password,
            use_tls=s.security == "tls",
            start_tls=s.security == "starttls",
            timeout=s.timeout,
        )

    def send(self, msg: EmailMessage) -> None:
        try:
            asyncio.run(self._send(msg))
        except aiosmtplib.SMTPResponseException as exc:
            transient = 400 <= exc.code < 500
            raise SendError(f"SMTP {exc.code}: {exc.message}", transient=transient) from exc
        except (aiosmtplib.SMTPException, OSError, TimeoutError) as exc:
            raise SendError(f"SMTP unavailable: {exc}", transient=True) from exc
