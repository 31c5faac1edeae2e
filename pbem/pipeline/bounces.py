"""Delivery status reports (bounces): which seats' addresses stopped taking mail.

A report (multipart/report; report-type=delivery-status, RFC 3464) is never answered. Each
recipient it lists as failed that holds a seat in a running game has that seat marked
bouncing (``pbem game show`` lists it) and the operator is told once, so a player who can no
longer be reached does not just time out in silence. Reports can be forged: marking a seat
only informs the operator, it changes nothing in the game. The mark is cleared when the seat
next proves its secret.

Anyone can send a report, so one only marks a seat when it proves it answers a mail we sent:
its original-message part carries the Message-ID of a mail we queued to that very address.
A report that does not is only logged: a stranger cannot mark a seat or mail the operator.
"""

from __future__ import annotations

import logging
from typing import Any

from sqlmodel import Session, col, select

from pbem.mail.reading import Bounce, IncomingMail
from pbem.pipeline import outgoing as mails
from pbem.settings.host import Host
from pbem.store.tables import Game, OutboundMessage, Seat

log = logging.getLogger(__name__)


def record(session: Session, host: Host, mail: IncomingMail) -> tuple[str, list[Any]]:
    """Mark the seats a report names; returns the reason to record and the mail queued."""
    queued: list[Any] = []
    said: list[str] = []
    for bounce in mail.bounces:
        why = " ".join(f"{bounce.status} {bounce.diagnostic}".split()) or "failed"
        rows = session.exec(
            select(Seat, Game).join(Game, col(Game.id) == col(Seat.game_id))
            .where(Seat.address == bounce.recipient,
                   col(Game.status).in_(["active", "paused"]))).all()
        if not rows:
            said.append(f"{bounce.recipient} ({why}): no seat")
            continue
        if not _ours(session, bounce):
            said.append(f"{bounce.recipient} ({why}): unproven (names no mail we sent to "
                        "that address); no seat marked")
            log.info("a delivery report about %s names no mail we sent there; ignored",
                     bounce.recipient)
            continue
        for seat, game in rows:
            said.append(f"{bounce.recipient} ({why}): seat {seat.index + 1} of [{game.tag}]")
            first = seat.bounced_at is None
            seat.bounced_at, seat.bounce_reason = host.clock(), why[:300]
            session.add(seat)
            if first and host.mail.operator_address:
                queued.append(mails.queue_notice(
                    session, host, to=host.mail.operator_address, kind="operator", game=game,
                    subj=mails.subject(game, "a player's address bounces"), lines=[
                        f"Mail to {seat.name} <{seat.address}>, seat {seat.index + 1} of "
                        f"[{game.tag}], bounced: {why}.",
                        "The game goes on; this player may not be getting its mails. "
                        f"`pbem game show {game.tag}` lists bouncing seats.",
                    ]))
            elif first:
                log.warning("seat %s of %s bounces (%s); no operator_address to tell",
                            seat.index + 1, game.tag, why)
    session.flush()
    return "delivery status report: " + "; ".join(said), queued


def _ours(session: Session, bounce: Bounce) -> bool:
    """Whether the report names a mail we sent to the address it says failed."""
    if not bounce.original_id:
        return False
    found = session.exec(select(OutboundMessage.id).where(
        OutboundMessage.message_id == bounce.original_id,
        OutboundMessage.to_addr == bounce.recipient)).first()
    return found is not None


def clear(session: Session, seat: Seat) -> None:
    """The seat proved its secret: whatever bounced before, it reads the game now."""
    if seat.bounced_at is not None:
        seat.bounced_at, seat.bounce_reason = None, ""
        session.add(seat)
