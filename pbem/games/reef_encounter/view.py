"""What one seat (or a spectator, seat None) may see of a state, per RULINGS.md.

Never included while the game runs: the bag, another seat's polyp colours behind its screen,
any other parrotfish. Once the game is over every screen and parrotfish is shown to all, for
the final scores. The key layout is the one render.py documents.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from pbem.games.reef_encounter import bot, scoring
from pbem.games.reef_encounter.board import tile_side
from pbem.games.reef_encounter.components import COLUMNS, ROWS, components
from pbem.games.reef_encounter.ending import end_message
from pbem.games.reef_encounter.state import State


@cache
def _layout(board_id: int) -> tuple[tuple[tuple[str, bool, bool], ...], ...]:
    """A board's cells row by row, as (key, sand, extra growth): fixed by the components, so
    worked out once, not in each of the five views a move's mails take."""
    board = components().board(board_id)
    return tuple(
        tuple(
            (f"{board_id}:{name}", board.is_sand(name), name == board.extra_growth)
            for name in (f"{COLUMNS[c]}{r + 1}" for c in range(len(COLUMNS)))
        )
        for r in range(ROWS)
    )


def _boards(state: State) -> list[dict[str, Any]]:
    polyps, shrimps = state.polyps, state.shrimps
    return [
        {
            "number": board_id,
            "rows": [
                [
                    {
                        "sand": sand,
                        "polyp": polyps.get(key),
                        "shrimp": shrimps.get(key),
                        "extra_growth": extra,
                    }
                    for key, sand, extra in row
                ]
                for row in _layout(board_id)
            ],
        }
        for board_id in state.boards
    ]


def _tiles(state: State) -> list[dict[str, Any]]:
    tiles = []
    for tile in components().coral_tiles:
        face = tile.face(tile_side(state, tile.id))
        tiles.append(
            {
                "number": tile.id,
                "strong": face.stronger,
                "weak": face.weaker,
                "large_alga": face.large_alga,
                "small_alga": face.small_alga,
                "cylinder": state.cylinders.get(str(tile.id)),  # a cylinder locks the tile
            }
        )
    return tiles


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The view for `seat` (index into state.players) or the public view when seat is None."""
    over = state.phase == "over"
    players: list[dict[str, Any]] = []
    for i, s in enumerate(state.players):
        p: dict[str, Any] = {
            "seat": i,
            "colour": s.colour,
            "consumed": dict(s.consumed),
            # Shown whenever taken, so public; but the setup picks stay secret until all answered.
            "larvae": dict(s.larva) if state.phase != "setup" or i == seat else {},
            "polyps_behind": sum(s.screen.values()),
            "shrimps_behind": s.shrimps_in_hand,
            "shrimps_on_reefs": sum(1 for owner in state.shrimps.values() if owner == i),
            "sea_shrimp": s.sea_shrimp,
            "answered_setup": s.answered_setup,
        }
        players.append(p)
    tiles = _tiles(state)
    values = scoring.coral_values(state)
    if over:  # the end: every screen and parrotfish is turned over for all to see
        for p, s in zip(players, state.players, strict=True):
            p["polyps"] = dict(s.screen)
            p["parrotfish"] = sorted(s.parrotfish)
            p["fish_shrimps"] = s.fish_shrimps
            p["score"] = scoring.parrotfish_score(state, p["seat"], values)
            p["protected_polyps"] = scoring.protected_polyps(state, p["seat"])
    result: dict[str, Any] = {
        "phase": state.phase,
        "to_move": state.to_move,
        "start_player": state.start_player,
        "turn": state.turn,
        "final_turns": list(state.final_turns),
        "end_reason": state.end_reason,
        "end": None if (end := end_message(state)) is None else end.to_json(),
        "advanced": state.advanced,
        "boards": _boards(state),
        "open_sea": [
            {"colour": s["colour"], "cube": s["larva"] > 0, "polyps": list(s["polyps"])}
            for s in state.open_sea
        ],
        "tiles": tiles,
        "coral_values": values,
        "alga_space": state.alga_space,
        "bonus": dict(state.bonus),
        "larva_supply": _larva_supply_seen(state, seat),
        "alga_supply": dict(state.alga_supply),
        "players": players,
    }
    if seat is not None:
        mine = state.players[seat]
        result["you"] = {
            "seat": seat,
            "colour": mine.colour,
            "polyps": dict(mine.screen),
            "parrotfish": sorted(mine.parrotfish),
            "fish_shrimps": mine.fish_shrimps,
            "answered_setup": mine.answered_setup,
            "to_move": _to_move(state, seat),
        }
        if result["you"]["to_move"]:
            result["you"]["example"] = _example(state, seat, result["larva_supply"])
    return result


def _larva_supply_seen(state: State, seat: int | None) -> dict[str, int]:
    """The larva supply as ``seat`` may see it: in the secret setup step, the cubes the other
    seats have already taken still count as in the supply."""
    supply = dict(state.larva_supply)
    if state.phase == "setup":
        for i, s in enumerate(state.players):
            if i != seat:
                for colour, n in s.larva.items():
                    supply[colour] = supply.get(colour, 0) + n
    return supply


def _example(state: State, seat: int, supply: dict[str, int]) -> str:
    """A legal order to copy: the rules' safe default turn, or for the setup step one built
    only from what this seat may see (the real supply would betray others' secret picks)."""
    if state.phase != "setup":
        return bot.default_order(state, seat).strip()
    screen = state.players[seat].screen
    fish = max(sorted(screen), key=lambda c: screen[c])
    cubes = sorted(supply, key=lambda c: -supply[c])
    return f"parrotfish {fish}; larvae {cubes[0]} {cubes[1] if len(cubes) > 1 else cubes[0]}"


def _to_move(state: State, seat: int) -> bool:
    if state.phase == "setup":
        return not state.players[seat].answered_setup
    return state.phase in ("play", "final") and state.to_move == seat
