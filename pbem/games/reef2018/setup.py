"""A new game of Reef: the supplies, the deal, the starfish board and the market."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.engine.chance import Chance
from pbem.games.reef2018 import terms
from pbem.games.reef2018.cards import COLOURS, cards
from pbem.games.reef2018.state import Player, State

SUPPLY = {2: 18, 3: 24, 4: 28}  # pieces of each colour in play, by player count
START_TOKENS = 3
MARKET = 3


def setup(seats: int, options: Mapping[str, Any], chance: Chance) -> State:
    """Supplies, 3 one-point tokens, 2 hidden cards each, the starfish board, the market; the
    option ``advanced`` starts the reefs outside the centre."""
    if seats not in SUPPLY:
        raise ValueError("Reef is for 2 to 4 players")
    deck = chance.shuffle("deck", sorted(cards()))
    players = []
    for _ in range(seats):
        player = Player()
        player.add_points(START_TOKENS, terms.START)
        player.hand = sorted(deck[:2])
        del deck[:2]
        players.append(player)
    start = chance.choice("starfish board", list(range(seats)))
    # Each player takes 1 piece of each colour for the starting corals, placed in the setup step.
    supply = {c: SUPPLY[seats] - seats for c in COLOURS}
    market = deck[:MARKET]
    del deck[:MARKET]
    return State(supply, deck, market, [0] * MARKET, players, start_player=start,
                 to_move=start, advanced=bool(options.get("advanced", False)))
