"""``calendar off`` / ``calendar on``: whether this player's "your move" mails carry the
deadline as a calendar event (pbem.pipeline.calendar), in every game, now and later."""

from __future__ import annotations

from pbem.i18n import LANGUAGES, Translator, cmsg, msg, translator
from pbem.i18n.wordforms import forms
from pbem.pipeline.command_words import plain
from pbem.pipeline.commands.base import Context, Reply, help_row, words_of

CONTEXT = "calendar switch"
# Listed so the extractor finds both words; what a player may write after "calendar".
SWITCH = [cmsg("calendar switch", "on"), cmsg("calendar switch", "off")]


def switch_word(english: str, lang: str) -> str:
    """``on`` or ``off`` as a player of ``lang`` is told to write it."""
    return forms(translator(lang), CONTEXT, english)[0]


def switch_of(typed: str) -> bool | None:
    """True for ``on``, False for ``off`` (in any of the host's languages), else None."""
    low = plain(typed)
    for english, value in (("on", True), ("off", False)):
        if low == english or any(low == plain(alt) for lang in LANGUAGES
                                 for alt in forms(translator(lang), CONTEXT, english)):
            return value
    return None


def usage(tr: Translator) -> list[str]:
    w = words_of(tr)
    return [help_row(f"{w('calendar')} {switch_word('off', tr.lang)}", msg(
        "no calendar event for your deadlines in your mails (\"{on}\": again)",
        on=f"{w('calendar')} {switch_word('on', tr.lang)}"), tr)]


def run(ctx: Context, argument: str) -> Reply:
    typed = argument.strip()
    command = ctx.w("calendar")
    on, off = (f"{command} {switch_word(w, ctx.tr.lang)}" for w in ("on", "off"))
    wanted = switch_of(typed)
    if wanted is None:
        return Reply("rejected", "bad calendar setting", [
            msg("\"{line}\" is not understood: write \"{off}\" for no calendar event in your "
                "mails, or \"{on}\" to have them again.", line=f"{command} {typed}".strip(),
                on=on, off=off),
            msg("Your setting stays \"{setting}\".",
                setting=off if ctx.player.calendar_off else on)])
    ctx.player.calendar_off = not wanted
    ctx.session.add(ctx.player)
    if wanted:
        return Reply("applied", "calendar on", [msg(
            "Your \"your move\" mails now carry the deadline as a calendar event, with an alarm "
            "at the reminder time: open it to add it to your calendar. \"{off}\" turns this "
            "off.", off=off)])
    return Reply("applied", "calendar off", [msg(
        "Your \"your move\" mails no longer carry a calendar event, in every game. \"{on}\" "
        "turns them on again.", on=on)])
