"""The lobby's rows read and counted: open tables, their live seats, the caps' counts, the
addresses that said "never" (by hash)."""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta

from sqlalchemy import delete, exists, func, or_
from sqlmodel import Session, col, select

from pbem.store.tables import (
    Game,
    LobbyInvite,
    LobbySeat,
    LobbyTable,
    NeverMail,
    OutboundMessage,
    Seat,
)


def address_hash(address: str) -> str:
    """How an address that is not a player's is kept: never in clear."""
    return hashlib.sha256(f"pbem-address:{address.strip().lower()}".encode()).hexdigest()


def table_by_tag(session: Session, tag: str) -> LobbyTable | None:
    return session.exec(select(LobbyTable).where(LobbyTable.tag == tag)).first()


def lock_table(session: Session, table_id: int) -> LobbyTable | None:
    """The table, locked until the transaction ends (PostgreSQL; SQLite locks the file):
    two mails taking its last seat at once take it once."""
    return session.exec(select(LobbyTable).where(LobbyTable.id == table_id)
                        .with_for_update()).first()


def open_tables(session: Session, game_type: str | None = None) -> list[LobbyTable]:
    """The open tables, oldest first (of one game, if named)."""
    q = select(LobbyTable).where(LobbyTable.status == "open")
    if game_type is not None:
        q = q.where(LobbyTable.game_type == game_type)
    return list(session.exec(q.order_by(col(LobbyTable.created), col(LobbyTable.id))))


def seats(session: Session, table_id: int) -> list[LobbySeat]:
    """A table's seats in the order they were taken (the first is the opener's)."""
    return list(session.exec(select(LobbySeat).where(LobbySeat.table_id == table_id)
                             .order_by(col(LobbySeat.joined_at), col(LobbySeat.id))))


def seat_at(session: Session, table_id: int, address: str) -> LobbySeat | None:
    return session.exec(select(LobbySeat).where(LobbySeat.table_id == table_id,
                                                LobbySeat.address == address.lower())).first()


def seat_names(session: Session, table_id: int) -> list[str]:
    """The names a table's seats answer to (a new seat takes another)."""
    return list(session.exec(select(LobbySeat.name).where(LobbySeat.table_id == table_id)))


def confirmed_count(session: Session, table_id: int) -> int:
    """A table's confirmed seats, counted by the database: a table may have many waiting."""
    return int(session.exec(select(func.count()).select_from(LobbySeat).where(
        LobbySeat.table_id == table_id, col(LobbySeat.confirmed_at).is_not(None))).one())


def waiting_count(session: Session, table_id: int) -> int:
    return int(session.exec(select(func.count()).select_from(LobbySeat).where(
        LobbySeat.table_id == table_id, col(LobbySeat.confirmed_at).is_(None))).one())


def confirmed_seats(session: Session, table_id: int) -> list[LobbySeat]:
    """A table's confirmed seats in the order they were taken."""
    return list(session.exec(select(LobbySeat).where(
        LobbySeat.table_id == table_id, col(LobbySeat.confirmed_at).is_not(None))
        .order_by(col(LobbySeat.joined_at), col(LobbySeat.id))))


def seats_of(session: Session, address: str) -> list[LobbySeat]:
    return list(session.exec(select(LobbySeat).where(LobbySeat.address == address.lower())))


def expire(session: Session, now: datetime) -> list[int]:
    """Give back every unconfirmed seat whose time ran out; returns their tables' ids."""
    gone = session.exec(select(LobbySeat).where(
        col(LobbySeat.confirmed_at).is_(None), col(LobbySeat.expires_at) <= now)).all()
    tables = sorted({s.table_id for s in gone})
    if gone:
        session.exec(delete(LobbySeat).where(
            col(LobbySeat.id).in_([s.id for s in gone])))
    return tables


def confirmed_before(session: Session, address: str) -> bool:
    """The address proved it reads its mail: it answered a join mail once."""
    return session.exec(select(LobbySeat.id).where(
        LobbySeat.address == address.lower(),
        col(LobbySeat.confirmed_at).is_not(None))).first() is not None


def plays_somewhere(session: Session, address: str) -> bool:
    """The address holds a seat in some game (one the operator or the lobby created)."""
    return session.exec(select(Seat.id).where(Seat.address == address.lower())).first() \
        is not None


def open_count(session: Session, opener: str) -> int:
    return int(session.exec(select(func.count()).select_from(LobbyTable).where(
        LobbyTable.opener == opener.lower(), LobbyTable.status == "open")).one())


def opened_since(session: Session, since: datetime, opener: str | None = None,
                 confirmed: bool = False) -> int:
    """Tables opened since ``since`` (by ``opener``, else by everyone; ``confirmed``: only
    those started or with a confirmed seat)."""
    q = select(func.count()).select_from(LobbyTable).where(col(LobbyTable.created) >= since)
    if opener is not None:
        q = q.where(LobbyTable.opener == opener.lower())
    if confirmed:
        q = q.where(or_(col(LobbyTable.status) == "started", exists().where(
            col(LobbySeat.table_id) == col(LobbyTable.id),
            col(LobbySeat.confirmed_at).is_not(None))))
    return int(session.exec(q).one())


def held_in_domain(session: Session, domain: str) -> int:
    """Unconfirmed seats held by the addresses of ``domain``."""
    return int(session.exec(select(func.count()).select_from(LobbySeat).where(
        col(LobbySeat.confirmed_at).is_(None),
        col(LobbySeat.address).endswith(f"@{domain.lower()}", autoescape=True))).one())


def replies_to_domain(session: Session, domain: str, kinds: tuple[str, ...],
                      since: datetime) -> int:
    """Mails of ``kinds`` queued since ``since`` to the addresses of ``domain``."""
    return int(session.exec(select(func.count()).select_from(OutboundMessage).where(
        col(OutboundMessage.kind).in_(kinds), col(OutboundMessage.created) >= since,
        col(OutboundMessage.to_addr).endswith(f"@{domain.lower()}", autoescape=True))).one())


def invites_since(session: Session, inviter: str, since: datetime) -> int:
    return int(session.exec(select(func.count()).select_from(LobbyInvite).where(
        LobbyInvite.inviter == inviter.lower(), col(LobbyInvite.created) >= since)).one())


def invited(session: Session, table_id: int, address: str) -> bool:
    return session.exec(select(LobbyInvite.id).where(
        LobbyInvite.table_id == table_id,
        LobbyInvite.address_hash == address_hash(address))).first() is not None


def said_never(session: Session, address: str) -> bool:
    return session.get(NeverMail, address_hash(address)) is not None


def said_never_of(session: Session, addresses: set[str]) -> set[str]:
    """Those of ``addresses`` whose "never" holds, in one query (two when some said it): a
    mark never silences an address that holds a seat in a game still played, whose game
    mails it must get (a mark made before that rule, or before it took the seat)."""
    hashed = {address_hash(a): a for a in addresses}
    found = {hashed[h] for h in session.exec(
        select(NeverMail.address_hash).where(col(NeverMail.address_hash).in_(list(hashed))))}
    return found - seated_in_play(session, found) if found else found


PLAYED = ("active", "paused")  # the statuses of a game still played


def seated_in_play(session: Session, addresses: set[str]) -> set[str]:
    """Those of ``addresses`` that hold an active seat in a game still played."""
    return set(session.exec(select(Seat.address).join(Game, col(Game.id) == col(Seat.game_id))
                            .where(col(Seat.address).in_([a.lower() for a in addresses]),
                                   Seat.status == "active", col(Game.status).in_(PLAYED))))


def games_in_play(session: Session, address: str) -> list[str]:
    """The tags of the games still played where ``address`` holds an active seat."""
    return list(session.exec(select(Game.tag).join(Seat, col(Game.id) == col(Seat.game_id))
                             .where(Seat.address == address.lower(), Seat.status == "active",
                                    col(Game.status).in_(PLAYED)).order_by(col(Game.id))))


def never_marked(session: Session, address: str) -> datetime | None:
    """When ``address`` answered never, or None."""
    row = session.get(NeverMail, address_hash(address))
    return row.created if row is not None else None


def lift_never(session: Session, address: str) -> bool:
    """Take the mark off ``address``; whether it had one."""
    row = session.get(NeverMail, address_hash(address))
    if row is not None:
        session.delete(row)
    return row is not None


def day_ago(now: datetime) -> datetime:
    return now - timedelta(days=1)


def mark_never(session: Session, address: str, now: datetime) -> None:
    """Mark ``address`` as one the host mails no more (the outbox drops what is queued)."""
    if not said_never(session, address):
        session.add(NeverMail(address_hash=address_hash(address), created=now))
