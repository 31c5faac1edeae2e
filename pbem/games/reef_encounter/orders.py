"""The steps of a Reef Encounter turn, as data (what the order language produces).

Each step is one numbered action of the rulebook (or one polyp of actions 2/3):
Eat = 1; Larva starts 2 (or 3 if 2 was done) and each Place puts one polyp of its colour
(growth or attack, decided by the rules); NewShrimp = 4; MoveShrimp = 5 (target None: back
behind the screen); ConsumedForLarva = 6; Alga = 7 (paid with a consumed polyp); LarvaForPolyp
= 8; Pass = 9; Take = 10. SetupAnswer is the simultaneous secret setup step.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Cell:
    board: int
    column: str
    row: int

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        """How players write this cell ("2D4")."""
        return f"{self.board}{self.column}{self.row}"

    @property
    def key(self) -> str:
        """The state's key for this cell ("2:D4")."""
        return f"{self.board}:{self.column}{self.row}"


@dataclass(frozen=True)
class SetupAnswer:
    parrotfish: str
    larvae: tuple[str, str]


@dataclass(frozen=True)
class Eat:
    cell: Cell


@dataclass(frozen=True)
class Larva:
    colour: str


@dataclass(frozen=True)
class Place:
    cell: Cell
    consumed: bool = False


@dataclass(frozen=True)
class NewShrimp:
    cell: Cell


@dataclass(frozen=True)
class MoveShrimp:
    source: Cell
    target: Cell | None


@dataclass(frozen=True)
class ConsumedForLarva:
    colour: str


@dataclass(frozen=True)
class Alga:
    colour: str
    tile: int | None
    paid: str


@dataclass(frozen=True)
class LarvaForPolyp:
    colour: str


@dataclass(frozen=True)
class Pass:
    pass


@dataclass(frozen=True)
class Take:
    colour: str


Step = (
    SetupAnswer
    | Eat
    | Larva
    | Place
    | NewShrimp
    | MoveShrimp
    | ConsumedForLarva
    | Alga
    | LarvaForPolyp
    | Pass
    | Take
)


@dataclass(frozen=True)
class Order:
    steps: tuple[Step, ...]
    lines: tuple[int, ...] = ()
