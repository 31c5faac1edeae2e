"""``mail every|turn|digest``: how much mail this seat gets about others' moves."""

from __future__ import annotations

from pbem.i18n import msg
from pbem.pipeline import outgoing as mails
from pbem.pipeline.command_words import is_word
from pbem.pipeline.commands.base import Context, Reply


def mode_of(typed: str) -> str | None:
    """The mail setting a player wrote (``digest``, ``übersicht``), if it is one."""
    return next((m for m in mails.MAIL_MODES if is_word(typed.strip(), m)), None)


def run(ctx: Context, argument: str) -> Reply:
    typed = argument.strip()
    mode = mode_of(typed)
    mail = ctx.w("mail")
    if mode is None:
        return Reply("rejected", "bad mail setting", [
            msg("\"{mail} {typed}\" is not understood. Write one of:", mail=mail, typed=typed),
            *(f"  {mail} {ctx.w(m):<7} {ctx.tr(what)}" for m, what in mails.MAIL_MODES.items()),
            msg("Your setting stays \"{setting}\".",
                setting=f"{mail} {ctx.w(ctx.seat.mail_mode)}")])
    ctx.seat.mail_mode = mode
    if mode == "digest" and ctx.seat.digest_at is None:
        ctx.seat.digest_at = ctx.host.clock()  # the first digest covers from now on
    ctx.session.add(ctx.seat)
    return Reply("applied", f"mail {mode}", [msg(
        "Your mail setting in [{tag}] is now \"{setting}\": {what}.", tag=ctx.game.tag,
        setting=f"{mail} {ctx.w(mode)}", what=mails.MAIL_MODES[mode])])

