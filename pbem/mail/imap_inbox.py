"""An IMAP inbox (imapclient) that survives dropped connections and waits with IDLE."""

from __future__ import annotations

import contextlib
import imaplib
import logging
import socket
import ssl
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from typing import Any, TypeVar

from imapclient import IMAPClient
from imapclient.exceptions import LoginError

from pbem.mail.inbox import CLAIM_AHEAD, Claim, FetchedMail, InboxError
from pbem.mail.settings import ImapSettings

log = logging.getLogger(__name__)
T = TypeVar("T")


class _Dropped(Exception):
    """Connecting failed at the network level: worth another try."""


# Errors after which the connection is unusable: reconnect and try again. imaplib's ``abort``
# also covers garbled server responses (e.g. "unterminated line" while IDLE).
_DROPPED: tuple[type[Exception], ...] = (OSError, imaplib.IMAP4.abort, EOFError)
_RETRY: tuple[type[Exception], ...] = (*_DROPPED, _Dropped)
# Well under the 29 minutes after which servers may drop an IDLE connection (RFC 2177).
IDLE_SLICE = 25 * 60.0
FIRST_IDLE_SLICE = 1.0


def no_delay(client: IMAPClient) -> None:
    """Send each command at once (TCP_NODELAY). imapclient writes a command line and its
    CRLF in two writes (SEARCH among others): with Nagle on, the CRLF waits for the server's
    ACK of the line, which a server waiting for the CRLF delays (40 ms on Linux), so every
    such command took 40 ms more than its round trip."""
    with contextlib.suppress(OSError, AttributeError):  # not a TCP socket: nothing to tune
        client.socket().setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def _ensure_folder(client: IMAPClient, folder: str) -> None:
    """Create ``folder`` unless it exists. Workers starting together on a new mailbox all see
    it missing, and all but one are refused the CREATE: for them it now exists, as wanted."""
    if client.folder_exists(folder):
        return
    try:
        client.create_folder(folder)
    except imaplib.IMAP4.error:
        if not client.folder_exists(folder):
            raise


def _news_read_ahead(client: IMAPClient) -> bool:
    """Did the server send more than IDLE's continuation line at once?

    A server announces mail that came between our last command and IDLE (Dovecot does) right
    after the continuation. imaplib reads the socket through a buffer, so that announcement
    usually sits there already, where ``idle_check``'s poll of the socket never sees it: the
    mail would wait for the end of a 25-minute IDLE slice. Looks without blocking.
    """
    reader = getattr(client._imap, "file", None)
    peek = getattr(reader, "peek", None)
    if peek is None:  # an imaplib without a buffered reader: nothing can hide there
        return False
    sock = client.socket()
    sock.setblocking(False)
    try:
        return bool(peek(1))
    except (BlockingIOError, ssl.SSLWantReadError, TimeoutError):
        return False
    finally:
        sock.setblocking(True)


class ImapInbox:
    """An IMAP folder read by UID with ``BODY.PEEK[]``; handled mail is MOVEd to other folders.

    Keys are ``"<uidvalidity>:<uid>"``: if the server renumbers the folder, marks with old keys
    are ignored and the mail is simply fetched again (the pipeline de-duplicates by
    Message-ID). Every server call reconnects and retries after a dropped connection.
    """

    def __init__(self, settings: ImapSettings, *, batch_size: int = 20, retries: int = 3,
                 retry_delay: float = 0.5, poll_interval: float = 10.0,
                 ignore_capabilities: Collection[str] = ()) -> None:
        """``ignore_capabilities`` (e.g. ``{"MOVE"}``) works around a server whose extension
        is advertised but broken; the plain IMAP4rev1 fallbacks are used instead."""
        self.settings = settings
        self.ignore_capabilities = frozenset(c.upper() for c in ignore_capabilities)
        self.batch_size = batch_size
        self.retries = retries
        self.retry_delay = retry_delay
        self.poll_interval = poll_interval  # between checks on a server without IDLE
        self._client: IMAPClient | None = None
        self._uidvalidity = 0
        self._caps: frozenset[str] = frozenset()
        self.reconnects = 0  # how often a dropped connection was re-opened (for tests, logs)

    # -- connection -------------------------------------------------------------------------

    def _connect(self) -> IMAPClient:
        s = self.settings
        context = ssl.create_default_context() if s.security != "none" else None
        try:
            client = IMAPClient(s.host, port=s.port, ssl=s.security == "tls",
                                ssl_context=context, timeout=s.timeout)
        except _DROPPED as exc:
            raise _Dropped(f"cannot reach IMAP server {s.host}:{s.port}: {exc}") from exc
        no_delay(client)
        try:
            if s.security == "starttls":
                client.starttls(context)
            client.login(s.user, s.password)
            self._caps = frozenset(c.decode("ascii", "replace").upper()
                                   for c in client.capabilities()) - self.ignore_capabilities
            for folder in (s.processed_folder, s.failed_folder):
                _ensure_folder(client, folder)
            selected = self._select(client)
        except LoginError as exc:
            self._quietly_close(client)
            raise InboxError(f"IMAP login as {s.user!r} on {s.host}:{s.port} was refused",
                             "check inbound.imap user and the password in its env var or file",
                             transient=False) from exc
        except imaplib.IMAP4.abort:
            self._quietly_close(client)
            raise
        except imaplib.IMAP4.error as exc:
            self._quietly_close(client)
            raise InboxError(f"IMAP server {s.host}:{s.port} refused: {exc}",
                             "check [inbound.imap] and the mail server's log (`pbem doctor`)",
                             transient=False) from exc
        except BaseException:
            self._quietly_close(client)
            raise
        self._uidvalidity = int(selected.get(b"UIDVALIDITY", 0))
        return client

    def _select(self, client: IMAPClient) -> dict[bytes, Any]:
        """Open the orders folder; if the server refuses, say whether the folder exists."""
        s = self.settings
        try:
            return client.select_folder(s.folder)
        except imaplib.IMAP4.abort:
            raise
        except imaplib.IMAP4.error as exc:
            try:  # asked only now: a folder that exists costs no extra round trip
                there = sorted(f[2] for f in client.list_folders())
            except imaplib.IMAP4.error:
                raise exc from None
            if s.folder in there:
                raise
            raise InboxError(f"folder {s.folder!r} not found on {s.host}:{s.port} "
                             f"(there: {', '.join(there)})",
                             "set inbound.imap folder to an existing folder",
                             transient=False) from exc

    @staticmethod
    def _quietly_close(client: IMAPClient) -> None:
        with contextlib.suppress(Exception):  # already broken: nothing more to learn from it
            client.shutdown()

    def _conn(self) -> IMAPClient:
        if self._client is None:
            self._client = self._connect()
        return self._client

    def _drop(self) -> None:
        if self._client is not None:
            self._quietly_close(self._client)
            self._client = None

    def _call(self, op: Callable[[IMAPClient], T]) -> T:
        """Run ``op`` on a live connection, reconnecting after a drop (a few times)."""
        for attempt in range(self.retries + 1):
            try:
                return op(self._conn())
            except _RETRY as exc:
                self._drop()
                if attempt == self.retries:
                    raise InboxError(f"IMAP connection to {self.settings.host}:"
                                     f"{self.settings.port} keeps failing: {exc}",
                                     "check that the IMAP server runs, inbound.imap host, "
                                     "port and security, and the firewall",
                                     transient=True) from exc
                log.warning("IMAP connection dropped (%s); reconnecting", exc)
                self.reconnects += 1
                time.sleep(self.retry_delay * attempt)
        raise AssertionError("unreachable")

    # -- Inbox ------------------------------------------------------------------------------

    def fetch(self, limit: int | None = None, claim: Claim | None = None
              ) -> Iterator[FetchedMail]:
        """Bodies are read in batches, so a backlog of thousands never sits in memory at
        once; each batch is claimed first, so a body another worker took is never read."""
        uids: list[int] = sorted(self._call(lambda c: c.search(["UNDELETED"])))
        validity = self._uidvalidity
        left = len(uids) if limit is None else limit
        at = 0
        # Claimed, a worker takes only a few mails ahead of its work: mail it has claimed but
        # not yet handled cannot go to another worker, which may be idle meanwhile.
        step = min(self.batch_size, CLAIM_AHEAD) if claim is not None else self.batch_size
        while left > 0 and at < len(uids):
            batch = uids[at:at + min(step, left)]
            at += len(batch)
            if claim is not None:
                granted = claim([f"{validity}:{uid}" for uid in batch])
                batch = [uid for uid in batch if f"{validity}:{uid}" in granted]
                if not batch:
                    continue
            left -= len(batch)
            data: dict[int, dict[bytes, Any]] = self._call(
                lambda c, b=batch, s=claim is not None: self._bodies(  # type: ignore[misc]
                    c, b, sync=s))
            if self._uidvalidity != validity:  # renumbered while reconnecting: start over later
                return
            for uid in batch:
                raw = data.get(uid, {}).get(b"BODY[]")
                if isinstance(raw, bytes):  # else gone meanwhile (another worker took it)
                    yield FetchedMail(f"{validity}:{uid}", raw)

    @staticmethod
    def _bodies(c: IMAPClient, uids: list[int], *, sync: bool) -> dict[int, dict[bytes, Any]]:
        if sync:
            # Mail another worker moved before this one claimed it is still shown (body and
            # all, on Dovecot) to a session that has not yet heard of the expunge: NOOP first,
            # so such mail is seen gone and never handled twice.
            c.noop()
        return c.fetch(uids, ["BODY.PEEK[]"])

    def _uid(self, key: str) -> int | None:
        validity, _, uid = key.partition(":")
        self._conn_quiet()
        if not uid.isdigit() or not validity.isdigit() or int(validity) != self._uidvalidity:
            log.warning("IMAP key %s is stale (UIDVALIDITY is now %s); left in place",
                        key, self._uidvalidity)
            return None
        return int(uid)

    def _conn_quiet(self) -> None:
        """Make sure a connection (and so the current UIDVALIDITY) is there."""
        self._call(lambda c: None)

    def _move(self, keys: Sequence[str], folder: str) -> None:
        uids = [uid for uid in map(self._uid, keys) if uid is not None]
        if not uids:
            return

        def move(c: IMAPClient) -> None:
            try:
                self._move_now(c, uids, folder)
            except imaplib.IMAP4.abort:
                raise
            except imaplib.IMAP4.error as exc:
                # Dovecot refuses a move whose mail another session expunged ("NO
                # [EXPUNGEISSUED]"): that mail is already out of the inbox, moved by another
                # worker. Only what is really still here is moved again; a refusal for that
                # is a real one.
                here = self._still_here(c, uids)
                if here:
                    self._move_now(c, here, folder)
                log.info("IMAP: %d of %d mails to move were moved already (%s)",
                         len(uids) - len(here), len(uids), exc)

        self._call(move)

    def _move_now(self, c: IMAPClient, uids: list[int], folder: str) -> None:
        if "MOVE" in self._caps:
            c.move(uids, folder)
            return
        c.copy(uids, folder)
        c.delete_messages(uids)
        if "UIDPLUS" in self._caps:
            c.uid_expunge(uids)
        else:
            c.expunge()

    @staticmethod
    def _still_here(c: IMAPClient, uids: list[int]) -> list[int]:
        """Which of ``uids`` the folder still holds, once the session has heard of every
        expunge (NOOP): the search alone may still count mail that is gone."""
        c.noop()
        return sorted(c.search(["UID", ",".join(map(str, uids)), "UNDELETED"]))

    def mark_processed(self, key: str) -> None:
        self._move([key], self.settings.processed_folder)

    def mark_all_processed(self, keys: Sequence[str]) -> None:
        """Move several handled messages at once: one command, not one round trip each."""
        self._move(keys, self.settings.processed_folder)

    def mark_failed(self, key: str) -> None:
        self._move([key], self.settings.failed_folder)

    def wait(self, timeout: float) -> bool:
        """True at once if mail is waiting; else IDLE (or poll) until some arrives.

        The folder is searched again after every IDLE slice and every reconnect, so mail
        announced on a connection that then broke is never missed.
        """
        deadline = time.monotonic() + timeout
        # The first IDLE is short: some servers (pymap) hold back news of mail that arrived
        # just before IDLE began until IDLE ends.
        idle_slice = FIRST_IDLE_SLICE
        while True:
            if self._call(self._waiting):
                return True
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            if "IDLE" not in self._caps:
                time.sleep(min(left, self.poll_interval))
                continue
            try:
                if self._idle_once(min(left, idle_slice)):
                    return True
                idle_slice = IDLE_SLICE
            except _DROPPED as exc:
                # e.g. "unterminated line" from a server that writes responses in pieces, or
                # the server closing the link: this connection is unusable. Reconnect.
                log.warning("IMAP IDLE interrupted (%s); reconnecting", exc)
                self._drop()
                self.reconnects += 1
                time.sleep(min(self.retry_delay, max(0.0, left)))  # no busy loop on a bad server

    @staticmethod
    def _waiting(client: IMAPClient) -> bool:
        """Is there mail to fetch? Also True when the server announced new mail (EXISTS)
        alongside the search response: it arrived during the search, and would otherwise
        never be announced again while we IDLE."""
        untagged = client._imap.untagged_responses  # imaplib keeps unclaimed updates here
        untagged.pop("EXISTS", None)
        if client.search(["UNDELETED"]):
            return True
        return any(int(n) > 0 for n in untagged.pop("EXISTS", []) if bytes(n).isdigit())

    def _idle_once(self, seconds: float) -> bool:
        client = self._conn()
        client.idle()
        try:
            # News already read with IDLE's continuation is answered by DONE below.
            responses = [] if _news_read_ahead(client) else client.idle_check(timeout=seconds)
        except BaseException:
            # Stopped mid-IDLE (SIGTERM ends `pbem serve`): a LOGOUT now would wait for an
            # answer the server never gives inside IDLE, so close the link without one.
            self._drop()
            raise
        finally:
            # idle_check leaves the socket blocking with no timeout; restore ours.
            with contextlib.suppress(OSError):
                client.socket().settimeout(self.settings.timeout)
        _, more = client.idle_done()
        return any(len(r) > 1 and r[1] in (b"EXISTS", b"RECENT") for r in [*responses, *more])

    def close(self) -> None:
        if self._client is not None:
            with contextlib.suppress(Exception):  # logging out of a dead link is best effort
                self._client.logout()
            self._drop()
