"""What a mail's new text holds besides orders: a greeting above them, a closing (a sign-off,
a name) under them, a signature. Set aside, and named in the reply, never dropped unsaid.

A line that reads as an order (see ``order_words`` in the game contract) is never set aside,
wherever it stands: it is read, and refused with its line number if it is wrong.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from pbem.engine.contract import GameRules, canonical_order, order_words
from pbem.i18n.wordforms import fold
from pbem.pipeline.courtesy import GREETINGS, JOINED_SIGN_OFFS, SIGN_OFFS
from pbem.pipeline.letter import Letter

GREETING_WORDS = 8  # a longer line is no greeting, whatever its first word
SIGN_OFF_WORDS = 8
NAME_WORDS = 4
NAME_CHARS = 40

_WORD = re.compile(r"[^\W\d_]+")
_NAME_WORD = re.compile(r"[^\W\d_][^\W\d_.'’-]*\.?")


def _words(line: str) -> list[str]:
    return [fold(w) for w in _WORD.findall(line)]


def _greeting(line: str) -> bool:
    words = _words(line)
    if not words or len(words) > GREETING_WORDS:
        return False
    return words[0] in GREETINGS or (line.rstrip().endswith((",", "!")) and len(words) <= 4)


def _sign_off(line: str) -> bool:
    words = _words(line)
    if not words or len(words) > SIGN_OFF_WORDS:
        return False
    return (words[0] in SIGN_OFFS or words[0].startswith(JOINED_SIGN_OFFS)
            or (line.rstrip().endswith((",", "!")) and len(words) <= 5))


def _name(line: str) -> bool:
    """A name as people sign: a few capitalised words, maybe after a dash ("-Alex")."""
    text = line.strip().lstrip("-–—~ ").strip()
    parts = text.split()
    return (0 < len(parts) <= NAME_WORDS and len(text) <= NAME_CHARS
            and all(_NAME_WORD.fullmatch(p) for p in parts) and text[0].isupper())


def _dashed(line: str) -> bool:
    return line.lstrip().startswith(("-", "–", "—", "~")) and _name(line)


def order_reader(rules: GameRules, state: Any, seat: int, lang: str) -> Callable[[str], bool]:
    """Whether a line reads as one of the game's orders for ``seat``: it begins with one of
    the game's order words (see ``order_words`` in the contract), or is made of them, as
    typed or made English by the game (``canonical_order``)."""
    words = order_words(rules)

    def reads_as_order(line: str) -> bool:
        typed = [w.lower() for w in _WORD.findall(line)]
        english = [w.lower() for w in _WORD.findall(
            canonical_order(rules, state, seat, line, lang))]
        return any(found and (found[0] in words or all(w in words for w in found))
                   for found in (typed, english))

    return reads_as_order


def set_aside(letter: Letter, signature: Sequence[tuple[int, str]],
              reads_as_order: Callable[[str], bool], names: Sequence[str]) -> list[str]:
    """Take the greeting, the closing and the signature out of ``letter``'s orders and give
    them back in the mail's order. ``reads_as_order``: whether a line begins with one of the
    game's order words or is made of them; such a line, or a greeting or closing line with a
    digit in it, stays an order, and a signature line of the kind joins the orders at its
    place. ``names``: the sender's, as the mail and the game give them."""
    known = {fold(w) for name in names for w in _WORD.findall(name)}

    def order_like(line: str) -> bool:  # a digit: a cell, a count, a card
        return reads_as_order(line) or any(c.isdigit() for c in line)

    aside: list[tuple[int, str]] = []
    orders = list(letter.orders)
    for number, text in signature:
        if reads_as_order(text) and not letter.marked:
            orders.append((number, text))
        else:
            aside.append((number, text))
    orders.sort()
    if not letter.marked:
        start = 0
        while start < len(orders) and _greeting(orders[start][1]) \
                and not order_like(orders[start][1]):
            start += 1
        end = len(orders)
        while end > start and (_sign_off(orders[end - 1][1]) or _name(orders[end - 1][1])) \
                and not order_like(orders[end - 1][1]):
            end -= 1
        closing = orders[end:]
        signed = any(_sign_off(t) for _, t in closing) or all(
            _dashed(t) or (set(_words(t)) and set(_words(t)) <= known) for _, t in closing)
        if not signed:
            end = len(orders)
        aside += orders[:start] + orders[end:]
        orders = orders[start:end]
    letter.orders = orders
    return [text for _, text in sorted(aside)]
