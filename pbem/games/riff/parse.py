"""Das Riff's order language: one action per line, words as the status email draws them.

A small hand-written reader: every form is a verb and a few words, so a table of verbs and a
token cursor give exact errors (line, column, the nearest valid form) without a grammar file.
See help.py for every form; ``parse_order`` raises OrderSyntaxError, never anything else.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence

from pbem.engine.errors import OrderSyntaxError
from pbem.games.riff import terms as w
from pbem.games.riff.keywords import verb_words
from pbem.games.riff.orders import (
    Attach,
    Boat,
    Buy,
    Describe,
    Flip,
    Order,
    Pass,
    Place,
    Prefer,
    SharkArea,
    SharkOwn,
    Step,
)
from pbem.i18n.msg import Msg, cmsg, msg
from pbem.i18n.wordforms import fold

# Each form's example, in the order language of the reader's language (the catalogue
# translates the orders in it with the same words canonical_order reads).
FORMS: dict[str, Msg] = {
    "prefer": msg("prefer red blue green (worm colours, most wanted first)"),
    "buy": msg("buy 3 near  (or: buy 5 middle paying red red; buy 4 far if coral or red fish)"),
    "flip": msg("flip 5 middle  (or: flip 2 far middle paying blue)"),
    "boat": msg("boat  (or: boat paying red blue green)"),
    "attach": msg("attach red male to coral 2  (or: attach red male and blue female to "
                  "coral 1)"),
    "shark": msg("shark 4 far  (or: shark my red male)"),
    "pass": msg("pass"),
}
SEX_WORDS = {"male": "m", "female": "f", "m": "m", "f": "f"}
KINDS = ("fish", "coral", "pearl", "shark", "water")
_TOKEN = re.compile(r"[^\s,:.!]+")


class _Fail(Exception):
    def __init__(self, message: Msg, at: int) -> None:
        super().__init__(str(message))
        self.message = message
        self.at = at  # index of the offending token


class _Cursor:
    def __init__(self, tokens: list[tuple[int, str]]) -> None:
        self.tokens = tokens
        self.i = 0

    def peek(self) -> str | None:
        return self.tokens[self.i][1] if self.i < len(self.tokens) else None

    def take(self) -> str:
        word = self.peek()
        if word is None:
            raise _Fail(msg("the line ends too early"), self.i)
        self.i += 1
        return word

    def accept(self, *words: str) -> bool:
        if self.peek() in words:
            self.i += 1
            return True
        return False

    def fail(self, message: Msg) -> _Fail:
        return _Fail(message, self.i)

    def done(self) -> bool:
        return self.i >= len(self.tokens)


def _colour(cur: _Cursor, colours: Sequence[str]) -> str:
    word = cur.peek()
    if word is None or word not in colours:
        if word:
            raise cur.fail(msg("expected a colour ({colours}), found {word!r}",
                               colours=w.colours(colours), word=word))
        raise cur.fail(msg("expected a colour ({colours})", colours=w.colours(colours)))
    cur.i += 1
    return word


def _sex(cur: _Cursor) -> str:
    word = cur.peek()
    if word not in SEX_WORDS:
        raise cur.fail(msg("expected male or female"))
    cur.i += 1
    return SEX_WORDS[word]


def _row(cur: _Cursor) -> int | None:
    if cur.accept("near"):
        return 0
    if cur.accept("middle"):
        return 1
    if cur.accept("far"):
        return 2 if cur.accept("middle") else 3
    return None


def _place(cur: _Cursor) -> Place:
    """A column 1-8 and a row word, in either order: "3 near", "near 3", "far middle 5"."""
    row = _row(cur)
    word = cur.peek()
    if word is None or not word.isdigit() or not 1 <= int(word) <= 8:
        raise cur.fail(msg("expected a column number 1-8") if word is None else
                       msg("expected a column number 1-8, found {word!r}", word=word))
    cur.i += 1
    column = int(word) - 1
    if row is None:
        row = _row(cur)
        if row is None:
            raise cur.fail(msg("expected a row: near, middle, far middle or far"))
    return Place(column, row)


def _paying(cur: _Cursor, colours: Sequence[str]) -> tuple[str, ...] | None:
    if not cur.accept("paying", "with", "pay"):
        return None
    out: list[str] = []
    while cur.peek() is not None and cur.peek() != "if":
        if cur.accept("pearl", "pearls"):
            out.append("pearl")
        else:
            out.append(_colour(cur, colours))
    if not out:
        raise cur.fail(msg("\"paying\" needs worm colours or \"pearl\""))
    return tuple(out)


def _describe(cur: _Cursor, colours: Sequence[str]) -> Describe:
    word = cur.peek()
    if word in KINDS and word != "fish":
        cur.i += 1
        return Describe(word)
    colour = sex = None
    fish = cur.accept("fish")
    for _ in range(2):  # colour and sex in either order ("red male", "mâle rouge")
        if colour is None and cur.peek() in colours:
            colour = _colour(cur, colours)
        elif sex is None and cur.peek() in ("male", "female"):
            sex = _sex(cur)
    fish = cur.accept("fish") or fish
    if colour is None and sex is None and not fish:
        raise cur.fail(msg("expected a card: fish, red fish, red male, coral, pearl, shark or "
                           "water"))
    return Describe("fish", colour, sex)


def _buy(cur: _Cursor, colours: Sequence[str]) -> Step:
    if cur.accept("boat", "boats"):
        return Boat(_paying(cur, colours))
    place = _place(cur)
    paying = _paying(cur, colours)
    condition = None
    if cur.accept("if"):
        found = [_describe(cur, colours)]
        while cur.accept("or"):
            found.append(_describe(cur, colours))
        condition = tuple(found)
    return Buy(place, paying, condition)


def _flip(cur: _Cursor, colours: Sequence[str]) -> Step:
    return Flip(_place(cur), _paying(cur, colours))


def _boat(cur: _Cursor, colours: Sequence[str]) -> Step:
    return Boat(_paying(cur, colours))


def _fish(cur: _Cursor, colours: Sequence[str]) -> tuple[str, str]:
    """A fish: colour and sex, in either order ("red male", "male red": languages that put the
    adjective after the noun write "mâle rouge"), maybe with "fish" before or after."""
    cur.accept("fish")
    if cur.peek() in SEX_WORDS:
        sex = _sex(cur)
        colour = _colour(cur, colours)
    else:
        colour = _colour(cur, colours)
        sex = _sex(cur)
    cur.accept("fish")
    return colour, sex


def _attach(cur: _Cursor, colours: Sequence[str]) -> Step:
    fish = [_fish(cur, colours)]
    if cur.accept("and"):
        fish.append(_fish(cur, colours))
    if not cur.accept("to", "on"):
        raise cur.fail(msg("expected \"to coral N\""))
    cur.accept("coral")
    word = cur.peek()
    if word is None or not word.isdigit() or not 1 <= int(word) <= 9:
        raise cur.fail(msg("expected a coral number (as in your status email)"))
    cur.i += 1
    if len(fish) == 2 and fish[0][1] == fish[1][1]:
        raise _Fail(msg("a coral takes one male and one female"), 0)
    return Attach(tuple(fish), int(word) - 1)


def _shark(cur: _Cursor, colours: Sequence[str]) -> Step:
    if cur.accept("my", "own"):
        cur.accept("own")  # "my own red male"
        colour, sex = _fish(cur, colours)
        return SharkOwn(colour, sex)
    return SharkArea(_place(cur))


def _prefer(cur: _Cursor, colours: Sequence[str]) -> Step:
    found: list[str] = []
    while not cur.done():
        colour = _colour(cur, colours)
        if colour in found:
            raise _Fail(msg("{colour} is named twice", colour=w.colour(colour)), cur.i - 1)
        found.append(colour)
    if not found:
        raise cur.fail(msg("name worm colours, most wanted first"))
    return Prefer(tuple(found))


def _pass(cur: _Cursor, colours: Sequence[str]) -> Step:
    return Pass()


VERBS: dict[str, tuple[str, Callable[[_Cursor, Sequence[str]], Step]]] = {
    "prefer": ("prefer", _prefer), "preference": ("prefer", _prefer),
    "buy": ("buy", _buy), "fish": ("buy", _buy), "take": ("buy", _buy),
    "flip": ("flip", _flip), "turn": ("flip", _flip),
    "boat": ("boat", _boat),
    "attach": ("attach", _attach), "put": ("attach", _attach),
    "shark": ("shark", _shark),
    "pass": ("pass", _pass), "done": ("pass", _pass), "nothing": ("pass", _pass),
}


def parse_order(text: str, colours: Sequence[str]) -> Order:
    """The steps of ``text``; one action per line (or per ";"-separated part)."""
    steps: list[Step] = []
    lines: list[int] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].split("//", 1)[0]
        for part in _parts(line):
            steps.append(_parse_step(part, number, raw, colours))
            lines.append(number)
    if not steps:
        raise OrderSyntaxError(msg("no orders found"), hint=msg("write \"pass\" to buy nothing"))
    return Order(tuple(steps), tuple(lines))


def _parts(line: str) -> list[tuple[int, str]]:
    """(start column, text) of each ";"-separated part of a line."""
    out, start = [], 0
    for piece in line.split(";"):
        if piece.strip():
            out.append((start, piece))
        start += len(piece) + 1
    return out


def _parse_step(part: tuple[int, str], number: int, raw: str,
                colours: Sequence[str]) -> Step:
    offset, text = part
    tokens = [(offset + m.start(), m.group().lower()) for m in _TOKEN.finditer(text)]
    verb = tokens[0][1]
    if verb not in VERBS:
        hint = _verb_hint(verb)
        raise OrderSyntaxError(msg("unknown order {verb!r}", verb=verb), line=number,
                               column=tokens[0][0] + 1, text=raw, hint=hint)
    form, read = VERBS[verb]
    cur = _Cursor(tokens[1:])
    try:
        step = read(cur, colours)
        if not cur.done():
            raise cur.fail(msg("unexpected {word!r}", word=cur.peek()))
    except _Fail as fail:
        at = tokens[1 + fail.at][0] + 1 if 1 + fail.at < len(tokens) else len(raw) + 1
        raise OrderSyntaxError(fail.message, line=number, column=at, text=raw,
                               hint=msg("the form is: {form}", form=FORMS[form])) from None
    return step


def _verb_hint(verb: str) -> Msg:
    """The form of the nearest order word, in English or in any language's words (the host
    has already turned the seat's own keywords into English; a misspelt one is still close
    to its own language's word: "achter" -> "acheter")."""
    words = {**verb_words(), **{form: form for form in FORMS}}
    close = difflib.get_close_matches(fold(verb), list(words), n=1, cutoff=0.5)
    if close:
        return msg("did you mean: {form}", form=FORMS[words[close[0]]])
    return msg("orders start with {verbs}", verbs=[cmsg("order verb", f) for f in FORMS])
