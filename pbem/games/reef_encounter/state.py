"""The game state: plain lists and dicts only, so copying and JSON round-trips are exact.

Cells are keyed "board:cell" (e.g. "2:D4"); colours are the full names from components.toml.
"""

from __future__ import annotations

import copy
import json
from dataclasses import asdict, dataclass, field
from typing import Any

FORMAT = 1


@dataclass
class Seat:
    """What one player owns; `screen` and `parrotfish` are secret (see RULINGS.md)."""

    colour: str
    screen: dict[str, int] = field(default_factory=dict)  # coral colour -> polyps behind screen
    parrotfish: list[str] = field(default_factory=list)  # coral colours eaten, hidden
    larva: dict[str, int] = field(default_factory=dict)  # larva cubes, by colour
    consumed: dict[str, int] = field(default_factory=dict)  # consumed polyps, face up
    algae: dict[str, int] = field(default_factory=dict)  # alga cylinders kept
    shrimps_in_hand: int = 4
    answered_setup: bool = False


@dataclass
class State:
    """Everything about one game; `bag` and the seats' secrets never reach another seat."""

    players: int
    boards: list[int]  # board ids in table order
    polyps: dict[str, str] = field(default_factory=dict)  # "board:cell" -> coral colour
    shrimps: dict[str, int] = field(default_factory=dict)  # "board:cell" -> seat index
    bonus: dict[str, int] = field(default_factory=dict)  # bonus polyps by colour (5 at setup)
    coral_face: str = "a"  # the face all ten coral tiles showed after the setup toss
    flipped_tiles: list[int] = field(default_factory=list)  # coral tile ids turned since setup
    # Open-sea spaces in clockwise order: {"colour": str, "polyps": [colours], "larva": int}.
    open_sea: list[dict[str, Any]] = field(default_factory=list)
    larva_supply: dict[str, int] = field(default_factory=dict)
    alga_supply: dict[str, int] = field(default_factory=dict)
    bag: dict[str, int] = field(default_factory=dict)  # coral colour -> polyps in the bag
    seats: list[Seat] = field(default_factory=list)
    to_move: int = 0
    phase: str = "setup"  # "setup" (simultaneous secret step), "play", "final", "over"
    start_player: int = 0

    def to_json(self) -> str:
        """Canonical JSON (sorted keys) so equal states give equal text and hashes."""
        return json.dumps({"format": FORMAT, **asdict(self)}, sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> State:
        """Inverse of to_json."""
        raw = json.loads(text)
        if raw.pop("format", None) != FORMAT:
            raise ValueError("unknown Reef Encounter state format")
        seats = [Seat(**s) for s in raw.pop("seats")]
        return cls(seats=seats, **raw)

    def copy(self) -> State:
        """An independent copy, so an order can be applied atomically to a scratch state."""
        return copy.deepcopy(self)
