"""What the host holds about one address, told (``pbem player export``) or forgotten
(``pbem player forget``).

Forgetting keeps every game playable and verifiable: the move log is never touched (replay
reads it), and the seats, the profile and its ratings stay, under a pseudonym: the name
"a former player" and an address of its own at a reserved domain, which the host marks, like
the real one, as never to be mailed. Every stored mail from or to the address, and every
sent or received mail of a game the address played (they name the player), loses its bytes
and its subject; so does any other stored mail that holds the address. Mail not yet sent to
other players goes out as it is and loses its bytes as it is sent.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, or_, update
from sqlmodel import Session, col, select

from pbem.pipeline import operator_input
from pbem.store import lobby, mailparts, players, watchers
from pbem.store.tables import (
    Game,
    InboundBytes,
    InboundMessage,
    LobbyInvite,
    LobbySeat,
    LobbyTable,
    LogEntry,
    OutboundBytes,
    OutboundMessage,
    Player,
    Rating,
    Seat,
    utcnow,
)

FORMAT = "pbem-player-data"
FORMER_NAME = "a former player"
# RFC 2606 reserves .example: no mail to a pseudonym can ever reach anyone.
FORMER_DOMAIN = "forgotten.example"
SCAN_BATCH = 200  # stored mails read at a time when looking for the address
UNSENT = ("queued", "failed", "held")


def _when(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def _text(raw: bytes | None) -> str | None:
    return None if raw is None else raw.decode("utf-8", errors="replace")


def export(session: Session, address: str) -> dict[str, Any]:
    """Everything the host holds about ``address``, as one JSON-ready dict."""
    address = operator_input.address(address, "player address")
    player = players.find(session, address)
    seats = list(session.execute(select(Seat, Game).join(Game, col(Game.id) == col(Seat.game_id))
                              .where(Seat.address == address)
                              .order_by(col(Game.id), col(Seat.index))).all())
    tags = {game.id: game.tag for _, game in seats}
    entries = []
    for seat, game in seats:
        for e in session.execute(select(LogEntry).where(LogEntry.game_id == game.id,
                                                     LogEntry.seat == seat.index)
                              .order_by(col(LogEntry.index))).scalars():
            entries.append({"game": game.tag, "index": e.index, "kind": e.kind, "text": e.text,
                            "created": _when(e.created)})
    received = session.execute(select(InboundMessage).where(InboundMessage.from_addr == address)
                            .order_by(col(InboundMessage.id))).scalars().all()
    sent = session.execute(select(OutboundMessage).where(OutboundMessage.to_addr == address)
                        .order_by(col(OutboundMessage.id))).scalars().all()
    ratings = [] if player is None else session.execute(
        select(Rating).where(Rating.player_id == player.id)
        .order_by(col(Rating.game_type))).scalars().all()
    lobby_seats = session.execute(select(LobbySeat, LobbyTable)
                               .join(LobbyTable, col(LobbyTable.id) == col(LobbySeat.table_id))
                               .where(LobbySeat.address == address)).all()
    opened = session.execute(select(col(LobbyTable.tag)).where(LobbyTable.opener == address)
                             ).scalars().all()
    return {
        "format": FORMAT, "address": address, "exported": utcnow().isoformat(),
        "profile": None if player is None else {
            "name": player.name, "language": player.language, "timezone": player.timezone,
            "mail": player.mail_mode, "since": _when(player.created),
            "banned": _when(player.banned_at), "ban_reason": player.ban_reason},
        "seats": [{"game": game.tag, "game_type": game.game_type, "game_status": game.status,
                   "seat": seat.index + 1, "name": seat.name, "status": seat.status,
                   "language": seat.language, "timezone": seat.timezone,
                   "mail": seat.mail_mode, "controller": seat.controller,
                   "vacation_until": _when(seat.vacation_until),
                   "bounced": _when(seat.bounced_at), "bounce_reason": seat.bounce_reason}
                  for seat, game in seats],
        "log_entries": entries,
        "ratings": [{"game_type": r.game_type, "mu": r.mu, "sigma": r.sigma, "games": r.games,
                     "wins": r.wins} for r in ratings],
        "lobby": {"seats": [{"table": t.tag, "name": s.name, "joined": _when(s.joined_at),
                             "confirmed": _when(s.confirmed_at)} for s, t in lobby_seats],
                  "tables_opened": list(opened)},
        "mails_received": [{"message_id": m.message_id, "received": _when(m.received_at),
                            "subject": m.subject, "status": m.status, "reason": m.reason,
                            "game": tags.get(m.game_id, m.game_id),
                            "headers_only_since": _when(m.pruned_at),
                            "bytes": _text(m.raw if m.stored is not None else None)}
                           for m in received],
        "mails_sent": [{"message_id": m.message_id, "kind": m.kind, "queued": _when(m.created),
                        "sent": _when(m.sent_at), "status": m.status, "subject": m.subject,
                        "game": tags.get(m.game_id, m.game_id),
                        "headers_only_since": _when(m.pruned_at),
                        "bytes": _text(m.raw if m.stored is not None else None)}
                       for m in sent],
        "never_mailed": lobby.said_never(session, address),
    }


@dataclass(frozen=True)
class Forgotten:
    address: str
    pseudonym: str
    seats: int
    mails_in: int
    mails_out: int


def _scan(session: Session, table: Any, columns: tuple[Any, ...], needle: bytes) -> set[int]:
    """The ids of the stored mails whose bytes hold ``needle`` (lower case), read a batch at
    a time."""
    found: set[int] = set()
    last = 0
    while True:
        rows = session.execute(select(table.id, *columns).where(table.id > last)
                               .order_by(table.id).limit(SCAN_BATCH)).all()
        if not rows:
            return found
        for row in rows:
            if any(v is not None and needle in v.lower() for v in row[1:]):
                found.add(row[0])
        last = rows[-1][0]


def forget(session: Session, address: str) -> Forgotten:
    """Remove ``address`` and its player's name from the host, in ``session`` (the caller
    commits). Raises LookupError when the host holds nothing about it."""
    address = operator_input.address(address, "player address")
    now = utcnow()
    player = players.find(session, address)
    seats = list(session.execute(select(Seat).where(Seat.address == address)).scalars())
    needle = address.encode()
    wrote = session.execute(select(col(InboundMessage.id))
                            .where(InboundMessage.from_addr == address)).first()
    if player is None and not seats and wrote is None and not lobby.seats_of(session, address):
        raise LookupError(f"this host holds nothing about {address}")
    pseudonym = f"former-{secrets.token_hex(6)}@{FORMER_DOMAIN}"
    if player is None:
        player = players.ensure(session, address)
    player.address, player.name = pseudonym, FORMER_NAME
    player.language = player.timezone = player.mail_mode = None
    player.ban_reason = ""
    session.add(player)
    games = sorted({s.game_id for s in seats})
    for seat in seats:
        seat.address, seat.name = pseudonym, FORMER_NAME
        seat.bounced_at, seat.bounce_reason = None, ""
        session.add(seat)
    session.execute(delete(LobbySeat).where(col(LobbySeat.address) == address))
    watchers.end_all_of(session, address)  # a pseudonym watches nothing
    session.execute(update(LobbyTable).where(col(LobbyTable.opener) == address)
                    .values(opener=pseudonym))
    session.execute(update(LobbyInvite).where(col(LobbyInvite.inviter) == address)
                    .values(inviter=pseudonym))
    session.execute(delete(LobbyInvite).where(
        col(LobbyInvite.address_hash) == lobby.address_hash(address)))
    inbound = set(session.execute(select(col(InboundMessage.id)).where(or_(
        col(InboundMessage.from_addr) == address, col(InboundMessage.game_id).in_(games))))
        .scalars()) | _scan(session, InboundBytes, (InboundBytes.raw,), needle)
    for start in range(0, len(inbound), 500):
        ids = sorted(inbound)[start:start + 500]
        session.execute(update(InboundBytes).where(col(InboundBytes.id).in_(ids))
                        .values(raw=b""))
        session.execute(update(InboundMessage).where(col(InboundMessage.id).in_(ids))
                        .values(subject="", reason="", pruned_at=now))
    session.execute(update(InboundMessage).where(col(InboundMessage.from_addr) == address)
                    .values(from_addr=pseudonym))
    outbound = (set(session.execute(select(col(OutboundMessage.id)).where(or_(
        col(OutboundMessage.to_addr) == address, col(OutboundMessage.game_id).in_(games))))
        .scalars()) | _scan(session, OutboundBytes,
                            (OutboundBytes.raw, OutboundBytes.raw_once_sent), needle))
    # Mail not yet sent to others still goes out, and is blanked as it is sent (the outbox
    # keeps ``raw_once_sent`` in its place); the forgotten address's own is dropped.
    unsent = set(session.execute(select(col(OutboundMessage.id)).where(
        col(OutboundMessage.status).in_(UNSENT), col(OutboundMessage.to_addr) != address))
        .scalars()) & outbound
    outbound -= unsent
    for start in range(0, len(unsent), 500):
        ids = sorted(unsent)[start:start + 500]
        session.execute(update(OutboundBytes).where(col(OutboundBytes.id).in_(ids))
                        .values(raw_once_sent=b""))
    for start in range(0, len(outbound), 500):
        ids = sorted(outbound)[start:start + 500]
        session.execute(update(OutboundBytes).where(col(OutboundBytes.id).in_(ids))
                        .values(raw=b"", raw_once_sent=None))
        session.execute(update(OutboundMessage).where(col(OutboundMessage.id).in_(ids))
                        .values(subject="", last_error="", pruned_at=now))
        mailparts.release(session, ids)
    mailparts.sweep(session, used_before=now)  # the pictures only those mails showed
    session.execute(update(OutboundMessage).where(col(OutboundMessage.to_addr) == address,
                                                  col(OutboundMessage.status) == "queued")
                    .values(status="dropped"))
    session.execute(update(OutboundMessage).where(col(OutboundMessage.to_addr) == address)
                    .values(to_addr=pseudonym))
    lobby.mark_never(session, address, now)
    lobby.mark_never(session, pseudonym, now)
    session.flush()
    return Forgotten(address, pseudonym, len(seats), len(inbound), len(outbound))


def asked(session: Session) -> list[Player]:
    """The players who asked by mail to be forgotten and are not yet."""
    return list(session.execute(select(Player).where(col(Player.forget_asked_at).is_not(None),
                                                     col(Player.name) != FORMER_NAME)
                                .order_by(col(Player.id))).scalars())


def forget_after_games(session: Session) -> list[Forgotten]:
    """Forget every player who asked by mail and whose games have all ended (``[retention]
    forget_by_mail = "after_games"``); the caller commits."""
    done = []
    for player in asked(session):
        running = session.execute(select(col(Seat.id)).join(Game, col(Game.id) == col(
            Seat.game_id)).where(Seat.address == player.address,
                                 col(Game.status).in_(("active", "paused")))).first()
        if running is None:
            done.append(forget(session, player.address))
    return done
