"""Finished games into standings: a game's outcome as a ranking of players, recorded and
rated when it ends (``movelog.record_move``), withdrawn when an undo reopens it, and all of
it computed again from the games themselves (``pbem player ratings rebuild``)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlmodel import Session, col, delete, select

from pbem.engine import registry
from pbem.engine.contract import GameRules
from pbem.pipeline.controllers import bot_level, is_bot_seat
from pbem.store import players, queries, ratings
from pbem.store.tables import Game, GameResult, LogEntry, Rating

RATED_STATUSES = ("finished", "archived")


def result_of(session: Session, rules: GameRules, game: Game, state: Any,
              finished_at: datetime, rate_bots: bool = False) -> GameResult | None:
    """The game's outcome as a ranking of players, or None when it rates no one: it has no
    outcome, fewer than two players, or one address held several seats (a player against
    themselves says nothing of their skill). Ratings count people: a game with a bot seat
    rates no one unless ``rate_bots`` (the host's ``bot_games_rated``), and then each bot
    level is a player of its own (:func:`pbem.store.ratings.bot_player`), so one level
    holding two seats rates no one either."""
    outcome = rules.outcome(state)
    if outcome is None:
        return None
    everyone = queries.seats(session, game.id or 0)
    bots = {s.index: level for s in everyone if is_bot_seat(s)
            and (level := bot_level(s)) is not None}
    if bots and not rate_bots:
        return None
    address = {s.index: ratings.bot_address(bots[s.index]) if s.index in bots else s.address
               for s in everyone}
    seats = [i for group in outcome.ranking for i in group]
    held = [address[i] for i in seats if i in address]
    if len(held) != len(seats) or len(set(held)) != len(held) or len(held) < 2:
        return None
    ids = {a: (ratings.bot_player(session, a) if ratings.is_bot_address(a)
               else players.ensure(session, a)).id for a in held}
    ranking = [[ids[address[i]] for i in group] for group in outcome.ranking if group]
    return GameResult(game_id=game.id or 0, game_type=game.game_type, finished_at=finished_at,
                      ranking_json=json.dumps(ranking))


def game_finished(session: Session, rules: GameRules, game: Game, state: Any,
                  finished_at: datetime, rate_bots: bool = False) -> None:
    """Record and rate a game that has just ended (in the move's transaction)."""
    if session.exec(select(GameResult.id).where(GameResult.game_id == game.id)).first():
        return  # rated already
    result = result_of(session, rules, game, state, finished_at, rate_bots)
    if result is not None:
        session.add(result)
        session.flush()
        ratings.apply(session, result)


def game_reopened(session: Session, game: Game) -> None:
    """An undo took back a game's end: its result no longer counts."""
    row = session.exec(select(GameResult).where(GameResult.game_id == game.id)).first()
    if row is not None:
        session.delete(row)
        session.flush()
        ratings.rebuild_type(session, game.game_type)


@dataclass
class Rebuilt:
    """What a rebuild found: results per game type, and games it could not read."""

    results: dict[str, int] = field(default_factory=dict)
    unknown: list[str] = field(default_factory=list)  # tags of games of no installed type


def rebuild(session: Session, rate_bots: bool = False) -> Rebuilt:
    """Every result and rating computed again from the finished games' final states
    (``rate_bots``: the host's ``bot_games_rated``, as :func:`result_of` takes it)."""
    session.exec(delete(Rating))
    session.exec(delete(GameResult))
    report = Rebuilt()
    games = session.exec(select(Game).where(col(Game.status).in_(RATED_STATUSES))
                         .order_by(col(Game.id)))
    for game in games:
        try:
            rules = registry.get(game.game_type)
        except (KeyError, LookupError):
            report.unknown.append(game.tag)
            continue
        snap = queries.latest_snapshot(session, game.id or 0)
        entry = session.exec(select(LogEntry).where(LogEntry.game_id == game.id,
                                                    LogEntry.index == snap.log_index)).one()
        state = rules.from_json(json.loads(snap.state_json))
        result = result_of(session, rules, game, state, entry.created, rate_bots)
        if result is not None:
            session.add(result)
            report.results.setdefault(game.game_type, 0)
    session.flush()
    for game_type in sorted(report.results):
        report.results[game_type] = ratings.rebuild_type(session, game_type)
    return report
