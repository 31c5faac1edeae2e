"""Placing one polyp (actions 2 and 3): growth on bare rock, merging, attacks, extra growth.

A new polyp joins every adjacent coral of its colour; it may never connect two corals of its
colour that both hold a shrimp. Extra growth fills an adjacent empty starfish space with a bonus
polyp at once (not in the advanced game, not if no bonus polyp of that colour is left, and not
if it would join two shrimp-held corals).
"""

from __future__ import annotations

from pbem.games.reef_encounter.attack import check_attack
from pbem.games.reef_encounter.board import (
    BOARD_OF,
    Refused,
    check_rock,
    joins_two_shrimp_corals,
    name,
    neighbours,
    starfish_next_to,
)
from pbem.games.reef_encounter.context import Turn, seat_ref, who
from pbem.games.reef_encounter.state import State
from pbem.games.reef_encounter.supply import add, bonus_ready, use_bonus
from pbem.games.reef_encounter.terms import colour as hue
from pbem.games.reef_encounter.terms import vowel
from pbem.i18n.msg import Msg, msg


def check_place(state: State, seat: int, cell_key: str, colour: str) -> str | None:
    """Refuse an illegal placement; return the colour it would eat (None for plain growth)."""
    if BOARD_OF[cell_key] not in state.boards or cell_key not in neighbours():
        check_rock(state, cell_key)  # it says why
    if cell_key in state.shrimps and cell_key not in state.polyps:
        if state.shrimps[cell_key] == seat:
            raise Refused(msg("your shrimp stands on {cell}; move it away first (action 5)",
                              cell=name(cell_key)))
        raise Refused(msg("{cell} holds a shrimp; a polyp cannot go there", cell=name(cell_key)))
    target = check_attack(state, cell_key, colour) if cell_key in state.polyps else None
    if joins_two_shrimp_corals(state, cell_key, colour):
        f = {"cell": name(cell_key), "colour": hue(colour)}
        raise Refused(msg("an {colour} polyp on {cell} would join two {colour} corals that both "
                          "hold a shrimp", **f) if vowel(colour) else
                      msg("a {colour} polyp on {cell} would join two {colour} corals that both "
                          "hold a shrimp", **f))
    return target


def put_polyp(state: State, turn: Turn, cell_key: str, colour: str, target: str | None) -> None:
    """Put a ``colour`` polyp on ``cell_key`` with all its effects, once checked: ``target`` is
    what check_place returned."""
    state.polyps[cell_key] = colour
    if target is not None:
        add(state.players[turn.seat].consumed, target)
    seat = turn.seat
    turn.say("polyp_placed" if target is None else "polyp_attacked",
             _placed(state, seat, cell_key, colour, target))
    if not state.advanced and starfish_next_to()[cell_key]:  # most cells have no starfish
        extra_growth(state, turn, cell_key, colour)


def _placed(state: State, seat: int, cell_key: str, colour: str, target: str | None) -> Msg:
    f = {"player": who(state, seat), "seat": seat_ref(seat), "colour": hue(colour),
         "cell": name(cell_key)}
    if target is None:
        return (msg("{player} placed an {colour} polyp on {cell}.", **f)
                if vowel(colour) else msg("{player} placed a {colour} polyp on {cell}.", **f))
    f["target"] = hue(target)
    return (msg("{player} placed an {colour} polyp on {cell}, eating the {target} polyp "
                "there (now in front of {player}'s screen).", **f) if vowel(colour) else
            msg("{player} placed a {colour} polyp on {cell}, eating the {target} polyp "
                "there (now in front of {player}'s screen).", **f))


def extra_growth(state: State, turn: Turn, cell_key: str, colour: str) -> None:
    if state.advanced:
        return
    for n in starfish_next_to()[cell_key]:
        if (n not in state.polyps and n not in state.shrimps
                and not joins_two_shrimp_corals(state, n, colour) and bonus_ready(state, colour)):
            state.polyps[n] = colour
            use_bonus(state, colour)
            turn.say("extra_growth", msg("Extra growth: a bonus {colour} polyp grew on "
                                         "{cell}.", colour=hue(colour), cell=name(n)))
            return
