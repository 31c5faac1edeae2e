"""A mail command (``log``, ``waiting``, ``vacation``, ``resign``, ``back``, ``secret new``,
``mail``, ``language``, ``timezone``; the profile's ``name`` and ``calendar`` and the
``standings``) run for the
proved seat, its reply threaded to the seat's registered address."""

from __future__ import annotations

from pbem.i18n import msg
from pbem.pipeline import outgoing as mails
from pbem.pipeline.command_words import word
from pbem.pipeline.commands import (
    back,
    forget,
    language,
    log,
    mail_setting,
    resign,
    secret,
    timezone,
    vacation,
    waiting,
)
from pbem.pipeline.commands.base import Command, Context, Reply, too_long
from pbem.pipeline.context import MailContext, Result, finish
from pbem.pipeline.echo import clip
from pbem.pipeline.profile import calendar, name, standings
from pbem.pipeline.profile.base import ProfileContext
from pbem.pipeline.replies import reply_subject
from pbem.pipeline.seat_language import Line
from pbem.store import players

COMMANDS: dict[str, Command] = {
    "log": log.run,
    "waiting": waiting.run,
    "vacation": vacation.run,
    "resign": resign.run,
    "back": back.run,
    "forget": forget.run,
    "secret": secret.run,  # "secret new"
    "mail": mail_setting.run,
    "language": language.run,
    "timezone": timezone.run,
    "name": lambda ctx, argument: name.run(_profile(ctx), argument),
    "calendar": lambda ctx, argument: calendar.run(_profile(ctx), argument),
    # this game's standings unless the line names another game
    "standings": lambda ctx, argument: standings.run(_profile(ctx),
                                                     argument or ctx.game.game_type),
}


def _profile(ctx: Context) -> ProfileContext:
    """The seat's player, for a profile command in a game's mail (the seat's secret proves
    the address as a profile command to the host itself must be proved)."""
    return ProfileContext(ctx.session, ctx.host, players.ensure(ctx.session, ctx.seat.address),
                          ctx.seat.language)


# What a command's reply is, in its subject: it answered (information) or it changed something.
ANSWERED: dict[str, Line] = {
    "log": msg("Game log"),
    "waiting": msg("Who the game waits for"),
    "vacation": msg("Vacation noted"),
    "resign": msg("You resigned"),
    "secret": msg("Your new secret"),
    "mail": msg("Mail setting changed"),
    "language": msg("Language changed"),
    "timezone": msg("Time zone changed"),
    "back": msg("You play your seat again"),
    "forget": msg("Your request to be forgotten"),
    "name": msg("Your profile"),
    "calendar": msg("Calendar setting changed"),
    "standings": msg("Standings"),
}


def run(ctx: Context, command: str, argument: str) -> Reply:
    """The command word ``command`` (English) run with the rest of its line."""
    refused = too_long(command, argument, ctx.w(command))
    if refused is not None:
        return refused
    # Each command quotes what it did not understand: cut here, once, for every command.
    return COMMANDS[command](ctx, clip(argument))


def handle(ctx: MailContext) -> Result | None:
    letter, game, seat = ctx.letter, ctx.game, ctx.seat
    if letter.command not in COMMANDS:
        return None
    assert letter.command is not None and game is not None and seat is not None
    reply = run(Context(ctx.session, ctx.host, ctx.known_rules, game, ctx.state, seat),
                letter.command, letter.argument)
    lines = reply.lines
    if letter.orders:  # a command and orders in one mail: only the command is done
        lines = [*lines, "", msg("The other lines of your mail were not read as orders; "
                                 "send orders in a mail of their own.")]
    lines = ctx.with_asides(lines)
    # To the seat's registered address (the sender's, as authenticated), never elsewhere:
    # a reply may carry a new secret. In the seat's language as it is now (a "language"
    # command's reply already speaks the new one).
    point = _point(reply, letter.command, seat.language)
    q = mails.queue_notice(ctx.session, ctx.host, to=seat.address,
                           subj=reply_subject(ctx, game, point), lines=lines, kind="reply",
                           game=game, in_reply_to=ctx.mid, references=ctx.refs,
                           secret=reply.secret, seat=seat, rules=ctx.rules)
    return finish(ctx.row, reply.status, reply.reason, [q, *reply.queued])


def _point(reply: Reply, command: str, lang: str) -> Line:
    """The reply's subject: what it says, or that the command was not done."""
    if reply.status == "rejected":
        return msg("Your \"{command}\" was not done", command=word(command, lang))
    return reply.point or ANSWERED[command]
