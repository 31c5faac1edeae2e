"""What the rules remember during one turn (never stored: a turn is one order), and how they
refuse a step."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from pbem.engine.contract import Event
from pbem.i18n.msg import Msg


class RuleError(ValueError):
    """A line breaks a rule; the message is written for the player. Rendered only when read:
    the bot's tries fail often, and nobody reads those."""

    def __init__(self, message: Msg) -> None:
        super().__init__()
        self.message = message

    def __str__(self) -> str:
        return str(self.message)


@dataclass
class Turn:
    seat: int
    flipped: set[tuple[int, int]] = field(default_factory=set)  # paid turns, this turn
    revealed: bool = False  # a hidden card was turned: later failures are skipped
    # Pearls and sharks bought this turn: kept to play on a later turn.
    fresh_pearls: int = 0
    fresh_sharks: int = 0
    events: list[Event] = field(default_factory=list)
    # False for a turn whose events nobody reads (the bot's scratch tries, a suggested place):
    # the rules then build no message for them.
    loud: ClassVar[bool] = True

    def say(self, kind: str, message: Msg) -> None:
        self.events.append(Event.of(kind, message))

    def tell(self, events: list[Event]) -> None:
        self.events += events


class QuietTurn(Turn):
    """A turn whose events nobody reads (the bot's scratch tries, a suggested place): none
    are made or kept."""

    loud: ClassVar[bool] = False

    def say(self, kind: str, message: Msg) -> None:
        pass

    def tell(self, events: list[Event]) -> None:
        pass
