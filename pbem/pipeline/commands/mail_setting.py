"""``mail every|turn|digest``: how much mail this seat gets about others' moves."""

from __future__ import annotations

from pbem.i18n import Translator, msg
from pbem.pipeline import outgoing as mails
from pbem.pipeline.command_words import is_word
from pbem.pipeline.commands.base import Context, Reply, help_row, words_of


def mode_of(typed: str) -> str | None:
    """The mail setting a player wrote (``digest``, ``übersicht``), if it is one."""
    return next((m for m in mails.MAIL_MODES if is_word(typed.strip(), m)), None)


def usage(tr: Translator) -> list[str]:
    w = words_of(tr)
    return [
        help_row(f"{w('mail')} {w('every')}", msg("a full status after every move (the "
                                                  "default)"), tr),
        help_row(f"{w('mail')} {w('turn')}", msg("full status only when it is your move; a "
                                                 "line on other moves"), tr),
        help_row(f"{w('mail')} {w('digest')}", msg("full status when it is your move; one "
                                                   "summary a day besides"), tr)]


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

