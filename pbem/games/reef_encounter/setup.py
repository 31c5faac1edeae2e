"""Setting up a game of Reef Encounter for 2-4 players (rulebook, 'Mise en place').

Every random draw goes through pbem.engine.Chance so the setup replays exactly.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from pbem.engine.chance import Chance
from pbem.games.reef_encounter.components import components
from pbem.games.reef_encounter.state import Player, State
from pbem.games.reef_encounter.supply import bag_pool


def draw_from_bag(state: State, chance: Chance, label: str, pool: list[str] | None = None
                  ) -> str:
    """Draw one polyp at random from the bag (colours weighted by how many remain).

    ``pool`` is ``bag_pool(state.bag)`` kept from the last draw (the setup draws some forty
    polyps in a row): taking the drawn polyp out of it gives the next draw's pool.
    """
    if pool is None:
        pool = bag_pool(state.bag)
    colour = chance.choice(label, pool)
    state.bag[colour] -= 1
    pool.remove(colour)  # the first of its colour: the pool stays grouped and sorted
    return colour


@cache
def _starting_polyps(board_id: int) -> tuple[tuple[str, str], ...]:
    """(cell, colour) of the polyps printed on a board, read from its picture once."""
    return tuple(components().board(board_id).starting_polyps().items())


def setup(seats: int, options: Mapping[str, Any], chance: Chance) -> State:
    """A fresh game up to the simultaneous secret step (phase "setup"); the option
    ``advanced`` plays the advanced game."""
    comp = components()
    if seats not in (2, 3, 4):
        raise ValueError("Reef Encounter is for 2 to 4 players")
    per_colour = int(comp.counts["polyp_tiles_per_colour"])
    board_ids = chance.sample("boards", [b.id for b in comp.boards], seats)
    state = State(boards=board_ids)
    bag = {c: per_colour for c in comp.coral_colours}
    # A polyp on every starting space, then one bonus polyp of each colour; the rest is the bag.
    for board_id in board_ids:
        for cell, colour in _starting_polyps(board_id):
            state.polyps[f"{board_id}:{cell}"] = colour
            bag[colour] -= 1
    for colour in comp.coral_colours:
        state.bonus[colour] = 1
        bag[colour] -= 1
    state.bag = bag
    state.coral_face = chance.choice("coral tile toss", ["a", "b"])
    state.alga_supply = {
        a: int(comp.counts["alga_cylinders_per_colour"]) for a in comp.alga_colours
    }
    # One larva cube on each open-sea space; the drawn polyp goes back, then 3-3-3-2-1 clockwise.
    larva_total = int(comp.counts["larva_cubes_per_colour"])
    state.larva_supply = {c: larva_total - 1 for c in comp.coral_colours}
    state.open_sea = [{"colour": c, "polyps": [], "larva": 1} for c in comp.open_sea_clockwise]
    first = comp.open_sea_clockwise.index(draw_from_bag(state, chance, "first open-sea space"))
    state.bag[comp.open_sea_clockwise[first]] += 1
    counts = comp.counts["open_sea_start"]
    drawn = iter(_deal(state, chance, ["open sea"] * sum(counts)))
    for step, count in enumerate(counts):
        space = state.open_sea[(first + step) % len(state.open_sea)]
        for _ in range(count):
            space["polyps"].append(next(drawn))
    # Seats keep their order; the start player is drawn and takes the smallest hand.
    state.start_player = chance.randint("start player", 0, seats - 1)
    state.to_move = state.start_player
    shrimps = int(comp.counts["shrimps_per_player"])
    state.players = [
        Player(colour, shrimps_in_hand=shrimps) for colour in comp.player_colours[:seats]
    ]
    hands = [(state.players[(state.start_player + order) % seats], count)
             for order, count in enumerate(comp.starting_polyps(seats))]
    drawn = iter(_deal(state, chance, [f"seat {player.colour} polyps"
                                       for player, count in hands for _ in range(count)]))
    for player, count in hands:
        for _ in range(count):
            colour = next(drawn)
            player.screen[colour] = player.screen.get(colour, 0) + 1
    state.advanced = bool(options.get("advanced", False))
    return state


def _deal(state: State, chance: Chance, labels: list[str]) -> list[str]:
    """``draw_from_bag`` once per label, in one call: the bag's counts go down (to zero, not
    deleted, as in draw_from_bag) and each draw is made from what the last one left."""
    drawn = chance.deal_counted(labels, sorted(state.bag.items()))
    for colour in drawn:
        state.bag[colour] -= 1
    return drawn
