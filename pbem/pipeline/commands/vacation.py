"""``vacation until YYYY-MM-DD`` / ``vacation off``: the seat's clock paused for some days
(a number of them per game), the other seats told."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from babel.dates import parse_date

from pbem.i18n import Translator, msg, nmsg
from pbem.pipeline import clock
from pbem.pipeline.command_words import is_word
from pbem.pipeline.commands.base import Context, Reply, tell_others, words_of
from pbem.pipeline.seat_language import Line
from pbem.store.tables import Game, Seat


def usage(tr: Translator) -> list[str]:
    w = words_of(tr)
    # Its own spacing: the row is wider than the others' column.
    return [f"  {w('vacation')} {w('until')} YYYY-MM-DD   " + tr(msg(
        "pause your clock until that day ({off}: back early)",
        off=f"{w('vacation')} {w('off')}"))]


def run(ctx: Context, argument: str) -> Reply:
    words = argument.split()
    now = ctx.host.clock()
    today = now.astimezone(UTC).date()
    game, seat = ctx.game, ctx.seat
    vac, until, off = ctx.w("vacation"), ctx.w("until"), ctx.w("off")
    if game.status == "finished":
        return Reply("rejected", "game finished", [msg("Game [{tag}] is over.", tag=game.tag)])
    if len(words) == 1 and is_word(words[0], "off"):
        return _vacation_off(ctx, now, today)
    if len(words) != 2 or not is_word(words[0], "until"):
        return Reply("rejected", "bad vacation", [msg(
            "\"{vacation}\" needs a date: write \"{vacation} {until} 2026-12-24\" "
            "(year-month-day; your clock runs again from the start of that day, UTC), or "
            "\"{vacation} {off}\" to come back early.", vacation=vac, until=until, off=off)])
    back = _day(words[1], seat.language)
    if back is None:
        return Reply("rejected", "bad vacation date", [msg(
            "\"{typed}\" is not a date: write it as year-month-day, e.g. \"{example}\".",
            typed=words[1],
            example=f"{vac} {until} {(today + timedelta(days=7)).isoformat()}")])
    if back <= today:
        return Reply("rejected", "vacation date not in future", [msg(
            "{date} is not after today ({today}, UTC): a vacation must end on a later day.",
            date=back.isoformat(), today=today.isoformat())])
    refund = _unused_days(seat, today)
    left = _days_left(game, seat) + refund
    asked = (back - today).days
    if asked > left:
        return Reply("rejected", "vacation over limit", [
            nmsg("A vacation until {date} takes {asked} days, but you have only {n} vacation "
                 "day left in this game ({per_game} per game), so nothing changed.",
                 "A vacation until {date} takes {asked} days, but you have only {n} vacation "
                 "days left in this game ({per_game} per game), so nothing changed.",
                 left, date=back.isoformat(), asked=asked, per_game=game.vacation_days),
            msg("The latest you can ask for is \"{example}\".",
                example=f"{vac} {until} {(today + timedelta(days=left)).isoformat()}")
            if left else msg("Ask the game's host if you need more time."),
        ])
    seat.vacation_days_used = seat.vacation_days_used - refund + asked
    if seat.vacation_until is None or clock.aware(seat.vacation_until) <= now:
        seat.vacation_from = now  # a new vacation; a changed one keeps its start
    seat.vacation_until = datetime(back.year, back.month, back.day, tzinfo=UTC)
    ctx.session.add(seat)
    due = clock.deadline_of(game, seat)
    queued = tell_others(ctx, [msg(
        "{name} is on vacation until {date}; the game's clock for them is paused until then, "
        "so the game may wait longer for them.", name=seat.name, date=back.isoformat())],
        msg("{name} is on vacation until {date}", name=seat.name, date=back.isoformat()))
    tr, tz = ctx.tr, seat.timezone
    lines: list[Line] = [
        msg("Your vacation until {date} is noted: your clock is paused until {when}.",
            date=back.isoformat(), when=tr.datetime(seat.vacation_until, tz)),
        nmsg("It uses {n} day; {left} of your {per_game} vacation days are left.",
             "It uses {n} days; {left} of your {per_game} vacation days are left.",
             asked, left=_days_left(game, seat), per_game=game.vacation_days),
        msg("The other players have been told.")]
    if due is not None and ctx.seat.index in ctx.rules.waiting_for(ctx.state):
        lines.append(msg("Your orders are now due by {when}.", when=tr.datetime(due, tz)))
    return Reply("applied", "vacation", lines, queued)


def _vacation_off(ctx: Context, now: datetime, today: date) -> Reply:
    seat = ctx.seat
    if seat.vacation_until is None or clock.aware(seat.vacation_until) <= now:
        return Reply("rejected", "no vacation", [msg(
            "You are not on vacation, so nothing changed.")])
    seat.vacation_days_used -= _unused_days(seat, today)
    seat.vacation_until = now  # the clock runs from now; the days not taken are given back
    ctx.session.add(seat)
    queued = tell_others(ctx, [msg("{name} is back from vacation.", name=seat.name)],
                         msg("{name} is back from vacation", name=seat.name))
    lines: list[Line] = [
        msg("Welcome back: your vacation is over and your clock runs again."),
        msg("{left} of your {per_game} vacation days are left.",
            left=_days_left(ctx.game, seat), per_game=ctx.game.vacation_days)]
    due = clock.deadline_of(ctx.game, seat)
    if due is not None and seat.index in ctx.rules.waiting_for(ctx.state):
        lines.append(msg("Your orders are due by {when}.",
                         when=ctx.tr.datetime(due, seat.timezone)))
    return Reply("applied", "vacation off", lines, queued, subject=msg("Back from vacation"))


def _day(typed: str, lang: str) -> date | None:
    """The day a player wrote: year-month-day, or as their language writes dates
    (``30/11/2026``, ``30.11.2026``, ``30-11-26``; Babel reads the locale's order)."""
    try:
        return date.fromisoformat(typed)
    except ValueError:
        pass
    try:
        return parse_date(typed, locale=lang)
    except (ValueError, IndexError, TypeError):  # Babel's ways of saying "not a date"
        return None


def _days_left(game: Game, seat: Seat) -> int:
    return max(0, game.vacation_days - seat.vacation_days_used)


def _unused_days(seat: Seat, today: date) -> int:
    """Days of the seat's current vacation still ahead (refunded when it changes or ends)."""
    if seat.vacation_until is None:
        return 0
    return max(0, (clock.aware(seat.vacation_until).date() - today).days)
