"""Orders in the seat's language: its words <-> the English canonical words, line for line.

The words come from the game's catalogue, context "order keyword": the msgid is the English
word the grammar reads, the msgstr lists that language's words for it separated by ``|`` (the
first is the one :func:`localise_order` writes; several words make one phrase, e.g.
``poisson-perroquet``). Matching ignores case and accents (``verifier`` = ``vérifier``,
``weiss`` = ``weiß``). A word no list knows is left as typed, so English always works and an
error reply quotes the player's own word. Cells (``2F3``), numbers and punctuation never change.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from functools import cache

from pbem.i18n.msg import Msg, cmsg
from pbem.i18n.translate import LANGUAGES, translator
from pbem.i18n.wordforms import fold, forms

DOMAIN = "reef-encounter"

# Every English word the order language is written with (format_order's words, the colours and
# the setup answer's). Each is translated in the catalogue with context "order keyword".
ORDER_WORDS: tuple[Msg, ...] = (
    cmsg("order keyword", "eat"),
    cmsg("order keyword", "larva"),
    cmsg("order keyword", "larvae"),
    cmsg("order keyword", "place"),
    cmsg("order keyword", "consumed"),
    cmsg("order keyword", "shrimp"),
    cmsg("order keyword", "new"),
    cmsg("order keyword", "move"),
    cmsg("order keyword", "to"),
    cmsg("order keyword", "home"),
    cmsg("order keyword", "for"),
    cmsg("order keyword", "polyp"),
    cmsg("order keyword", "alga"),
    cmsg("order keyword", "on"),
    cmsg("order keyword", "tile"),
    cmsg("order keyword", "space"),
    cmsg("order keyword", "paying"),
    cmsg("order keyword", "pass"),
    cmsg("order keyword", "take"),
    cmsg("order keyword", "parrotfish"),
    cmsg("order keyword", "grey"),
    cmsg("order keyword", "orange"),
    cmsg("order keyword", "pink"),
    cmsg("order keyword", "white"),
    cmsg("order keyword", "yellow"),
    cmsg("order keyword", "blue"),
    cmsg("order keyword", "green"),
    cmsg("order keyword", "purple"),
    cmsg("order keyword", "red"),
)
ENGLISH_WORDS = frozenset(m.id for m in ORDER_WORDS)

# The line-starting keywords whose error hint is one of language.FORMS.
_FORM_OF = {"eat": "eat", "larva": "larva", "larvae": "larva", "place": "place",
            "polyp": "place", "consumed": "consumed", "shrimp": "shrimp", "new": "shrimp",
            "move": "move", "alga": "alga", "pass": "pass", "take": "take",
            "parrotfish": "parrotfish"}

# What an order line begins with, and the colours (a colour list is an order too).
LINE_WORDS = frozenset(_FORM_OF) | frozenset(
    ("grey", "orange", "pink", "white", "yellow", "blue", "green", "purple", "red"))

# A cell as players write it (2F3, 2 f 3, 2-F-3), then a word (letters, any script), then any
# other run of digits, matched whole so that the search goes past it at once: a cell that does
# not start at a run's first digit starts at none of its digits, and trying each of them would
# cost time quadratic in the run's length. The possessive quantifiers give nothing back where
# giving back could not match anyway (digits, separators and letters are disjoint classes).
_TOKEN = re.compile(r"(?P<cell>[0-9]++[ -]*+[^\W\d_][ -]*+[0-9]+)(?![^\W\d_])"
                    r"|(?P<word>[^\W\d_]++)|[0-9]++")
_JOINER = re.compile(r"[ \t-]+")  # what may stand between the words of one phrase


def alternatives(lang: str, english: str) -> list[str]:
    """The words ``lang`` writes for the English order word ``english``, preferred first."""
    return forms(translator(lang, DOMAIN), "order keyword", english)


@cache
def _phrases(lang: str) -> dict[tuple[str, ...], str]:
    """Folded phrase (as a tuple of words) -> the English word, for one language."""
    out: dict[tuple[str, ...], str] = {}
    for m in ORDER_WORDS:
        for alt in alternatives(lang, m.id):
            out.setdefault(tuple(fold(w) for w in _TOKEN_WORDS.findall(alt)), m.id)
    return out


_TOKEN_WORDS = re.compile(r"[^\W\d_]+")


def _words(line: str) -> Iterator[tuple[int, int, str]]:
    """(start, end, folded word) for every word of a line that is not inside a cell."""
    for m in _TOKEN.finditer(line):
        if m.group("word"):
            yield m.start(), m.end(), fold(m.group("word"))


def _canonical_line(line: str, phrases: dict[tuple[str, ...], str], longest: int) -> str:
    words = list(_words(line))
    out, last, i = [], 0, 0
    while i < len(words):
        for size in range(min(longest, len(words) - i), 0, -1):
            span = words[i:i + size]
            gaps = (line[a[1]:b[0]] for a, b in itertools.pairwise(span))
            joined = all(_JOINER.fullmatch(gap) for gap in gaps)
            english = phrases.get(tuple(w for _, _, w in span)) if joined else None
            if english is not None:
                out += [line[last:span[0][0]], english]
                last, i = span[-1][1], i + size
                break
        else:
            i += 1
    return "".join(out) + line[last:]


def canonical_order(text: str, lang: str) -> str:
    """``text`` with ``lang``'s order words replaced by the English ones, line for line."""
    if lang == "en":
        return text
    phrases = _phrases(lang)
    longest = max((len(k) for k in phrases), default=1)
    lines = text.split("\n")
    return "\n".join(_canonical_line(line, phrases, longest) for line in lines)


def localise_order(text: str, lang: str) -> str:
    """An English order (as format_order and the bots write it) in ``lang``'s order words."""
    if lang == "en":
        return text
    out = []
    for line in text.split("\n"):
        parts, last = [], 0
        for start, end, word in _words(line):
            if word in ENGLISH_WORDS:
                parts += [line[last:start], alternatives(lang, word)[0]]
                last = end
        out.append("".join(parts) + line[last:])
    return "\n".join(out)


@cache
def foreign_keyword_forms() -> dict[str, str]:
    """Every language's single line-starting words -> the form key of language.FORMS, for the
    "did you mean" hints of a word nobody knows."""
    out: dict[str, str] = {}
    for lang in LANGUAGES:
        if lang == "en":
            continue
        for phrase, english in _phrases(lang).items():
            if english in _FORM_OF and len(phrase) == 1:
                out.setdefault(phrase[0], _FORM_OF[english])
    return out
