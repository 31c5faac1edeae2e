"""Per-game ratings from finished games' rankings (openskill's Weng-Lin Plackett-Luce model,
which takes rankings of any number of players, with ties).

A rating is a function of the results in (finished_at, game_id) order: :func:`rebuild_type`
computes them so from scratch; :func:`apply` takes one step for a newly finished game when no
player of it has a later result already, else rebuilds its game type. Both do the same float
operations in the same order, so their numbers are equal to the last bit."""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass
from datetime import UTC, datetime

from openskill.models import PlackettLuce
from sqlmodel import Session, col, delete, select

from pbem.store.players import public_names
from pbem.store.tables import GameResult, Player, Rating

MODEL = PlackettLuce()


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _key(result: GameResult) -> tuple[datetime, int]:
    return _aware(result.finished_at), result.game_id


def ranking_of(result: GameResult) -> list[list[int]]:
    """The result's groups of tied player ids, best first."""
    return [[int(p) for p in group] for group in json.loads(result.ranking_json)]


@dataclass
class _Live:
    """A rating while results are applied (plain fields: a rebuild makes thousands)."""

    mu: float
    sigma: float
    games: int
    wins: int
    last_finished_at: datetime
    last_game_id: int


# A bot level's player: no mail address can be written so (no "@"), so no person is it.
BOT_PREFIX = "bot:"


def bot_address(level: str) -> str:
    return f"{BOT_PREFIX}{level}"


def is_bot_address(address: str) -> bool:
    return address.startswith(BOT_PREFIX)


def bot_player(session: Session, address: str) -> Player:
    """The player one bot level is in the standings (``Bot (strong)``), made if new."""
    player = session.exec(select(Player).where(Player.address == address)).first()
    if player is None:
        player = Player(address=address, name=f"Bot ({address.removeprefix(BOT_PREFIX)})")
        session.add(player)
        session.flush()
    return player


def bot_ids(session: Session) -> set[int]:
    """The players that are bot levels (:func:`bot_player`)."""
    return {i for i in session.exec(select(Player.id).where(
        col(Player.address).startswith(BOT_PREFIX))) if i is not None}


def _ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def _step(live: dict[int, _Live], result: GameResult, bots: Collection[int] = ()
          ) -> list[int]:
    """Apply ``result`` to ``live`` (players missing start at the model's prior); the ids of
    the players it rated. ``bots``: the bot levels' players; beating one lifts a person's
    rating no higher than the best bot's rating in that game (a result that would keeps the
    person's rating as it was), so playing a weak bot again and again farms nothing."""
    ranking = ranking_of(result)
    ids = [p for group in ranking for p in group]
    ranks: list[float] = [place for place, group in enumerate(ranking, start=1) for _ in group]
    before = [live.get(p) for p in ids]
    teams = [[MODEL.rating() if r is None else MODEL.rating(mu=r.mu, sigma=r.sigma)]
             for r in before]
    after = MODEL.rate(teams, ranks=ranks)
    in_game = [(t.mu, t.sigma) for p, (t,) in zip(ids, teams, strict=True) if p in bots]
    cap = max((_ordinal(mu, sigma) for mu, sigma in in_game), default=None)
    for player_id, row, (new,), rank, (old,) in zip(ids, before, after, ranks, teams,
                                                    strict=True):
        if row is None:
            row = live[player_id] = _Live(0.0, 0.0, 0, 0, result.finished_at, result.game_id)
        mu, sigma = float(new.mu), float(new.sigma)
        if (cap is not None and player_id not in bots and _ordinal(mu, sigma) > cap
                and _ordinal(mu, sigma) > _ordinal(float(old.mu), float(old.sigma))):
            mu, sigma = float(old.mu), float(old.sigma)
        row.mu, row.sigma = mu, sigma
        row.games += 1
        row.wins += rank == 1
        row.last_finished_at, row.last_game_id = result.finished_at, result.game_id
    return ids


def _write(row: Rating, live: _Live) -> Rating:
    row.mu, row.sigma, row.games, row.wins = live.mu, live.sigma, live.games, live.wins
    row.last_finished_at, row.last_game_id = live.last_finished_at, live.last_game_id
    return row


def apply(session: Session, result: GameResult) -> None:
    """Rate a newly recorded result (in the caller's transaction)."""
    ids = [p for group in ranking_of(result) for p in group]
    # Locked (PostgreSQL): two games of one player finishing at once are rated one by one.
    rows = {r.player_id: r for r in session.exec(
        select(Rating).where(Rating.game_type == result.game_type,
                             col(Rating.player_id).in_(ids)).with_for_update())}
    if any((_aware(r.last_finished_at), r.last_game_id) > _key(result) for r in rows.values()):
        rebuild_type(session, result.game_type)  # an older result came in late
        return
    live = {p: _Live(r.mu, r.sigma, r.games, r.wins, r.last_finished_at, r.last_game_id)
            for p, r in rows.items()}
    for player_id in _step(live, result, bot_ids(session)):
        row = rows.get(player_id) or Rating(
            player_id=player_id, game_type=result.game_type, mu=0.0, sigma=0.0,
            last_finished_at=result.finished_at, last_game_id=result.game_id)
        session.add(_write(row, live[player_id]))
    session.flush()


def rebuild_type(session: Session, game_type: str) -> int:
    """Every rating of ``game_type`` computed again from its results; how many results."""
    session.exec(delete(Rating).where(col(Rating.game_type) == game_type))
    results = sorted(session.exec(select(GameResult).where(
        GameResult.game_type == game_type)), key=_key)
    live: dict[int, _Live] = {}
    bots = bot_ids(session)
    for result in results:
        _step(live, result, bots)
    session.add_all([_write(Rating(player_id=p, game_type=game_type, mu=0.0, sigma=0.0,
                                   last_finished_at=r.last_finished_at,
                                   last_game_id=r.last_game_id), r)
                     for p, r in live.items()])
    session.flush()
    return len(results)


@dataclass(frozen=True)
class Standing:
    """A player's line in a game type's standings."""

    place: int
    player_id: int
    name: str  # as public pages show them
    rating: float  # the conservative estimate mu - 3 sigma
    games: int
    wins: int


def ordinal(row: Rating) -> float:
    return row.mu - 3 * row.sigma


def standings(session: Session, game_type: str) -> list[Standing]:
    """The players rated in ``game_type``, best first; banned players are left out. Equal
    ratings share a place."""
    pairs = list(session.exec(select(Rating, Player).join(
        Player, col(Player.id) == col(Rating.player_id)).where(
        Rating.game_type == game_type, col(Player.banned_at).is_(None))))
    pairs.sort(key=lambda rp: (-ordinal(rp[0]), -rp[0].games, rp[0].player_id))
    names = public_names(session, [p for _, p in pairs])
    out: list[Standing] = []
    for n, (row, player) in enumerate(pairs, start=1):
        value = round(ordinal(row), 1)
        place = out[-1].place if out and out[-1].rating == value else n
        out.append(Standing(place, row.player_id, names[player.id or 0], value, row.games,
                            row.wins))
    return out


def rated_types(session: Session) -> list[str]:
    """The game types with at least one rating."""
    return sorted(set(session.exec(select(Rating.game_type).distinct())))
