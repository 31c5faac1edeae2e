"""``mail digest`` to the host itself: the mail setting of the games joined later."""

from __future__ import annotations

from pbem.i18n import msg
from pbem.pipeline import outgoing as mails
from pbem.pipeline.commands.base import Context, Reply
from pbem.pipeline.commands.mail_setting import mode_of


def run(ctx: Context, argument: str) -> Reply:
    typed = argument.strip()
    mode = mode_of(typed)
    mail = ctx.w("mail")
    if mode is None:
        kept = ctx.player.mail_mode
        return Reply("rejected", "bad mail setting", [
            msg("\"{mail} {typed}\" is not understood. Write one of:", mail=mail, typed=typed),
            *(f"  {mail} {ctx.w(m):<7} {ctx.tr(what)}" for m, what in mails.MAIL_MODES.items()),
            *([msg("Your setting stays \"{setting}\".", setting=f"{mail} {ctx.w(kept)}")]
              if kept else [])])
    ctx.player.mail_mode = mode
    ctx.session.add(ctx.player)
    return Reply("applied", f"profile mail {mode}", [msg(
        "Your profile's mail setting is now \"{setting}\": {what}. It holds for the games you "
        "join from now on.", setting=f"{mail} {ctx.w(mode)}", what=mails.MAIL_MODES[mode])])
