"""The contract every game implements, its errors, recorded randomness and replay.

The registry is imported with the engine, so a game's catalogues are found even where only
the game was imported (the registry tells i18n where they are).
"""

from pbem.engine import registry
from pbem.engine.chance import Chance, ChanceMismatch, Draw
from pbem.engine.contract import Applied, Event, Game, Outcome, Seat, View
from pbem.engine.errors import GameError, IllegalOrder, OrderSyntaxError
from pbem.engine.hashing import canonical_json, state_hash

__all__ = [
    "Applied",
    "Chance",
    "ChanceMismatch",
    "Draw",
    "Event",
    "Game",
    "GameError",
    "IllegalOrder",
    "OrderSyntaxError",
    "Outcome",
    "Seat",
    "View",
    "canonical_json",
    "registry",
    "state_hash",
]
