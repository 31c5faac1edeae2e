"""Storage: SQLModel tables, migrations and the queries the pipeline needs."""

from pbem.store import clockdue, mailparts  # noqa: F401  (register their flush hooks)
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
