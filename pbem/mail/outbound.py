"""Where emails go: SMTP (aiosmtplib) or a Maildir people can read (the embedded default)."""

from __future__ import annotations

import asyncio
import itertools
import mailbox
import os
import re
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from email import policy
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from pathlib import Path
from typing import Protocol

import aiosmtplib
from aiosmtplib import SMTPStatus
from aiosmtplib.email import extract_recipients, extract_sender, parse_address

from pbem.mail.compose import seven_bit_head
from pbem.mail.settings import SmtpSettings
from pbem.mail.smtp_connect import open_smtp


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


# One address as pbem writes it: ``Name <a@b>``, ``"Name, quoted" <a@b>`` or ``a@b`` (the
# name in UTF-8 or an RFC 2047 encoded word; the address ASCII). Anything else (comments,
# groups, several addresses, a quoted local part) is left to the full parser.
_ADDR = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+@[A-Za-z0-9.-]+"
_SIMPLE = re.compile(
    rf'\s*(?:(?:"(?:[^"\\]|\\.)*"\s*|[^"<>()\[\]\\,;:@]*)<({_ADDR})>|({_ADDR}))\s*')
_UNFOLD = re.compile(rb"\r?\n[ \t]")
# Lines end as the email parser ends them (not str.splitlines: \x0c or \u2028 end nothing
# there), and a header's name is printable ASCII without a colon or a space (RFC 5322 ftext).
_LINE_END = re.compile(r"\r\n|\r|\n")
_FIELD = re.compile(r"[\x21-\x39\x3b-\x7e]+")
_ENVELOPE_HEADERS = {"from", "to", "cc", "bcc"}


def _simple_envelope(head: bytes) -> tuple[str, list[str]] | None:
    """The envelope of a header block whose From, To, Cc and Bcc each hold one plain address
    (every mail pbem composes); None for anything else. The same answer as the full
    parser's (tests/mail/test_envelope.py), at a fraction of its cost per mail."""
    try:
        lines = _LINE_END.split(_UNFOLD.sub(b" ", head).decode("utf-8").rstrip("\r\n"))
    except UnicodeDecodeError:
        return None
    found: dict[str, list[str]] = {}
    for line in lines:
        name, colon, value = line.partition(":")
        if not colon or not _FIELD.fullmatch(name):  # a blank line, "To :", a stray byte...
            return None  # ... whatever the parser makes of it, it decides
        key = name.lower()
        if key.startswith("resent-") or key == "sender":  # other rules: the full parser
            return None
        if key in _ENVELOPE_HEADERS:
            simple = _SIMPLE.fullmatch(value)
            if simple is None:
                return None
            found.setdefault(key, []).append(simple.group(1) or simple.group(2))
    senders = found.get("from", [])
    recipients = [a for key in ("to", "cc", "bcc") for a in found.get(key, [])]
    if len(senders) != 1 or not recipients:
        return None
    return senders[0], recipients


def _head(raw: bytes) -> bytes:
    """A mail's header block (up to its first blank line)."""
    end = min((i for i in (raw.find(b"\r\n\r\n"), raw.find(b"\n\n")) if i >= 0),
              default=len(raw))
    return raw[:end]


def envelope(raw: bytes) -> tuple[str, list[str]]:
    """The envelope sender and recipients of a composed mail, read as aiosmtplib reads them
    from a message, but from its headers alone: the body is never parsed, and the bytes go
    out as they were stored."""
    head = _head(raw)
    simple = _simple_envelope(head)
    if simple is not None:
        return simple
    parsed = BytesHeaderParser(policy=policy.default).parsebytes(head)
    assert isinstance(parsed, EmailMessage)
    return extract_sender(parsed) or "", extract_recipients(parsed)


def send_bytes(sender: Sender, raw: bytes) -> None:
    """Send a composed mail as stored: without parsing and re-serialising it where the
    sender can (``send_bytes``), else through :meth:`Sender.send`."""
    direct = getattr(sender, "send_bytes", None)
    if direct is not None:
        direct(raw)
    else:
        sender.send(_parsed(raw))


def _parsed(raw: bytes) -> EmailMessage:
    import email

    msg = email.message_from_bytes(raw, policy=policy.default)
    assert isinstance(msg, EmailMessage)
    return msg


def wire_size(raw: bytes) -> int | None:
    """How many bytes DATA puts on the wire for ``raw`` (every line end made CRLF, a last one
    added), counted instead of built; None when a lone CR makes the count unsure."""
    crlf = 0
    if b"\r" in raw:  # stored mail is LF-ended: no count needed
        crlf = raw.count(b"\r\n")
        if raw.count(b"\r") != crlf:
            return None
    size = len(raw) + raw.count(b"\n") - crlf
    return size if raw.endswith(b"\n") else size + 2


async def _transaction(smtp: aiosmtplib.SMTP, sender: str, recipients: list[str], raw: bytes,
                       options: list[str]) -> None:
    """``smtp.sendmail`` with the message's SIZE given, not worked out by converting a copy
    of the whole mail's line ends (aiosmtplib converts them again for DATA): the same
    commands, checks and refusals. On any error the caller drops the connection, so no RSET."""
    encoding = "utf-8" if "SMTPUTF8" in options else "ascii"
    for address in (sender, *recipients):  # all checked before any command, as sendmail does
        parse_address(address)
    if encoding == "utf-8" and not smtp.supports_extension("smtputf8"):
        raise aiosmtplib.SMTPNotSupported("SMTPUTF8 is not supported by this server")
    await smtp.mail(sender, options=options, encoding=encoding)
    refused = []
    for address in recipients:
        try:
            await smtp.rcpt(address, encoding=encoding)
        except aiosmtplib.SMTPRecipientRefused as exc:
            refused.append(exc)
    if len(refused) == len(recipients):
        raise aiosmtplib.SMTPRecipientsRefused(refused)
    wire = data_wire(raw)
    if wire is None:
        await smtp.data(raw)
    else:
        await _data(smtp, wire)


def data_wire(raw: bytes) -> bytes | None:
    """What DATA puts on the wire for ``raw`` (after the command), as aiosmtplib writes it:
    every line end made CRLF, a last one added, each line that starts with a dot given
    another, then the lone dot that ends it. Made by two replaces where ``raw`` has no CR (a
    stored mail is LF-ended) instead of aiosmtplib's two regular expressions over the whole
    mail (some 0.6 ms of a 70 kB mail); None where a CR makes it aiosmtplib's to do."""
    if b"\r" in raw:
        return None
    wire = raw.replace(b"\n", b"\r\n")
    if not wire.endswith(b"\r\n"):
        wire += b"\r\n"
    wire = wire.replace(b"\n.", b"\n..")
    return (b"." + wire if wire.startswith(b".") else wire) + b".\r\n"


async def _data(smtp: aiosmtplib.SMTP, wire: bytes) -> None:
    """``smtp.data`` with the message already as :func:`data_wire` makes it: the DATA command,
    the bytes written as they are, the server's answer. The answer is awaited right after
    the write, before the event loop can hand it to the protocol, so it is never missed."""
    start = await smtp.execute_command(b"DATA")
    if start.code != SMTPStatus.start_input:
        raise aiosmtplib.SMTPDataError(start.code, start.message)
    protocol = smtp.protocol
    if protocol is None:
        raise aiosmtplib.SMTPServerDisconnected("Connection lost")
    protocol.write(wire)
    try:
        done = await protocol.read_response(timeout=smtp.timeout)
    except (aiosmtplib.SMTPServerDisconnected, aiosmtplib.SMTPTimeoutError):
        smtp.close()  # as smtp.data does: an answer given up on must not meet the next command
        raise
    if done.code != SMTPStatus.completed:
        raise aiosmtplib.SMTPDataError(done.code, done.message)


@contextmanager
def one_connection(sender: Sender) -> Iterator[None]:
    """Let ``sender`` keep one connection for everything sent inside (an outbox pass)."""
    opened = getattr(sender, "session", None)
    if opened is None:
        yield
        return
    with opened():
        yield


class MaildirSender:
    """Writes each email into a Maildir: the demo's outbox, readable by any mail client."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.box = mailbox.Maildir(self.path, create=True)

    def send(self, msg: EmailMessage) -> None:
        self.send_bytes(bytes(msg))

    def send_bytes(self, raw: bytes) -> None:
        """Written in tmp/, synced, then renamed into new/ (the Maildir way: a reader never
        sees half a mail). Unlike ``mailbox.Maildir.add``, a failed write (a full disk fails
        at the flush) leaves nothing behind in tmp/."""
        tmp = self.path / "tmp" / _unique_name()
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except OSError as exc:
            raise SendError(f"cannot write to {self.path}: {exc}", transient=True) from exc
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(raw)
                fh.flush()
                os.fsync(fh.fileno())
            os.rename(tmp, self.path / "new" / tmp.name)
        except OSError as exc:
            raise SendError(f"cannot write to {self.path}: {exc}", transient=True) from exc
        finally:
            tmp.unlink(missing_ok=True)


_delivered = itertools.count(1)


def _unique_name() -> str:
    """A Maildir file name as ``mailbox.Maildir`` makes it: the second, microsecond, process
    and a counter, then the host (``/`` and ``:`` escaped)."""
    now = time.time()
    host = socket.gethostname().replace("/", r"\057").replace(":", r"\072")
    return f"{int(now)}.M{int(now % 1 * 1e6)}P{os.getpid()}Q{next(_delivered)}.{host}"


class SmtpSender:
    """Sends over SMTP with TLS, STARTTLS or neither, authenticating when a user is set.

    Alone, each send is one connection. Inside :meth:`session` (one outbox pass) the mails
    share one connection and one event loop; after any failure the connection is dropped and
    the next mail opens a fresh one, so a half-broken session is never reused, and the failed
    mail is left to the outbox's retry (never resent here: the server may have taken it).
    """

    def __init__(self, settings: SmtpSettings) -> None:
        self.settings = settings
        self._runner: asyncio.Runner | None = None
        self._smtp: aiosmtplib.SMTP | None = None

    @contextmanager
    def session(self) -> Iterator[None]:
        if self._runner is not None:  # nested: the outer session keeps the connection
            yield
            return
        self._runner = asyncio.Runner()
        try:
            yield
        finally:
            runner, self._runner = self._runner, None
            try:
                if self._smtp is not None:
                    runner.run(self._quit())
            finally:
                runner.close()

    async def _connect(self) -> aiosmtplib.SMTP:
        s = self.settings
        # start_tls=False (not None) for "none": never upgrade behind the operator's back.
        return await open_smtp(s, username=s.user, password=s.password,
                               start_tls=s.security == "starttls")

    async def _quit(self) -> None:
        smtp, self._smtp = self._smtp, None
        if smtp is not None and smtp.is_connected:
            try:
                await smtp.quit()
            except (aiosmtplib.SMTPException, OSError, TimeoutError):
                smtp.close()

    async def _deliver(self, msg: EmailMessage | None, raw: bytes | None) -> None:
        if self._smtp is None or not self._smtp.is_connected:
            self._smtp = await self._connect()
        smtp = self._smtp
        try:
            if raw is not None:
                await smtp._ehlo_or_helo_if_needed()
                # isascii, not max(raw): one C pass instead of ~100,000 ints (~5 ms a mail)
                if not raw.isascii() and not smtp.supports_extension("8BITMIME"):
                    msg, raw = _parsed(raw), None  # re-encode 8-bit parts for this server
            if raw is not None:
                sender, recipients = envelope(raw)
                if not sender or not recipients:  # as aiosmtplib's send_message refuses
                    raise ValueError("No From, or no recipient headers, in the message")
                options = ["BODY=8BITMIME"] if smtp.supports_extension("8BITMIME") else []
                if not (sender + "".join(recipients)).isascii():
                    options.append("SMTPUTF8")
                elif not _head(raw).isascii():  # 8-bit headers only under SMTPUTF8
                    if smtp.supports_extension("SMTPUTF8"):
                        options.append("SMTPUTF8")
                    else:
                        raw = seven_bit_head(raw)
                size = wire_size(raw) if smtp.supports_extension("SIZE") else None
                if size is None:
                    await smtp.sendmail(sender, recipients, raw, mail_options=options)
                else:
                    await _transaction(smtp, sender, recipients, raw, [f"SIZE={size}", *options])
            else:
                assert msg is not None
                await smtp.send_message(msg)
        except BaseException:
            await self._quit()
            raise
        if self._runner is None:  # no session: one connection per mail
            await self._quit()

    def send(self, msg: EmailMessage) -> None:
        self._run(msg, None)

    def send_bytes(self, raw: bytes) -> None:
        self._run(None, raw)

    def _run(self, msg: EmailMessage | None, raw: bytes | None) -> None:
        where = f"{self.settings.host}:{self.settings.port}"
        try:
            if self._runner is not None:
                self._runner.run(self._deliver(msg, raw))
            else:
                asyncio.run(self._deliver(msg, raw))
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
