"""Every bad line of a mail, not only the first, from any game's ``parse``.

A game's ``parse`` stops at the first line it cannot read. The host asks again without the
lines already found bad (numbering kept), so one reply lists each bad line with its reason —
for every game, with nothing more asked of it. A game may still raise
:class:`~pbem.engine.errors.OrderSyntaxErrors` itself when it knows better.
Suggestions are computed from the player's own word and the words of the game's hint
(``larva pnik`` → "did you mean pink?").
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Any

from pbem.engine.contract import GameRules, canonical_order
from pbem.engine.errors import IllegalOrder, OrderSyntaxError, OrderSyntaxErrors
from pbem.i18n.msg import Msg, msg

MAX_ERRORS = 12  # a 500-line mail of prose gets a readable answer, not 500 reasons
_WORD = re.compile(r"[A-Za-z][A-Za-z-]{2,}")


def every_syntax_error(game: GameRules, state: Any, seat: int, text: str,
                       first: OrderSyntaxError) -> list[OrderSyntaxError]:
    """``first`` and every further line ``game`` cannot read, each with its line number in
    ``text``. Lines are dropped one by one, so later errors are found as if the bad lines
    were not there."""
    if isinstance(first, OrderSyntaxErrors):
        return list(first.errors)
    lines = text.split("\n")
    alive = list(range(len(lines)))
    errors = [first]
    err: OrderSyntaxError = first
    while len(errors) < MAX_ERRORS and err.line is not None and 1 <= err.line <= len(alive):
        del alive[err.line - 1]
        if not any(lines[i].strip() for i in alive):
            break
        try:
            game.parse(state, seat, "\n".join(lines[i] for i in alive))
            break
        except OrderSyntaxErrors as many:
            errors += [_renumbered(e, alive) for e in many.errors]
            break
        except OrderSyntaxError as again:
            if again.line is None or not 1 <= again.line <= len(alive):
                break
            errors.append(_renumbered(again, alive))
            err = again
    return errors


def _renumbered(err: OrderSyntaxError, alive: list[int]) -> OrderSyntaxError:
    line = alive[err.line - 1] + 1 if err.line is not None and 1 <= err.line <= len(alive) \
        else err.line
    return OrderSyntaxError(err.message, line=line, column=err.column, text=err.text,
                            hint=err.hint)


@dataclass(frozen=True)
class Reader:
    """The game a seat's line is read by, in the seat's language: a suggested word must be
    one it reads where the player's word stood."""

    game: GameRules
    state: Any
    seat: int
    lang: str


_CHECKED_LINE = 1000  # characters: a longer line gets no suggestion, not three more parses


def suggestion(err: OrderSyntaxError, hint: str | None = None, message: str | None = None,
               typed_text: str | None = None, reader: Reader | None = None) -> Msg | None:
    """The word of the game's hint nearest to the player's word: ``did you mean "pink"?``

    ``hint`` and ``message`` are the error's as the player reads them (in their language),
    ``typed_text`` the line as they typed it (before the game made its words English). With a
    ``reader``, only a word the game reads in the player's word's place is suggested: a hint's
    prose ("one of: ...") is near many a word of a greeting ("Bonne" → "one")."""
    typed = _typed_word(err, typed_text)
    if not typed:
        return None
    hint = str(err.hint or "") if hint is None else hint
    message = str(err.message) if message is None else message
    known = {w.lower() for w in _WORD.findall(f"{hint} {message}")}
    known.discard(typed.lower())
    near = difflib.get_close_matches(typed.lower(), sorted(known), n=3, cutoff=0.6)
    line = typed_text or err.text or ""
    for word in near:
        if reader is None or (len(line) <= _CHECKED_LINE
                              and _reads(reader, err, line, typed, word)):
            return msg("did you mean \"{word}\"?", word=word)
    return None


def _reads(reader: Reader, err: OrderSyntaxError, line: str, typed: str, word: str) -> bool:
    """Does the game read ``line`` with ``word`` in place of ``typed``: no error, or one
    further on or about something else than the word?"""
    where = re.search(rf"(?<!\S){re.escape(typed)}", line)
    if where is None:
        return False
    trial = line[:where.start()] + word + line[where.end():]
    try:
        reader.game.parse(reader.state, reader.seat,
                          canonical_order(reader.game, reader.state, reader.seat, trial,
                                          reader.lang))
    except OrderSyntaxError as again:
        if again.column != err.column:
            return again.column is None or err.column is None or again.column > err.column
        said, before = str(again.message).lower(), str(err.message).lower()
        return said != before.replace(typed.lower(), word) and (
            f'"{word}"' not in said and f"'{word}'" not in said)
    except IllegalOrder:  # a rule the line breaks: it was read
        return True
    except Exception:  # a game's own fault is no "yes"
        return False
    return True


_TRAILING = ":;,.!?"  # punctuation a word is typed with ("whte:", "Cheers,"), not part of it


def _typed_word(err: OrderSyntaxError, typed_text: str | None = None) -> str | None:
    """The player's word the error is about, without the punctuation typed after it: a
    word kept with its ``:`` would not be struck from the candidates, and come back as the
    suggestion for itself."""
    if err.text and err.column:
        rest = err.text[err.column - 1:].split()
        if rest:
            return _as_typed(rest[0], err.text, typed_text).rstrip(_TRAILING) or None
    for quoted in re.findall(r'"([^"\s]+)"', str(err.message)):  # 'the order "plya"'
        if err.text and quoted.rstrip(_TRAILING) in (w.strip(_TRAILING)
                                                     for w in err.text.split()):
            return _as_typed(quoted, err.text, typed_text).rstrip(_TRAILING) or None
    return None


def _as_typed(word: str, canonical: str, typed: str | None) -> str:
    """The player's own word at ``word``'s place (canonical_order keeps the words' order)."""
    if not typed or typed == canonical:
        return word
    ours, theirs = canonical.split(), typed.split()
    if len(ours) == len(theirs) and word in ours:
        return theirs[ours.index(word)]
    return word
