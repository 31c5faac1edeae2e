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
from pbem.games.reef_encounter.context import seat_ref
from pbem.games.reef_encounter.state import State
from pbem.games.reef_encounter.terms import colour as hue
from pbem.games.reef_encounter.terms import vowel
from pbem.i18n.msg import msg


def check_attack(state: State, cell_key: str, colour: str) -> str:
    """Refuse an illegal attack by a ``colour`` polyp on ``cell_key``; return the target colour."""
    target = state.polyps[cell_key]
    where = name(cell_key)
    f = {"cell": where, "colour": hue(colour), "target": hue(target)}
    if target == colour:
        raise Refused(msg("{cell} already holds an {colour} polyp (a coral never attacks its "
                          "own colour)", **f) if vowel(colour) else
                      msg("{cell} already holds a {colour} polyp (a coral never attacks its "
                          "own colour)", **f))
    strong, tile = dominates(state, colour, target)
    if not strong:
        raise Refused(msg("{colour} cannot attack {target} here — {target} dominates {colour} "
                          "(coral tile {tile})", tile=tile, **f))
    polyps, near = state.polyps, neighbours()
    attackers = [n for n in near[cell_key] if polyps.get(n) == colour]
    if not attackers:
        raise Refused(msg("{colour} cannot attack the {target} polyp on {cell}: no {colour} "
                          "coral is next to it", **f))
    # A neighbour of the attacker's colour with a neighbour of that colour is in a coral of 2+.
    if not any(polyps.get(m) == colour for n in attackers for m in near[n]):
        raise Refused(msg("{colour} cannot attack the {target} polyp on {cell}: only a coral of "
                          "at least two polyps may attack, and the {colour} coral next to it "
                          "has one", **f))
    guard = protector(state, cell_key)
    if guard is not None:
        owner = state.shrimps[guard]
        g = {"owner": hue(state.players[owner].colour),
             "seat": seat_ref(owner), "guard": name(guard), **f}
        raise Refused(msg("the {target} polyp on {cell} is protected by {owner}'s shrimp on it",
                          **g) if guard == cell_key else
                      msg("the {target} polyp on {cell} is protected by {owner}'s shrimp on "
                          "{guard}", **g))
    return target
