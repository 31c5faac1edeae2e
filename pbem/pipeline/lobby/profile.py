"""What the host knows of a person by address, for the lobby: name, language, time zone, ban.

From the player's profile (pbem.store.players): what they set by mail (``name``,
``language``, ``timezone``); what they left unset the mail itself decides (its From name, its
Content-Language)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session

from pbem.store import players


@dataclass(frozen=True)
class Profile:
    name: str | None = None  # None: the mail's From name, else its address's local part
    language: str | None = None  # None: the mail's Content-Language, else English
    timezone: str | None = None  # None: UTC
    banned: bool = False  # a banned address gets no answer from the lobby


def profile_for(session: Session, address: str) -> Profile:
    """The profile of ``address``; every field None that the player has not set."""
    player = players.find(session, address)
    if player is None:
        return Profile()
    return Profile(name=players.usable_name(player.name) if player.name else None,
                   language=player.language, timezone=player.timezone,
                   banned=player.banned_at is not None)
