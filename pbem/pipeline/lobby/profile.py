"""What the host knows of a person by address, for the lobby: name, language, time zone, ban.

The players' profiles are kept elsewhere; until they are wired here, every address gets the
defaults and the mail itself decides (its From name, its Content-Language)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session


@dataclass(frozen=True)
class Profile:
    name: str | None = None  # None: the mail's From name, else its address's local part
    language: str | None = None  # None: the mail's Content-Language, else English
    timezone: str | None = None  # None: UTC
    banned: bool = False  # a banned address gets no answer from the lobby


def profile_for(session: Session, address: str) -> Profile:
    """The profile defaults of ``address`` (the players' table answers this once it exists)."""
    del session, address
    return Profile()
