"""The small error taxonomy players meet (after python-chess): syntax vs. illegal order.

Both are ValueErrors whose message is written for the player and quotes what they typed.
A message or hint may be a :class:`~pbem.i18n.Msg`: ``str(err)`` stays English, and the host
renders ``err.message``/``err.hint`` in the seat's language.
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.i18n.msg import Msg, msg


class GameError(ValueError):
    """Base of every error a player's order can raise."""


class OrderSyntaxError(GameError):
    """The text could not be read as orders.

    ``line`` and ``column`` are 1-based positions in the order text the game was given;
    ``text`` is the offending line as typed; ``hint`` suggests the nearest valid form.
    """

    def __init__(
        self,
        message: str | Msg,
        *,
        line: int | None = None,
        column: int | None = None,
        text: str | None = None,
        hint: str | Msg | None = None,
    ) -> None:
        super().__init__(str(message))
        self.message = message
        self.line = line
        self.column = column
        self.text = text
        self.hint = hint

    def __str__(self) -> str:
        where = ""
        if self.line is not None:
            where = f"line {self.line}"
            if self.column is not None:
                where += f", column {self.column}"
            where += ": "
        quoted = f' "{self.text.strip()}"' if self.text else ""
        hint = f" — {self.hint}" if self.hint else ""
        return f"{where}{self.message}{quoted}{hint}"


class OrderSyntaxErrors(OrderSyntaxError):
    """Several lines could not be read; ``errors`` holds one error per bad line.

    A game may raise it from ``parse``; otherwise the host finds every bad line itself
    (pbem.engine.every_error).
    """

    def __init__(self, errors: list[OrderSyntaxError]) -> None:
        first = errors[0]
        super().__init__(msg("{count} lines could not be read; the first: {first}",
                             count=len(errors), first=first.message),
                         line=first.line, column=first.column, text=first.text,
                         hint=first.hint)
        self.errors = errors


class IllegalOrder(GameError):
    """The order reads fine but breaks a rule.

    ``line`` is the 1-based line of the order text the failing step came from, when known;
    ``step`` is the failing step's 1-based place within that line as the player wrote it (see
    :func:`step_in_line`), or within the whole order when there is no line. ``message`` says
    why (a game may start it with "step 2 (...)"); ``hint`` suggests what would be legal,
    computed from the input (e.g. the nearest cells where that step could go).
    """

    def __init__(self, message: str | Msg, *, step: int | None = None,
                 line: int | None = None, hint: str | Msg | None = None) -> None:
        super().__init__(str(message))
        self.message = message
        self.step = step
        self.line = line
        self.hint = hint

    def __str__(self) -> str:
        return str(self.message)


class IllegalOrders(IllegalOrder):
    """Several lines break a rule; ``errors`` holds one error per bad line, first first
    (the exception itself reads as the first).

    Raised by a game that can check later lines without the bad one (its docstring says
    when); nothing of such an order is ever applied.
    """

    def __init__(self, errors: list[IllegalOrder]) -> None:
        first = errors[0]
        super().__init__(first.message, step=first.step, line=first.line, hint=first.hint)
        self.errors = errors


def step_in_line(lines: Sequence[int], index: int) -> int:
    """The 1-based place of step ``index`` (0-based, of the whole order) within its line:
    the 2nd step written on line 3 is step 2, whatever came on lines 1 and 2."""
    if index >= len(lines):
        return index + 1
    return sum(1 for line in lines[:index + 1] if line == lines[index])
