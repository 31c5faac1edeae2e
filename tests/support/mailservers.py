"""Real IMAP/SMTP servers on 127.0.0.1 for tests (pymap, aiosmtpd, Dovecot).

Loaded as a pytest plugin by tests/conftest.py, so these fixtures are visible everywhere:

- ``imap_server``: pymap (in-memory) with responses written whole and IDLE announcing what
  came just before it, so IDLE is reliable; ``imap_server_unpatched``: stock pymap, whose
  piecewise writes can break ``idle_check``.
- ``smtp_server``: aiosmtpd requiring AUTH (``smtp_server.settings`` carries the login);
  ``make_smtp_server(auth=False)`` for an open one. ``.messages`` holds what was received,
  ``.refuse(...)`` simulates an outage with 451 replies.
- ``dovecot_server``: Debian Dovecot (IMAP + LMTP), skipped where it is not installed.

Each server exposes ``settings`` for the product's own transports.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import smtplib
import socket
import ssl
import subprocess
import tempfile
import threading
import time
from argparse import Namespace
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword
from imapclient import IMAPClient

from pbem.mail.settings import ImapSettings, SmtpSettings

os.environ.setdefault("FQDN", "localhost")  # pymap's greeting would call getfqdn() per login

IMAP_USER = "gm"
IMAP_PASSWORD = "gm-imap-pass"
SMTP_USER = "mailer"
SMTP_PASSWORD = "mailer-smtp-pass"


# -- IMAP: pymap --------------------------------------------------------------------------------


class _Collect:
    """A stand-in stream that gathers what a pymap response writes."""

    def __init__(self) -> None:
        self.parts: list[bytes] = []

    def write(self, data: Any) -> None:
        self.parts.append(bytes(data))


def _whole_writing_server(login: Any, config: Any) -> Any:
    """An IMAPServer whose connections write each response in one piece.

    Stock pymap writes a FETCH response in several socket writes; imapclient's non-blocking
    ``idle_check`` then sometimes reads half a line and raises ``IMAP4.abort`` (imapclient
    issue #519). Tests of anything but that failure use this server.

    Its IDLE also reports what changed since the client's last command before it waits, as
    Dovecot does. Stock pymap waits for the next change first, so a mail that lands between
    a client's SEARCH and its IDLE stays unannounced until another mail comes: a race the
    product cannot close on such a server, and which made tests on a loaded machine wait for
    a reply for as long as the product's IDLE slice.
    """
    from pymap.imap import IMAPConnection, IMAPServer
    from pymap.imap.state import ConnectionState

    class PromptIdleState(ConnectionState):
        _announced_for: object = None

        async def receive_updates(self, cmd: Any, done: Any) -> Any:
            if self._announced_for is not cmd:  # the first look of this IDLE: no waiting
                self._announced_for = cmd
                selected = await self.session.check_mailbox(self.selected)
                self._selected, untagged = selected.fork(cmd)
                untagged = list(untagged)
                if untagged:
                    return untagged
            return await super().receive_updates(cmd, done)

    class WholeConnection(IMAPConnection):
        async def write_response(self, resp: Any) -> None:
            out = _Collect()
            try:
                await resp.async_write(out)
                self.writer.write(b"".join(out.parts))
                await self.writer.drain()
            except ConnectionError:
                pass

    class WholeServer(IMAPServer):
        async def __call__(self, reader: Any, writer: Any, sock_info: Any) -> None:
            from contextlib import AsyncExitStack, closing

            from pymap.context import connection_exit

            conn = WholeConnection(self.commands, self._config, reader, writer, sock_info)
            state = PromptIdleState(self._login, self._config)
            async with AsyncExitStack() as stack:
                connection_exit.set(stack)
                stack.enter_context(closing(conn))
                await conn.run(state)

    return WholeServer(login, config)


class PymapServer:
    """pymap with its dict backend, on its own event loop in a background thread."""

    def __init__(self, *, whole_responses: bool = True) -> None:
        self.host = "127.0.0.1"
        self.port = 0
        self.user = IMAP_USER
        self.password = IMAP_PASSWORD
        self.whole_responses = whole_responses
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True,
                                        name="pymap")
        self._writers: set[asyncio.StreamWriter] = set()
        self._server: asyncio.AbstractServer | None = None
        self._backend: Any = None

    def _run(self, coro: Any, timeout: float = 60.0) -> Any:  # generous: a loaded CI box
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(timeout)

    def start(self) -> PymapServer:
        self._thread.start()
        self._run(self._start())
        return self

    async def _start(self) -> None:
        from proxyprotocol.reader import ProxyProtocolReader
        from pymap.backend.dict import DictBackend
        from pymap.imap import IMAPServer
        from pysasl.hashing import Cleartext

        args = Namespace(host=self.host, port=0, debug=False, cert=None, key=None, tls=False,
                         passlib_cfg=None, proxy_protocol=None, demo_data=False,
                         demo_user=self.user, demo_password=self.password)
        backend, config = await DictBackend.init(args, invalid_user_sleep=0,
                                                 hash_context=Cleartext(),
                                                 reject_dnsbl=False)
        config.apply_context()
        self._backend = backend
        imap = (_whole_writing_server if self.whole_responses else IMAPServer)(
            backend.login, config)
        inner = ProxyProtocolReader(config.proxy_protocol).get_callback(imap)

        async def tracked(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            # The proxy-protocol reader runs the connection as a separate task, so the
            # writer is only forgotten once it is closed (see drop_connections).
            self._writers.add(writer)
            await inner(reader, writer)

        self._server = await asyncio.start_server(tracked, self.host, 0)
        self.port = self._server.sockets[0].getsockname()[1]

    def add_user(self, login: str, password: str) -> None:
        """Another mailbox owner, e.g. a second game host."""
        from pymap.backend.dict import Identity
        from pymap.user import UserMetadata

        async def add() -> None:
            config = self._backend.config
            identity = Identity(login, self._backend.login, None, frozenset())
            await identity.set(UserMetadata(config, login, password=password))

        self._run(add())

    @property
    def settings(self) -> ImapSettings:
        """Settings for the product's ImapInbox, as the game master's mailbox."""
        return ImapSettings(host=self.host, port=self.port, user=self.user,
                            password=self.password, security="none", timeout=10.0)

    def client(self) -> IMAPClient:
        client = IMAPClient(self.host, port=self.port, ssl=False, timeout=10)
        client.login(self.user, self.password)
        return client

    def deliver(self, raw: bytes, folder: str = "INBOX") -> None:
        """Put a message into ``folder`` as a mail server would (IMAP APPEND)."""
        with contextlib.closing(_Logout(self.client())) as c:
            if not c.client.folder_exists(folder):
                c.client.create_folder(folder)
            c.client.append(folder, raw)

    def messages(self, folder: str = "INBOX") -> list[bytes]:
        """The raw messages now in ``folder`` (not deleted), oldest first."""
        with contextlib.closing(_Logout(self.client())) as c:
            if not c.client.folder_exists(folder):
                return []
            c.client.select_folder(folder, readonly=True)
            uids = sorted(c.client.search(["UNDELETED"]))
            data = c.client.fetch(uids, ["BODY.PEEK[]"]) if uids else {}
            return [data[u][b"BODY[]"] for u in uids]

    def drop_connections(self) -> int:
        """Cut every client connection at once, as a crashing server or a NAT timeout would."""

        async def drop() -> int:
            live = [w for w in self._writers if not w.transport.is_closing()]
            for w in live:
                w.transport.abort()
            self._writers.clear()
            return len(live)

        count: int = self._run(drop())
        return count

    def stop(self) -> None:
        """Close the listener and every connection; safe to call twice."""
        if self._loop.is_closed():
            return

        async def close() -> None:
            for w in list(self._writers):
                w.transport.abort()
            if self._server is not None:
                self._server.close()

        self._run(close(), timeout=30)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)
        if not self._thread.is_alive():
            self._loop.close()


class _Logout:
    """closing() adapter: log out of a helper IMAP connection."""

    def __init__(self, client: IMAPClient) -> None:
        self.client = client

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.client.logout()


def pytest_configure(config: pytest.Config) -> None:
    # The test SMTP server takes AUTH without TLS on purpose (127.0.0.1 only).
    config.addinivalue_line("filterwarnings",
                            "ignore:Requiring AUTH while not requiring TLS:UserWarning")


@pytest.fixture
def imap_server() -> Iterator[PymapServer]:
    """pymap, patched to write each response whole (reliable IDLE)."""
    server = PymapServer(whole_responses=True).start()
    yield server
    server.stop()


@pytest.fixture
def imap_server_unpatched() -> Iterator[PymapServer]:
    """Stock pymap: its IDLE updates can arrive in pieces and make imapclient abort."""
    server = PymapServer(whole_responses=False).start()
    yield server
    server.stop()


# -- SMTP: aiosmtpd -----------------------------------------------------------------------------


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


@pytest.fixture
def make_smtp_server() -> Iterator[Callable[..., SmtpTestServer]]:
    """Start SMTP servers on demand: ``make_smtp_server(auth=False)``."""
    started: list[SmtpTestServer] = []

    def make(*, auth: bool = True, smtputf8: bool = False) -> SmtpTestServer:
        server = SmtpTestServer(auth=auth, smtputf8=smtputf8).start()
        started.append(server)
        return server

    yield make
    for server in started:
        server.stop()


@pytest.fixture
def smtp_server(make_smtp_server: Callable[..., SmtpTestServer]) -> SmtpTestServer:
    """An SMTP server that requires AUTH; ``.settings`` carries the right login."""
    return make_smtp_server(auth=True)


# -- IMAP: Dovecot ------------------------------------------------------------------------------

DOVECOT = shutil.which("dovecot") or ("/usr/sbin/dovecot" if os.path.exists("/usr/sbin/dovecot")
                                      else None)

_DOVECOT_CONF = """\
instance_name = pbem-test-{tag}
base_dir = {d}/run
state_dir = {d}/state
log_path = {d}/dovecot.log
protocols = imap lmtp
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:~/Maildir
namespace inbox {{
  inbox = yes
  separator = /
}}
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {d}/users
}}
userdb {{
  driver = static
  args = uid=nobody gid=nogroup home={d}/mail/%u
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {imap_port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
service lmtp {{
  inet_listener lmtp {{
    address = 127.0.0.1
    port = {lmtp_port}
  }}
}}
protocol lmtp {{
  postmaster_address = postmaster@example.test
}}
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class DovecotServer:
    """A private Dovecot instance (IMAP + LMTP) in a short temp dir; stopped by its own pid."""

    def __init__(self) -> None:
        assert DOVECOT is not None
        self.host = "127.0.0.1"
        self.user = IMAP_USER
        self.password = IMAP_PASSWORD
        # Unix socket paths must stay under 108 characters: pytest's tmp_path may be too long.
        self.dir = Path(tempfile.mkdtemp(prefix="pbem-dc-", dir="/tmp"))
        self.port = _free_port()
        self.lmtp_port = _free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> DovecotServer:
        d = self.dir
        d.chmod(0o755)
        (d / "mail").mkdir()
        shutil.chown(d / "mail", "nobody", "nogroup")
        (d / "users").write_text(f"{self.user}:{{PLAIN}}{self.password}\n")
        conf = d / "dovecot.conf"
        conf.write_text(_DOVECOT_CONF.format(d=d, tag=d.name, imap_port=self.port,
                                             lmtp_port=self.lmtp_port))
        self.proc = subprocess.Popen([str(DOVECOT), "-F", "-c", str(conf)],
                                     start_new_session=True, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"dovecot exited: {self.log()}")
            with contextlib.suppress(OSError), socket.create_connection(
                    (self.host, self.port), timeout=1) as s:
                if s.recv(100).startswith(b"* OK"):
                    return self
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"dovecot did not answer on {self.port}: {self.log()}")

    def log(self) -> str:
        path = self.dir / "dovecot.log"
        return path.read_text(errors="replace")[-2000:] if path.exists() else ""

    @property
    def settings(self) -> ImapSettings:
        return ImapSettings(host=self.host, port=self.port, user=self.user,
                            password=self.password, security="none", timeout=10.0)

    def deliver(self, raw: bytes, folder: str = "INBOX") -> None:
        """Deliver like an MTA would: over LMTP (into INBOX), else by IMAP APPEND."""
        if folder == "INBOX":
            with smtplib.LMTP(self.host, self.lmtp_port) as lmtp:
                lmtp.sendmail("sender@players.test", [self.user], raw)
            return
        with contextlib.closing(_Logout(self.client())) as c:
            if not c.client.folder_exists(folder):
                c.client.create_folder(folder)
            c.client.append(folder, raw)

    def client(self) -> IMAPClient:
        client = IMAPClient(self.host, port=self.port, ssl=False, timeout=10)
        client.login(self.user, self.password)
        return client

    def messages(self, folder: str = "INBOX") -> list[bytes]:
        with contextlib.closing(_Logout(self.client())) as c:
            if not c.client.folder_exists(folder):
                return []
            c.client.select_folder(folder, readonly=True)
            uids = sorted(c.client.search(["UNDELETED"]))
            data = c.client.fetch(uids, ["BODY.PEEK[]"]) if uids else {}
            return [data[u][b"BODY[]"] for u in uids]

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)  # the group this fixture started
                self.proc.wait(5)
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture
def dovecot_server() -> Iterator[DovecotServer]:
    """Debian's Dovecot, private to this test; skipped where Dovecot is not installed."""
    if DOVECOT is None:
        pytest.skip("Dovecot is not installed (apt-get install dovecot-imapd dovecot-lmtpd)")
    server = DovecotServer().start()
    yield server
    server.stop()
