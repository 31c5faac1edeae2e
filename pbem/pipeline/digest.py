"""The daily digest of seats that chose ``mail digest``: what they may read since the last one.

Run once per ``pbem process`` pass; a seat's digest goes out when a day has passed since its
last one and something happened. Its own moves' replies and its my-move mails are sent as
usual, so the digest only gathers the rest (the others' moves, table talk).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from sqlmodel import Session, col, select

from pbem.engine import registry
from pbem.i18n import msg
from pbem.pipeline import outgoing as mails
from pbem.pipeline.deadlines import aware
from pbem.pipeline.history import MOVE_KINDS
from pbem.pipeline.seat_language import seat_tr
from pbem.settings.host import Host
from pbem.store import queries
from pbem.store.db import SessionFactory
from pbem.store.tables import Game, LogEntry, Seat

log = logging.getLogger(__name__)

EVERY = timedelta(days=1)


def send_digests(factory: SessionFactory, host: Host, now: datetime | None = None) -> int:
    """Queue every digest that is due; returns how many were queued."""
    now = now or host.clock()
    with factory() as session:
        ids = sorted(i for i in session.exec(
            select(Seat.id).join(Game, col(Game.id) == col(Seat.game_id)).where(
                Seat.mail_mode == "digest", col(Game.status).in_(["active", "finished"])))
            if i is not None)
    sent = 0
    for seat_id in ids:
        try:
            with factory() as session:
                sent += digest_one(session, host, seat_id, now)
                session.commit()
        except Exception:  # one seat's digest must not stop the others
            log.exception("digest of seat %s failed; tried again next pass", seat_id)
    return sent


def digest_one(session: Session, host: Host, seat_id: int, now: datetime) -> int:
    seat = session.get(Seat, seat_id)
    if seat is None or seat.mail_mode != "digest":
        return 0
    since = aware(seat.digest_at) if seat.digest_at is not None else None
    if since is not None and now - since < EVERY:
        return 0
    game = session.get(Game, seat.game_id)
    assert game is not None
    entries = session.exec(
        select(LogEntry).where(LogEntry.game_id == seat.game_id, LogEntry.kind != "setup",
                               *([col(LogEntry.created) > since] if since else []))
        .order_by(col(LogEntry.index))).all()
    rules = registry.get(game.game_type)
    tr = seat_tr(seat, rules)
    names = [s.name for s in queries.seats(session, game.id or 0)]
    lines = [ev.render(tr, names) for e in entries
             if e.seat != seat.index or e.kind not in MOVE_KINDS
             for ev in queries.entry_events(e) if ev.visible(seat.index)]
    seat.digest_at = now
    session.add(seat)
    if not lines:
        return 0
    turn = queries.moves_made(session, game.id or 0, MOVE_KINDS) + 1
    mails.queue_notice(session, host, to=seat.address, kind="digest", game=game, seat=seat,
                       rules=rules, subj=mails.subject(
                           game, msg("Daily digest — Turn {turn}", turn=turn), tr), lines=[
                           msg("{title} [{tag}]: what happened since your last digest, as you "
                               "may see it:", title=rules.title, tag=game.tag), "",
                           *(f"  - {line}" for line in lines), "",
                           msg("Your mail setting is \"mail digest\": full status mails come "
                               "when it is your move. Send \"status\" for the board now, or "
                               "\"mail every\" for a full status after every move.")])
    return 1
