"""The operator's view of players across games: list, show, ban, unban, the "never" mark
lifted, and the ratings computed again from the finished games."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, col, func, select

from pbem.pipeline import operator_input, standings
from pbem.store import lobby, players
from pbem.store.ratings import ordinal
from pbem.store.tables import Game, Player, Rating, Seat, utcnow

REASON_MAX = 200


@dataclass(frozen=True)
class PlayerRow:
    player: Player
    public_name: str
    seats: int  # seats held in any game, ever


@dataclass(frozen=True)
class SeatRow:
    tag: str
    game_status: str
    seat: int  # 1-based, as players count
    name: str
    status: str


@dataclass(frozen=True)
class RatingRow:
    game_type: str
    rating: float
    mu: float
    sigma: float
    games: int
    wins: int


@dataclass(frozen=True)
class PlayerCard:
    row: PlayerRow
    seats: list[SeatRow]
    ratings: list[RatingRow]
    never: datetime | None = None  # when the address answered "never" (proven), if it did


def list_players(session: Session, banned_only: bool = False) -> list[PlayerRow]:
    q = select(Player).order_by(col(Player.address))
    if banned_only:
        q = q.where(col(Player.banned_at).is_not(None))
    found = list(session.exec(q))
    names = players.public_names(session, found)
    counts = dict(session.exec(select(Seat.address, func.count()).group_by(Seat.address)).all())
    return [PlayerRow(p, names[p.id or 0], counts.get(p.address, 0)) for p in found]


def _player(session: Session, address: str) -> Player:
    player = players.find(session, address)
    if player is None:
        raise LookupError(f"no player with the address {address.strip().lower()}")
    return player


def show(session: Session, address: str) -> PlayerCard:
    """A player's card; an address that is no player but answered "never" has one too, so
    the operator sees the mark."""
    never = lobby.never_marked(session, address)
    found = players.find(session, address)
    if found is None and never is not None:
        stranger = Player(address=address.strip().lower(), created=never)
        return PlayerCard(PlayerRow(stranger, "—", 0), [], [], never)
    player = _player(session, address)
    seats = [SeatRow(g.tag, g.status, s.index + 1, s.name, s.status) for s, g in session.exec(
        select(Seat, Game).join(Game, col(Game.id) == col(Seat.game_id))
        .where(Seat.address == player.address).order_by(col(Game.id), col(Seat.index)))]
    rated = [RatingRow(r.game_type, round(ordinal(r), 1), r.mu, r.sigma, r.games, r.wins)
             for r in session.exec(select(Rating).where(Rating.player_id == player.id)
                                   .order_by(col(Rating.game_type)))]
    name = players.public_names(session, [player])[player.id or 0]
    return PlayerCard(PlayerRow(player, name, len(seats)), seats, rated, never)


def ban(session: Session, address: str, reason: str) -> Player:
    """Ban ``address`` (made a player if it was none): its mail is kept, never answered."""
    address = operator_input.address(address, "player address")
    reason = " ".join(reason.split())
    if len(reason) > REASON_MAX:
        raise ValueError(f"the reason is {len(reason)} characters; at most {REASON_MAX}")
    player = players.ensure(session, address)
    if player.banned_at is not None:
        raise ValueError(f"{player.address} is banned already (since "
                         f"{player.banned_at:%Y-%m-%d}: {player.ban_reason or 'no reason'})")
    player.banned_at, player.ban_reason = utcnow(), reason
    session.add(player)
    return player


def unban(session: Session, address: str) -> Player:
    player = _player(session, address)
    if player.banned_at is None:
        raise ValueError(f"{player.address} is not banned")
    player.banned_at, player.ban_reason = None, ""
    session.add(player)
    return player


def mail_again(session: Session, address: str) -> str:
    """Lift the "never" mark off ``address``: the host mails it again. Returns the address."""
    address = operator_input.address(address, "address")
    if not lobby.lift_never(session, address):
        raise ValueError(f"{address} has no never mark: the host mails it already")
    return address


def rebuild_ratings(session: Session, rate_bots: bool = False) -> standings.Rebuilt:
    return standings.rebuild(session, rate_bots)
