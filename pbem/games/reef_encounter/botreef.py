"""The bot's picture of the reef: the polyps as corals and as a bit mask per colour, and what
the bot asks of it (which cells lie next to a colour)."""

from __future__ import annotations

from pbem.games.reef_encounter.board import group_in, neighbours
from pbem.games.reef_encounter.cellbits import cell_bits, grow
from pbem.games.reef_encounter.components import components


class Coral:
    """One coral of a :class:`Reef`: its cells (a set, changed in place as it grows)."""

    __slots__ = ("cells",)

    def __init__(self, cells: set[str]) -> None:
        self.cells = cells


class Reef:
    """The polyps as corals and as a bit mask per colour, for one turn the bot writes: its
    placements and meals keep it up to date as the rules change the state."""

    __slots__ = ("coral", "corals", "masks", "polyps")

    def __init__(self, polyps: dict[str, str]) -> None:
        self.polyps = dict(polyps)
        self.coral: dict[str, Coral] = {}  # cell -> the coral holding it
        self.corals: set[Coral] = set()
        self.masks = dict.fromkeys(components().coral_colours, 0)
        bit, coral = cell_bits().bit, self.coral
        for k, colour in self.polyps.items():
            self.masks[colour] |= bit[k]
            if k not in coral:
                self._new(group_in(self.polyps, k))

    def _new(self, cells: set[str]) -> None:
        found = Coral(cells)
        self.corals.add(found)
        coral = self.coral
        for k in cells:
            coral[k] = found

    def put(self, k: str, colour: str) -> str | None:
        """A ``colour`` polyp on ``k``; returns the colour of the polyp it replaced."""
        polyps, coral, bit = self.polyps, self.coral, cell_bits().bit[k]
        target = polyps.get(k)
        if target is not None:  # an attack: the cell leaves its coral, which may fall apart
            self.masks[target] &= ~bit
            old = coral.pop(k)
            old.cells.discard(k)
            self.corals.discard(old)
            if old.cells:
                self._split(old.cells)
        polyps[k] = colour
        self.masks[colour] |= bit
        joined: Coral | None = None
        get = polyps.get
        for n in neighbours()[k]:
            if get(n) != colour:
                continue
            other = coral[n]
            if joined is None:
                joined = other
            elif other is not joined:  # two corals of the colour meet: the larger keeps both
                if len(other.cells) > len(joined.cells):
                    joined, other = other, joined
                joined.cells |= other.cells
                for c in other.cells:
                    coral[c] = joined
                self.corals.discard(other)
        if joined is None:
            self._new({k})
        else:
            joined.cells.add(k)
            coral[k] = joined
        return target

    def _split(self, cells: set[str]) -> None:
        """The corals of what is left of one coral."""
        rest = set(cells)
        near = neighbours()
        while rest:
            first = rest.pop()
            part = {first}
            todo = [first]
            while todo:
                for n in near[todo.pop()]:
                    if n in rest:
                        rest.discard(n)
                        part.add(n)
                        todo.append(n)
            self._new(part)

    def eat(self, k: str) -> set[str]:
        """The coral holding ``k`` leaves the reef; returns its cells."""
        found = self.coral[k]
        self.corals.discard(found)
        polyps, coral = self.polyps, self.coral
        colour = polyps[k]
        bits = cell_bits().bit
        for c in found.cells:
            del polyps[c]
            del coral[c]
            self.masks[colour] &= ~bits[c]
        return found.cells


def next_to_mask(own: int, in_play: int) -> int:
    """The cells of the boards in play next to a polyp of a colour and not holding one, from
    the colour's bits and those of the boards in play (a neighbour lies on its polyp's board)."""
    return grow(own) & in_play & ~own


def in_play(boards: tuple[int, ...]) -> int:
    """The bits of the rock cells of these boards."""
    bits = cell_bits().board
    return sum(bits[b] for b in boards)

