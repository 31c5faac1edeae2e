"""Commands to the host itself, in a mail that names no game: a player's profile (``name``,
``language``, ``timezone``, ``mail``, ``calendar``) and a game's ``standings``.

The standings are public, so anyone may ask (answered as help is: a limited note). A profile
changes only for a mail carrying the secret of one of the sender's seats, in any game: a
From line is easily forged, the secret is what every seat's command is proved by, and every
player already holds one (an address that never held a seat has no profile to change yet).
"""

from __future__ import annotations

from sqlmodel import col, select

from pbem.i18n import msg
from pbem.mail.redact import MARK
from pbem.pipeline import command_registry
from pbem.pipeline import command_words as words
from pbem.pipeline import outgoing as mails
from pbem.pipeline.commands.base import Context, Scope, perform
from pbem.pipeline.context import MailContext, Result, finish
from pbem.pipeline.identify import identify_game, secret_seat
from pbem.pipeline.replies import stranger
from pbem.pipeline.seat_language import Line
from pbem.store import players
from pbem.store.tables import Player, Seat

# The seats whose secrets a profile command is checked against: the address's newest.
SEATS_CHECKED = 20


def handle(ctx: MailContext) -> Result | None:
    # Those that change the profile need a seat's secret; the public ones do not.
    public = command_registry.find(Scope.PUBLIC, ctx.letter.command)
    command = public or command_registry.find(Scope.PROFILE, ctx.letter.command)
    if command is None:
        return None
    if identify_game(ctx.session, ctx.mail.subject or "", ctx.letter) is not None:
        return None  # a game's mail: its seat's commands (handlers.command)
    known = players.find(ctx.session, ctx.sender)
    ctx.profile_language = (known.language if known is not None else None) or _seat_language(ctx)
    lang = ctx.tr.lang
    if public is not None:
        pctx = Context(ctx.session, ctx.host, ctx.sender, lang,
                       profile=known or Player(address=ctx.sender))
        reply = perform(public, pctx, ctx.letter.argument)
        return stranger(ctx, reply.status, reply.reason, reply.lines, None,
                        reply.subject or public.subject or "", kind="help")
    seat = _proved(ctx)
    if seat is None:
        return _unproved(ctx)
    ctx.game_id, ctx.verified = seat.game_id, seat.index  # which seat's secret proved it
    pctx = Context(ctx.session, ctx.host, ctx.sender, lang,
                   profile=players.ensure(ctx.session, ctx.sender))
    reply = perform(command, pctx, ctx.letter.argument)
    ctx.profile_language = pctx.lang  # a new language speaks in its reply already
    lines: list[Line] = list(reply.lines)
    if ctx.letter.orders:
        lines += ["", msg("The other lines of your mail were not read: a mail without a "
                          "game's tag carries one command to the host.")]
    q = mails.queue_notice(ctx.session, ctx.host, to=ctx.sender,
                           subj=ctx.tr(reply.subject or command.subject or ""), lines=lines,
                           kind="reply",
                           in_reply_to=ctx.mid, references=ctx.refs, tr=ctx.tr)
    return finish(ctx.row, reply.status, reply.reason, [q])


def _seats(ctx: MailContext) -> list[Seat]:
    return list(ctx.session.exec(select(Seat).where(Seat.address == ctx.sender)
                                 .order_by(col(Seat.id).desc()).limit(SEATS_CHECKED)))


def _seat_language(ctx: MailContext) -> str | None:
    newest = _seats(ctx)[:1]
    return newest[0].language if newest else None


def _proved(ctx: MailContext) -> Seat | None:
    if ctx.stored and ctx.letter.secret == MARK:
        # Checked on arrival, then blanked: the row names the seat that proved it.
        return ctx.session.exec(select(Seat).where(
            Seat.game_id == ctx.row.game_id, Seat.index == ctx.row.secret_seat,
            Seat.address == ctx.sender)).first()
    return secret_seat(_seats(ctx), ctx.letter.secret)


def _unproved(ctx: MailContext) -> Result:
    if not _seats(ctx):
        return stranger(ctx, "rejected", "profile: no seat", [
            msg("Hello! This is an automatic play-by-email game host."),
            msg("The address {address} holds no seat in any game here, so it has no profile "
                "to change yet: join a game first.", address=ctx.sender)], None,
            msg("Your profile"))
    secret = words.word("secret", ctx.tr.lang)
    if ctx.letter.secret is None:
        lines: list[Line] = [
            msg("Your mail had no \"{secret}\" line, so your profile did not change.",
                secret=secret),
            msg("Add the line \"{line}\" of any of your seats (from the first email of one of "
                "your games) and send it again.", line=f"{secret} " + ctx.tr(
                    msg("<your secret>")))]
        reason = "profile: no secret"
    else:
        lines = [msg("The secret in your mail matches none of your seats, so your profile "
                     "did not change.")]
        reason = "profile: wrong secret"
    return stranger(ctx, "rejected", reason, lines, None, msg("Your profile"), kind="auth")
