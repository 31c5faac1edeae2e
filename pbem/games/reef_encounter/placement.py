"""Placing one polyp (actions 2 and 3): growth on bare rock, merging, attacks, extra growth.

A new polyp joins every adjacent coral of its colour; it may never connect two corals of its
colour that both hold a shrimp. Extra growth fills an adjacent empty starfish space with a bonus
polyp at once (not in the advanced game, not if no bonus polyp of that colour is left, and not
if it would join two shrimp-held corals).
"""

from __future__ import annotations

from pbem.games.reef_encounter.attack import check_attack
from pbem.games.reef_encounter.board import (
    Refused,
    check_rock,
    extra_growth_cells,
    joins_two_shrimp_corals,
    name,
    neighbours,
)
from pbem.games.reef_encounter.context import Turn, who
from pbem.games.reef_encounter.state import State
from pbem.games.reef_encounter.supply import add, bonus_ready, use_bonus
from pbem.games.reef_encounter.words import a


def check_place(state: State, seat: int, cell_key: str, colour: str) -> str | None:
    """Refuse an illegal placement; return the colour it would eat (None for plain growth)."""
    check_rock(state, cell_key)
    where = name(cell_key)
    if cell_key in state.shrimps and cell_key not in state.polyps:
        if state.shrimps[cell_key] == seat:
            raise Refused(f"your shrimp stands on {where}; move it away first (action 5)")
        raise Refused(f"{where} holds a shrimp; a polyp cannot go there")
    target = check_attack(state, cell_key, colour) if cell_key in state.polyps else None
    if joins_two_shrimp_corals(state, cell_key, colour):
        raise Refused(f"{a(colour)} polyp on {where} would join two {colour} corals that both "
                      "hold a shrimp")
    return target


def place(state: State, turn: Turn, cell_key: str, colour: str) -> None:
    """Put a ``colour`` polyp on ``cell_key`` (checked by check_place) with all its effects."""
    target = check_place(state, turn.seat, cell_key, colour)
    me = who(state, turn.seat)
    state.polyps[cell_key] = colour
    if target is None:
        turn.say(f"{me} placed {a(colour)} polyp on {name(cell_key)}.")
    else:
        add(state.seats[turn.seat].consumed, target)
        turn.say(f"{me} placed {a(colour)} polyp on {name(cell_key)}, eating the {target} polyp "
                 f"there (now in front of {me}'s screen).")
    extra_growth(state, turn, cell_key, colour)


def extra_growth(state: State, turn: Turn, cell_key: str, colour: str) -> None:
    if state.advanced:
        return
    starfish = extra_growth_cells()
    for n in neighbours()[cell_key]:
        if (n in starfish and n not in state.polyps and n not in state.shrimps
                and not joins_two_shrimp_corals(state, n, colour) and bonus_ready(state, colour)):
            state.polyps[n] = colour
            use_bonus(state, colour)
            turn.say(f"Extra growth: a bonus {colour} polyp grew on {name(n)}.")
            return
