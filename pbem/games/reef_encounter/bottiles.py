"""The coral tiles as the bot reads them: each tile's faces, and who dominates whom while
the tiles lie as they do (the rules' ``board.visible`` and ``dominates``, for one layout)."""

from __future__ import annotations

from functools import cache

from pbem.games.reef_encounter.board import tile_ids
from pbem.games.reef_encounter.components import components


@cache
def _tile_faces() -> dict[int, tuple[tuple[str, str, str], tuple[str, str, str]]]:
    """Tile id -> (stronger, weaker, large alga) on face a, then on face b."""
    out = {}
    for tile in components().coral_tiles:
        a, b = tile.face("a"), tile.face("b")
        out[tile.id] = ((a.stronger, a.weaker, a.large_alga), (b.stronger, b.weaker, b.large_alga))
    return out


def showing(face: str, flipped: tuple[int, ...], tile: int) -> tuple[str, str, str]:
    """(stronger, weaker, large alga) of ``tile`` as it lies: as ``board.visible``."""
    return _tile_faces()[tile][(face == "b") != (tile in flipped)]


def dominated(face: str, flipped: tuple[int, ...]) -> dict[str, frozenset[str]]:
    """Colour -> the colours it dominates while the coral tiles lie so (as ``dominates``)."""
    beats: dict[str, set[str]] = {c: set() for c in components().coral_colours}
    for tile in tile_ids():
        stronger, weaker, _ = showing(face, flipped, tile)
        beats[stronger].add(weaker)
    return {c: frozenset(w) for c, w in beats.items()}
