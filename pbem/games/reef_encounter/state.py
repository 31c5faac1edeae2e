"""The game state: plain lists and dicts only, so copying and JSON round-trips are exact.

Cells are keyed "board:cell" (e.g. "2:D4"); colours are the full names from components.toml.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

FORMAT = 1


@dataclass
class Player:
    """What one player owns (the seat is its index in :attr:`State.players`); `screen` and
    `parrotfish` are secret (see RULINGS.md)."""

    colour: str
    screen: dict[str, int] = field(default_factory=dict)  # coral colour -> polyps behind screen
    parrotfish: list[str] = field(default_factory=list)  # coral colours eaten, hidden
    larva: dict[str, int] = field(default_factory=dict)  # larva cubes, by colour
    consumed: dict[str, int] = field(default_factory=dict)  # consumed polyps, face up
    algae: dict[str, int] = field(default_factory=dict)  # alga cylinders kept
    shrimps_in_hand: int = 4
    answered_setup: bool = False
    sea_shrimp: bool = False  # first shrimp eaten by the parrotfish, on the open-sea board
    fish_shrimps: int = 0  # later shrimps eaten, inside the parrotfish

    def copy(self) -> Player:
        return Player(self.colour, dict(self.screen), list(self.parrotfish), dict(self.larva),
                    dict(self.consumed), dict(self.algae), self.shrimps_in_hand,
                    self.answered_setup, self.sea_shrimp, self.fish_shrimps)

    def to_dict(self) -> dict[str, Any]:
        return {"colour": self.colour, "screen": dict(self.screen),
                "parrotfish": list(self.parrotfish), "larva": dict(self.larva),
                "consumed": dict(self.consumed), "algae": dict(self.algae),
                "shrimps_in_hand": self.shrimps_in_hand, "answered_setup": self.answered_setup,
                "sea_shrimp": self.sea_shrimp, "fish_shrimps": self.fish_shrimps}


@dataclass
class State:
    """Everything about one game; `bag` and the seats' secrets never reach another seat."""

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
    # By seat; stored as "seats", with their count as "players".
    players: list[Player] = field(default_factory=list)
    to_move: int = 0
    phase: str = "setup"  # "setup" (simultaneous secret step), "play", "final", "over"
    start_player: int = 0
    advanced: bool = False  # advanced game: no extra growth, one more polyp to the bag per meal
    alga_space: str | None = None  # the cylinder on the open sea's alga space
    cylinders: dict[str, str] = field(default_factory=dict)  # coral tile id (str) -> alga colour
    final_turns: list[int] = field(default_factory=list)  # seats still owed a final turn
    end_reason: str = ""  # why the game ended (set when phase becomes "final" or "over")
    turn: int = 0  # turns played since the setup step

    def to_dict(self) -> dict[str, Any]:
        """The state as plain JSON data (what to_json serialises), built without deepcopy."""
        return {
            "format": FORMAT, "players": len(self.players), "boards": list(self.boards),
            "polyps": dict(self.polyps), "shrimps": dict(self.shrimps),
            "bonus": dict(self.bonus), "coral_face": self.coral_face,
            "flipped_tiles": list(self.flipped_tiles),
            "open_sea": [{"colour": s["colour"], "polyps": list(s["polyps"]),
                          "larva": s["larva"]} for s in self.open_sea],
            "larva_supply": dict(self.larva_supply), "alga_supply": dict(self.alga_supply),
            "bag": dict(self.bag), "seats": [p.to_dict() for p in self.players],
            "to_move": self.to_move, "phase": self.phase, "start_player": self.start_player,
            "advanced": self.advanced, "alga_space": self.alga_space,
            "cylinders": dict(self.cylinders), "final_turns": list(self.final_turns),
            "end_reason": self.end_reason, "turn": self.turn,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> State:
        """Inverse of to_dict (the input is not kept: containers are copied)."""
        raw = json.loads(json.dumps(data))
        if raw.pop("format", None) != FORMAT:
            raise ValueError("unknown Reef Encounter state format")
        del raw["players"]  # the count, kept in the JSON beside the seats
        players = [Player(**p) for p in raw.pop("seats")]
        return cls(players=players, **raw)

    def to_json(self) -> str:
        """Canonical JSON (sorted keys) so equal states give equal text and hashes."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> State:
        """Inverse of to_json."""
        return cls.from_dict(json.loads(text))

    def copy(self) -> State:
        """An independent copy, so an order can be applied atomically to a scratch state.

        Written out by hand: deepcopy is far too slow for the rules' hot path.
        """
        return self._copy([p.copy() for p in self.players], self._sea())

    def copy_for(self, seat: int) -> State:
        """A copy for one seat's turn: only that seat's holdings are copied, the others and the
        open sea shared.

        A turn changes no other seat's holdings (every rule writes to ``players[turn.seat]``
        only), only action 10 writes to the open sea and it copies the sea first (take, in
        opensea.py), and no state is changed once an order has been applied to it, so sharing
        them is safe and saves copying what most of a turn never touches.
        """
        players = list(self.players)
        players[seat] = players[seat].copy()
        return self._copy(players, self.open_sea)

    def _sea(self) -> list[dict[str, Any]]:
        return [{"colour": s["colour"], "polyps": list(s["polyps"]), "larva": s["larva"]}
                for s in self.open_sea]

    def _copy(self, players: list[Player], open_sea: list[dict[str, Any]]) -> State:
        return State(
            list(self.boards), dict(self.polyps), dict(self.shrimps),
            dict(self.bonus), self.coral_face, list(self.flipped_tiles),
            open_sea,
            dict(self.larva_supply), dict(self.alga_supply), dict(self.bag),
            players, self.to_move, self.phase, self.start_player,
            self.advanced, self.alga_space, dict(self.cylinders), list(self.final_turns),
            self.end_reason, self.turn,
        )
