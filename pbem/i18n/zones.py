"""Time zones as players name them (IANA names), checked so a name from mail cannot harm."""

from __future__ import annotations

from datetime import UTC, datetime, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError


def aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


ZONE_NAME_MAX = 64  # the longest IANA name is 32 characters


def zone(name: str | None) -> tzinfo:
    """The IANA time zone ``name`` (UTC when None); raises ValueError for an unknown name."""
    if not name or name == "UTC":
        return UTC
    if len(name) > ZONE_NAME_MAX:  # zoneinfo imports one package per "/": "A/"*400 recurses
        raise ValueError(f"unknown time zone {name[:ZONE_NAME_MAX]!r}...")
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as e:
        raise ValueError(f"unknown time zone {name!r}") from e


def valid_zone(name: str) -> bool:
    try:
        zone(name)
    except ValueError:
        return False
    return True
