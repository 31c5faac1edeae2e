"""``language fr`` to the host itself: the language of every game this player joins later."""

from __future__ import annotations

from pbem.i18n import LANGUAGES, msg
from pbem.pipeline.commands.base import Context, Reply
from pbem.pipeline.seat_language import known_language, language_name


def run(ctx: Context, argument: str) -> Reply:
    typed = argument.strip()
    code = known_language(typed) if typed else None
    command = ctx.w("language")
    if code is None:
        kept = ctx.player.language
        return Reply("rejected", "bad language", [
            msg("\"{command} {typed}\" is not a language this game host speaks. Write one of:",
                command=command, typed=typed),
            *(f"  {command} {c:<3} {language_name(c)}" for c in LANGUAGES),
            *([msg("Your language stays {language}.", language=language_name(kept))]
              if kept else [])])
    ctx.player.language = code
    ctx.session.add(ctx.player)
    ctx.language = code  # the reply speaks it already
    return Reply("applied", f"profile language {code}", [msg(
        "Your profile's language is now {language}: the games you join from now on write to "
        "you in it. Your seats in games under way keep theirs (\"{command} {code}\" in a mail "
        "with a game's tag changes one).", language=language_name(code),
        command=ctx.w("language"), code=code)])
