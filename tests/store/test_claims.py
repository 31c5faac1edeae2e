"""Claims on inbox mail: on PostgreSQL two workers never hold one mail, a claim ends with the
pass (or with the worker's connection); on SQLite, one writer at a time, all are granted."""

from __future__ import annotations

import time

from pbem.store import SessionFactory
from pbem.store.claims import MailClaims


def test_two_workers_never_hold_one_mail_and_a_claim_ends_with_its_pass(
        factory: SessionFactory, db_url: str) -> None:
    one, other = MailClaims(factory), MailClaims(factory)
    try:
        assert one.take(["1:1", "1:2"]) == {"1:1", "1:2"}
        if not db_url.startswith("postgresql"):
            assert other.take(["1:2", "1:3"]) == {"1:2", "1:3"}  # SQLite: no sharing
            return
        assert other.take(["1:2", "1:3"]) == {"1:3"}  # never waits for the other's
        assert one.take(["1:2"]) == {"1:2"}  # its own, still
        one.release()
        assert other.take(["1:1", "1:2"]) == {"1:1", "1:2"}
        other._discard()  # the worker's connection is gone (it died): so are its claims,
        # once the server has ended that session (it does so after the link closes, not as
        # part of the close: a take at once may still find them held)
        deadline = time.monotonic() + 30
        while (taken := one.take(["1:1", "1:2", "1:3"])) != {"1:1", "1:2", "1:3"}:
            assert time.monotonic() < deadline, taken
            time.sleep(0.05)
    finally:
        one.release()
        other.release()
