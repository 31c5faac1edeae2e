"""Seat numbers as people use them: 1 is the first seat, in the CLI as in every mail.

Seats stay 0-based inside (the contract's ``Seat``); the operator's commands convert here, at
the edge, so a number typed or printed by a person always means the same seat.
"""

from __future__ import annotations

from sqlmodel import Session

from pbem.store import queries
from pbem.store.tables import Game

HELP = "Seat number (1 = first, as in the players' mails)."


def number(index: int) -> int:
    """The seat number people read for an internal seat index."""
    return index + 1


def index(session: Session, game: Game, seat_number: int) -> int:
    """The internal index of ``seat_number``; LookupError naming the valid seats if none."""
    seats = queries.seats(session, game.id or 0)
    if 1 <= seat_number <= len(seats):
        return seat_number - 1
    valid = ", ".join(f"{number(s.index)} ({s.name})" for s in seats)
    first = " (seats count from 1)" if seat_number == 0 else ""
    raise LookupError(f"game {game.tag} has no seat {seat_number}{first}; its seats are: "
                      f"{valid}")
