"""``status``: the seat's status mail, sent again as a reply."""

from __future__ import annotations

from pbem.i18n import msg
from pbem.pipeline.context import MailContext, Result, finish
from pbem.pipeline.move_mails import MoveMails


def handle(ctx: MailContext) -> Result | None:
    if ctx.letter.command != "status":
        return None
    assert ctx.game is not None and ctx.seat is not None
    move = MoveMails.read(ctx.session, ctx.known_rules, ctx.game, ctx.state,
                          seats=ctx.seats or None, mailed=[ctx.seat.index])
    q = move.queue_status(ctx.host, ctx.seat, kind="reply",
                          intro=ctx.with_asides([msg("Your status, as you asked.")]),
                          in_reply_to=ctx.mid, references=ctx.refs)
    return finish(ctx.row, "ignored", "status", [q])
