"""The reefs as cells: adjacency, corals (connected same-colour polyps), shrimps, coral tiles.

Cells are the state's keys, "board:cell" (e.g. "2:D4"). Neighbour tables are computed once
from components.toml and hold only rock cells (sand never holds anything), so the hot path of
the rules is plain dict lookups.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from pbem.games.reef_encounter.components import COLUMNS, ROWS, components
from pbem.games.reef_encounter.orders import Cell
from pbem.games.reef_encounter.state import State
from pbem.i18n.msg import Msg, msg


class Refused(Exception):
    """A step breaks a rule; the message says why, for the player (rules.py adds where).

    Its one argument is a :class:`Msg` (``str(refused)`` is the English sentence)."""

    def __init__(self, why: Msg) -> None:
        super().__init__(why)
        self.why = why


def key(cell: Cell) -> str:
    """The state key of a cell of the order language ("2D4" -> "2:D4")."""
    return cell.key


def name(cell_key: str) -> str:
    """How players write a cell ("2:D4" -> "2D4")."""
    return cell_key.replace(":", "")


@cache
def rock_cells() -> dict[int, tuple[str, ...]]:
    """Board id -> its rock (non-sand) cell keys, row by row."""
    out: dict[int, tuple[str, ...]] = {}
    for board in components().boards:
        out[board.id] = tuple(
            f"{board.id}:{c}{r}"
            for r in range(1, ROWS + 1)
            for c in COLUMNS
            if not board.is_sand(f"{c}{r}")
        )
    return out


@cache
def neighbours() -> dict[str, tuple[str, ...]]:
    """Rock cell key -> its orthogonally adjacent rock cells on the same board."""
    out: dict[str, tuple[str, ...]] = {}
    for board_id, cells in rock_cells().items():
        rock = set(cells)
        for k in cells:
            col = COLUMNS.index(k.split(":")[1][0])
            row = int(k.split(":")[1][1:])
            near = []
            for dc, dr in ((0, -1), (-1, 0), (1, 0), (0, 1)):
                c, r = col + dc, row + dr
                if 0 <= c < len(COLUMNS) and 1 <= r <= ROWS:
                    n = f"{board_id}:{COLUMNS[c]}{r}"
                    if n in rock:
                        near.append(n)
            out[k] = tuple(near)
    return out


@cache
def extra_growth_cells() -> frozenset[str]:
    return frozenset(f"{b.id}:{b.extra_growth}" for b in components().boards)


@cache
def starfish_next_to() -> dict[str, tuple[str, ...]]:
    """Rock cell key -> its neighbours that are extra-growth (starfish) spaces, in
    neighbours() order: most cells have none, and a placement asks every time."""
    starfish = extra_growth_cells()
    return {k: tuple(n for n in near if n in starfish) for k, near in neighbours().items()}


class _BoardOf(dict[str, int]):
    """Cell key -> board id, filled on first sight: a plain dict lookup on the hot paths."""

    def __missing__(self, cell_key: str) -> int:
        board = self[cell_key] = int(cell_key.split(":", 1)[0])
        return board


BOARD_OF = _BoardOf()


def board_of(cell_key: str) -> int:
    """The board id of a cell key ("2:D4" -> 2)."""
    return BOARD_OF[cell_key]


def check_rock(state: State, cell_key: str) -> None:
    """Refuse a cell that is not rock on a board in play."""
    board = BOARD_OF[cell_key]
    if board in state.boards and cell_key in neighbours():  # the usual case, at once
        return
    if board not in state.boards:
        in_play = ", ".join(str(b) for b in sorted(state.boards))
        raise Refused(msg("board {board} is not in this game (boards in play: {in_play})",
                          board=board, in_play=in_play))
    if cell_key not in neighbours():
        raise Refused(msg("{cell} is sand; nothing can stand there", cell=name(cell_key)))


def group(state: State, cell_key: str) -> set[str]:
    """The cells of the coral holding ``cell_key`` (connected, same colour), or an empty set."""
    return group_in(state.polyps, cell_key)


def group_in(polyps: dict[str, str], cell_key: str) -> set[str]:
    """:func:`group` on ``polyps`` (cell -> colour), which may be a bot's own copy."""
    colour = polyps.get(cell_key)
    if colour is None:
        return set()
    near = neighbours()
    seen = {cell_key}
    todo = [cell_key]
    add, push, pop, get = seen.add, todo.append, todo.pop, polyps.get
    while todo:
        for n in near[pop()]:
            if n not in seen and get(n) == colour:
                add(n)
                push(n)
    return seen


def coral(state: State, cell_key: str) -> list[str]:
    """Every polyp of the coral holding ``cell_key``, sorted, or []."""
    return sorted(group(state, cell_key))


def coral_shrimp(state: State, polyps: Iterable[str]) -> str | None:
    """The cell of the shrimp standing on this coral, if any."""
    shrimps = state.shrimps
    for k in polyps:
        if k in shrimps:
            return k
    return None


def corals_of_colour_next_to(state: State, cell_key: str, colour: str) -> list[set[str]]:
    """The distinct corals of ``colour`` orthogonally adjacent to ``cell_key``."""
    found: list[set[str]] = []
    seen: set[str] = set()
    for n in neighbours()[cell_key]:
        if n not in seen and state.polyps.get(n) == colour:
            cells = group(state, n)
            seen |= cells
            found.append(cells)
    return found


def joins_two_shrimp_corals(state: State, cell_key: str, colour: str) -> bool:
    """Would a ``colour`` polyp here connect two corals of its colour that both hold a shrimp?"""
    if len(state.shrimps) < 2:
        return False  # cheap exits: fewer than two shrimps, or fewer than two such neighbours
    get = state.polyps.get
    near = 0
    for n in neighbours()[cell_key]:  # a loop, not a list made and counted: asked very often
        if get(n) == colour:
            near += 1
    if near < 2:
        return False
    guarded = 0
    for k in state.shrimps:
        if get(k) == colour:
            guarded += 1
    if guarded < 2:
        return False  # not two shrimps on this colour's polyps anywhere: no corals to trace
    held = 0
    for cells in corals_of_colour_next_to(state, cell_key, colour):
        if coral_shrimp(state, cells) is not None:
            held += 1
    return held >= 2


def protector(state: State, cell_key: str) -> str | None:
    """The shrimp cell protecting this polyp: on it, or on an adjacent polyp of its coral."""
    if cell_key in state.shrimps:
        return cell_key
    colour = state.polyps.get(cell_key)
    for n in neighbours()[cell_key]:
        if n in state.shrimps and state.polyps.get(n) == colour:
            return n
    return None


def seat_shrimps_on_board(state: State, seat: int, board: int) -> int:
    n = 0
    for k, s in state.shrimps.items():  # a loop: cheaper than a generator summed
        if s == seat and BOARD_OF[k] == board:
            n += 1
    return n


@cache
def rock_count(boards: tuple[int, ...]) -> int:
    """How many rock cells these boards have together."""
    return sum(len(rock_cells()[b]) for b in boards)


# --- coral tiles -------------------------------------------------------------------------------


@cache
def tile_of_pair() -> dict[frozenset[str], int]:
    """Each pair of coral colours has exactly one coral tile."""
    return {frozenset((t.stronger, t.weaker)): t.id for t in components().coral_tiles}


def tile_side(state: State, tile_id: int) -> str:
    """The face ("a" or "b") this tile shows now."""
    flipped = tile_id in state.flipped_tiles
    if state.coral_face == "a":
        return "b" if flipped else "a"
    return "a" if flipped else "b"


@cache
def _faces() -> dict[tuple[int, str], tuple[str, str, str, str]]:
    out = {}
    for tile in components().coral_tiles:
        for side in "ab":
            f = tile.face(side)
            out[(tile.id, side)] = (f.stronger, f.weaker, f.large_alga, f.small_alga)
    return out


@cache
def tile_ids() -> tuple[int, ...]:
    return tuple(t.id for t in components().coral_tiles)


def visible(state: State, tile_id: int) -> tuple[str, str, str, str]:
    """(stronger, weaker, large alga, small alga) as the tile lies now."""
    return _faces()[(tile_id, tile_side(state, tile_id))]


def flip(state: State, tile_id: int) -> None:
    if tile_id in state.flipped_tiles:
        state.flipped_tiles.remove(tile_id)
    else:
        state.flipped_tiles.append(tile_id)
        state.flipped_tiles.sort()


def dominates(state: State, attacker: str, target: str) -> tuple[bool, int]:
    """Does ``attacker`` currently dominate ``target``? Also the tile that says so."""
    tile_id = tile_of_pair()[frozenset((attacker, target))]
    return visible(state, tile_id)[0] == attacker, tile_id
