"""The operator's view of the lobby: the tables opened by mail, and closing one."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, col, select

from pbem.i18n import msg
from pbem.pipeline.command_words import word
from pbem.pipeline.lobby import tables as lobby_tables
from pbem.pipeline.lobby.tables import confirmed, refresh
from pbem.settings.host import Host
from pbem.store import lobby as store
from pbem.store.tables import LobbyTable


@dataclass(frozen=True)
class TableLine:
    table: LobbyTable
    opener: str  # the opener's address (the operator sees addresses)
    confirmed: list[str]  # names
    waiting: int  # seats taken, not yet confirmed


def table_lines(session: Session, host: Host, every: bool = False) -> list[TableLine]:
    """The open tables (every table, with ``every``), oldest first; expired seats given
    back first, as the lobby itself does."""
    refresh(session, host.clock())
    q = select(LobbyTable).order_by(col(LobbyTable.created), col(LobbyTable.id))
    if not every:
        q = q.where(LobbyTable.status == "open")
    lines = []
    for table in session.exec(q):
        seats = store.seats(session, table.id or 0)
        done = confirmed(seats)
        lines.append(TableLine(table, table.opener, [s.name for s in done],
                               len(seats) - len(done)))
    return lines


class LobbyError(ValueError):
    """A lobby action the operator asked for that cannot be done; the message says why."""


def close(session: Session, host: Host, tag: str, now: datetime | None = None) -> int:
    """Close an open table; its confirmed players are told (in their language). Returns how
    many were told."""
    table = store.table_by_tag(session, tag)
    if table is None:
        raise LobbyError(f"no lobby table {tag!r}")
    table = store.lock_table(session, table.id or 0)
    assert table is not None
    if table.status != "open":
        raise LobbyError(f"table {tag} is {table.status}, not open")
    return len(lobby_tables.close(
        session, host, table, now or host.clock(),
        lambda lang: [msg("The host's operator closed table [{tag}]; it will not start. Send "
                          "\"{games}\" to find another table.", tag=table.tag,
                          games=word("games", lang))]))
