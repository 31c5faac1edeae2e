"""aiosmtpd, a real SMTP server, in-process on 127.0.0.1 (for tests and benches).

``SmtpTestServer(auth=...)`` keeps every message it accepts (``received``, with the time each
arrived, and ``messages``); ``refuse(...)`` simulates an outage with 451 replies.
"""

from __future__ import annotations

import asyncio
import ssl
import time
from dataclasses import dataclass, field
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

from pbem.mail.settings import SmtpSettings

SMTP_USER = "mailer"
SMTP_PASSWORD = "mailer-smtp-pass"



@dataclass
class Received:
    mail_from: str
    rcpt_tos: list[str]
    raw: bytes
    at: float = field(default_factory=time.perf_counter)  # when it arrived (benches' latency)
    mail_options: list[str] = field(default_factory=list)  # MAIL FROM's, e.g. SMTPUTF8
    ehlo: str = ""  # the name the client greeted with


@dataclass
class _Handler:
    """Keeps every accepted message; answers 451 while an outage is simulated."""

    received: list[Received] = field(default_factory=list)
    reject_rcpt: set[str] = field(default_factory=set)
    refuse_until: float = 0.0
    refuse_left: int = 0
    refused: int = 0

    def _refusing(self) -> bool:
        if self.refuse_left > 0:
            self.refuse_left -= 1
            return True
        return time.monotonic() < self.refuse_until

    async def handle_MAIL(self, server: Any, session: Any, envelope: Any, address: str,
                          mail_options: list[str]) -> str:
        if self._refusing():
            self.refused += 1
            return "451 4.3.0 Mail server temporarily unavailable, try again later"
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str,
                          rcpt_options: list[str]) -> str:
        if address.lower() in self.reject_rcpt:
            return "550 5.1.1 No such user here"
        envelope.rcpt_tos.append(address)
        envelope.rcpt_options.extend(rcpt_options)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        content = envelope.original_content or envelope.content
        raw = content if isinstance(content, bytes) else str(content).encode()
        self.received.append(Received(envelope.mail_from, list(envelope.rcpt_tos), raw,
                                      mail_options=list(envelope.mail_options),
                                      ehlo=str(session.host_name or "")))
        return "250 Message accepted for delivery"


class _PortZeroController(Controller):
    """aiosmtpd's Controller bound to port 0: learn the real port before the self-check."""

    def _trigger_server(self) -> None:
        assert isinstance(self.server, asyncio.Server)
        self.port = self.server.sockets[0].getsockname()[1]
        super()._trigger_server()


class SmtpTestServer:
    """aiosmtpd on 127.0.0.1, optionally requiring AUTH (PLAIN/LOGIN) or STARTTLS, offering
    SMTPUTF8 only when asked to."""

    def __init__(self, *, auth: bool, smtputf8: bool = False,
                 tls_context: ssl.SSLContext | None = None) -> None:
        self.host = "127.0.0.1"
        self.auth = auth
        self.smtputf8 = smtputf8
        self.user = SMTP_USER if auth else None
        self.password = SMTP_PASSWORD if auth else None
        self.handler = _Handler()
        self.tls_context = tls_context
        self.controller = _PortZeroController(self.handler, hostname=self.host, port=0,
                                              ready_timeout=60, **self._options())

    def _options(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"enable_SMTPUTF8": self.smtputf8}
        if self.auth:
            kwargs.update(authenticator=self._authenticate, auth_required=True,
                          auth_require_tls=False)
        if self.tls_context is not None:  # offers STARTTLS and takes no mail without it
            kwargs.update(tls_context=self.tls_context, require_starttls=True)
        return kwargs

    def _authenticate(self, server: Any, session: Any, envelope: Any, mechanism: str,
                      auth_data: Any) -> AuthResult:
        ok = (isinstance(auth_data, LoginPassword)
              and auth_data.login == (self.user or "").encode()
              and auth_data.password == (self.password or "").encode())
        return AuthResult(success=ok, handled=False)

    @property
    def port(self) -> int:
        port: int = self.controller.port
        return port

    def start(self) -> SmtpTestServer:
        self.controller.start()
        return self

    def stop(self) -> None:
        """Stop listening (an outage); safe to call twice."""
        if self.controller._thread is not None:
            self.controller.stop()

    def restart(self) -> SmtpTestServer:
        """Back after :meth:`stop`, on the same port, keeping what it received (a stopped
        aiosmtpd controller cannot start again, so a new one takes the port)."""
        self.controller = _PortZeroController(self.handler, hostname=self.host, port=self.port,
                                              ready_timeout=60, **self._options())
        return self.start()

    @property
    def settings(self) -> SmtpSettings:
        return SmtpSettings(host=self.host, port=self.port, user=self.user,
                            password=self.password, security="none", timeout=10.0)

    @property
    def messages(self) -> list[bytes]:
        """Every message accepted so far, in order, with LF line ends as a local mailbox
        stores them (``received[i].raw`` keeps the CRLF bytes seen on the wire)."""
        return [r.raw.replace(b"\r\n", b"\n") for r in self.handler.received]

    @property
    def received(self) -> list[Received]:
        return list(self.handler.received)

    def reject(self, address: str) -> None:
        """Answer RCPT TO for ``address`` with a permanent 550."""
        self.handler.reject_rcpt.add(address.lower())

    def refuse(self, *, seconds: float = 0.0, count: int = 0) -> None:
        """Answer MAIL FROM with 451 for ``seconds`` and/or the next ``count`` attempts."""
        self.handler.refuse_until = time.monotonic() + seconds
        self.handler.refuse_left = count
