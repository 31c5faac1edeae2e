"""What one seat (or a spectator, seat None) may see of a state, per RULINGS.md.

Never included: the bag, another seat's polyp colours behind its screen, any other parrotfish.
The key layout is the one render.py documents.
"""

from __future__ import annotations

from typing import Any

from pbem.games.reef_encounter.components import COLUMNS, ROWS, components
from pbem.games.reef_encounter.state import State


def _boards(state: State) -> list[dict[str, Any]]:
    comp = components()
    out = []
    for board_id in state.boards:
        board = comp.board(board_id)
        rows = []
        for r in range(ROWS):
            row = []
            for c in range(len(COLUMNS)):
                name = f"{COLUMNS[c]}{r + 1}"
                key = f"{board_id}:{name}"
                row.append(
                    {
                        "sand": board.is_sand(name),
                        "polyp": state.polyps.get(key),
                        "shrimp": state.shrimps.get(key),
                        "extra_growth": name == board.extra_growth,
                    }
                )
            rows.append(row)
        out.append({"number": board_id, "rows": rows})
    return out


def _tiles(state: State) -> list[dict[str, Any]]:
    tiles = []
    for tile in components().coral_tiles:
        side = state.coral_face
        if tile.id in state.flipped_tiles:
            side = "b" if side == "a" else "a"
        face = tile.face(side)
        tiles.append(
            {
                "number": tile.id,
                "strong": face.stronger,
                "weak": face.weaker,
                "large_alga": face.large_alga,
                "small_alga": face.small_alga,
                "cylinder": None,  # alga cylinders on tiles: not modelled yet
            }
        )
    return tiles


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The view for `seat` (index into state.seats) or the public view when seat is None."""
    players = [
        {
            "seat": i,
            "colour": s.colour,
            "consumed": dict(s.consumed),
            "larvae": dict(s.larva),  # shown whenever taken, so public
            "polyps_behind": sum(s.screen.values()),
            "shrimps_behind": s.shrimps_in_hand,
            "sea_shrimp": 0,  # shrimps eaten to the open sea: not modelled yet
        }
        for i, s in enumerate(state.seats)
    ]
    result: dict[str, Any] = {
        "phase": state.phase,
        "to_move": state.to_move,
        "start_player": state.start_player,
        "boards": _boards(state),
        "open_sea": [
            {"colour": s["colour"], "cube": s["larva"] > 0, "polyps": list(s["polyps"])}
            for s in state.open_sea
        ],
        "tiles": _tiles(state),
        "alga_space": None,  # not modelled yet
        "bonus": dict(state.bonus),
        "larva_supply": dict(state.larva_supply),
        "alga_supply": dict(state.alga_supply),
        "players": players,
    }
    if seat is not None:
        mine = state.seats[seat]
        result["you"] = {
            "seat": seat,
            "polyps": dict(mine.screen),
            "parrotfish": list(mine.parrotfish),
        }
    return result
