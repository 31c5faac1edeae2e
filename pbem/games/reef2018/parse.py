"""Reef's order language: one email = one order, read forgivingly, answered precisely.

    take 17                      a market card (by its number)
    take deck                    the deck's top card (token on the cheapest market card)
    take deck, token on 23       ... naming the market card for the token when several tie
    play 17: red B2, yellow B2   a card from the hand and where its two corals go, in order
    start: red B2, yellow C2, green B3, purple C3     the setup step

Case, commas, colons, 'on', 'card' and a trailing full stop do not matter; '#' or '//' start a
comment; an order may run over several lines. Cards may be written 17, R17 or #17; colours
red yellow green purple or r y g p. The language is small enough that a hand-written reader
gives better errors (each names the line and the nearest valid form) than a grammar would.
"""

from __future__ import annotations

import re

from pbem.engine.errors import OrderSyntaxError
from pbem.games.reef2018.cards import COLOURS, SQUARE_NAMES, square_name
from pbem.games.reef2018.keywords import ENGLISH
from pbem.games.reef2018.orders import Order, Play, Start, TakeDeck, TakeMarket
from pbem.i18n.msg import Msg, cmsg, msg

# The nearest valid form of each order, as examples in the player's language (the catalogue's
# "order example" entries; tests/games/reef2018/test_words.py parses each translation).
FORMS: dict[str, Msg] = {
    "take": msg("{take}  (or: {deck}, {token})", take=cmsg("order example", "take 17"),
                deck=cmsg("order example", "take deck"),
                token=cmsg("order example", "take deck token on 23")),
    "play": cmsg("order example", "play 17: red B2, yellow B2"),
    "start": cmsg("order example", "start: red B2, yellow C2, green B3, purple C3"),
}
ONE_OF = msg("write one of: {take}; {play}; {start}", **FORMS)
_KEYWORDS = {"take": "take", "draw": "take", "pick": "take", "buy": "take",
             "play": "play", "place": "play", "grow": "play",
             "start": "start", "setup": "start"}
_COLOURS = {c: c for c in COLOURS} | {c[0]: c for c in COLOURS}
ORDER_WORDS = frozenset(_KEYWORDS) | frozenset(COLOURS)  # what an order line begins with
_COMMENT = re.compile(r"(#(?!\d)|//).*$")  # the line is stripped after: no \s* (quadratic)
_SQUARE = re.compile(r"^([a-z])([0-9]+)$")
_CARD = re.compile(r"^(?:r|#)?0*([0-9]+)$")
_FILLER = {"on", "card", "to", "at", "the", "a", "and", "then", "from", "market", "paying",
           "pay", "token", "with"}


def parse_order(text: str) -> Order:
    """Read one order from the text of an email (comments and blank lines allowed)."""
    lines = [(n, (_COMMENT.sub("", raw) if "#" in raw or "//" in raw else raw).strip())
             for n, raw in enumerate(text.splitlines(), start=1)]
    lines = [(n, line) for n, line in lines if line]
    if not lines:
        raise OrderSyntaxError(msg("there is no order in your mail"), hint=ONE_OF)
    first_no, first = lines[0]
    words = _words(first)
    keyword = _KEYWORDS.get(words[0])
    if keyword is None:
        raise OrderSyntaxError(msg('I do not know the order "{word}"', word=words[0]),
                               line=first_no, text=first, hint=ONE_OF)
    for n, line in lines[1:]:  # a continued order, or a second one
        more = _words(line)
        if more[0] in _KEYWORDS:
            raise OrderSyntaxError(msg("one email is one turn: this is a second order"),
                                   line=n, text=line,
                                   hint=msg("send it in your next turn's mail"))
        words += more
    try:
        if keyword == "take":
            return _take(words[1:])
        if keyword == "play":
            return _play(words[1:])
        return _start(words[1:])
    except _Bad as bad:
        raise OrderSyntaxError(bad.why, line=first_no,
                               text=" ".join(line for _, line in lines),
                               hint=FORMS[keyword]) from None


def typed(word: str) -> Msg | str:
    """A word of the order quoted back: a keyword in the reader's language (the player wrote
    it so; canonical_order made it English), any other word as typed."""
    return Msg(word, {}, context="order keyword") if word in ENGLISH else word


class _Bad(Exception):
    """A reason, raised inside the reader and turned into an OrderSyntaxError with the line."""

    def __init__(self, why: Msg) -> None:
        super().__init__(str(why))
        self.why = why


_PUNCTUATION = str.maketrans(",;:()", "     ")
_DASHED = re.compile(r"\b([a-z])\s*-\s*([0-9])\b")


def _words(line: str) -> list[str]:
    cleaned = line.lower().translate(_PUNCTUATION).strip().rstrip(".").strip()
    if "-" in cleaned:
        cleaned = _DASHED.sub(r"\1\2", cleaned)  # "b-2" -> "b2"
    return cleaned.split() or [""]


# The usual spellings, read before the forgiving patterns below (which give the same answers).
_CARDS = {str(n): n for n in range(1, 61)}
_SQUARES = {name.lower(): square for square, name in enumerate(SQUARE_NAMES)}


def _card(word: str | None) -> int:
    if word in _CARDS:
        return _CARDS[word]
    match = _CARD.match(word or "")
    if not match:
        raise _Bad(msg('"{word}" is not a card number', word=typed(word)) if word
                   else msg("the card number is missing"))
    number = int(match.group(1))
    if not 1 <= number <= 60:
        raise _Bad(msg("there is no card {card} (cards are numbered 1 to 60)", card=number))
    return number


def square(word: str) -> int:
    """'b2' -> 5; raises with the reason for anything else."""
    if word in _SQUARES:
        return _SQUARES[word]
    match = _SQUARE.match(word)
    if not match:
        raise _Bad(msg('"{word}" is not a square (columns A-D, rows 1-4, like B2)',
                       word=typed(word)))
    column, row = "abcd".find(match.group(1)), int(match.group(2))
    if column < 0 or not 1 <= row <= 4:
        raise _Bad(msg("{square} is not on your reef (A1 to D4)", square=word.upper()))
    return (row - 1) * 4 + column


def _take(words: list[str]) -> Order:
    words = [w for w in words if w not in _FILLER]
    if not words:
        raise _Bad(msg("take what? a market card's number, or '{deck}'",
                       deck=cmsg("order keyword", "deck")))
    if words[0] in ("deck", "top", "pile"):
        rest = [w for w in words[1:] if w not in ("deck", "top", "pile", "of")]
        if not rest:
            return TakeDeck()
        if len(rest) > 1:
            raise _Bad(msg('I did not understand "{words}"', words=" ".join(rest[1:])))
        return TakeDeck(_card(rest[0]))
    rest = words[1:]
    if rest:
        raise _Bad(msg('I did not understand "{words}" after the card number',
                       words=" ".join(rest)))
    return TakeMarket(_card(words[0]))


def _pieces(words: list[str]) -> list[tuple[str | None, int]]:
    out: list[tuple[str | None, int]] = []
    colour: str | None = None
    for w in words:
        if w in _FILLER:
            continue
        if w in _COLOURS:
            if colour is not None:
                raise _Bad(msg("two colours ({first}, {second}) for one square",
                               first=cmsg("colour", colour),
                               second=cmsg("colour", _COLOURS[w])))
            colour = _COLOURS[w]
            continue
        out.append((colour, square(w)))
        colour = None
    if colour is not None:
        raise _Bad(msg("where does the {colour} coral go? a square like B2 must follow it",
                       colour=cmsg("colour", colour)))
    return out


def _play(words: list[str]) -> Play:
    words = [w for w in words if w not in _FILLER]  # "play the card 17"
    if not words:
        raise _Bad(msg("play which card? its number, then where its corals go"))
    card = _card(words[0])
    pieces = _pieces(words[1:])  # none only when no coral can be taken (the rules check)
    if len(pieces) > 2:
        raise _Bad(msg("a card gives two corals, not {n}", n=len(pieces)))
    return Play(card, tuple(pieces))


def _start(words: list[str]) -> Start:
    pieces = _pieces(words)
    if len(pieces) != 4 or any(c is None for c, _ in pieces):
        raise _Bad(msg("name the 4 starting corals, each colour with its square"))
    return Start(tuple((str(c), s) for c, s in pieces))


def format_order(order: Order) -> str:
    """The canonical text of an order, which parse_order reads back to the same order."""
    if isinstance(order, TakeMarket):
        return f"take {order.card}"
    if isinstance(order, TakeDeck):
        return "take deck" if order.token_on is None else f"take deck, token on {order.token_on}"
    if isinstance(order, Play):
        parts = [(f"{c} " if c else "") + square_name(s) for c, s in order.pieces]
        return f"play {order.card}" + (": " + ", ".join(parts) if parts else "")
    return "start: " + ", ".join(f"{c} {square_name(s)}" for c, s in order.pieces)
