"""Delivery status reports: the failed seat's address is noted; a report is never answered."""

from __future__ import annotations

from pbem.pipeline import bounces, tally
from pbem.pipeline.context import MailContext, Result, finish


def handle(ctx: MailContext) -> Result | None:
    if not ctx.mail.bounces:
        return None
    reason, queued = bounces.record(ctx.session, ctx.host, ctx.mail)
    tally.add(tally.BOUNCE_REPORTS)
    return finish(ctx.row, "ignored", reason, queued)
