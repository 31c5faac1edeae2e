"""Mail from an address the host bans (``pbem player ban``): kept, never answered."""

from __future__ import annotations

from pbem.pipeline.context import MailContext, Result, finish
from pbem.store import players


def handle(ctx: MailContext) -> Result | None:
    if not players.is_banned(ctx.session, ctx.sender):
        return None
    return finish(ctx.row, "ignored", "banned sender", [])
