"""pymap, a real IMAP server, in-process on 127.0.0.1 (for tests and benches).

Its dict backend keeps the mail in memory; ``PymapServer(whole_responses=True)`` writes each
response whole and announces in IDLE what came just before it, so IDLE is reliable; stock
pymap (``whole_responses=False``) writes in pieces that can make imapclient's ``idle_check``
abort.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from argparse import Namespace
from typing import Any

from imapclient import IMAPClient

from pbem.mail.reading import read_message
from pbem.mail.settings import ImapSettings

os.environ.setdefault("FQDN", "localhost")  # pymap's greeting would call getfqdn() per login

IMAP_USER = "gm"
IMAP_PASSWORD = "gm-imap-pass"


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
        append_to(self.client(), folder, raw)

    def messages(self, folder: str = "INBOX") -> list[bytes]:
        """The raw messages now in ``folder`` (not deleted), oldest first."""
        return folder_messages(self.client(), folder)

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


def folder_messages(client: IMAPClient, folder: str) -> list[bytes]:
    """The raw messages now in ``folder`` (not deleted), oldest first; logs the client out."""
    with contextlib.closing(_Logout(client)) as c:
        if not c.client.folder_exists(folder):
            return []
        c.client.select_folder(folder, readonly=True)
        uids = sorted(c.client.search(["UNDELETED"]))
        data = c.client.fetch(uids, ["BODY.PEEK[]"]) if uids else {}
        return [data[u][b"BODY[]"] for u in uids]


def append_to(client: IMAPClient, folder: str, raw: bytes) -> None:
    """Put a message into ``folder`` (made if missing) by IMAP APPEND; logs the client out."""
    with contextlib.closing(_Logout(client)) as c:
        if not c.client.folder_exists(folder):
            c.client.create_folder(folder)
        c.client.append(folder, raw)


def message_ids(raws: list[bytes]) -> list[str]:
    """Each mail's Message-ID, as the host reads it."""
    return [read_message(r).message_id for r in raws]
