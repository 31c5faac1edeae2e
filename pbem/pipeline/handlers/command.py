"""A seat's mail command (``log``, ``waiting``, ``vacation``, ``resign``, ``back``, ``secret
new``, ``mail``, ``language``, ``timezone``; the profile's ``name`` and ``calendar`` and the
``standings``: the
registry's ``SEAT`` commands) run for the proved seat, its reply threaded to the seat's
registered address."""

from __future__ import annotations

from pbem.i18n import msg
from pbem.pipeline import command_registry
from pbem.pipeline import outgoing as mails
from pbem.pipeline.commands.base import Command, Context, Reply, Scope, perform
from pbem.pipeline.context import MailContext, Result, finish
from pbem.pipeline.replies import reply_subject
from pbem.pipeline.seat_language import Line


def handle(ctx: MailContext) -> Result | None:
    letter, game, seat = ctx.letter, ctx.game, ctx.seat
    command = command_registry.find(Scope.SEAT, letter.command)
    if command is None:
        return None
    assert game is not None and seat is not None
    reply = perform(command, Context.for_seat(ctx.session, ctx.host, ctx.known_rules, game,
                                              ctx.state, seat), letter.argument)
    lines = reply.lines
    if letter.orders:  # a command and orders in one mail: only the command is done
        lines = [*lines, "", msg("The other lines of your mail were not read as orders; "
                                 "send orders in a mail of their own.")]
    lines = ctx.with_asides(lines)
    # To the seat's registered address (the sender's, as authenticated), never elsewhere:
    # a reply may carry a new secret. In the seat's language as it is now (a "language"
    # command's reply already speaks the new one).
    point = _point(reply, command, seat.language)
    q = mails.queue_notice(ctx.session, ctx.host, to=seat.address,
                           subj=reply_subject(ctx, game, point), lines=lines, kind="reply",
                           game=game, in_reply_to=ctx.mid, references=ctx.refs,
                           secret=reply.secret, seat=seat, rules=ctx.rules,
                           attachment=reply.attachment)
    return finish(ctx.row, reply.status, reply.reason, [q, *reply.queued])


def _point(reply: Reply, command: Command, lang: str) -> Line:
    """The reply's subject: what it says, or that the command was not done."""
    if reply.status == "rejected":
        return msg("Your \"{command}\" was not done", command=command.written(lang))
    return reply.subject or command.subject or ""
