"""Each seat's language on the host's side: its translator, its names, its lines rendered.

Host code writes what it tells players as :class:`~pbem.i18n.Msg` (or plain text for what is
no sentence: names, orders, quoted lines); the mail is rendered at the last step with the
seat's translator, in the seat's language and time zone.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache, lru_cache

from babel import Locale

from pbem.engine.contract import GameRules
from pbem.i18n import LANGUAGES, Msg, Translator, msg, translator
from pbem.i18n.translate import ENGLISH
from pbem.store.tables import Seat

Line = str | Msg
"""A line of a mail: a message to translate, or text shown as it is (names, orders)."""


def seat_tr(seat: Seat | None, rules: GameRules | None = None) -> Translator:
    """The translator of ``seat``'s language, with ``rules``'s game words (English: no seat)."""
    if seat is None:
        return ENGLISH if rules is None else translator("en", rules.name)
    return translator(seat.language or "en", rules.name if rules is not None else None)


def render(line: Line, tr: Translator, names: Sequence[str] = ()) -> str:
    return tr(line, names) if isinstance(line, Msg) else line


def render_lines(lines: Iterable[Line], tr: Translator, names: Sequence[str] = ()) -> list[str]:
    return [render(line, tr, names) for line in lines]


@cache
def language_name(lang: str, in_lang: str | None = None) -> str:
    """``français``: a language's own name (or its name in ``in_lang``)."""
    return Locale.parse(lang).get_display_name(in_lang or lang) or lang


@lru_cache(maxsize=256)  # translators are kept (pbem.i18n.translate.translator): a few dozen
def footer(tr: Translator) -> str:
    """The line every seat's mail ends with: its language and how to change it. Made once per
    translator: it names every language, each looked up in babel's locale data."""
    command = tr.pgettext("host command", "language")
    others = [msg("\"{command}\" ({language})", command=f"{command} {code}",
                  language=language_name(code)) for code in LANGUAGES if code != tr.lang]
    return tr(msg("Your language: {language}. Others: {others}.",
                  language=language_name(tr.lang), others=others))


def known_language(word: str) -> str | None:
    """The language code a player means (``fr``, ``FR``, ``français``, ``french``), if any."""
    low = word.strip().lower()
    for code in LANGUAGES:
        names = {code, language_name(code).lower(), language_name(code, "en").lower(),
                 *(language_name(code, other).lower() for other in LANGUAGES)}
        if low in names:
            return code
    return None
