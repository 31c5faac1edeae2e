"""Mail a machine sent (auto-replies, lists, no-reply senders): kept, never answered."""

from __future__ import annotations

from pbem.pipeline.context import MailContext, Result, finish


def handle(ctx: MailContext) -> Result | None:
    if not ctx.mail.automatic:
        return None
    return finish(ctx.row, "ignored",
                  f"automatic mail ({ctx.mail.automatic_reason}); never answered", [])
