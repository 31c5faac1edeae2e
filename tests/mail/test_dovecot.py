"""The IMAP inbox on a production server: Debian's Dovecot (skipped where not installed)."""

from __future__ import annotations

import threading
import time

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
