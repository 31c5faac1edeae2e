"""Attacks: a coral of two or more polyps eats an adjacent, unprotected, dominated polyp.

Dominance is read from the coral tile of the pair as it lies now; protection comes from a
shrimp on the target or on an orthogonally adjacent polyp of the target's coral.
"""

from __future__ import annotations

from pbem.games.reef_encounter.board import (
    Refused,
    dominates,
    name,
    neighbours,
    protector,
)
from pbem.games.reef_encounter.state import State
from pbem.games.reef_encounter.words import a


def check_attack(state: State, cell_key: str, colour: str) -> str:
    """Refuse an illegal attack by a ``colour`` polyp on ``cell_key``; return the target colour."""
    target = state.polyps[cell_key]
    where = name(cell_key)
    if target == colour:
        raise Refused(f"{where} already holds {a(colour)} polyp (a coral never attacks its own "
                      "colour)")
    strong, tile = dominates(state, colour, target)
    if not strong:
        raise Refused(f"{colour} cannot attack {target} here — {target} dominates {colour} "
                      f"(coral tile {tile})")
    polyps, near = state.polyps, neighbours()
    attackers = [n for n in near[cell_key] if polyps.get(n) == colour]
    if not attackers:
        raise Refused(f"{colour} cannot attack the {target} polyp on {where}: no {colour} coral "
                      "is next to it")
    # A neighbour of the attacker's colour with a neighbour of that colour is in a coral of 2+.
    if not any(polyps.get(m) == colour for n in attackers for m in near[n]):
        raise Refused(f"{colour} cannot attack the {target} polyp on {where}: only a coral of "
                      f"at least two polyps may attack, and the {colour} coral next to it has one")
    guard = protector(state, cell_key)
    if guard is not None:
        owner = state.seats[state.shrimps[guard]].colour
        on = "on it" if guard == cell_key else f"on {name(guard)}"
        raise Refused(f"the {target} polyp on {where} is protected by {owner}'s shrimp {on}")
    return target
