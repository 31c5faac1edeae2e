"""`pbem seat`: a game's seats; and seat numbers as people use them: 1 is the first seat, in
the CLI as in every mail.

Seats stay 0-based inside (the contract's ``Seat``); the operator's commands convert here, at
the edge, so a number typed or printed by a person always means the same seat.
"""

from __future__ import annotations

from typing import Annotated

import typer
from sqlmodel import Session

from pbem.cli.context import GAME_FIX, console, fail, load_config, session_factory
from pbem.ops import api
from pbem.store import queries
from pbem.store.tables import Game

app = typer.Typer(help="Manage the seats of a game.", no_args_is_help=True)

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


@app.command("secret")
def seat_secret(game: Annotated[str, typer.Argument(help="Game id or tag.")],
                seat: Annotated[int, typer.Argument(help=HELP)]) -> None:
    """Issue a new secret for a seat and print it (give it to the player privately)."""
    cfg = load_config()
    with session_factory(cfg)() as session:
        try:
            row = api.get_game(session, game)
            secret = api.reissue_secret(session, row, index(session, row, seat))
        except LookupError as exc:
            raise fail(str(exc), fix=GAME_FIX) from exc
        session.commit()
    console.print(f"new secret for seat {seat}: {secret}")
