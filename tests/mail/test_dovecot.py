"""The IMAP inbox on a production server: Debian's Dovecot (skipped where not installed)."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence

import pytest

from pbem.mail.inbound import ImapInbox
from tests.mail.test_imap import ids, order_mail
from tests.support.mailservers import DovecotServer

pytestmark = pytest.mark.dovecot


def test_fetch_move_and_idle_on_dovecot(dovecot_server: DovecotServer) -> None:
    dovecot_server.deliver(order_mail(1))  # over LMTP, as an MTA would
    dovecot_server.deliver(order_mail(2))
    box = ImapInbox(dovecot_server.settings, retry_delay=0.01)
    try:
        first, second = box.fetch()
        box.mark_processed(first.key)
        box.mark_failed(second.key)
        assert dovecot_server.messages("INBOX") == []
        assert ids(dovecot_server.messages("pbem-processed")) == ["<order-1@players.test>"]
        assert ids(dovecot_server.messages("pbem-failed")) == ["<order-2@players.test>"]

        arrive = threading.Timer(0.3, dovecot_server.deliver, [order_mail(3)])
        arrive.start()
        start = time.monotonic()
        assert box.wait(120) is True  # IDLE: Dovecot announces new mail ~0.5 s after arrival
        assert time.monotonic() - start < 60  # woken, not timed out
        arrive.join()
        assert box.reconnects == 0
        (third,) = box.fetch()
        box.mark_processed(third.key)
        assert len(dovecot_server.messages("pbem-processed")) == 2
    finally:
        box.close()


@pytest.mark.parametrize("ignored", [set(), {"MOVE"}])
def test_moving_mail_another_worker_moved_is_no_error_and_no_second_copy(
        dovecot_server: DovecotServer, ignored: set[str]) -> None:
    """Two workers saw the same mail; one moved it. Dovecot refuses the other's move of it
    (NO [EXPUNGEISSUED]): that mail is where it should be, so this is done, not a failure,
    and what was still waiting (the third mail) is moved all the same."""
    for n in range(3):
        dovecot_server.deliver(order_mail(n))
    first = ImapInbox(dovecot_server.settings, retry_delay=0.01, ignore_capabilities=ignored)
    second = ImapInbox(dovecot_server.settings, retry_delay=0.01, ignore_capabilities=ignored)
    try:
        keys = [m.key for m in first.fetch()]
        assert [m.key for m in second.fetch()] == keys  # both saw all three
        first.mark_all_processed(keys[:2])
        second.mark_all_processed(keys[:2])  # every one gone: the server says NO
        second.mark_all_processed(keys)  # two gone, one still here
        second.mark_processed(keys[0])
        assert second.reconnects == 0
    finally:
        first.close()
        second.close()
    assert dovecot_server.messages("INBOX") == []
    assert sorted(ids(dovecot_server.messages("pbem-processed"))) == [
        f"<order-{n}@players.test>" for n in range(3)]


def test_a_claimed_fetch_never_reads_mail_another_worker_moved(
        dovecot_server: DovecotServer) -> None:
    """Between this worker's search and its claim, another worker handled a mail, moved it
    and gave up its claim: the claimed fetch hands out only the mail still there."""
    for n in range(2):
        dovecot_server.deliver(order_mail(n))
    first = ImapInbox(dovecot_server.settings, retry_delay=0.01)
    second = ImapInbox(dovecot_server.settings, retry_delay=0.01)
    moved: list[str] = []
    try:
        def claim(keys: Sequence[str]) -> set[str]:
            first.mark_processed(keys[0])  # the other worker, just before this claim
            moved.append(keys[0])
            return set(keys)

        left = [m.key for m in second.fetch(claim=claim)]
    finally:
        first.close()
        second.close()
    assert len(moved) == 1 and len(left) == 1 and moved[0] not in left
    assert ids(dovecot_server.messages("pbem-processed")) == ["<order-0@players.test>"]


def test_a_claimed_fetch_reads_only_what_it_was_granted(dovecot_server: DovecotServer) -> None:
    for n in range(5):
        dovecot_server.deliver(order_mail(n))
    box = ImapInbox(dovecot_server.settings, retry_delay=0.01, batch_size=2)
    try:
        everything = [m.key for m in box.fetch()]
        mine = {everything[1], everything[2], everything[4]}
        got = list(box.fetch(limit=2, claim=lambda keys: mine.intersection(keys)))
    finally:
        box.close()
    # The claimed mails that fit the limit, the others never fetched.
    assert [m.key for m in got] == [everything[1], everything[2]]
    assert ids([m.raw for m in got]) == ["<order-1@players.test>", "<order-2@players.test>"]


def test_workers_starting_together_on_a_new_mailbox_both_connect(
        dovecot_server: DovecotServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each looked for the processed folder before the other created it: the second CREATE
    is refused as ALREADYEXISTS, which leaves the worker exactly where it wanted to be."""
    first = ImapInbox(dovecot_server.settings)
    try:
        assert first.wait(0) is False  # connected: it created the folders
    finally:
        first.close()
    from imapclient import IMAPClient

    seen: set[str] = set()
    real = IMAPClient.folder_exists

    def looked_too_early(self: IMAPClient, folder: str) -> bool:
        if folder in seen:
            return bool(real(self, folder))
        seen.add(folder)
        return False  # as it was when this worker looked, an instant before the other's CREATE

    monkeypatch.setattr(IMAPClient, "folder_exists", looked_too_early)
    second = ImapInbox(dovecot_server.settings)
    try:
        dovecot_server.deliver(order_mail(1))
        assert [m.key for m in second.fetch()] and second.reconnects == 0
        assert seen == {"pbem-processed", "pbem-failed"}
    finally:
        second.close()
