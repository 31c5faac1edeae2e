"""What the rules remember during one turn (never stored: a turn is one order)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from pbem.engine.contract import Event
from pbem.games.reef_encounter.state import State
from pbem.i18n.msg import Msg, SeatRef, cmsg


@dataclass(slots=True)  # slots: the rules read a turn's fields at every step
class Turn:
    seat: int
    final: bool = False  # a final turn: only action 1 (or nothing)
    done: set[int] = field(default_factory=set)  # rulebook action numbers done so far
    steps: int = 0  # steps applied so far
    larva_action: int | None = None  # 2 or 3 while its polyps may still be placed
    larva_colour: str = ""
    from_screen: int = 0  # polyps placed from behind the screen in the open larva action
    placed: int = 0  # polyps placed in the open larva action
    alga_on_tile: bool = False
    ended: bool = False  # the game ended during this turn: nothing more may happen
    events: list[Event] = field(default_factory=list)

    def say(self, kind: str, message: Msg) -> None:
        self.events.append(Event(None, None, message, kind))  # Event.of, one call less

    def said(self, kind: str, key: Hashable, make: Callable[..., Msg], *args: Any) -> None:
        """``say(kind, make(*args))``, the event made once per ``key`` (which must hold
        everything the message depends on): events are immutable, and a game says "Purple
        placed a pink polyp on 2D4." or "Purple played a pink larva cube (action 2)." over and
        over; building each anew was a fifth of the rules' time (bench/engine.py --game reef).
        ``make`` takes ``args`` rather than being a closure: no function is made per event."""
        found = _SAID.get(key)
        if found is None:
            found = Event(None, None, make(*args), kind)
            if len(_SAID) < _SAID_MAX:
                _SAID[key] = found
        self.events.append(found)

    def tell(self, kind: str, message: Msg) -> None:
        """An event only the acting seat may read."""
        self.events.append(Event.of(kind, message, visible_to=frozenset({self.seat})))


def who(state: State, seat: int) -> Msg:
    """A player as events name them: their colour, capitalised ("Purple"), translated."""
    colour = state.seats[seat].colour
    found = _WHO.get(colour)
    if found is None:
        found = _WHO[colour] = cmsg("player", colour.capitalize())
    return found


_WHO: dict[str, Msg] = {}  # seat colour -> its (immutable) player name, made once


def seat_ref(seat: int) -> SeatRef:
    """``SeatRef(seat)``, made once per seat: every event of a turn names its seat."""
    return _SEAT_REFS[seat] if 0 <= seat < len(_SEAT_REFS) else SeatRef(seat)


_SEAT_REFS = tuple(SeatRef(i) for i in range(8))


# Turn.said's events by key (a key names its kind of event first, e.g. ("take", ...)).
_SAID: dict[Hashable, Event] = {}
_SAID_MAX = 1 << 13  # 200 bench games say ~7,700 distinct; at ~600 B each, ~5 MB at most
