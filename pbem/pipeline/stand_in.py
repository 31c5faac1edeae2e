"""A bot standing in for a player, and the player's return: the seat's controller changed and
an admin entry in the log (everyone reads its event in their next mail; ``game replay``
checks it like an operator's action)."""

from __future__ import annotations

from typing import Any

from sqlmodel import Session

from pbem.engine.contract import Event, GameRules
from pbem.i18n import Msg, msg
from pbem.pipeline.controllers import HUMAN, STAND_IN, controller
from pbem.pipeline.movelog import log_admin
from pbem.store.tables import Game, Seat

# The events that say who plays a seat from then on: the archive labels its moves by them.
RESIGNED = "seat_resigned"
BACK = "player_back"


def take_over(session: Session, rules: GameRules, game: Game, state: Any, seat: Seat, level: str,
              told: Msg, kind: str = "bot_stands_in") -> None:
    """A bot plays ``seat`` from now on (``told``: why, to everyone; ``kind``: its event's,
    ``seat_resigned`` when its player resigned, which the archive names its moves by)."""
    seat.controller = controller(STAND_IN, level)
    session.add(seat)
    log_admin(session, rules, game, state, f"stand-in seat {seat.index + 1}: {seat.name}",
              [Event.of(kind, told)], seat=seat.index)


def give_back(session: Session, rules: GameRules, game: Game, state: Any, seat: Seat) -> None:
    """The seat's player plays it again (the ``back`` mail command)."""
    seat.controller = HUMAN
    if seat.status == "resigned":
        seat.status = "active"
    session.add(seat)
    log_admin(session, rules, game, state, f"back seat {seat.index + 1}: {seat.name}",
              [Event.of(BACK, msg("{name} is back and plays their own seat again.",
                                           name=seat.name))], seat=seat.index)
