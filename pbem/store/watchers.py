"""The watches of games: who watches which game, counted for the caps, ended together."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete
from sqlmodel import Session, col, func, select

from pbem.store.tables import Game, Seat, Watch


def watch_of(session: Session, game_id: int, address: str) -> Watch | None:
    return session.exec(select(Watch).where(Watch.game_id == game_id,
                                            Watch.address == address.lower())).first()


def newest_of_address(session: Session, address: str) -> datetime | None:
    """When ``address``'s newest watch started (None: it watches nothing)."""
    return session.exec(select(func.max(Watch.created))
                        .where(Watch.address == address.lower())).one()


def watchers(session: Session, game_id: int) -> list[Watch]:
    return list(session.exec(select(Watch).where(Watch.game_id == game_id)
                             .order_by(col(Watch.id))))


def count_of_game(session: Session, game_id: int) -> int:
    return int(session.exec(select(func.count()).select_from(Watch)
                            .where(Watch.game_id == game_id)).one())


def count_of_address(session: Session, address: str) -> int:
    return int(session.exec(select(func.count()).select_from(Watch)
                            .where(Watch.address == address.lower())).one())


def watched_games(session: Session) -> list[int]:
    """The games someone watches, whatever their state (a finished one owes its last mail)."""
    return sorted(set(session.exec(select(Watch.game_id))))


def plays_here(session: Session, address: str) -> bool:
    """Whether ``address`` holds, or held, a seat in a game of this host."""
    return session.exec(select(Seat.id).where(Seat.address == address.lower())
                        .limit(1)).first() is not None


def seated(session: Session, game: Game, address: str) -> bool:
    return session.exec(select(Seat.id).where(Seat.game_id == game.id,
                                              Seat.address == address.lower())
                        .limit(1)).first() is not None


def end_all_of(session: Session, address: str) -> int:
    """Every watch of ``address`` ended (its ``never``, its ``player forget``)."""
    found = session.exec(select(Watch.id).where(Watch.address == address.lower())).all()
    if found:
        session.execute(delete(Watch).where(col(Watch.address) == address.lower()))
    return len(found)
