"""Email commands besides orders: ``log``, ``waiting``, ``vacation``, ``resign``, ``secret new``,
``mail``, ``language``, ``timezone``.

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
from pbem.i18n import LANGUAGES, Translator, msg, nmsg
from pbem.i18n.translate import ENGLISH, valid_zone
from pbem.pipeline import clock
from pbem.pipeline import outgoing as mails
from pbem.pipeline.command_words import is_word, word
from pbem.pipeline.echo import clip
from pbem.pipeline.history import TALK, revoked
from pbem.pipeline.movelog import log_admin
from pbem.pipeline.seat_language import Line, known_language, language_name, seat_tr
from pbem.pipeline.seat_secrets import hash_secret, new_salt, new_secret
from pbem.settings.host import Host
from pbem.store import queries
from pbem.store.tables import Game, OutboundMessage, Seat

COMMANDS = ("log", "waiting", "vacation", "resign", "secret", "mail", "language", "timezone")
LOG_DEFAULT = 10  # entries a bare "log" shows
LOG_MAX = 50
# The longest argument any command takes ("until 2026-12-24", the longest IANA zone name is 32
# characters): a longer one is refused before any library (zoneinfo, dates) sees it.
ARGUMENT_MAX = 64

def _help_row(command: str, what: Line, tr: Translator) -> str:
    return f"  {command:<23} {tr(what) if not isinstance(what, str) else what}"


def help_lines(tr: Translator, host: Host | None = None) -> list[str]:
    """The host's commands, as ``help`` lists them, in ``tr``'s language (the command words
    too; the English ones always work as well); ``host``'s limits on table talk."""
    talk = host or Host()
    def w(english: str) -> str:
        return word(english, tr.lang)

    return [
        tr(msg("Other commands, each alone on the first line of a mail with your secret line:")),
        _help_row(w("status"), msg("your current status, sent again"), tr),
        _help_row(f"{w('log')} [N]", msg("the last N moves (default {count}), as you may see "
                                         "them", count=LOG_DEFAULT), tr),
        _help_row(w("waiting"), msg("who the game is waiting for, and until when"), tr),
        f"  {w('vacation')} {w('until')} YYYY-MM-DD   " + tr(msg(
            "pause your clock until that day ({off}: back early)",
            off=f"{w('vacation')} {w('off')}")),
        _help_row(w("resign"), msg("leave the game; it plays its default orders for you from "
                                   "then on"), tr),
        _help_row(f"{w('secret')} {w('new')}", msg(
            "a new secret, mailed to your registered address; the old one stops working (do "
            "it if a mail of yours may have been seen)"), tr),
        _help_row(f"{w('mail')} {w('every')}", msg("a full status after every move (the "
                                                   "default)"), tr),
        _help_row(f"{w('mail')} {w('turn')}", msg("full status only when it is your move; a "
                                                  "line on other moves"), tr),
        _help_row(f"{w('mail')} {w('digest')}", msg("full status when it is your move; one "
                                                    "summary a day besides"), tr),
        _help_row(f"{w('language')} XX", msg("the language of your mails: {codes}",
                                             codes=", ".join(LANGUAGES)), tr),
        _help_row(f"{w('timezone')} Europe/Paris", msg(
            "the time zone of the dates in your mails (an IANA name; UTC by default)"), tr),
        _help_row(w("help"), msg("this text (no secret needed)"), tr),
        tr(msg("Table talk, in any mail, beside orders or alone (with your secret line):")),
        _help_row(f"{w('say')} <text>", msg("a message to every other player"), tr),
        _help_row(f"{w('say')} {w('to')} NAME: <text>", msg(
            "a message to one player (NAME, or their number 1, 2, ...)"), tr),
        tr(msg("All the talk of one mail reaches each player as one mail, up to {chars} "
               "characters (more is cut, and you are told); talk goes out in at most {mails} "
               "of your mails a day. A secret typed in talk is blanked.",
               chars=talk.talk_chars_per_mail, mails=talk.talk_mails_per_day)),
        tr(msg("Notes around your orders: put your orders between a line \"{orders}\" and a "
               "line \"{end}\"; only those lines are read, greetings and signatures around "
               "them are left alone.", orders=w("orders"), end=w("end"))),
    ]



@dataclass
class Reply:
    """The answer to a command: the inbound mail's status, its reason, the reply's lines."""

    status: str  # applied (something changed) | ignored (information) | rejected
    reason: str
    lines: list[Line]
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

    @property
    def tr(self) -> Translator:
        return seat_tr(self.seat, self.rules)

    def w(self, english: str) -> str:
        """A host command word as this seat is told to write it."""
        return word(english, self.seat.language)


def run(ctx: Context, command: str, argument: str) -> Reply:
    if len(argument) > ARGUMENT_MAX:  # never echoed: a 5,000-character line gets no echo
        return Reply("rejected", f"{command}: argument too long", [msg(
            "The text after \"{command}\" is too long ({count} characters; at most {limit}), "
            "so nothing changed.", command=ctx.w(command), count=len(argument),
            limit=ARGUMENT_MAX)])
    handler = {"log": history, "waiting": waiting, "vacation": vacation,
               "resign": resign, "secret": rotate, "mail": mail_setting,
               "language": language, "timezone": timezone}[command]
    # Each handler quotes what it did not understand: cut here, once, for every command.
    return handler(ctx, clip(argument))


# --- log ----------------------------------------------------------------------------------------


def history(ctx: Context, argument: str) -> Reply:
    arg = argument.strip()
    log = ctx.w("log")
    if arg and not (arg.isdigit() and 1 <= int(arg) <= LOG_MAX):
        return Reply("rejected", "bad log count", [msg(
            "\"{log} {arg}\" is not understood: write \"{log}\" alone for the last {count} "
            "moves, or \"{log} N\" with N from 1 to {max}.", log=log, arg=arg,
            count=LOG_DEFAULT, max=LOG_MAX)])
    count = int(arg) if arg else LOG_DEFAULT
    entries = [e for e in queries.log(ctx.session, ctx.game.id or 0) if e.kind != "setup"
               and (e.kind != TALK or any(ev.visible(ctx.seat.index)
                                          for ev in queries.entry_events(e)))]
    undone = revoked(entries)  # the log is append-only: undone moves stay, marked
    seats = queries.seats(ctx.session, ctx.game.id or 0)
    names = {s.index: s.name for s in seats}
    by_seat = [s.name for s in seats]
    shown = entries[-count:]
    if not shown:
        return Reply("ignored", "log", [msg("Nothing has been played in [{tag}] yet.",
                                            tag=ctx.game.tag)])
    tr, tz = ctx.tr, ctx.seat.timezone
    lines: list[Line] = [msg("The last {shown} of {total} moves in [{tag}], as you may see "
                             "them:", shown=len(shown), total=len(entries), tag=ctx.game.tag),
                         ""]
    for e in shown:
        who = names.get(e.seat, tr(msg("the host"))) if e.seat is not None \
            else tr(msg("the host"))
        when = tr.datetime(e.created, tz)
        if e.kind == "order":
            head = msg("#{index} {who} ({when})", index=e.index, who=who, when=when)
        elif e.kind == clock.TIMEOUT_KIND:
            head = msg("#{index} {who}, played by the host ({when})", index=e.index, who=who,
                       when=when)
        elif e.kind == TALK:
            head = msg("#{index} {who} says ({when})", index=e.index, who=who, when=when)
        else:
            head = msg("#{index} {who}, {kind} ({when})", index=e.index, who=who,
                       kind=e.kind, when=when)
        mark = tr(msg(" (undone by #{index})", index=undone[e.index])) if e.index in undone \
            else ""
        lines.append(f"{tr(head)}{mark}:")
        seen = [ev.render(tr, by_seat) for ev in queries.entry_events(e)
                if ev.visible(ctx.seat.index)]
        lines += [f"  - {t}" for t in seen] or ["  " + tr(msg("(nothing you may see)"))]
    return Reply("ignored", "log", lines)


# --- waiting ------------------------------------------------------------------------------------


def waiting(ctx: Context, argument: str) -> Reply:
    seats = queries.seats(ctx.session, ctx.game.id or 0)
    waited = ctx.rules.waiting_for(ctx.state)
    status = ctx.tr(_GAME_STATUS.get(ctx.game.status, msg(ctx.game.status)))
    if ctx.game.status != "active":
        if ctx.game.status == "paused" and waited:
            return Reply("ignored", "waiting", [msg(
                "Game [{tag}] is {status}: no clock runs until its host resumes it. It then "
                "waits for: {names}.", tag=ctx.game.tag, status=status,
                names=", ".join(s.name for s in seats if s.index in waited))])
        return Reply("ignored", "waiting", [msg("Game [{tag}] is {status}; it waits for nobody.",
                                                tag=ctx.game.tag, status=status)])
    if not waited:
        return Reply("ignored", "waiting", [msg("The game is waiting for nobody.")])
    who = clock.waiting_lines(ctx.game, seats, waited, ctx.host.clock(), ctx.tr,
                              ctx.seat.timezone)
    lines: list[Line] = [msg("[{tag}] is waiting for:", tag=ctx.game.tag), *who]
    if ctx.seat.index in waited:
        lines += ["", msg("That includes you: send your orders.")]
    return Reply("ignored", "waiting", lines)


_GAME_STATUS = {"active": msg("active"), "paused": msg("paused"), "finished": msg("finished"),
                "archived": msg("archived")}
_SEAT_STATUS = {"active": msg("active"), "resigned": msg("resigned"),
                "dropped": msg("dropped")}


def status_word(status: str) -> Line:
    """A game's or seat's status as a word to translate."""
    return _GAME_STATUS.get(status) or _SEAT_STATUS.get(status) or status


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
    typed = argument.strip()
    mode = next((m for m in mails.MAIL_MODES if _is(typed, m)), None)
    mail = ctx.w("mail")
    if mode is None:
        return Reply("rejected", "bad mail setting", [
            msg("\"{mail} {typed}\" is not understood. Write one of:", mail=mail, typed=typed),
            *(f"  {mail} {ctx.w(m):<7} {ctx.tr(what)}" for m, what in mails.MAIL_MODES.items()),
            msg("Your setting stays \"{setting}\".",
                setting=f"{mail} {ctx.w(ctx.seat.mail_mode)}")])
    ctx.seat.mail_mode = mode
    if mode == "digest" and ctx.seat.digest_at is None:
        ctx.seat.digest_at = ctx.host.clock()  # the first digest covers from now on
    ctx.session.add(ctx.seat)
    return Reply("applied", f"mail {mode}", [msg(
        "Your mail setting in [{tag}] is now \"{setting}\": {what}.", tag=ctx.game.tag,
        setting=f"{mail} {ctx.w(mode)}", what=mails.MAIL_MODES[mode])])


def _is(typed: str, english: str) -> bool:
    return is_word(typed, english)


# --- language and time zone ---------------------------------------------------------------------


def language(ctx: Context, argument: str) -> Reply:
    """``language fr``: every later mail to this seat is in that language."""
    typed = argument.strip()
    code = known_language(typed) if typed else None
    command = ctx.w("language")
    if code is None:
        return Reply("rejected", "bad language", [
            msg("\"{command} {typed}\" is not a language this game host speaks. Write one of:",
                command=command, typed=typed),
            *(f"  {command} {c:<3} {language_name(c)}" for c in LANGUAGES),
            msg("Your language stays {language}.", language=language_name(ctx.seat.language))])
    ctx.seat.language = code
    ctx.session.add(ctx.seat)
    # The reply already speaks the new language: the seat reads it in the words it chose.
    return Reply("applied", f"language {code}", [msg(
        "Your mails in [{tag}] are now in {language}. Orders may be written in {language} "
        "or in English.", tag=ctx.game.tag, language=language_name(code))])


def timezone(ctx: Context, argument: str) -> Reply:
    """``timezone Europe/Paris``: the dates in this seat's mails are in that time zone."""
    typed = argument.strip()
    command = ctx.w("timezone")
    if not typed or ("/" not in typed and typed.upper() != "UTC") or not valid_zone(typed):
        return Reply("rejected", "bad time zone", [
            msg("\"{command} {typed}\" is not a time zone: write an IANA name such as "
                "\"{command} Europe/Paris\", \"{command} Europe/Rome\", \"{command} "
                "America/New_York\" or \"{command} UTC\".", command=command, typed=typed),
            msg("Your time zone stays {zone}.", zone=ctx.seat.timezone)])
    zone_name = "UTC" if typed.upper() == "UTC" else typed
    ctx.seat.timezone = zone_name
    ctx.session.add(ctx.seat)
    return Reply("applied", f"timezone {zone_name}", [msg(
        "The dates in your mails in [{tag}] are now in the time zone {zone}: it is "
        "{now} there.", tag=ctx.game.tag, zone=zone_name,
        now=ctx.tr.datetime(ctx.host.clock(), zone_name))])


# --- vacation -----------------------------------------------------------------------------------


def vacation(ctx: Context, argument: str) -> Reply:
    words = argument.split()
    now = ctx.host.clock()
    today = now.astimezone(UTC).date()
    game, seat = ctx.game, ctx.seat
    vac, until, off = ctx.w("vacation"), ctx.w("until"), ctx.w("off")
    if game.status == "finished":
        return Reply("rejected", "game finished", [msg("Game [{tag}] is over.", tag=game.tag)])
    if len(words) == 1 and _is(words[0], "off"):
        return _vacation_off(ctx, now, today)
    if len(words) != 2 or not _is(words[0], "until"):
        return Reply("rejected", "bad vacation", [msg(
            "\"{vacation}\" needs a date: write \"{vacation} {until} 2026-12-24\" "
            "(year-month-day; your clock runs again from the start of that day, UTC), or "
            "\"{vacation} {off}\" to come back early.", vacation=vac, until=until, off=off)])
    try:
        back = date.fromisoformat(words[1])
    except ValueError:
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
    queued = _tell_others(ctx, [msg(
        "{name} is on vacation until {date}; the game's clock for them is paused until then, "
        "so the game may wait longer for them.", name=seat.name, date=back.isoformat())])
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
    queued = _tell_others(ctx, [msg("{name} is back from vacation.", name=seat.name)])
    lines: list[Line] = [
        msg("Welcome back: your vacation is over and your clock runs again."),
        msg("{left} of your {per_game} vacation days are left.",
            left=_days_left(ctx.game, seat), per_game=ctx.game.vacation_days)]
    due = clock.deadline_of(ctx.game, seat)
    if due is not None and seat.index in ctx.rules.waiting_for(ctx.state):
        lines.append(msg("Your orders are due by {when}.",
                         when=ctx.tr.datetime(due, seat.timezone)))
    return Reply("applied", "vacation off", lines, queued)


def _tell_operator(ctx: Context, lines: list[Line]) -> list[OutboundMessage]:
    if not ctx.host.operator_address:
        return []
    return [mails.queue_notice(
        ctx.session, ctx.host, to=ctx.host.operator_address, kind="operator", game=ctx.game,
        subj=mails.subject(ctx.game, f"{ctx.rules.title}: a seat resigned"), lines=lines)]


def _tell_others(ctx: Context, lines: list[Line]) -> list[OutboundMessage]:
    queued = []
    for other in queries.seats(ctx.session, ctx.game.id or 0):
        if other.id != ctx.seat.id:
            queued.append(mails.queue_notice(
                ctx.session, ctx.host, to=other.address, kind="notice", game=ctx.game,
                subj=mails.subject(ctx.game, ctx.rules.title), lines=lines, seat=other,
                rules=ctx.rules))
    return queued


# --- resign -------------------------------------------------------------------------------------


def resign(ctx: Context, argument: str) -> Reply:
    game, seat = ctx.game, ctx.seat
    if game.status == "finished":
        return Reply("rejected", "game finished", [msg("Game [{tag}] is over.", tag=game.tag)])
    if seat.status != "active":
        return Reply("rejected", f"seat {seat.status}", [msg(
            "Your seat in [{tag}] is already {status}, so nothing changed.", tag=game.tag,
            status=status_word(seat.status))])
    seat.status = "resigned"
    ctx.session.add(seat)
    # Logged like an operator's action: visible in `game log`, checked by `game replay`.
    log_admin(ctx.session, ctx.rules, game, ctx.state,
                    f"resign seat {seat.index + 1}: {seat.name}",
                    [Event.of("seat_resigned", msg(
                        "{name} resigned; the game plays their default orders from now on.",
                        name=seat.name))], seat=seat.index)
    # The operator's notes stay English: the host's operator reads the host's language.
    queued = _tell_operator(ctx, [
        f"{seat.name} (seat {seat.index + 1}, {seat.address}) resigned from [{game.tag}] "
        f"({ctx.rules.title}) at {clock.when(ctx.host.clock())}.",
        "The game plays the default orders for that seat from now on. To give it to a new "
        f"player: pbem seat takeover {game.tag} {seat.index + 1} --name NAME --address ADDRESS"])
    queued += _tell_others(ctx, [msg(
        "{name} has resigned from [{tag}]. From now on the game plays its default orders for "
        "them.", name=seat.name, tag=game.tag)])
    lines: list[Line] = [
        msg("You have resigned from [{tag}]. The game plays its default orders for your seat "
            "from now on. You will still get its news until it ends.", tag=game.tag),
        msg("Thank you for playing.")]
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
        msg("Your new secret for [{tag}] is: {secret}", tag=ctx.game.tag, secret=secret),
        msg("Your old secret no longer works. Keep the new one private: put it in every mail "
            "you send."),
        msg("It was sent only to your registered address, {address}. If you did not ask for "
            "it, someone has seen one of your mails: send \"{command}\" again and tell the "
            "game's host.", address=ctx.seat.address,
            command=f"{ctx.w('secret')} {ctx.w('new')}")], secret=secret)


HELP_LINES = help_lines(ENGLISH)  # the English list, as `help` sends it to an English seat
