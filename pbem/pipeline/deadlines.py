"""Deadlines as pure functions of a game and its seats (no mail, no database access)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from pbem.i18n import Translator, msg
from pbem.i18n.translate import ENGLISH
from pbem.pipeline.controllers import bot_level
from pbem.store.tables import Game, Seat


def aware(moment: datetime) -> datetime:
    """SQLite hands datetimes back without a zone; every stored time is UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def when(moment: datetime) -> str:
    """A time as players read it in mail."""
    return aware(moment).astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def autoplayed(seat: Seat) -> bool:
    """Seats the host plays for at once: with the game's default order (resigned, dropped),
    or the bot's (bot seats, and seats a bot stands in for)."""
    return seat.status in ("resigned", "dropped") or bot_level(seat) is not None


def restart_clock(game: Game, now: datetime) -> None:
    """A new wait begins: its deadline counts from now and its reminder is still to come."""
    game.turn_started_at = now
    game.reminded_at = None


def note_wait(game: Game, before: frozenset[int], after: frozenset[int], now: datetime) -> None:
    """Restart the clock when a seat joins the waited-for set (call after every applied entry)."""
    if after - before:
        restart_clock(game, now)


def deadline_of(game: Game, seat: Seat) -> datetime | None:
    """When ``seat``'s orders are due in the current wait; None without a deadline.

    A vacation pauses the seat's clock: the part of it inside the wait is added, so a seat
    that leaves mid-turn has, once back, the time it had left when it went away. A vacation
    with no recorded start (set before starts were kept) counts from the wait's start.
    """
    if game.deadline_hours is None or game.turn_started_at is None:
        return None
    start = aware(game.turn_started_at)
    due = start + timedelta(hours=game.deadline_hours)
    if seat.vacation_until is None or aware(seat.vacation_until) <= start:
        return due
    back = aware(seat.vacation_until)
    away = max(start, aware(seat.vacation_from)) if seat.vacation_from is not None else start
    # Never due while still away, even if the time had run out when the vacation began.
    return max(due + max(back - away, timedelta(0)), back)


def reminder_of(game: Game, seat: Seat) -> datetime | None:
    due = deadline_of(game, seat)
    if due is None or not game.reminder_hours:
        return None
    return due - timedelta(hours=game.reminder_hours)


def waiting_lines(game: Game, seats: list[Seat], waiting: frozenset[int],
                  now: datetime, tr: Translator = ENGLISH, tz: str | None = None) -> list[str]:
    """Who the game waits for and until when, one line per seat (in ``tr``'s language and
    the reader's time zone ``tz``)."""
    lines = []
    for seat in seats:
        if seat.index not in waiting:
            continue
        due = deadline_of(game, seat)
        until = tr(msg("until {when}", when=tr.datetime(due, tz))) if due \
            else tr(msg("no deadline"))
        if seat.vacation_until is not None and aware(seat.vacation_until) > now:
            until = tr(msg("{until} (on vacation until {when})", until=until,
                           when=tr.datetime(seat.vacation_until, tz)))
        lines.append(f"  {seat.name}: {until}")
    return lines


def waiting_label(game: Game, seat: Seat, tr: Translator = ENGLISH, tz: str | None = None
                  ) -> str:
    """A seat's name with its deadline, for the "Waiting for:" line of status mails."""
    due = deadline_of(game, seat)
    return tr(msg("{name} (until {when})", name=seat.name, when=tr.datetime(due, tz))) if due \
        else seat.name
