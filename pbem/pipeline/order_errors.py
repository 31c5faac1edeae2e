"""A refused order explained to the player: which line of their mail, why, a hint, a
suggestion, and a legal order for the example; in the seat's language."""

from __future__ import annotations

import logging
from typing import Any

from pbem.engine.contract import GameRules, localise_order
from pbem.engine.errors import IllegalOrder, OrderSyntaxError
from pbem.engine.every_error import Reader, suggestion
from pbem.i18n import Msg, Translator, msg, nmsg
from pbem.pipeline import command_words as words
from pbem.pipeline.echo import clip
from pbem.pipeline.letter import Letter, looks_like_prose
from pbem.pipeline.seat_language import Line, seat_tr
from pbem.store.tables import Seat

log = logging.getLogger(__name__)


def _english_free(err: OrderSyntaxError, tr: Translator) -> str:
    """An unlocated syntax error as ``str(err)`` says it, in ``tr``'s language."""
    parts = []
    if err.line is not None:
        parts.append(tr(msg("line {line}, column {column}: ", line=err.line, column=err.column)
                        if err.column is not None else msg("line {line}: ", line=err.line)))
    parts.append(tr(err.message))
    if err.text:
        parts.append(f' "{err.text.strip()}"')
    if err.hint:
        parts.append(f" — {tr(err.hint)}")
    return "".join(parts)



def refusal(letter: Letter, errors: list[Exception], dry: bool) -> Msg:
    """``Order refused: line 3`` (lines of the player's mail) when the game says where."""
    numbers = [str(letter.orders[line - 1][0]) for e in errors
               if (line := getattr(e, "line", None)) is not None
               and 1 <= line <= len(letter.orders)]
    if not numbers:
        return msg("Check: order refused") if dry else msg("Order refused")
    if dry:
        return nmsg("Check: order refused: line {lines}", "Check: order refused: lines "
                    "{lines}", len(numbers), lines=", ".join(numbers))
    return nmsg("Order refused: line {lines}", "Order refused: lines {lines}", len(numbers),
                lines=", ".join(numbers))


def error_lines(tr: Translator, rules: GameRules, state: Any, seat: Seat, letter: Letter,
                errors: list[Exception], echo: list[Line], dry: bool) -> list[Line]:
    """The reply to refused orders: every error, then a legal order for the example."""
    head = (msg("{check}: these orders would NOT be accepted.",
                check=words.word("check", tr.lang)) if dry
            else msg("Your orders were NOT played; nothing changed."))
    lines: list[Line] = [head, *echo]
    if len(errors) > 1:
        illegal = all(isinstance(e, IllegalOrder) for e in errors)
        lines += ["", msg("{count} lines of your mail break a rule:", count=len(errors))
                  if illegal else
                  msg("{count} lines of your mail could not be read:", count=len(errors))]
    prose = False
    reader = Reader(rules, state, seat.index, seat.language or tr.lang)
    for err in errors:
        reason, prose_line = reason_lines(letter, err, tr, reader)
        lines += ["", *reason]
        prose = prose or prose_line
    if prose:
        lines += ["", msg("That line reads like a note, not an order. To write greetings "
                          "or notes around your orders, put a line \"{orders}\" before "
                          "them and a line \"{end}\" after them: only the lines between "
                          "are read.", orders=words.word("orders", tr.lang),
                          end=words.word("end", tr.lang))]
    lines.append("")
    try:
        example = localise_order(rules, str(rules.default_order(state, seat.index)),
                                 tr.lang)
        lines.append(msg("A legal order now would be, for example: {order}",
                         order=example))
    except Exception:  # a hint is a courtesy; never let it block the reply
        log.debug("default_order failed", exc_info=True)
    lines.append(msg("Send \"{help}\" for the full list of orders.",
                     help=words.word("help", tr.lang)))
    return lines



def reason_lines(letter: Letter, err: Exception, tr: Translator | None = None,
                 reader: Reader | None = None) -> tuple[list[Line], bool]:
    """One error's lines (where, why, hint, a suggestion) in ``tr``'s language, quoting
    the player's own line; and whether that line is prose. A suggested word is one the
    game (``reader``) reads in the line's place of the player's word."""
    tr = tr or seat_tr(None)
    line = getattr(err, "line", None)
    text = ""
    located = line is not None and 1 <= line <= len(letter.orders)
    if isinstance(err, OrderSyntaxError):
        why = tr(err.message) if located else _english_free(err, tr)
    elif isinstance(err, IllegalOrder):
        why = tr(err.message)
    else:
        why = str(err)
    if located:
        assert line is not None
        number, text = letter.orders[line - 1]
        column = getattr(err, "column", None) if isinstance(err, OrderSyntaxError) else None
        # The message is written to be followed by the quoted text, which the head shows.
        reason = clip(why.rstrip(": ") if isinstance(err, OrderSyntaxError) else why, 1000)
        head = (msg("Line {number}, column {column} of your mail (\"{text}\"): {reason}",
                    number=number, column=column, text=clip(text), reason=reason)
                if column and column > 1 else  # column 1 adds nothing
                msg("Line {number} of your mail (\"{text}\"): {reason}", number=number,
                    text=clip(text), reason=reason))
        lines: list[Line] = [head]
    else:
        lines = [clip(why, 1000)]
    hint = getattr(err, "hint", None)
    if hint and isinstance(err, IllegalOrder):  # never part of its message
        lines.append(msg("Suggestion: {guess}", guess=tr(hint)))
    elif hint and located:  # else the syntax message already ends with it
        lines.append(msg("Hint: {hint}", hint=tr(hint)))
    if isinstance(err, OrderSyntaxError) and located:
        guess = suggestion(err, tr(hint) if hint else "", tr(err.message), text, reader)
        if guess:
            lines.append(msg("Suggestion: {guess}", guess=guess))
    return lines, located and not letter.marked and looks_like_prose(text)
