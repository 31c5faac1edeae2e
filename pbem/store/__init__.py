"""Storage: SQLModel tables, migrations and the queries the pipeline needs."""

from pbem.store import clockdue  # noqa: F401  (registers the flush hook)
from pbem.store.db import SessionFactory, init, make_engine, migrate, session_factory
from pbem.store.tables import (
    Game,
    InboundMessage,
    LogEntry,
    OutboundMessage,
    Seat,
    Snapshot,
)

__all__ = [
    "Game",
    "InboundMessage",
    "LogEntry",
    "OutboundMessage",
    "Seat",
    "SessionFactory",
    "Snapshot",
    "init",
    "make_engine",
    "migrate",
    "session_factory",
]
