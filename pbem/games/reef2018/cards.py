"""The 60 cards, read from the packaged ``data/cards.csv`` (a public transcription; its header
says where from), and every placement of each pattern on a 4×4 reef, computed once.

A reef square is an index 0..15: ``row * 4 + column``, row 0 = row 1 on the board, column 0 =
column A. A pattern placement is a tuple of :class:`Need` (square, colour, height rule) and
the bitmask of its squares, so matching a reef is a few comparisons per placement.
"""

from __future__ import annotations

import csv
import io
import sys
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

from pbem.i18n.msg import Msg, cmsg, msg

COLOURS = ("red", "yellow", "green", "purple")
SIZE = 4
SQUARES = SIZE * SIZE
MAX_HEIGHT = 4
ANY = "any"  # the multicolour piece of a pattern


@dataclass(frozen=True)
class PatternCell:
    """One piece of a printed pattern: offset, colour (or ANY) and height rule.

    ``height`` None: any height; else exactly ``height``, or ``height`` or more when ``plus``.
    """

    dx: int
    dy: int
    colour: str
    height: int | None = None
    plus: bool = False

    def accepts(self, top: str | None, height: int) -> bool:
        if top is None or (self.colour != ANY and top != self.colour):
            return False
        if self.height is None:
            return True
        return height >= self.height if self.plus else height == self.height

    def label(self) -> str:
        """'Y3' exactly 3 high, 'P2+' 2 or more, '*3' any colour, 'G' any height."""
        letter = "*" if self.colour == ANY else self.colour[0].upper()
        if self.height is None:
            return letter
        return f"{letter}{self.height}{'+' if self.plus else ''}"


Need = tuple[int, PatternCell]  # a reef square and the piece that must top it


@dataclass(frozen=True)
class Card:
    id: int
    corals: tuple[str, str]  # the two coral pieces it gives, as printed (top half)
    points: int
    kind: str  # single, pair, square, line3, corner3, diagonal3, diagonal-pair, highest
    cells: tuple[PatternCell, ...]
    # kind 'highest': cells[0].colour = the centre colour, cells[1].colour = the scored one

    @property
    def code(self) -> str:
        return f"R{self.id:02d}"

    @property
    def highest(self) -> bool:
        return self.kind == "highest"

    def describe(self) -> str:
        """The pattern in words (English), for status mails and the final scoring."""
        return str(self.description())

    def description(self) -> Msg:
        """The pattern in words, as a message (rendered in each reader's language)."""
        if self.highest:
            centre, scored = self.cells[0].colour, self.cells[1].colour
            return msg("{points} per {scored} top next to your highest {centre} stack "
                       "(8 neighbours)", points=self.points,
                       scored=cmsg("colour of a top", scored),
                       centre=cmsg("colour of a stack", centre))
        if len(self.cells) == 1:
            return msg("{points} per {piece}", points=self.points,
                       piece=_words(self.cells[0], top=True))
        return msg("{points} per {shape}: {pieces}", points=self.points,
                   shape=KIND_WORDS.get(self.kind, self.kind),
                   pieces=[_words(c) for c in self.cells])


KIND_WORDS: dict[str, Msg | str] = {
    "pair": msg("pair side by side"), "square": msg("2×2 square"), "line3": msg("line of 3"),
    "corner3": msg("corner of 3"), "diagonal3": msg("diagonal of 3"),
    "diagonal-pair": msg("diagonal pair")}


def _words(cell: PatternCell, top: bool = False) -> Msg:
    """'purple exactly 2 high', or with ``top``: 'purple top exactly 2 high'."""
    if cell.colour == ANY:
        colour = msg("top of any colour") if top else msg("any colour")
    else:
        colour = (msg("{colour} top", colour=cmsg("colour of a top", cell.colour)) if top
                  else cmsg("colour", cell.colour))
    if cell.height is None:
        return colour
    if cell.plus:
        return msg("{piece} at least {height} high", piece=colour, height=cell.height)
    return msg("{piece} exactly {height} high", piece=colour, height=cell.height)


def _cell(text: str) -> PatternCell:
    where, what = text.strip().split(":")
    plus = ">=" in what
    colour, _, height = what.replace(">=", "=").partition("=")
    if colour != ANY and colour not in COLOURS:
        raise ValueError(f"unknown colour {colour!r} in {text!r}")
    if where == "*":  # a 'highest' card's scored colour: no offset
        return PatternCell(0, 0, colour)
    dx, dy = (int(v) for v in where.split(","))
    return PatternCell(dx, dy, colour, int(height) if height else None, plus)


def parse_cards(text: str) -> tuple[Card, ...]:
    rows = csv.DictReader(io.StringIO("".join(
        line for line in text.splitlines(keepends=True) if not line.startswith("#"))))
    out = []
    for row in rows:
        corals = tuple(row["corals"].split("+"))
        if len(corals) != 2 or any(c not in COLOURS for c in corals):
            raise ValueError(f"card {row['id']}: bad corals {row['corals']!r}")
        out.append(Card(int(row["id"].lstrip("R")), (corals[0], corals[1]), int(row["points"]),
                        row["kind"], tuple(_cell(c) for c in row["cells"].split("|"))))
    return tuple(out)


@cache
def cards() -> dict[int, Card]:
    """Every card by id (1..60)."""
    text = files("pbem.games.reef2018").joinpath("data/cards.csv").read_text(encoding="utf-8")
    return {c.id: c for c in parse_cards(text)}


def rotations(cells: tuple[PatternCell, ...]) -> list[tuple[PatternCell, ...]]:
    """Every distinct right-angle rotation, each shifted so its offsets start at 0."""
    seen: list[tuple[PatternCell, ...]] = []
    current = cells
    for _ in range(4):
        min_x = min(c.dx for c in current)
        min_y = min(c.dy for c in current)
        norm = tuple(sorted((PatternCell(c.dx - min_x, c.dy - min_y, c.colour, c.height, c.plus)
                             for c in current), key=lambda c: (c.dy, c.dx)))
        if norm not in seen:
            seen.append(norm)
        current = tuple(PatternCell(-c.dy, c.dx, c.colour, c.height, c.plus) for c in current)
    return seen


@cache
def placements(card_id: int) -> tuple[tuple[int, tuple[Need, ...]], ...]:
    """Every placement of the card's pattern on a reef: (bitmask of squares, needs)."""
    card = cards()[card_id]
    out = []
    for rot in rotations(card.cells):
        width = max(c.dx for c in rot) + 1
        height = max(c.dy for c in rot) + 1
        for y in range(SIZE - height + 1):
            for x in range(SIZE - width + 1):
                needs = tuple(((y + c.dy) * SIZE + x + c.dx, c) for c in rot)
                mask = 0
                for square, _ in needs:
                    mask |= 1 << square
                out.append((mask, needs))
    return tuple(out)


# A Need written out: the square, the colour of its top (None: any), and the lowest and the
# highest its stack may be.
Check = tuple[int, str | None, int, int]


@cache
def checks(card_id: int) -> tuple[tuple[int, tuple[Check, ...]], ...]:
    """:func:`placements` with each need's PatternCell.accepts written out as plain values,
    for scoring, which runs on every played card (no method call per square checked)."""
    def check(square: int, cell: PatternCell) -> Check:
        colour = None if cell.colour == ANY else cell.colour
        if cell.height is None:
            return square, colour, 1, sys.maxsize
        return square, colour, cell.height, sys.maxsize if cell.plus else cell.height
    return tuple((mask, tuple(check(sq, cell) for sq, cell in needs))
                 for mask, needs in placements(card_id))


def square_name(square: int) -> str:
    """0 -> 'A1', 5 -> 'B2'."""
    return f"{'ABCD'[square % SIZE]}{square // SIZE + 1}"


def neighbours(square: int) -> tuple[int, ...]:
    """The up to 8 squares around ``square`` (orthogonal and diagonal)."""
    x, y = square % SIZE, square // SIZE
    return tuple((y + dy) * SIZE + x + dx for dy in (-1, 0, 1) for dx in (-1, 0, 1)
                 if (dx or dy) and 0 <= x + dx < SIZE and 0 <= y + dy < SIZE)


NEIGHBOURS = tuple(neighbours(s) for s in range(SQUARES))
SQUARE_NAMES = tuple(square_name(s) for s in range(SQUARES))  # 'A1' .. 'D4'
CENTRE = tuple(sorted((1 * SIZE + 1, 1 * SIZE + 2, 2 * SIZE + 1, 2 * SIZE + 2)))  # B2 C2 B3 C3
