"""The game state: plain lists and dicts, so copies and JSON round-trips are exact.

The fishing area is ``area[row][column]``: row 0 lies next to seat 0 (its near row; seat 1's
far row), column 0 at the sea end (where the boats lie), column 7 at the reef end (the pile).
A slot is None (a gap) or ``{"card": id, "up": bool}``; a slot is never changed in place (a
turned card is a new dict in its row), so copies share slots and copy only the rows. Hidden:
face-down cards and the reef and breeding piles (see view.py); everything a player owns is
public.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from pbem.games.riff.orders import Place

FORMAT = 1
ROWS = 4
COLUMNS = 8

Slot = dict[str, Any] | None


class Coral(NamedTuple):
    """A coral in front of a player, its attached parents (colours) and completed cross.
    Immutable (a changed coral is a new one in its list), so copies share them."""

    male: str | None = None
    female: str | None = None
    cross: str | None = None  # the breeding card taken onto it: the coral is used up

    def to_dict(self) -> dict[str, Any]:
        return {"male": self.male, "female": self.female, "cross": self.cross}


@dataclass
class Player:
    boats: int = 1
    worms: dict[str, int] = field(default_factory=dict)
    fish: list[str] = field(default_factory=list)  # unattached fish, "red:m" ids
    corals: list[Coral] = field(default_factory=list)
    pearls: int = 0
    sharks: int = 0
    prefer: list[str] | None = None  # worm colours, most wanted first; None: the default

    def copy(self) -> Player:
        return Player(self.boats, dict(self.worms), list(self.fish),
                      list(self.corals),
                      self.pearls, self.sharks,
                      None if self.prefer is None else list(self.prefer))

    def crosses(self) -> int:
        return len(self.corals) - [c.cross for c in self.corals].count(None)

    def to_dict(self) -> dict[str, Any]:
        return {"boats": self.boats, "worms": dict(self.worms), "fish": list(self.fish),
                "corals": [c.to_dict() for c in self.corals], "pearls": self.pearls,
                "sharks": self.sharks,
                "prefer": None if self.prefer is None else list(self.prefer)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Player:
        return cls(d["boats"], dict(d["worms"]), list(d["fish"]),
                   [Coral(**c) for c in d["corals"]], d["pearls"], d["sharks"],
                   None if d["prefer"] is None else list(d["prefer"]))


@dataclass
class State:
    options: dict[str, Any]  # the resolved options (components.resolve)
    area: list[list[Slot]]
    pile: list[str]  # the reef draw pile (hidden)
    discard: list[str]  # face up, fanned out
    breeding_open: list[str | None]  # the 4 crosses on offer
    breeding_pile: list[str]  # hidden
    boats_left: int
    worm_supply: dict[str, int]
    players: list[Player]
    to_move: int = 0
    turn: int = 0  # turns played
    dice: list[str] = field(default_factory=list)  # rolled for the turn of `to_move`
    taken: list[str] = field(default_factory=list)  # the worms `to_move` took for them
    phase: str = "play"  # "play" | "over"
    winner: int | None = None
    end_reason: str = ""

    @property
    def colours(self) -> list[str]:
        result: list[str] = self.options["colour_names"]
        return result

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT, "options": json.loads(json.dumps(self.options)),
            "area": [[None if s is None else dict(s) for s in row] for row in self.area],
            "pile": list(self.pile), "discard": list(self.discard),
            "breeding_open": list(self.breeding_open),
            "breeding_pile": list(self.breeding_pile), "boats_left": self.boats_left,
            "worm_supply": dict(self.worm_supply),
            "players": [p.to_dict() for p in self.players], "to_move": self.to_move,
            "turn": self.turn, "dice": list(self.dice), "taken": list(self.taken),
            "phase": self.phase, "winner": self.winner, "end_reason": self.end_reason,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> State:
        raw = json.loads(json.dumps(data))
        if raw.pop("format", None) != FORMAT:
            raise ValueError("unknown Das Riff state format")
        players = [Player.from_dict(p) for p in raw.pop("players")]
        return cls(players=players, **raw)

    def copy(self) -> State:
        """An independent copy; slots and corals are shared, as they are never changed in
        place."""
        return State(
            self.options, [row[:] for row in self.area],
            list(self.pile), list(self.discard), list(self.breeding_open),
            list(self.breeding_pile), self.boats_left, dict(self.worm_supply),
            [p.copy() for p in self.players], self.to_move, self.turn, list(self.dice),
            list(self.taken), self.phase, self.winner, self.end_reason)

    def slot_at(self, seat: int, place: Place) -> Slot:
        """The area slot a place names from ``seat``'s side (its column, and its row counted
        from that seat: near, middle, far middle, far); None where no card lies."""
        return self.area[ROW_OF[seat][place.distance]][place.column]

    def clear_slot(self, seat: int, place: Place) -> None:
        """The card on a place (seen from ``seat``'s side) gone from the area: bought, or
        chased by a shark."""
        self.area[ROW_OF[seat][place.distance]][place.column] = None

    def copy_for(self, seat: int) -> State:
        """A copy for changes to ``seat``'s holdings and the table only (the mover's steps):
        the other player is shared, not copied."""
        players = list(self.players)
        players[seat] = players[seat].copy()
        return State(
            self.options, [row[:] for row in self.area],
            list(self.pile), list(self.discard), list(self.breeding_open),
            list(self.breeding_pile), self.boats_left, dict(self.worm_supply),
            players, self.to_move, self.turn, list(self.dice),
            list(self.taken), self.phase, self.winner, self.end_reason)


def area_row(seat: int, distance: int) -> int:
    """The area row lying ``distance`` rows from ``seat`` (0 near, 3 far)."""
    return distance if seat == 0 else ROWS - 1 - distance


# area_row as a table: ROW_OF[seat][distance]
ROW_OF = tuple(tuple(area_row(seat, d) for d in range(ROWS)) for seat in range(2))
