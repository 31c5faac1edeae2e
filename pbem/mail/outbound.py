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
    """Somewhere to hand finished emails to."""

    def send(self, msg: EmailMessage) -> None:
        """Deliver ``msg`` to its To/Cc addresses or raise :class:`SendError`."""
        ...


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
    """Sends over SMTP with TLS, STARTTLS or neither, authenticating when a user is set.

    Each send is one connection: the outbox is small and sent in bursts, and a fresh
    connection never inherits a half-broken session from an earlier outage.
    """

    def __init__(self, settings: SmtpSettings) -> None:
        self.settings = settings

    async def _send(self, msg: EmailMessage) -> None:
        s = self.settings
        # start_tls=False (not None) for "none": never upgrade behind the operator's back.
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
        where = f"{self.settings.host}:{self.settings.port}"
        try:
            asyncio.run(self._send(msg))
        except aiosmtplib.SMTPRecipientsRefused as exc:
            # Transient only if every refusal was; one unknown address is a permanent fault.
            codes = [r.code for r in exc.recipients]
            detail = "; ".join(f"{r.recipient}: {r.code} {r.message}" for r in exc.recipients)
            raise SendError(f"SMTP {where} refused the recipients ({detail})",
                            transient=all(400 <= c < 500 for c in codes)) from exc
        except aiosmtplib.SMTPAuthenticationError as exc:
            raise SendError(f"SMTP {where} refused the login as {self.settings.user!r}: "
                            f"{exc.code} {exc.message}", transient=False) from exc
        except aiosmtplib.SMTPResponseException as exc:
            raise SendError(f"SMTP {where} answered {exc.code} {exc.message}",
                            transient=400 <= exc.code < 500) from exc
        except aiosmtplib.SMTPNotSupported as exc:  # e.g. no STARTTLS or AUTH: a config fault
            raise SendError(f"SMTP {where}: {exc}", transient=False) from exc
        except (aiosmtplib.SMTPException, OSError, TimeoutError) as exc:
            raise SendError(f"SMTP {where} unreachable: {exc}", transient=True) from exc
