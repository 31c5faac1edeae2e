"""Typed, read-only access to Reef Encounter's physical components (data/components.toml).

The layouts live in a data file so a corrected board is a data change, not a code change.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

COLUMNS = "ABCDEFG"
ROWS = 6
SAND = "~"
# Colour letters used on the board rows: first letter of each coral colour.
LETTER_TO_CORAL = {"G": "grey", "O": "orange", "P": "pink", "W": "white", "Y": "yellow"}


@dataclass(frozen=True)
class Board:
    """One coral reef board: 6 rows x 7 columns of sand, bare rock or starting polyps."""

    id: int
    rows: tuple[str, ...]
    extra_growth: str

    def cell(self, name: str) -> str:
        """The printed content of a cell such as "D4": "~", "." or a colour letter."""
        col = COLUMNS.index(name[0].upper())
        row = int(name[1:]) - 1
        return self.rows[row][col]

    def is_sand(self, name: str) -> bool:
        """Sand is never playable."""
        return self.cell(name) == SAND

    def starting_polyps(self) -> dict[str, str]:
        """Cell name -> coral colour of the polyps printed on the board at setup."""
        found: dict[str, str] = {}
        for r, row in enumerate(self.rows):
            for c, ch in enumerate(row):
                if ch in LETTER_TO_CORAL:
                    found[f"{COLUMNS[c]}{r + 1}"] = LETTER_TO_CORAL[ch]
        return found


@dataclass(frozen=True)
class CoralTile:
    """A coral tile; face "a" as printed in the data, face "b" swaps strong/weak and algae."""

    id: int
    stronger: str
    weaker: str
    large_alga: str
    small_alga: str

    def face(self, side: str) -> CoralTile:
        """The tile as seen with `side` ("a" or "b") up."""
        if side == "a":
            return self
        if side == "b":
            return CoralTile(self.id, self.weaker, self.stronger, self.small_alga, self.large_alga)
        raise ValueError(f"unknown coral tile face {side!r}")


@dataclass(frozen=True)
class Components:
    """Every fact about the box that the rules need."""

    coral_colours: tuple[str, ...]
    player_colours: tuple[str, ...]
    alga_colours: tuple[str, ...]
    counts: dict[str, Any]
    open_sea_clockwise: tuple[str, ...]
    boards: tuple[Board, ...]
    coral_tiles: tuple[CoralTile, ...]

    def board(self, board_id: int) -> Board:
        """The board with this printed id."""
        for b in self.boards:
            if b.id == board_id:
                return b
        raise KeyError(board_id)

    def starting_polyps(self, players: int) -> list[int]:
        """Polyps each seat draws from the bag at setup, start player first."""
        return list(self.counts["starting_polyps"][str(players)])


def parse_components(text: str) -> Components:
    """Build Components from the TOML text of a components file."""
    raw = tomllib.loads(text)
    boards = tuple(
        Board(id=int(b["id"]), rows=tuple(b["rows"]), extra_growth=str(b["extra_growth"]))
        for b in raw["board"]
    )
    for b in boards:
        if len(b.rows) != ROWS or any(len(r) != len(COLUMNS) for r in b.rows):
            raise ValueError(f"board {b.id} is not {ROWS}x{len(COLUMNS)}")
    tiles = tuple(
        CoralTile(int(t["id"]), t["a"][0], t["a"][1], t["a"][2], t["a"][3])
        for t in raw["coral_tiles"]
    )
    return Components(
        coral_colours=tuple(raw["colours"]["coral"]),
        player_colours=tuple(raw["colours"]["player"]),
        alga_colours=tuple(raw["colours"]["alga"]),
        counts=dict(raw["counts"]),
        open_sea_clockwise=tuple(raw["open_sea"]["clockwise"]),
        boards=boards,
        coral_tiles=tiles,
    )


@cache
def components() -> Components:
    """The components shipped with the package (cached: the data is read-only)."""
    text = resources.files(f"{__package__}.data").joinpath("components.toml").read_text("utf-8")
    return parse_components(text)
