"""The small error taxonomy players meet (after python-chess): syntax vs. illegal order.

Both are ValueErrors whose message is written for the player and quotes what they typed.
A message or hint may be a :class:`~pbem.i18n.Msg`: ``str(err)`` stays English, and the host
renders ``err.message``/``err.hint`` in the seat's language.
"""

from __future__ import annotations

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
    """The order reads fine but breaks a rule; ``step`` is the 1-based failing step.

    ``line`` is the 1-based line of the order text the step came from, when known.
    """

    def __init__(self, message: str | Msg, *, step: int | None = None,
                 line: int | None = None) -> None:
        super().__init__(str(message))
        self.message = message
        self.step = step
        self.line = line

    def __str__(self) -> str:
        return str(self.message)
