"""The greeting, closing and signature of a proven seat's mail set aside from its orders,
and named at the end of every reply to it (pbem.pipeline.aside)."""

from __future__ import annotations

from pbem.i18n import msg, nmsg
from pbem.pipeline.aside import order_reader, set_aside
from pbem.pipeline.context import MailContext, Result
from pbem.pipeline.echo import clip

NAMED = 8  # set-aside lines quoted in the reply; the rest counted
ASIDE_CHARS = 80


def handle(ctx: MailContext) -> Result | None:
    seat, rules, state = ctx.seat, ctx.known_rules, ctx.state
    assert seat is not None
    reads_as_order = order_reader(rules, state, seat.index, seat.language or "en")
    aside = set_aside(ctx.letter, ctx.mail.signature, reads_as_order,
                      [ctx.mail.from_name or "", seat.name or ""])
    if aside:
        quoted = " ".join(f"'{clip(text, ASIDE_CHARS)}'" for text in aside[:NAMED])
        ctx.reminders.append(
            msg("Not read as orders: {lines}", lines=quoted) if len(aside) <= NAMED else
            nmsg("Not read as orders: {lines} and {count} more line",
                 "Not read as orders: {lines} and {count} more lines", len(aside) - NAMED,
                 lines=quoted, count=len(aside) - NAMED))
    return None
