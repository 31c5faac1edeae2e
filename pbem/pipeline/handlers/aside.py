"""The greeting, closing and signature of a proven seat's mail set aside from its orders,
and named at the end of every reply to it (pbem.pipeline.aside)."""

from __future__ import annotations

import re

from pbem.engine.contract import canonical_order, order_words
from pbem.i18n import msg, nmsg
from pbem.pipeline.aside import set_aside
from pbem.pipeline.context import MailContext, Result
from pbem.pipeline.echo import clip

NAMED = 8  # set-aside lines quoted in the reply; the rest counted
ASIDE_CHARS = 80
_WORD = re.compile(r"[^\W\d_]+")


def handle(ctx: MailContext) -> Result | None:
    seat, rules, state = ctx.seat, ctx.known_rules, ctx.state
    assert seat is not None
    words = order_words(rules)
    lang = seat.language or "en"

    def reads_as_order(line: str) -> bool:
        typed = [w.lower() for w in _WORD.findall(line)]
        english = [w.lower() for w in _WORD.findall(
            canonical_order(rules, state, seat.index, line, lang))]
        return any(found and (found[0] in words or all(w in words for w in found))
                   for found in (typed, english))

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
