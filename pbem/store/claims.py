"""Claims on waiting inbox mail, so several workers on one mailbox share it.

Without them every worker would take the same mail at the same moment: one would wait on the
other's row, then record a duplicate, and both would move it (a second copy on some servers).
A claim says "this worker handles that mail"; a worker takes only the mail it claimed.

Exactly-once never rests on claims (the recorded Message-ID does that); they only keep
workers out of each other's way, and keep a mail's move to the one worker that handled it.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Sequence

from sqlalchemy import Connection, Engine, bindparam, text
from sqlalchemy.dialects.postgresql import ARRAY, BIGINT, TEXT

from pbem.store.db import SessionFactory
from pbem.store.faults import TransientFault, describe, is_transient

log = logging.getLogger(__name__)

# One statement per batch of keys: each lock tried without waiting, the claimed keys returned.
_TRY = text("SELECT c.key FROM unnest(:keys, :ids) AS c(key, id) "
            "WHERE pg_try_advisory_lock(c.id)").bindparams(
    bindparam("keys", type_=ARRAY(TEXT)), bindparam("ids", type_=ARRAY(BIGINT)))


def lock_id(key: str) -> int:
    """The 64-bit advisory lock id of an inbox key (apart from pbem's other lock ids)."""
    digest = hashlib.blake2b(f"pbem inbox mail {key}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


class MailClaims:
    """Claims held for one pass, from before a mail is fetched until after it is moved.

    On PostgreSQL a claim is a session advisory lock, taken with ``pg_try_advisory_lock`` on a
    connection of its own: a mail another worker holds is skipped, never waited for, and a
    worker that dies loses its claims with its connection, so no mail is ever stranded (no
    lease to wait out). On SQLite, which has one writer at a time, every claim is granted:
    several workers need PostgreSQL.
    """

    def __init__(self, factory: SessionFactory, retries: int = 0) -> None:
        self._retries = retries  # tries again on a new connection, as other statements do
        self._held: set[str] = set()
        with factory() as session:
            bind = session.get_bind()
        self._engine: Engine | None = (bind if isinstance(bind, Engine)
                                       and bind.dialect.name == "postgresql" else None)
        self._conn: Connection | None = None

    def take(self, keys: Sequence[str]) -> set[str]:
        """The keys of ``keys`` this worker now holds (it may have held some already).

        A transient database fault is tried again on a new connection (``retries`` times);
        raises :class:`TransientFault` when it outlasts them: the claims taken so far are gone
        with the connection, and the pass should end."""
        if self._engine is None or not keys:
            return set(keys)
        for attempt in range(self._retries + 1):
            # After a lost connection its locks are gone: ask again for those held before too.
            wanted = sorted(set(keys) | self._held) if attempt else list(keys)
            if self._conn is None:
                # Autocommit: the locks belong to the session, not to a transaction, and a
                # claim is then one round trip, not three (BEGIN, the SELECT, COMMIT).
                self._conn = self._engine.connect().execution_options(
                    isolation_level="AUTOCOMMIT")
            try:
                rows = self._conn.execute(_TRY, {"keys": wanted,
                                                 "ids": [lock_id(k) for k in wanted]})
                taken = {str(row[0]) for row in rows}
                self._conn.commit()  # ends SQLAlchemy's transaction: the server has none open
            except Exception as exc:
                self._discard()
                if not is_transient(exc):
                    raise
                if attempt == self._retries:  # the mail stays for the next pass
                    raise TransientFault(describe(exc)) from exc
                continue
            self._held = taken if attempt else self._held | taken
            return taken & set(keys)
        raise AssertionError("unreachable")  # the loop returns or raises

    def release(self) -> None:
        """Give up every claim (call it after the pass moved its mail)."""
        if self._conn is None:
            return
        try:
            self._conn.execute(text("SELECT pg_advisory_unlock_all()"))
            self._conn.commit()
            self._conn.close()
            self._conn = None
        except Exception as exc:  # the session ends with its link, and its locks with it
            log.warning("could not release inbox claims (%s); closing their connection", exc)
            self._discard()

    def _discard(self) -> None:
        """Close the claims' connection for good: the server ends its session and locks."""
        if self._conn is not None:
            try:
                self._conn.invalidate()
                self._conn.close()
            except Exception as exc:  # already broken: nothing more to do
                log.debug("closing the claims' connection: %s", exc)
            self._conn = None
