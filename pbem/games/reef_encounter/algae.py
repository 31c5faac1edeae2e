"""Action 7: a consumed polyp buys an alga cylinder, played at once.

On the alga space (always allowed): the old cylinder returns to the supply and every uncovered
tile whose visible large alga has the cylinder's colour flips. On a coral tile (only with a
shrimp on the open-sea board, once per turn): the tile must be uncovered and show that large
alga; it is locked for good and the other uncovered tiles showing that large alga flip. The
last uncovered tile needs a parrotfish holding two polyps or more; covering it ends the game.
"""

from __future__ import annotations

from pbem.games.reef_encounter.board import Refused, flip, tile_ids, visible
from pbem.games.reef_encounter.context import Turn, who
from pbem.games.reef_encounter.state import State
from pbem.games.reef_encounter.supply import add, remove, to_bag


def uncovered(state: State) -> list[int]:
    return [t for t in tile_ids() if str(t) not in state.cylinders]


def _flip_showing(state: State, alga: str, but: int | None) -> list[int]:
    """Flip every uncovered tile (except ``but``) whose visible large alga is ``alga``."""
    turned = [t for t in uncovered(state) if t != but and visible(state, t)[2] == alga]
    for t in turned:
        flip(state, t)
    return turned


def check_alga(state: State, turn: Turn, colour: str, tile: int | None, paid: str) -> None:
    me = state.seats[turn.seat]
    if me.consumed.get(paid, 0) < 1:
        raise Refused(f"you have no consumed {paid} polyp in front of your screen to pay with")
    if state.alga_supply.get(colour, 0) < 1:
        raise Refused(f"no {colour} alga cylinder is left in the supply")
    if tile is None:
        return
    if not me.sea_shrimp:
        raise Refused("an alga goes on a coral tile only once your parrotfish has eaten a coral "
                      "(a shrimp of yours on the open-sea board); use the alga space")
    if turn.alga_on_tile:
        raise Refused("only one alga per turn may go on a coral tile")
    if str(tile) in state.cylinders:
        raise Refused(f"coral tile {tile} already holds a {state.cylinders[str(tile)]} alga")
    large = visible(state, tile)[2]
    if large != colour:
        raise Refused(f"coral tile {tile} shows a large {large} alga; only a {large} alga may go "
                      "on it")
    if len(uncovered(state)) == 1 and len(me.parrotfish) < 2:
        raise Refused(f"coral tile {tile} is the last uncovered one: covering it ends the game, "
                      "which needs at least two polyps in your parrotfish")


def play_alga(state: State, turn: Turn, colour: str, tile: int | None, paid: str) -> None:
    check_alga(state, turn, colour, tile, paid)
    me = who(state, turn.seat)
    remove(state.seats[turn.seat].consumed, paid)
    to_bag(state, paid)
    remove(state.alga_supply, colour)
    if tile is None:
        if state.alga_space is not None:
            add(state.alga_supply, state.alga_space)
        state.alga_space = colour
        turned = _flip_showing(state, colour, None)
        where = "on the alga space"
    else:
        state.cylinders[str(tile)] = colour
        turn.alga_on_tile = True
        turned = _flip_showing(state, colour, tile)
        where = f"on coral tile {tile}, locking it"
    flipped = ", ".join(str(t) for t in turned) if turned else "none"
    turn.say(f"{me} paid a consumed {paid} polyp for a {colour} alga and put it {where}; "
             f"coral tiles flipped: {flipped}.")


def all_covered(state: State) -> bool:
    return len(state.cylinders) == len(tile_ids())
