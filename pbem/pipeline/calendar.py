"""The deadline event a seat's status mail carries (pbem.mail.calendar_part), in the seat's
language and time zone.

A "your move" mail with a deadline publishes the event of that seat's wait: one UID per
game, seat and wait for a turn, so every mail of the same turn updates the one entry
(SEQUENCE goes up when the deadline moves, as a vacation moves it; DTSTAMP is the mail's
time). Once the turn moves on, the seat's next
status mail publishes that entry again as cancelled, without its alarm, so a turn already
played never rings; the next turn's event is a new entry. A player who wrote
``calendar off`` gets no events at all.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta

from sqlmodel import Session

from pbem.i18n import Translator, msg
from pbem.mail.calendar_part import DeadlineEvent, Part, calendar_part
from pbem.pipeline.deadlines import aware
from pbem.settings.host import Host
from pbem.store import players
from pbem.store.tables import Game, Seat


def event_uid(host: Host, game: Game, seat: Seat) -> str:
    """The same for every mail of one seat's wait for its turn (the wait's clock start names
    it: a turn number may move on while the seat still owes the same move); it names no game
    id or address, and is unique across hosts by its domain."""
    started = aware(game.turn_started_at).isoformat() if game.turn_started_at else ""
    key = f"{game.id}/{game.tag}/{seat.index}/{started}".encode()
    return f"{hashlib.sha256(key).hexdigest()[:32]}@{host.mail.message_id_domain}"


def _event(game: Game, title: str, turn: int, due: datetime, zone: str, tr: Translator,
           uid: str, sequence: int, now: datetime) -> DeadlineEvent:
    when = tr.datetime(due, zone)
    reminder = timedelta(hours=game.reminder_hours) if game.reminder_hours else None
    return DeadlineEvent(
        uid=uid, sequence=sequence, stamp=now, due=due, zone=zone,
        summary=tr(msg("[{tag}] {title}: your move in turn {turn} is due", tag=game.tag,
                       title=title, turn=turn)),
        description=tr(msg("Your orders for turn {turn} of {title} [{tag}] are due by {when}. "
                           "Reply to the game's latest mail with your orders.", turn=turn,
                           title=title, tag=game.tag, when=when)),
        alarm_before=reminder,
        alarm_text=tr(msg("[{tag}] Your move in {title} is due by {when}.", tag=game.tag,
                          title=title, when=when)))


def _withdrawn(game: Game, title: str, due: datetime, zone: str, tr: Translator, uid: str,
               sequence: int, now: datetime) -> DeadlineEvent:
    """The entry of a turn that moved on, cancelled where it stood (its turn is not kept)."""
    return DeadlineEvent(
        uid=uid, sequence=sequence, stamp=now, due=due, zone=zone,
        summary=tr(msg("[{tag}] {title}: this turn has moved on", tag=game.tag, title=title)),
        description=tr(msg("The game has moved on past this deadline: its latest mail tells "
                           "you where it stands.")),
        cancelled=True)


def deadline_calendar(session: Session, host: Host, game: Game, seat: Seat, *, title: str,
                      turn: int, due: datetime | None, tr: Translator) -> Part | None:
    """The calendar part of ``seat``'s status mail, if it has one; ``due``: the seat's
    deadline when the mail is its move, else None. Notes on the seat which event its
    calendar now holds."""
    if due is None and seat.calendar_uid is None:
        return None  # nothing to publish nor to withdraw: no profile to read
    profile = players.find(session, seat.address)
    if profile is not None and profile.calendar_off:
        return None
    now, zone = host.clock(), seat.timezone or "UTC"
    uid = event_uid(host, game, seat) if due is not None else None
    events = []
    if seat.calendar_uid is not None and seat.calendar_uid != uid:
        shown = aware(seat.calendar_due) if seat.calendar_due is not None else now
        events.append(_withdrawn(game, title, shown, zone, tr, seat.calendar_uid,
                                 seat.calendar_sequence + 1, now))
        seat.calendar_uid, seat.calendar_sequence, seat.calendar_due = None, 0, None
    if due is not None and uid is not None:
        due = aware(due)
        held = aware(seat.calendar_due) if seat.calendar_due is not None else None
        if seat.calendar_uid != uid:
            seat.calendar_uid, seat.calendar_due = uid, due
        elif held != due:
            seat.calendar_sequence += 1  # the deadline moved: the entry is to change
            seat.calendar_due = due
        events.append(_event(game, title, turn, due, zone, tr, uid, seat.calendar_sequence,
                             now))
    session.add(seat)
    return calendar_part(events)
