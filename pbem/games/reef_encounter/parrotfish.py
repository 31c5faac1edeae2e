"""Action 1: the parrotfish eats a coral of five or more polyps guarded by one's own shrimp.

Four polyps go back into the bag (five in the advanced game; one more in a final turn), the rest
into the parrotfish. The shrimp goes to the open-sea board if it is the player's first eaten,
otherwise into the parrotfish. Eating the fourth shrimp ends the game.
"""

from __future__ import annotations

from pbem.games.reef_encounter.board import Refused, check_rock, coral, coral_shrimp, name
from pbem.games.reef_encounter.context import Turn, seat_ref, who
from pbem.games.reef_encounter.state import State
from pbem.games.reef_encounter.supply import to_bag
from pbem.games.reef_encounter.terms import colour as hue
from pbem.i18n.msg import msg, nmsg

MIN_CORAL = 5


def to_bag_count(state: State, final: bool) -> int:
    return 4 + (1 if state.advanced else 0) + (1 if final else 0)


def check_eat(state: State, seat: int, cell_key: str) -> list[str]:
    """Refuse an illegal meal; return the coral's polyps."""
    check_rock(state, cell_key)
    where = name(cell_key)
    if cell_key not in state.polyps:
        raise Refused(msg("there is no coral on {cell}", cell=where))
    polyps = coral(state, cell_key)
    colour = state.polyps[cell_key]
    if len(polyps) < MIN_CORAL:
        raise Refused(nmsg("the {colour} coral on {cell} has {n} polyp; the parrotfish eats "
                           "only corals of at least {min}",
                           "the {colour} coral on {cell} has {n} polyps; the parrotfish eats "
                           "only corals of at least {min}", len(polyps), colour=hue(colour),
                           cell=where, min=MIN_CORAL))
    holder = coral_shrimp(state, polyps)
    if holder is None:
        raise Refused(msg("the {colour} coral on {cell} has no shrimp; the parrotfish eats only "
                          "a coral guarded by your own shrimp", colour=hue(colour), cell=where))
    if state.shrimps[holder] != seat:
        owner = state.shrimps[holder]
        raise Refused(msg("the {colour} coral on {cell} is guarded by {owner}'s shrimp, not "
                          "yours", colour=hue(colour), cell=where,
                          owner=hue(state.players[owner].colour), seat=seat_ref(owner)))
    return polyps


def eats_shrimps(state: State, seat: int) -> int:
    s = state.players[seat]
    return (1 if s.sea_shrimp else 0) + s.fish_shrimps


def eat(state: State, turn: Turn, cell_key: str) -> None:
    polyps = check_eat(state, turn.seat, cell_key)
    colour = state.polyps[cell_key]
    holder = coral_shrimp(state, polyps)
    assert holder is not None
    me = state.players[turn.seat]
    back = min(len(polyps), to_bag_count(state, turn.final))
    for k in polyps:
        del state.polyps[k]
    del state.shrimps[holder]
    to_bag(state, colour, back)
    eaten = len(polyps) - back
    me.parrotfish.extend([colour] * eaten)
    first = not me.sea_shrimp
    if first:
        me.sea_shrimp = True
    else:
        me.fish_shrimps += 1
    f = {"player": who(state, turn.seat), "seat": seat_ref(turn.seat), "size": len(polyps),
         "colour": hue(colour), "cell": name(cell_key), "back": back}
    if first:
        turn.say("coral_eaten", msg("{player}'s parrotfish ate the {size}-polyp {colour} coral "
                                    "at {cell}: {back} polyps went back into the bag, its "
                                    "shrimp went to the open-sea board.", **f))
    else:
        turn.say("coral_eaten", msg("{player}'s parrotfish ate the {size}-polyp {colour} coral "
                                    "at {cell}: {back} polyps went back into the bag, its "
                                    "shrimp went into the parrotfish.", **f))
    turn.tell("polyps_to_parrotfish", nmsg("{n} {colour} polyp went into your parrotfish.",
                                           "{n} {colour} polyps went into your parrotfish.",
                                           eaten, colour=hue(colour)))
