"""``language fr``: every later mail to this seat is in that language."""

from __future__ import annotations

from pbem.i18n import LANGUAGES, Translator, msg
from pbem.pipeline.commands.base import Context, Reply, help_row, words_of
from pbem.pipeline.seat_language import known_language, language_name


def usage(tr: Translator) -> list[str]:
    return [help_row(f"{words_of(tr)('language')} XX", msg(
        "the language of your mails: {codes}", codes=", ".join(LANGUAGES)), tr)]


def run(ctx: Context, argument: str) -> Reply:
    typed = argument.strip()
    code = known_language(typed) if typed else None
    command = ctx.w("language")
    if code is None:
        return Reply("rejected", "bad language", [
            msg("\"{command} {typed}\" is not a language this game host speaks. Write one of:",
                command=command, typed=typed),
            *(f"  {command} {c:<3} {language_name(c)}" for c in LANGUAGES),
            msg("Your language stays {language}.", language=language_name(ctx.seat.language))])
    ctx.seat.language = code
    ctx.session.add(ctx.seat)
    # The reply already speaks the new language: the seat reads it in the words it chose.
    return Reply("applied", f"language {code}", [msg(
        "Your mails in [{tag}] are now in {language}. Orders may be written in {language} "
        "or in English.", tag=ctx.game.tag, language=language_name(code))])
