"""What a seat may see: everything but face-down cards and the order of the two piles.

Face-down cards become ``None`` here, before any template runs, so a status email cannot hold
them. The area is turned to face the viewer: their near row last, as if sitting at the table.
"""

from __future__ import annotations

from typing import Any

from pbem.engine.contract import View
from pbem.games.riff import worms
from pbem.games.riff.buying import COST
from pbem.games.riff.components import card_name, cross_colours, cross_name
from pbem.games.riff.orders import ROW_WORDS
from pbem.games.riff.rules import WIN
from pbem.games.riff.state import COLUMNS, State, area_row


def _card(card: str) -> dict[str, Any]:
    if card.startswith("fish:"):
        _, colour, sex = card.split(":")
        return {"kind": "fish", "colour": colour, "sex": sex, "name": card_name(card)}
    return {"kind": card, "colour": None, "sex": None, "name": card}


def view(state: State, seat: int | None) -> View:
    me = 0 if seat is None else seat
    rows = []
    for distance in reversed(range(4)):  # far row first, the viewer's near row last
        r = area_row(me, distance)
        cells: list[dict[str, Any] | None] = []
        for c in range(COLUMNS):
            slot = state.area[r][c]
            if slot is None:
                cells.append(None)
            elif slot["up"]:
                cells.append({"up": True, **_card(slot["card"])})
            else:
                cells.append({"up": False})
        rows.append({"name": ROW_WORDS[distance], "cost": COST[distance], "cells": cells})
    players = []
    for i, p in enumerate(state.players):
        players.append({
            "seat": i, "boats": p.boats, "worms": {c: p.worms.get(c, 0) for c in state.colours},
            "worm_total": sum(p.worms.values()), "pearls": p.pearls, "sharks": p.sharks,
            "fish": sorted(p.fish, key=lambda f: (state.colours.index(f.split(":")[0]), f)),
            "corals": [{"number": n + 1, "male": c.male, "female": c.female,
                        "cross": None if c.cross is None else cross_name(c.cross),
                        "cross_colours": None if c.cross is None else list(
                            cross_colours(c.cross))}
                       for n, c in enumerate(p.corals)],
            "crosses": p.crosses(),
            "prefer": worms.preference(state, i), "prefer_set": p.prefer is not None,
        })
    return {
        "phase": state.phase, "turn": state.turn, "to_move": state.to_move,
        "you": seat, "colours": list(state.colours),
        "rows": rows, "pile": len(state.pile), "discard": [card_name(c) for c in state.discard],
        "discard_cards": [_card(c) for c in state.discard],
        "breeding": [None if c is None else {"name": cross_name(c),
                                             "colours": list(cross_colours(c))}
                     for c in state.breeding_open],
        "breeding_pile": len(state.breeding_pile), "boats_left": state.boats_left,
        "worm_supply": {c: state.worm_supply[c] for c in state.colours},
        "dice": list(state.dice), "taken": list(state.taken),
        "players": players, "winner": state.winner, "end_reason": state.end_reason,
        # Why the game ended, as data for the templates' own sentences (see turn.end_reason).
        "ended_by_limit": state.phase == "over" and (
            state.winner is None or state.players[state.winner].crosses() < WIN),
        "win": WIN, "turn_limit": state.options["turn_limit"],
        "rulings": {k: state.options[k] for k in (
            "face_down_at_sea_edge_counts_as_water", "completed_corals_count_toward_limit",
            "may_buy_fish_without_a_free_coral")},
    }
