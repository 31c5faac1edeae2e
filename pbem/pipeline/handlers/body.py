"""The body read: the host's lines (game, secret, a command, talk) apart from the orders."""

from __future__ import annotations

from pbem.pipeline.context import MailContext, Result
from pbem.pipeline.letter import read_letter


def handle(ctx: MailContext) -> Result | None:
    ctx.letter = read_letter(ctx.mail.body_text or "")
    ctx.secret = ctx.letter.secret
    return None
