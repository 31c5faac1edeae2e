"""Action 7: a consumed polyp buys an alga cylinder, played at once.

On the alga space (always allowed): the old cylinder returns to the supply and every uncovered
tile whose visible large alga has the cylinder's colour flips. On a coral tile (only with a
shrimp on the open-sea board, once per turn): the tile must be uncovered and show that large
alga; it is locked for good and the other uncovered tiles showing that large alga flip. The
last uncovered tile needs a parrotfish holding two polyps or more; covering it ends the game.
"""

from __future__ import annotations

from pbem.games.reef_encounter.board import Refused, flip, tile_ids, visible
from pbem.games.reef_encounter.context import Turn, seat_ref, who
from pbem.games.reef_encounter.state import State
from pbem.games.reef_encounter.supply import add, remove, to_bag
from pbem.games.reef_encounter.terms import colour as hue
from pbem.i18n.msg import msg


def uncovered(state: State) -> list[int]:
    return [t for t in tile_ids() if str(t) not in state.cylinders]


def _flip_showing(state: State, alga: str, but: int | None) -> list[int]:
    """Flip every uncovered tile (except ``but``) whose visible large alga is ``alga``."""
    turned = [t for t in uncovered(state) if t != but and visible(state, t)[2] == alga]
    for t in turned:
        flip(state, t)
    return turned


def check_alga(state: State, turn: Turn, colour: str, tile: int | None, paid: str) -> None:
    me = state.players[turn.seat]
    if me.consumed.get(paid, 0) < 1:
        raise Refused(msg("you have no consumed {colour} polyp in front of your screen to pay "
                          "with", colour=hue(paid)))
    if state.alga_supply.get(colour, 0) < 1:
        raise Refused(msg("no {colour} alga cylinder is left in the supply", colour=hue(colour)))
    if tile is None:
        return
    if not me.sea_shrimp:
        raise Refused(msg("an alga goes on a coral tile only once your parrotfish has eaten a "
                          "coral (a shrimp of yours on the open-sea board); use the alga space"))
    if turn.alga_on_tile:
        raise Refused(msg("only one alga per turn may go on a coral tile"))
    if str(tile) in state.cylinders:
        raise Refused(msg("coral tile {tile} already holds a {colour} alga", tile=tile,
                          colour=hue(state.cylinders[str(tile)])))
    large = visible(state, tile)[2]
    if large != colour:
        raise Refused(msg("coral tile {tile} shows a large {colour} alga; only a {colour} alga "
                          "may go on it", tile=tile, colour=hue(large)))
    if len(uncovered(state)) == 1 and len(me.parrotfish) < 2:
        raise Refused(msg("coral tile {tile} is the last uncovered one: covering it ends the "
                          "game, which needs at least two polyps in your parrotfish", tile=tile))


def play_alga(state: State, turn: Turn, colour: str, tile: int | None, paid: str) -> None:
    check_alga(state, turn, colour, tile, paid)
    remove(state.players[turn.seat].consumed, paid)
    to_bag(state, paid)
    remove(state.alga_supply, colour)
    if tile is None:
        if state.alga_space is not None:
            add(state.alga_supply, state.alga_space)
        state.alga_space = colour
        turned = _flip_showing(state, colour, None)
    else:
        state.cylinders[str(tile)] = colour
        turn.alga_on_tile = True
        turned = _flip_showing(state, colour, tile)
    me = who(state, turn.seat)
    flipped = ", ".join(str(t) for t in turned)
    fields = {"player": me, "seat": seat_ref(turn.seat), "paid": hue(paid), "colour": hue(colour),
              "tile": tile, "flipped": flipped}
    if tile is None and turned:
        turn.say("alga_played", msg("{player} paid a consumed {paid} polyp for a {colour} alga "
                                    "and put it on the alga space; coral tiles flipped: "
                                    "{flipped}.", **fields))
    elif tile is None:
        turn.say("alga_played", msg("{player} paid a consumed {paid} polyp for a {colour} alga "
                                    "and put it on the alga space; coral tiles flipped: none.",
                                    **fields))
    elif turned:
        turn.say("alga_played", msg("{player} paid a consumed {paid} polyp for a {colour} alga "
                                    "and put it on coral tile {tile}, locking it; coral tiles "
                                    "flipped: {flipped}.", **fields))
    else:
        turn.say("alga_played", msg("{player} paid a consumed {paid} polyp for a {colour} alga "
                                    "and put it on coral tile {tile}, locking it; coral tiles "
                                    "flipped: none.", **fields))


def all_covered(state: State) -> bool:
    return len(state.cylinders) == len(tile_ids())
