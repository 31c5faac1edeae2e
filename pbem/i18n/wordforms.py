"""Words a player types, matched against a catalogue's words: one folding and one reading of a
msgstr's alternatives for the host's command words and every game's order words.

A catalogue may give several words for one English word, separated by "|" (``langue|langage``),
the first being the one written back to players.
"""

from __future__ import annotations

import unicodedata

from pbem.i18n.translate import Translator


def fold(word: str) -> str:
    """A word as matching sees it: casefolded (ß = ss), accents dropped, compatibility forms
    made plain (a phone's full-width "ｐａｓｓ" or the ligature "ﬁ" are the letters they show).
    The host's command words and every game's order words use this one folding, so a word
    that matches in one game matches in all."""
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def forms(tr: Translator, context: str, english: str) -> list[str]:
    """The words ``tr``'s language has for ``english`` in ``context``, the written one first
    (``english`` itself where the catalogue gives none)."""
    typed = tr.alternatives(context, english).split("|")
    return [w.strip() for w in typed if w.strip()] or [english]
