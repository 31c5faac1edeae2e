"""Orders in the player's language: Reef's keywords and colours, from its catalogue.

Each English word the order reader knows has a translation with context "order keyword" in
``locale/<lang>/LC_MESSAGES/game.po``; a msgstr may list alternatives (``prendre|prends``), the
first being the one written back (``localise_order``). Matching ignores case and accents, and
English words are always accepted, so ``canonical_order`` only swaps words it knows, line for
line, and leaves squares, numbers and punctuation as typed.
"""

from __future__ import annotations

import re
from functools import cache

from pbem.i18n.msg import Msg, cmsg
from pbem.i18n.translate import translator
from pbem.i18n.wordforms import fold, forms

GAME_NAME = "reef-2018"

# Every word of the order language (parse.py), written here in full for the extractor.
KEYWORDS: tuple[Msg, ...] = (
    cmsg("order keyword", "take"), cmsg("order keyword", "play"),
    cmsg("order keyword", "start"), cmsg("order keyword", "deck"),
    cmsg("order keyword", "token"), cmsg("order keyword", "paying"),
    cmsg("order keyword", "on"), cmsg("order keyword", "card"),
    cmsg("order keyword", "market"), cmsg("order keyword", "the"),
    cmsg("order keyword", "and"), cmsg("order keyword", "from"),
    cmsg("order keyword", "with"),
    cmsg("order keyword", "red"), cmsg("order keyword", "yellow"),
    cmsg("order keyword", "green"), cmsg("order keyword", "purple"),
)
ENGLISH = frozenset(k.id for k in KEYWORDS)
# The colours as words in sentences (``cmsg("colour", name)`` in the rules), for the extractor.
# A colour next to its noun takes the noun's gender and case where a language inflects it
# ("sommet rouge", "pile verte"; "rote Spitze", "grünen Stapel"): one context per noun.
COLOUR_WORDS: tuple[Msg, ...] = (
    cmsg("colour", "red"), cmsg("colour", "yellow"),
    cmsg("colour", "green"), cmsg("colour", "purple"),
    cmsg("colour of a top", "red"), cmsg("colour of a top", "yellow"),
    cmsg("colour of a top", "green"), cmsg("colour of a top", "purple"),
    cmsg("colour of a stack", "red"), cmsg("colour of a stack", "yellow"),
    cmsg("colour of a stack", "green"), cmsg("colour of a stack", "purple"))

# A word: letters only, not glued to digits (squares like B2 and cards like R17 stay whole)
# nor inside a {placeholder} (the catalogue's order examples carry some).
_WORD = re.compile(r"(?<![\w#{])[^\W\d_]+(?![\w}])")


def alternatives(lang: str, keyword: str) -> list[str]:
    """The words for ``keyword`` in ``lang``, the written form first."""
    return forms(translator(lang, GAME_NAME), "order keyword", keyword)


@cache
def _to_english(lang: str) -> dict[str, str]:
    table: dict[str, str] = {}
    for k in KEYWORDS:
        for word in alternatives(lang, k.id):
            table.setdefault(fold(word), k.id)
    return table


@cache
def _from_english(lang: str) -> dict[str, str]:
    return {k.id: alternatives(lang, k.id)[0] for k in KEYWORDS}


def _swap(text: str, table: dict[str, str], key: str) -> str:
    def one(m: re.Match[str]) -> str:
        word = m.group(0)
        return table.get(fold(word) if key == "fold" else word.lower(), word)
    return "\n".join(_WORD.sub(one, line) for line in text.split("\n"))


# An elided article (French l'offre, Italian dall'offerta) is a word of its own.
_ELISION = re.compile(r"(?<=[^\W\d_])['’](?=[^\W\d_])")


def canonical_order(text: str, lang: str) -> str:
    """The same lines with ``lang``'s words for Reef's keywords and colours in English."""
    if lang == "en":
        return text
    return _swap(_ELISION.sub(" ", text), _to_english(lang), "fold")


def localise_order(text: str, lang: str) -> str:
    """The inverse: an English order written with ``lang``'s words (for bots and examples)."""
    if lang == "en":
        return text
    return _swap(text, _from_english(lang), "lower")
