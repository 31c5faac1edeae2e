"""Table talk (``say ...`` lines): delivered whatever becomes of the orders beside it (a line
that cannot be delivered is told in the reply, and undoes nothing else); a mail of talk alone
is answered here."""

from __future__ import annotations

from pbem.i18n import msg
from pbem.pipeline import talk
from pbem.pipeline.context import MailContext, Result
from pbem.pipeline.replies import notice


def handle(ctx: MailContext) -> Result | None:
    letter, game, seat = ctx.letter, ctx.game, ctx.seat
    if not letter.talk:
        return None
    assert game is not None and seat is not None
    ctx.said = talk.say(ctx.session, ctx.host, game, seat, letter.talk, secret=letter.secret)
    if letter.orders or letter.command is not None:
        return None
    if not ctx.said.sent:
        return notice(ctx, "rejected", "talk not sent", [], game,
                      point=msg("Message not sent"))
    return notice(ctx, "applied", "talk", [], game, point=msg(
        "Message sent, but not all of it") if ctx.said.refused else msg("Message sent"))
