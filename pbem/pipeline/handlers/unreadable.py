"""A mail too large to read, or whose structure cannot be read: a note, nothing played."""

from __future__ import annotations

from pbem.i18n import msg
from pbem.pipeline.context import MailContext, Result
from pbem.pipeline.replies import stranger


def handle(ctx: MailContext) -> Result | None:
    mail = ctx.mail
    if mail.too_large:
        return stranger(ctx, "rejected", "too large", [
            msg("Your message is larger than {limit} bytes, so it was not read. Please "
                "send your orders as plain text, without attachments.",
                limit=ctx.host.limits.max_message_bytes),
        ], None, msg("Your mail was too large to read"))
    if mail.unreadable:
        return stranger(ctx, "rejected", f"unreadable: {mail.unreadable}", [
            msg("Your message could not be read: {why}. Nothing was played.",
                why=mail.unreadable),
            msg("Please send your orders as plain text, without attachments."),
        ], None, msg("Your mail could not be read"))
    return None
