"""Action 1: the parrotfish eats a coral of five or more polyps guarded by one's own shrimp.

Four polyps go back into the bag (five in the advanced game; one more in a final turn), the rest
into the parrotfish. The shrimp goes to the open-sea board if it is the player's first eaten,
otherwise into the parrotfish. Eating the fourth shrimp ends the game.
"""

from __future__ import annotations

from pbem.games.reef_encounter.board import Refused, check_rock, coral, coral_shrimp, name
from pbem.games.reef_encounter.context import Turn, who
from pbem.games.reef_encounter.state import State
from pbem.games.reef_encounter.supply import to_bag

MIN_CORAL = 5


def to_bag_count(state: State, final: bool) -> int:
    return 4 + (1 if state.advanced else 0) + (1 if final else 0)


def check_eat(state: State, seat: int, cell_key: str) -> list[str]:
    """Refuse an illegal meal; return the coral's polyps."""
    check_rock(state, cell_key)
    where = name(cell_key)
    if cell_key not in state.polyps:
        raise Refused(f"there is no coral on {where}")
    polyps = coral(state, cell_key)
    colour = state.polyps[cell_key]
    if len(polyps) < MIN_CORAL:
        raise Refused(f"the {colour} coral on {where} has {len(polyps)} polyps; the parrotfish "
                      f"eats only corals of at least {MIN_CORAL}")
    holder = coral_shrimp(state, polyps)
    if holder is None:
        raise Refused(f"the {colour} coral on {where} has no shrimp; the parrotfish eats only a "
                      "coral guarded by your own shrimp")
    if state.shrimps[holder] != seat:
        owner = state.seats[state.shrimps[holder]].colour
        raise Refused(f"the {colour} coral on {where} is guarded by {owner}'s shrimp, not yours")
    return polyps


def eats_shrimps(state: State, seat: int) -> int:
    s = state.seats[seat]
    return (1 if s.sea_shrimp else 0) + s.fish_shrimps


def eat(state: State, turn: Turn, cell_key: str) -> None:
    polyps = check_eat(state, turn.seat, cell_key)
    colour = state.polyps[cell_key]
    holder = coral_shrimp(state, polyps)
    assert holder is not None
    me = state.seats[turn.seat]
    back = min(len(polyps), to_bag_count(state, turn.final))
    for k in polyps:
        del state.polyps[k]
    del state.shrimps[holder]
    to_bag(state, colour, back)
    eaten = len(polyps) - back
    me.parrotfish.extend([colour] * eaten)
    if not me.sea_shrimp:
        me.sea_shrimp = True
        shrimp = "its shrimp went to the open-sea board"
    else:
        me.fish_shrimps += 1
        shrimp = "its shrimp went into the parrotfish"
    turn.say(f"{who(state, turn.seat)}'s parrotfish ate the {len(polyps)}-polyp {colour} coral "
             f"at {name(cell_key)}: {back} polyps went back into the bag, {shrimp}.")
    turn.tell(f"{eaten} {colour} polyp{'s' if eaten != 1 else ''} went into your parrotfish.")
