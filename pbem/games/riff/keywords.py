"""The order language in each seat's language: colours, row words, commands.

Each English word of the order language has a msgid with context "order keyword" in the game's
catalogue; its msgstr lists that language's words for it, separated by "|" (the first is the
one written back by :func:`localise_order`). Matching ignores case and accents
("verifier" = "vérifier"). English words are always accepted too: a word that is no keyword of
the seat's language stays as typed, so the parser reads it as English.
"""

from __future__ import annotations

import re
from functools import cache

from pbem.i18n.msg import Msg, cmsg
from pbem.i18n.translate import LANGUAGES, translator
from pbem.i18n.wordforms import fold, forms

DOMAIN = "das-riff"
KEYWORD = "order keyword"

# The English words, as the parser (parse.py) reads them. Literal calls, so the catalogue
# extraction finds each one.
KEYWORDS: tuple[Msg, ...] = (
    cmsg("order keyword", "prefer"),
    cmsg("order keyword", "buy"),
    cmsg("order keyword", "take"),
    cmsg("order keyword", "flip"),
    cmsg("order keyword", "boat"),
    cmsg("order keyword", "attach"),
    cmsg("order keyword", "shark"),
    cmsg("order keyword", "pass"),
    cmsg("order keyword", "near"),
    cmsg("order keyword", "middle"),
    cmsg("order keyword", "far"),
    cmsg("order keyword", "paying"),
    cmsg("order keyword", "with"),
    cmsg("order keyword", "pearl"),
    cmsg("order keyword", "if"),
    cmsg("order keyword", "or"),
    cmsg("order keyword", "and"),
    cmsg("order keyword", "to"),
    cmsg("order keyword", "on"),
    cmsg("order keyword", "coral"),
    cmsg("order keyword", "my"),
    cmsg("order keyword", "own"),
    cmsg("order keyword", "male"),
    cmsg("order keyword", "female"),
    cmsg("order keyword", "fish"),
    cmsg("order keyword", "water"),
    # The shipped colour names (a game with its own colour_names option keeps them as typed).
    cmsg("order keyword", "red"),
    cmsg("order keyword", "yellow"),
    cmsg("order keyword", "blue"),
    cmsg("order keyword", "green"),
    cmsg("order keyword", "pink"),
    cmsg("order keyword", "purple"),
)
VERBS = {"prefer": "prefer", "buy": "buy", "take": "buy", "flip": "flip", "boat": "boat",
         "attach": "attach", "shark": "shark", "pass": "pass"}
# What an order line begins with (a verb, a condition), and the shipped colours.
LINE_WORDS = frozenset(VERBS) | {"if", "red", "yellow", "blue", "green", "pink", "purple"}
"""Keywords that start a line, and the form (language.FORMS) each starts."""

# A word as the tokenizer of parse.py sees it (it splits at spaces , : . !); comments
# (# or //) are left as written.
_WORD = re.compile(r"[^\s,:.!;#/]+")


@cache
def words(lang: str) -> dict[str, tuple[str, ...]]:
    """English keyword -> that language's words for it (first: the one to write)."""
    tr = translator(lang, DOMAIN)
    out: dict[str, tuple[str, ...]] = {}
    for k in KEYWORDS:
        out[k.id] = tuple(forms(tr, KEYWORD, k.id))
    return out


@cache
def to_english(lang: str) -> dict[str, str]:
    """A folded word of ``lang`` -> the English keyword it stands for."""
    out: dict[str, str] = {}
    for english, alternatives in words(lang).items():
        for word in alternatives:
            out.setdefault(fold(word), english)
    return out


@cache
def verb_words() -> dict[str, str]:
    """Every word that starts an order, in any language (folded) -> its form: for the
    "did you mean" of a misspelt order word."""
    out: dict[str, str] = {}
    for lang in LANGUAGES:
        for english, form in VERBS.items():
            for word in words(lang)[english]:
                out.setdefault(fold(word), form)
    return out


def _code(line: str) -> tuple[str, str]:
    """A line split into its order part and its comment (kept as typed)."""
    cut = min((i for i in (line.find("#"), line.find("//")) if i >= 0), default=len(line))
    return line[:cut], line[cut:]


def _replace(line: str, table: dict[str, str]) -> str:
    code, comment = _code(line)
    return _WORD.sub(lambda m: table.get(fold(m.group()), m.group()), code) + comment


def canonical_order(text: str, lang: str) -> str:
    """``text`` with ``lang``'s order words replaced by the English ones, line for line."""
    if lang == "en":
        return text
    table = to_english(lang)
    return "\n".join(_replace(line, table) for line in text.split("\n"))


def localise_order(text: str, lang: str) -> str:
    """The inverse: an English order written with ``lang``'s words (the first of each)."""
    if lang == "en":
        return text
    table = {english: alternatives[0] for english, alternatives in words(lang).items()}
    return "\n".join(_replace(line, table) for line in text.split("\n"))
