"""The IMAP inbox against a real server (pymap): fetch, move, reconnect, IDLE."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from email.message import EmailMessage

import pytest
from imapclient import IMAPClient

from pbem.mail.inbound import CLAIM_AHEAD, ImapInbox, InboxError
from pbem_testkit.imap import message_ids as ids
from tests.support.mailservers import DovecotServer, PymapServer


def order_mail(n: int, body: str = "take pink") -> bytes:
    msg = EmailMessage()
    msg["From"] = f"player{n}@players.test"
    msg["To"] = "games@host.test"
    msg["Subject"] = f"orders {n}"
    msg["Message-ID"] = f"<order-{n}@players.test>"
    msg.set_content(body)
    return bytes(msg)


@pytest.fixture
def inbox(imap_server: PymapServer) -> Iterator[ImapInbox]:
    box = ImapInbox(imap_server.settings, retry_delay=0.01)
    yield box
    box.close()


def later(seconds: float, action: Callable[[], object]) -> threading.Thread:
    """Run ``action`` in ``seconds`` from another thread (mail arriving while we wait)."""

    def run() -> None:
        time.sleep(seconds)
        action()

    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t


def test_fetch_then_move_to_processed_and_failed(imap_server: PymapServer,
                                                 inbox: ImapInbox) -> None:
    for n in range(3):
        imap_server.deliver(order_mail(n))
    fetched = list(inbox.fetch())
    assert ids([f.raw for f in fetched]) == ["<order-0@players.test>", "<order-1@players.test>",
                                             "<order-2@players.test>"]
    inbox.mark_processed(fetched[0].key)
    inbox.mark_processed(fetched[1].key)
    inbox.mark_failed(fetched[2].key)
    assert imap_server.messages("INBOX") == []
    assert ids(imap_server.messages("pbem-processed")) == ["<order-0@players.test>",
                                                           "<order-1@players.test>"]
    assert ids(imap_server.messages("pbem-failed")) == ["<order-2@players.test>"]
    assert list(inbox.fetch()) == []


def test_fetch_peeks_so_unhandled_mail_stays_unread(imap_server: PymapServer,
                                                    inbox: ImapInbox) -> None:
    imap_server.deliver(order_mail(1))
    assert len(list(inbox.fetch())) == 1
    with imap_server.client() as c:
        c.select_folder("INBOX", readonly=True)
        flags = c.get_flags(c.search(["ALL"]))
        assert all(b"\\Seen" not in f for f in flags.values())
    assert len(list(inbox.fetch())) == 1  # not marked: still there next pass


def test_a_backlog_is_fetched_in_batches_and_limited(imap_server: PymapServer) -> None:
    for n in range(7):
        imap_server.deliver(order_mail(n))
    box = ImapInbox(imap_server.settings, batch_size=3)
    try:
        assert len(list(box.fetch(limit=5))) == 5
        assert len(list(box.fetch())) == 7
    finally:
        box.close()


def test_a_worker_claims_only_a_few_mails_ahead_of_its_work(imap_server: PymapServer,
                                                            inbox: ImapInbox) -> None:
    """Mail a worker has claimed but not yet handled cannot go to another worker: it claims
    CLAIM_AHEAD at a time, not a whole batch of bodies, so the other is not left idle."""
    for n in range(2 * CLAIM_AHEAD + 1):
        imap_server.deliver(order_mail(n))
    asked: list[int] = []

    def claim(keys: Sequence[str]) -> Sequence[str]:
        asked.append(len(keys))
        return keys

    handed = inbox.fetch(claim=claim)
    next(handed)  # the first mail, in the worker's hands
    assert asked == [CLAIM_AHEAD]  # and no more of the inbox claimed meanwhile
    assert len(list(handed)) == 2 * CLAIM_AHEAD
    assert asked == [CLAIM_AHEAD, CLAIM_AHEAD, 1]


def test_missing_folders_are_created(imap_server: PymapServer, inbox: ImapInbox) -> None:
    list(inbox.fetch())
    with imap_server.client() as c:
        assert c.folder_exists("pbem-processed")
        assert c.folder_exists("pbem-failed")


@pytest.mark.parametrize("ignored", [{"MOVE"}, {"MOVE", "UIDPLUS"}])
def test_without_move_mail_is_copied_then_expunged(imap_server: PymapServer,
                                                   ignored: set[str]) -> None:
    imap_server.deliver(order_mail(1))
    imap_server.deliver(order_mail(2))
    box = ImapInbox(imap_server.settings, ignore_capabilities=ignored)
    try:
        first, second = box.fetch()
        box.mark_processed(first.key)
        assert ids(imap_server.messages("INBOX")) == ["<order-2@players.test>"]
        assert ids(imap_server.messages("pbem-processed")) == ["<order-1@players.test>"]
        box.mark_failed(second.key)
        assert imap_server.messages("INBOX") == []
    finally:
        box.close()


def test_reconnects_after_the_server_drops_the_connection(imap_server: PymapServer,
                                                          inbox: ImapInbox) -> None:
    imap_server.deliver(order_mail(1))
    (first,) = inbox.fetch()
    assert imap_server.drop_connections() == 1
    inbox.mark_processed(first.key)  # on a new connection
    assert inbox.reconnects == 1
    assert ids(imap_server.messages("pbem-processed")) == ["<order-1@players.test>"]


def test_a_drop_in_the_middle_of_a_backlog_loses_nothing(imap_server: PymapServer) -> None:
    for n in range(5):
        imap_server.deliver(order_mail(n))
    box = ImapInbox(imap_server.settings, batch_size=2, retry_delay=0.01)
    try:
        seen = []
        for fetched in box.fetch():
            seen.append(fetched)
            if len(seen) == 1:
                imap_server.drop_connections()
            box.mark_processed(fetched.key)
        assert len(seen) == 5
        assert box.reconnects >= 1
        assert imap_server.messages("INBOX") == []
        assert len(imap_server.messages("pbem-processed")) == 5
    finally:
        box.close()


def test_wrong_password_is_a_clear_error_without_the_password(imap_server: PymapServer) -> None:
    from dataclasses import replace

    box = ImapInbox(replace(imap_server.settings, password="not-the-password"))
    with pytest.raises(InboxError, match=r"IMAP login as 'gm' on 127\.0\.0\.1:\d+ was refused") \
            as err:
        list(box.fetch())
    assert "not-the-password" not in str(err.value)
    assert "not-the-password" not in repr(imap_server.settings)
    assert imap_server.password not in repr(imap_server.settings)


def test_a_server_that_is_down_gives_up_after_a_few_tries(imap_server: PymapServer) -> None:
    settings = imap_server.settings
    imap_server.stop()
    box = ImapInbox(settings, retries=2, retry_delay=0.01)
    with pytest.raises(InboxError, match=r"keeps failing.*cannot reach IMAP server"):
        list(box.fetch())


def test_wait_returns_at_once_when_mail_is_waiting(imap_server: PymapServer,
                                                   inbox: ImapInbox,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    imap_server.deliver(order_mail(1))

    def idle(seconds: float) -> bool:  # not a clock bound: a loaded machine is slow anyway
        raise AssertionError("went into IDLE although mail was waiting")

    monkeypatch.setattr(inbox, "_idle_once", idle)
    assert inbox.wait(60) is True


def test_wait_times_out_on_an_empty_inbox(inbox: ImapInbox) -> None:
    start = time.monotonic()
    assert inbox.wait(0.5) is False
    assert 0.5 <= time.monotonic() - start < 30  # not the 25-minute IDLE slice


def test_idle_wakes_up_when_mail_arrives(imap_server: PymapServer, inbox: ImapInbox) -> None:
    list(inbox.fetch())  # connected and idle-ready
    t = later(0.3, lambda: imap_server.deliver(order_mail(1)))
    start = time.monotonic()
    assert inbox.wait(120) is True
    assert time.monotonic() - start < 60  # woken, not timed out
    t.join()
    assert inbox.reconnects == 0
    assert len(list(inbox.fetch())) == 1


def test_idle_survives_the_server_dropping_the_connection(imap_server: PymapServer,
                                                          inbox: ImapInbox) -> None:
    list(inbox.fetch())

    def drop_then_deliver() -> None:
        imap_server.drop_connections()
        imap_server.deliver(order_mail(1))

    t = later(0.3, drop_then_deliver)
    assert inbox.wait(60) is True
    t.join()
    assert inbox.reconnects == 1
    assert len(list(inbox.fetch())) == 1


def test_polls_when_the_server_has_no_idle(imap_server: PymapServer) -> None:
    box = ImapInbox(imap_server.settings, ignore_capabilities={"IDLE"}, poll_interval=0.2)
    try:
        t = later(0.3, lambda: imap_server.deliver(order_mail(1)))
        assert box.wait(60) is True
        t.join()
    finally:
        box.close()


@contextlib.contextmanager
def flag_storm(server: PymapServer) -> Iterator[None]:
    """Another client keeps flagging a deleted (so not waiting) message: every change is an
    untagged FETCH pushed to whoever IDLEs on the folder."""
    server.deliver(order_mail(99))
    with server.client() as c:
        c.select_folder("INBOX")
        uids = c.search(["ALL"])
        c.add_flags(uids, [b"\\Deleted"])
    stop = threading.Event()

    def storm() -> None:
        with server.client() as c:
            c.select_folder("INBOX")
            while not stop.is_set():
                c.add_flags(uids, [b"\\Flagged"])
                c.remove_flags(uids, [b"\\Flagged"])
                time.sleep(0.02)

    t = threading.Thread(target=storm, daemon=True)
    t.start()
    try:
        yield
    finally:
        stop.set()
        t.join()


def test_idle_loop_survives_imap_abort_on_unpatched_pymap(
        imap_server_unpatched: PymapServer) -> None:
    """Stock pymap writes IDLE updates in pieces, so imapclient's idle_check raises
    ``IMAP4.abort`` (imapclient #519): the wait loop must reconnect and go on waiting."""
    server = imap_server_unpatched
    box = ImapInbox(server.settings, retry_delay=0.01)
    try:
        with flag_storm(server):
            deadline = time.monotonic() + 60  # a loaded machine may need a while to break
            while box.reconnects == 0 and time.monotonic() < deadline:
                assert box.wait(1.5) is False  # nothing new, but many broken updates
            assert box.reconnects >= 1
            t = later(0.2, lambda: server.deliver(order_mail(1)))
            assert box.wait(60) is True
            t.join()
        assert ids([f.raw for f in box.fetch()]) == ["<order-1@players.test>"]
    finally:
        box.close()


def test_the_patched_fixture_delivers_idle_updates_whole(imap_server: PymapServer) -> None:
    box = ImapInbox(imap_server.settings)
    try:
        with flag_storm(imap_server):
            assert box.wait(1.0) is False
        assert box.reconnects == 0
    finally:
        box.close()



class _DeliverAfterSecondSearch(ImapInbox):
    """Stages the race at its worst: a mail lands just after the search that precedes the
    long IDLE slice (the first, 1-second slice would otherwise catch it when it ends)."""

    def __init__(self, server: PymapServer | DovecotServer) -> None:
        super().__init__(server.settings, retry_delay=0.01)
        self.server = server
        self.searches = 0

    def _waiting(self, client: IMAPClient) -> bool:  # type: ignore[override]
        found = ImapInbox._waiting(client)
        self.searches += 1
        if self.searches == 2:
            self.server.deliver(order_mail(1))
        return found


@pytest.mark.parametrize("server", ["imap_server", "dovecot_server"])
def test_mail_that_lands_between_the_search_and_idle_wakes_the_wait(
        server: str, request: pytest.FixtureRequest) -> None:
    """The server announces it right after IDLE's continuation line, often in the same read
    as that line: it then waits in imaplib's buffer, which a poll of the socket does not see
    (on pymap, patched to announce as Dovecot does, this wait lasted its whole timeout)."""
    box = _DeliverAfterSecondSearch(request.getfixturevalue(server))
    try:
        start = time.monotonic()
        assert box.wait(120) is True
        assert time.monotonic() - start < 60  # woken by the news, not by the timeout
        assert box.searches == 2
        assert len(list(box.fetch())) == 1
    finally:
        box.close()
