"""What the rules remember during one turn (never stored: a turn is one order)."""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.engine.contract import Event
from pbem.games.reef_encounter.state import State
from pbem.i18n.msg import Msg, SeatRef, cmsg


@dataclass
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
    take: str | None = None  # the open-sea space action 10 takes from, once chosen (last step)
    events: list[Event] = field(default_factory=list)

    def say(self, kind: str, message: Msg) -> None:
        """An event every seat may read."""
        self.events.append(Event.of(kind, message))

    def tell(self, kind: str, message: Msg) -> None:
        """An event only the acting seat may read."""
        self.events.append(Event.of(kind, message, visible_to=frozenset({self.seat})))


def who(state: State, seat: int) -> Msg:
    """A player as events name them: their colour, capitalised ("Purple"), translated."""
    return cmsg("player", state.players[seat].colour.capitalize())


def seat_ref(seat: int) -> SeatRef:
    """The seat as a message field, so each reader's reply can tell "you" from the others."""
    return SeatRef(seat)
