"""Players across games: one profile per address, the defaults of their new seats, bans, and
the name public pages show them by (never their address)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlmodel import Session, col, select

from pbem.store.tables import Player, Seat

# A name set by mail is shown on public pages: short, one line, no address.
NAME_MAX = 40


def find(session: Session, address: str) -> Player | None:
    """The profile of ``address`` (any case), if it has one."""
    return session.exec(select(Player).where(Player.address == address.strip().lower())).first()


def ensure(session: Session, address: str) -> Player:
    """The profile of ``address``, made (empty) if it has none yet."""
    player = find(session, address)
    if player is None:
        player = Player(address=address.strip().lower())
        session.add(player)
        session.flush()
    return player


def is_banned(session: Session, address: str) -> bool:
    """Whether the host bans ``address``: its mail is kept and never answered, and it may not
    take a seat."""
    player = find(session, address)
    return player is not None and player.banned_at is not None


def ban_refusal(session: Session, addresses: Iterable[str]) -> str | None:
    """Why a seat cannot go to ``addresses`` when the host bans any of them (else None):
    one wording for every way a seat is given, each raising it as its own error."""
    banned = [a for a in addresses if a and is_banned(session, a)]
    if not banned:
        return None
    which = banned[0] if len(banned) == 1 else "ADDRESS"
    return (f"{', '.join(banned)} {'is' if len(banned) == 1 else 'are'} banned from this "
            f"host; `pbem player unban {which}` lifts a ban")


@dataclass(frozen=True)
class SeatDefaults:
    """What a new seat of a player starts with (the player's profile over the game's)."""

    language: str
    timezone: str
    mail_mode: str


def seat_defaults(session: Session, address: str, language: str) -> SeatDefaults:
    """A new seat's language, time zone and mail setting: the profile's where set, else the
    game's ``language``, UTC and every move."""
    player = find(session, address)
    if player is None:
        return SeatDefaults(language, "UTC", "every")
    return SeatDefaults(player.language or language, player.timezone or "UTC",
                        player.mail_mode or "every")


def usable_name(name: str) -> str | None:
    """``name`` as a public page may show it, or None if it looks like an address."""
    name = " ".join(name.split())[:NAME_MAX]
    return name if name and "@" not in name else None


def public_names(session: Session, players: list[Player]) -> dict[int, str]:
    """How public pages name each player: the name they set, else the name on their latest
    seat, else "player N" (their number): never their address."""
    addresses = [p.address for p in players]
    latest: dict[str, str] = {}
    if addresses:
        for address, name in session.exec(select(Seat.address, Seat.name)
                                           .where(col(Seat.address).in_(addresses))
                                           .order_by(col(Seat.id))):
            if usable_name(name):
                latest[address] = name
    return {p.id or 0: usable_name(p.name) or usable_name(latest.get(p.address, ""))
            or f"player {p.id}" for p in players}
