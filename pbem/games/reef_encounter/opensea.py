"""Action 10: take a larva cube and its polyps from the open sea, then refill.

The cube is replaced by one of the same colour from the supply, and every open-sea space with
fewer than three polyps gets one polyp drawn from the bag. If that cannot be done (no cube of
that colour, or too few polyps even with the bonus polyps) the game ends.
"""

from __future__ import annotations

from typing import Any

from pbem.engine.chance import Chance
from pbem.games.reef_encounter.board import Refused
from pbem.games.reef_encounter.context import Turn, seat_ref, who
from pbem.games.reef_encounter.state import State
from pbem.games.reef_encounter.supply import draw_each, remove
from pbem.games.reef_encounter.terms import colour as hue
from pbem.games.reef_encounter.terms import colours
from pbem.i18n.msg import Msg, msg

FULL = 3


def space_of(state: State, colour: str) -> dict[str, Any]:
    for space in state.open_sea:
        if space["colour"] == colour:
            return space
    raise Refused(msg("there is no {colour} space on the open sea", colour=hue(colour)))


def check_take(state: State, colour: str) -> dict[str, Any]:
    """Refuse taking from the ``colour`` space; return the space."""
    space = space_of(state, colour)
    if not space["larva"]:
        raise Refused(msg("the {colour} open-sea space has no larva cube to take",
                          colour=hue(colour)))
    return space


def take(state: State, turn: Turn, colour: str, chance: Chance) -> bool:
    """Take the space's cube and polyps, then refill; False if the refill was impossible."""
    # Copy on write: State.copy_for shares the open sea with the state before this turn.
    sea: list[dict[str, Any]] = []
    space: dict[str, Any] | None = None
    for s in state.open_sea:
        s = dict(s)
        sea.append(s)
        if space is None and s["colour"] == colour:
            space = s
    state.open_sea = sea
    if space is None or not space["larva"]:
        space = check_take(state, colour)  # refuses, with the reason
    me = state.players[turn.seat]
    polyps: list[str] = space["polyps"]
    space["larva"] = 0
    space["polyps"] = []
    larva, screen = me.larva, me.screen
    larva[colour] = larva.get(colour, 0) + 1
    for p in polyps:
        screen[p] = screen.get(p, 0) + 1
    seat = turn.seat
    turn.say("larva_taken", _taken(state, seat, colour, polyps))
    needed: list[dict[str, Any]] = []
    labels: list[str] = []
    for s in sea:
        if len(s["polyps"]) < FULL:
            needed.append(s)
            labels.append(_LABELS.get(s["colour"]) or f"refill {s['colour']} space")
    if (state.larva_supply.get(colour, 0) < 1
            or sum(state.bag.values()) + sum(state.bonus.values()) < len(needed)):
        return False  # fewer polyps in the bag and the bonus than spaces to refill
    remove(state.larva_supply, colour)
    space["larva"] = 1
    for s, drawn in zip(needed, draw_each(state, chance, labels), strict=True):
        s["polyps"] = [*s["polyps"], drawn]  # a new list: the old one is the last state's
    return True


def _taken(state: State, seat: int, colour: str, polyps: list[str]) -> Msg:
    f = {"player": who(state, seat), "seat": seat_ref(seat), "colour": hue(colour),
         "polyps": colours(polyps), "n": len(polyps)}
    return (msg("{player} took the {colour} larva cube and {polyps} from the open sea.", **f)
            if polyps else
            msg("{player} took the {colour} larva cube and no polyps from the open sea.", **f))


_LABELS = {c: f"refill {c} space" for c in ("grey", "orange", "pink", "white", "yellow")}
