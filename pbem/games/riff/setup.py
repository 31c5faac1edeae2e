"""Preparing the table (rules: PRÉPARATION DU JEU)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.engine.chance import Chance
from pbem.games.riff import worms
from pbem.games.riff.area import face_up_row
from pbem.games.riff.components import known, reef_deck, resolve
from pbem.games.riff.state import COLUMNS, ROWS, Player, Slot, State

BREEDING_OFFER = 4


def setup(seats: int, options: Mapping[str, Any], chance: Chance) -> State:
    """60 reef cards shuffled, 32 dealt in 4 rows of 8 (outer rows face up), the rest the
    pile; 4 breeding cards face up; one boat and one worm of each colour per player; a start
    player, and the dice rolled for the first turn."""
    if seats != 2:
        raise ValueError("Das Riff is a game for 2 players")
    opts = resolve(options)
    k = known()
    colours: list[str] = opts["colour_names"]
    deck = chance.shuffle("reef cards", reef_deck(opts))
    area: list[list[Slot]] = [
        [{"card": deck[r * COLUMNS + c], "up": face_up_row(r)} for c in range(COLUMNS)]
        for r in range(ROWS)]
    pile = deck[ROWS * COLUMNS:]
    breeding = chance.shuffle("breeding cards", list(opts["breeding_cards"]))
    per_colour = int(k["worms_per_colour"])
    players = [Player(boats=1, worms=dict.fromkeys(colours, 1)) for _ in range(2)]
    state = State(
        options=opts, area=area, pile=pile, discard=[],
        breeding_open=list(breeding[:BREEDING_OFFER]),
        breeding_pile=breeding[BREEDING_OFFER:], boats_left=int(k["boats"]) - 2,
        worm_supply=dict.fromkeys(colours, per_colour - 2), players=players)
    state.to_move = chance.choice("start player", [0, 1])
    worms.roll(state, chance)
    return state
