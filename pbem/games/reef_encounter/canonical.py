"""Reading the exact text ``format_order`` writes, straight to steps, without lark.

Bots, replays and careful players send these lines all the time, and the grammar's full
generality (synonyms, comments, loose spacing, error hints) costs far more than the rules
themselves. Anything that is not a canonical line, or any doubt (a cell off the board, an
unknown colour, a double space), gives None and the caller reads the text the long way, which
also words every error. tests/.../test_canonical.py checks both ways agree.
"""

from __future__ import annotations

from functools import lru_cache

from pbem.games.reef_encounter.orders import (
    Alga,
    Cell,
    ConsumedForLarva,
    Eat,
    Larva,
    LarvaForPolyp,
    MoveShrimp,
    NewShrimp,
    Order,
    Pass,
    Place,
    Step,
    Take,
)

_CORALS = frozenset(("grey", "orange", "pink", "white", "yellow"))
_ALGAE = frozenset(("blue", "green", "purple", "red"))
_TILES = {str(t): t for t in range(1, 11)}
_CELLS = {f"{b}{c.lower()}{r}": Cell(b, c, r)
          for b in range(1, 5) for c in "ABCDEFG" for r in range(1, 7)}
# Every placement step, made once (steps are immutable): a larva line is read the long way
# the first time it is seen, and most lines of a game are seen once.
_PLACES = {(word, consumed): Place(cell, consumed=consumed)
           for word, cell in _CELLS.items() for consumed in (False, True)}


def _placements(words: list[str], consumed: bool) -> tuple[Step, ...] | None:
    """Cells to place; ``consumed`` makes every later cell a consumed polyp (as the grammar)."""
    steps: list[Step] = []
    for word in words:
        if word == "consumed":
            consumed = True
            continue
        place = _PLACES.get((word, consumed))
        if place is None:
            return None
        steps.append(place)
    return tuple(steps) if steps else None


@lru_cache(maxsize=8192)
def canonical_steps(line: str) -> tuple[Step, ...] | None:
    """The steps of one canonical line, or None if it is not one (steps are immutable)."""
    if not line.isascii():
        return None
    first, *rest = line.lower().split(" ")
    n = len(rest)
    if first == "take" and n == 1 and rest[0] in _CORALS:
        return (Take(rest[0]),)
    if first == "pass" and n == 0:
        return (Pass(),)
    if first == "eat" and n == 1 and rest[0] in _CELLS:
        return (Eat(_CELLS[rest[0]]),)
    if first == "shrimp" and n == 2 and rest[0] == "new" and rest[1] in _CELLS:
        return (NewShrimp(_CELLS[rest[1]]),)
    if first == "move" and n >= 3 and rest[0] == "shrimp" and rest[1] in _CELLS:
        if n == 3 and rest[2] == "home":
            return (MoveShrimp(_CELLS[rest[1]], None),)
        if n == 4 and rest[2] == "to" and rest[3] in _CELLS:
            return (MoveShrimp(_CELLS[rest[1]], _CELLS[rest[3]]),)
        return None
    if first == "larva" and n >= 1:
        colour = rest[0]
        if n == 1 and colour in _CORALS:
            return (Larva(colour),)
        if n == 3 and colour in _CORALS and rest[1:] == ["for", "polyp"]:
            return (LarvaForPolyp(colour),)
        if n >= 2 and colour.endswith(":") and colour[:-1] in _CORALS:
            placed = _placements(rest[1:], False)
            return None if placed is None else (Larva(colour[:-1]), *placed)
        return None
    if first == "place":
        return _placements(rest, False)
    if first == "consumed" and n >= 1:
        if n == 3 and rest[0] in _CORALS and rest[1:] == ["for", "larva"]:
            return (ConsumedForLarva(rest[0]),)
        return _placements(rest, True) if rest[0] in _CELLS else None
    if first == "alga" and n in (5, 6) and rest[0] in _ALGAE and rest[1] == "on" \
            and rest[-2] == "paying" and rest[-1] in _CORALS:
        if n == 5 and rest[2] == "space":
            return (Alga(rest[0], None, rest[-1]),)
        if n == 6 and rest[2] == "tile" and rest[3] in _TILES:
            return (Alga(rest[0], _TILES[rest[3]], rest[-1]),)
    return None


def read_canonical(text: str) -> Order | None:
    """The order, if every line of ``text`` is canonical (as format_order writes), else None."""
    steps: list[Step] = []
    lines: list[int] = []
    for number, line in enumerate(text.splitlines(), start=1):
        got = canonical_steps(line)
        if got is None:
            return None
        steps += got
        lines += [number] * len(got)
    if not steps:
        return None
    return Order(tuple(steps), tuple(lines))
