"""Email commands besides orders: ``log``, ``waiting``, ``vacation``, ``resign``, ``secret new``.

The pipeline authenticates the seat (From + secret) and locks the game first; each command
here returns the lines of the threaded reply and queues whatever else it must (notices to the
other seats, status mails after the host played for a resigned seat).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlmodel import Session

from pbem.engine.contract import Event
from pbem.processor import admin, clock, mails
from pbem.processor.history import TALK, revoked
from pbem.processor.host import Host
from pbem.processor.secrets import hash_secret, new_salt, new_secret
from pbem.store import queries
from pbem.store.tables import Game, OutboundMessage, Seat

COMMANDS = ("log", "waiting", "vacation", "resign", "secret", "mail")
LOG_DEFAULT = 10  # entries a bare "log" shows
LOG_MAX = 50

HELP_LINES = [
    "Other commands, each alone on the first line of a mail with your secret line:",
    "  status                  your current status, sent again",
    f"  log [N]                 the last N moves (default {LOG_DEFAULT}), as you may see them",
    "  waiting                 who the game is waiting for, and until when",
    "  vacation until YYYY-MM-DD   pause your clock until that day (vacation off: back early)",
    "  resign                  leave the game; it plays its default orders for you from then on",
    "  secret new              a new secret, mailed to your registered address; the old one",
    "                          stops working (do it if a mail of yours may have been seen)",
    "  mail every              a full status after every move (the default)",
    "  mail turn               full status only when it is your move; a line on other moves",
    "  mail digest             full status when it is your move; one summary a day besides",
    "  help                    this text (no secret needed)",
    "Table talk, in any mail, beside orders or alone (with your secret line):",
    "  say <text>              a message to every other player",
    "  say to NAME: <text>     a message to one player (NAME, or their number 1, 2, ...)",
    "Notes around your orders: put your orders between a line \"orders\" and a line",
    "\"end\"; only those lines are read, greetings and signatures around them are left alone.",
]


@dataclass
class Reply:
    """The answer to a command: the inbound mail's status, its reason, the reply's lines."""

    status: str  # applied (something changed) | ignored (information) | rejected
    reason: str
    lines: list[str]
    queued: list[OutboundMessage] = field(default_factory=list)
    secret: str | None = None  # a new secret the reply carries (blanked once it is sent)


@dataclass
class Context:
    session: Session
    host: Host
    rules: Any
    game: Game
    state: Any
    seat: Seat


def run(ctx: Context, command: str, argument: str) -> Reply:
    handler = {"log": history, "waiting": waiting, "vacation": vacation,
               "resign": resign, "secret": rotate, "mail": mail_setting}[command]
    return handler(ctx, argument)


# --- log ----------------------------------------------------------------------------------------


def history(ctx: Context, argument: str) -> Reply:
    arg = argument.strip()
    if arg and not (arg.isdigit() and 1 <= int(arg) <= LOG_MAX):
        return Reply("rejected", "bad log count", [
            f"\"log {arg}\" is not understood: write \"log\" alone for the last {LOG_DEFAULT} "
            f"moves, or \"log N\" with N from 1 to {LOG_MAX}."])
    count = int(arg) if arg else LOG_DEFAULT
    entries = [e for e in queries.log(ctx.session, ctx.game.id or 0) if e.kind != "setup"
               and (e.kind != TALK or any(ev.visible(ctx.seat.index)
                                          for ev in queries.entry_events(e)))]
    undone = revoked(entries)  # the log is append-only: undone moves stay, marked
    names = {s.index: s.name for s in queries.seats(ctx.session, ctx.game.id or 0)}
    shown = entries[-count:]
    if not shown:
        return Reply("ignored", "log", [f"Nothing has been played in [{ctx.game.tag}] yet."])
    lines = [f"The last {len(shown)} of {len(entries)} moves in [{ctx.game.tag}], as you may "
             "see them:", ""]
    for e in shown:
        who = names.get(e.seat, "the host") if e.seat is not None else "the host"
        how = {"order": "", clock.TIMEOUT_KIND: ", played by the host",
               TALK: " says"}.get(e.kind,
                                                                         f", {e.kind}")
        mark = f" (undone by #{undone[e.index]})" if e.index in undone else ""
        lines.append(f"#{e.index} {who}{how} ({clock.when(e.created)}){mark}:")
        seen = [ev.text for ev in queries.entry_events(e) if ev.visible(ctx.seat.index)]
        lines += [f"  - {t}" for t in seen] or ["  (nothing you may see)"]
    return Reply("ignored", "log", lines)


# --- waiting ------------------------------------------------------------------------------------


def waiting(ctx: Context, argument: str) -> Reply:
    seats = queries.seats(ctx.session, ctx.game.id or 0)
    waited = ctx.rules.waiting_for(ctx.state)
    if ctx.game.status != "active":
        head = f"Game [{ctx.game.tag}] is {ctx.game.status}"
        if ctx.game.status == "paused" and waited:
            return Reply("ignored", "waiting", [
                f"{head}: no clock runs until its host resumes it. It then waits for: "
                f"{', '.join(s.name for s in seats if s.index in waited)}."])
        return Reply("ignored", "waiting", [f"{head}; it waits for nobody."])
    if not waited:
        return Reply("ignored", "waiting", ["The game is waiting for nobody."])
    who = clock.waiting_lines(ctx.game, seats, waited, ctx.host.clock())
    lines = [f"[{ctx.game.tag}] is waiting for:", *who]
    if ctx.seat.index in waited:
        lines += ["", "That includes you: send your orders."]
    return Reply("ignored", "waiting", lines)


# --- vacation -----------------------------------------------------------------------------------


def _days_left(game: Game, seat: Seat) -> int:
    return max(0, game.vacation_days - seat.vacation_days_used)


def _unused_days(seat: Seat, today: date) -> int:
    """Days of the seat's current vacation still ahead (refunded when it changes or ends)."""
    if seat.vacation_until is None:
        return 0
    return max(0, (clock.aware(seat.vacation_until).date() - today).days)


def mail_setting(ctx: Context, argument: str) -> Reply:
    """``mail every|turn|digest``: how much mail this seat gets about others' moves."""
    mode = argument.strip().lower()
    if mode not in mails.MAIL_MODES:
        return Reply("rejected", "bad mail setting", [
            f"\"mail {argument.strip()}\" is not understood. Write one of:",
            *(f"  mail {m:<7} {what}" for m, what in mails.MAIL_MODES.items()),
            f"Your setting stays \"mail {ctx.seat.mail_mode}\"."])
    ctx.seat.mail_mode = mode
    if mode == "digest" and ctx.seat.digest_at is None:
        ctx.seat.digest_at = ctx.host.clock()  # the first digest covers from now on
    ctx.session.add(ctx.seat)
    return Reply("applied", f"mail {mode}", [
        f"Your mail setting in [{ctx.game.tag}] is now \"mail {mode}\": "
        f"{mails.MAIL_MODES[mode]}."])


def vacation(ctx: Context, argument: str) -> Reply:
    words = argument.split()
    now = ctx.host.clock()
    today = now.astimezone(UTC).date()
    game, seat = ctx.game, ctx.seat
    if game.status == "finished":
        return Reply("rejected", "game finished", [f"Game [{game.tag}] is over."])
    if [w.lower() for w in words] == ["off"]:
        return _vacation_off(ctx, now, today)
    if len(words) != 2 or words[0].lower() != "until":
        return Reply("rejected", "bad vacation", [
            "\"vacation\" needs a date: write \"vacation until 2026-12-24\" (year-month-day; "
            "your clock runs again from the start of that day, UTC), or \"vacation off\" to "
            "come back early."])
    try:
        back = date.fromisoformat(words[1])
    except ValueError:
        return Reply("rejected", "bad vacation date", [
            f"\"{words[1]}\" is not a date: write it as year-month-day, e.g. "
            f"\"vacation until {(today + timedelta(days=7)).isoformat()}\"."])
    if back <= today:
        return Reply("rejected", "vacation date not in future", [
            f"{back.isoformat()} is not after today ({today.isoformat()}, UTC): a vacation "
            "must end on a later day."])
    refund = _unused_days(seat, today)
    left = _days_left(game, seat) + refund
    asked = (back - today).days
    if asked > left:
        return Reply("rejected", "vacation over limit", [
            f"A vacation until {back.isoformat()} takes {asked} days, but you have only "
            f"{left} vacation day{'s' if left != 1 else ''} left in this game "
            f"({game.vacation_days} per game), so nothing changed.",
            f"The latest you can ask for is \"vacation until "
            f"{(today + timedelta(days=left)).isoformat()}\"." if left else
            "Ask the game's host if you need more time.",
        ])
    seat.vacation_days_used = seat.vacation_days_used - refund + asked
    if seat.vacation_until is None or clock.aware(seat.vacation_until) <= now:
        seat.vacation_from = now  # a new vacation; a changed one keeps its start
    seat.vacation_until = datetime(back.year, back.month, back.day, tzinfo=UTC)
    ctx.session.add(seat)
    due = clock.deadline_of(game, seat)
    queued = _tell_others(ctx, [
        f"{seat.name} is on vacation until {back.isoformat()}; the game's clock for them is "
        "paused until then, so the game may wait longer for them."])
    lines = [f"Your vacation until {back.isoformat()} is noted: your clock is paused until "
             f"{clock.when(seat.vacation_until)}.",
             f"It uses {asked} day{'s' if asked != 1 else ''}; "
             f"{_days_left(game, seat)} of your {game.vacation_days} vacation days are left.",
             "The other players have been told."]
    if due is not None and ctx.seat.index in ctx.rules.waiting_for(ctx.state):
        lines.append(f"Your orders are now due by {clock.when(due)}.")
    return Reply("applied", "vacation", lines, queued)


def _vacation_off(ctx: Context, now: datetime, today: date) -> Reply:
    seat = ctx.seat
    if seat.vacation_until is None or clock.aware(seat.vacation_until) <= now:
        return Reply("rejected", "no vacation", ["You are not on vacation, so nothing changed."])
    seat.vacation_days_used -= _unused_days(seat, today)
    seat.vacation_until = now  # the clock runs from now; the days not taken are given back
    ctx.session.add(seat)
    queued = _tell_others(ctx, [f"{seat.name} is back from vacation."])
    lines = ["Welcome back: your vacation is over and your clock runs again.",
             f"{_days_left(ctx.game, seat)} of your {ctx.game.vacation_days} vacation days "
             "are left."]
    due = clock.deadline_of(ctx.game, seat)
    if due is not None and seat.index in ctx.rules.waiting_for(ctx.state):
        lines.append(f"Your orders are due by {clock.when(due)}.")
    return Reply("applied", "vacation off", lines, queued)


def _tell_operator(ctx: Context, lines: list[str]) -> list[OutboundMessage]:
    if not ctx.host.operator_address:
        return []
    return [mails.queue_notice(
        ctx.session, ctx.host, to=ctx.host.operator_address, kind="operator", game=ctx.game,
        subj=mails.subject(ctx.game, f"{ctx.rules.title}: a seat resigned"), lines=lines)]


def _tell_others(ctx: Context, lines: list[str]) -> list[OutboundMessage]:
    queued = []
    for other in queries.seats(ctx.session, ctx.game.id or 0):
        if other.id != ctx.seat.id:
            queued.append(mails.queue_notice(
                ctx.session, ctx.host, to=other.address, kind="notice", game=ctx.game,
                subj=mails.subject(ctx.game, ctx.rules.title), lines=lines))
    return queued


# --- resign -------------------------------------------------------------------------------------


def resign(ctx: Context, argument: str) -> Reply:
    game, seat = ctx.game, ctx.seat
    if game.status == "finished":
        return Reply("rejected", "game finished", [f"Game [{game.tag}] is over."])
    if seat.status != "active":
        return Reply("rejected", f"seat {seat.status}", [
            f"Your seat in [{game.tag}] is already {seat.status}, so nothing changed."])
    seat.status = "resigned"
    ctx.session.add(seat)
    # Logged like an operator's action: visible in `game log`, checked by `game replay`.
    admin.log_admin(ctx.session, ctx.rules, game, ctx.state,
                    f"resign seat {seat.index + 1}: {seat.name}",
                    [Event(f"{seat.name} resigned; the game plays their default orders from "
                           "now on.")], seat=seat.index)
    queued = _tell_operator(ctx, [
        f"{seat.name} (seat {seat.index + 1}, {seat.address}) resigned from [{game.tag}] "
        f"({ctx.rules.title}) at {clock.when(ctx.host.clock())}.",
        "The game plays the default orders for that seat from now on. To give it to a new "
        f"player: pbem seat takeover {game.tag} {seat.index + 1} --name NAME --address ADDRESS"])
    queued += _tell_others(ctx, [
        f"{seat.name} has resigned from [{game.tag}]. From now on the game plays its default "
        "orders for them."])
    lines = [f"You have resigned from [{game.tag}]. The game plays its default orders for "
             "your seat from now on. You will still get its news until it ends.",
             "Thank you for playing."]
    result = clock.settle(ctx.session, ctx.rules, game, ctx.state, ctx.state,
                          ctx.host.clock())
    if result.played or result.failed:
        queued += clock.tell_autoplay(ctx.session, ctx.host, ctx.rules, game, result,
                                      ctx.host.clock(), skip_seat=None)
    return Reply("applied", "resigned", lines, queued)


# --- secret new ---------------------------------------------------------------------------------


def rotate(ctx: Context, argument: str) -> Reply:
    """A new secret for the seat, in the reply to its registered address only.

    Whoever lifted an old mail (from a sent folder, a forwarded thread) holds a secret that
    stops working; if they asked, the player is mailed the new one and can ask again.
    """
    secret, salt = new_secret(), new_salt()
    ctx.seat.secret_salt, ctx.seat.secret_hash = salt, hash_secret(secret, salt)
    ctx.session.add(ctx.seat)
    return Reply("applied", "new secret", [
        f"Your new secret for [{ctx.game.tag}] is: {secret}",
        "Your old secret no longer works. Keep the new one private: put it in every mail "
        "you send.",
        f"It was sent only to your registered address, {ctx.seat.address}. If you did not ask "
        "for it, someone has seen one of your mails: send \"secret new\" again and tell the "
        "game's host."], secret=secret)
