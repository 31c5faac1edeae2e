"""Where the operator asks for it: the receiving server vouches that the mail came from its
sender's domain (DKIM, SPF or DMARC passed), so a lifted secret alone plays nothing."""

from __future__ import annotations

from pbem.i18n import msg
from pbem.mail import authresults
from pbem.pipeline.context import MailContext, Result
from pbem.pipeline.replies import stranger


def handle(ctx: MailContext) -> Result | None:
    if not ctx.host.mail.trusted_authserv_id:
        return None
    checked = authresults.verdict(ctx.raw, ctx.sender, ctx.host.mail.trusted_authserv_id)
    if checked.ok:
        return None
    return stranger(ctx, "rejected", f"sender not verified: {checked.why}", [
        msg("Your mail could not be verified as sent from {address}: {why}. So "
            "nothing was played.", address=ctx.sender, why=checked.why),
        msg("This game's host requires mail signed by your provider (DKIM) or "
            "sent from its servers (SPF). If you did send it, ask the game's "
            "host.")], ctx.game, msg("Your mail could not be verified: nothing played"))
