"""Checking what an operator types: seat addresses and game tags.

Every message names the problem and the form expected, since an address that slips through
here is where a player's secret is mailed, and a tag is what routes every reply to its game.
Addresses are checked by ``email-validator`` (:func:`pbem.mail.addresses.syntax_checked`:
syntax only, ``user@localhost`` accepted for a trial); names and the "Name <address>" form are
read here, so names may be in any script.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from email_validator import EmailNotValidError

from pbem.mail.addresses import syntax_checked

TAG_MAX = 40
TAG = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_NAMED = re.compile(r"\s*(?P<name>[^<>]*?)\s*<(?P<addr>[^<>]*)>\s*")


class InputError(ValueError):
    """An operator's input that cannot be used; the message says why and what would do."""


def _no_control(what: str, text: str) -> None:
    if CONTROL.search(text):
        raise InputError(f"{what} {text!r} holds a line break or control character; a name or "
                         "address must be one plain line (it could otherwise add mail headers)")


NAME_MAX = 100  # a seat's name, shown in every subject line and status


def name(text: str, what: str = "name") -> str:
    """A seat's name: one plain line, not empty, bounded."""
    _no_control(what, text)
    value = text.strip()
    if not value or len(value) > NAME_MAX:
        raise InputError(f"{what} {value[:NAME_MAX]!r} must be 1 to {NAME_MAX} characters")
    return value


def address(text: str, what: str = "address") -> str:
    """One bare address, checked and normalised (lower case)."""
    _no_control(what, text)
    value = text.strip()
    if "," in value or ";" in value or value.count("@") > 1:
        raise InputError(f"{what} {value!r} holds several addresses; give exactly one")
    if "<" in value or ">" in value:
        raise InputError(f"{what} {value!r}: give the address alone, e.g. carol@example.org "
                         "(the name has its own option)")
    if not value:
        raise InputError(f"{what} is empty; give an email address, e.g. carol@example.org")
    try:
        # An internationalised domain in its ASCII (IDNA) form: our mail's To header stays
        # valid and any server delivers it; a non-ASCII local part has no such form.
        return syntax_checked(value).lower()
    except EmailNotValidError as exc:
        raise InputError(f"{what} {value!r} is not a valid email address: {exc}") from None


_SEAT_LANG = re.compile(r"\s+lang=(\S*)\s*$")


def seat_language(text: str) -> tuple[str, str | None]:
    """``"Name <address> lang=fr"`` as (``"Name <address>"``, ``"fr"``); no ``lang=``: None."""
    from pbem.i18n import LANGUAGES

    found = _SEAT_LANG.search(text)
    if found is None:
        return text, None
    lang = found[1].lower()
    if lang not in LANGUAGES:
        raise InputError(f"seat {text!r}: unknown language {found[1]!r}; write lang= with one "
                         f"of {', '.join(LANGUAGES)}")
    return text[:found.start()], lang


def seat(text: str) -> tuple[str, str]:
    """``"Name <address>"`` (or a bare address) as (name, address); the name defaults to the
    address."""
    what = "seat"
    _no_control(what, text)
    named = _NAMED.fullmatch(text)
    if named is None:
        bare = text.strip()
        if "<" in bare or ">" in bare or "@" not in bare:
            raise InputError(f"seat {text!r}: write it as \"Name <address@example.org>\"")
        if "," in bare or ";" in bare or bare.count("@") > 1:
            raise InputError(f"seat {text!r} holds several addresses; give one per --seat")
        if any(c.isspace() for c in bare):
            parts = bare.rsplit(None, 1)
            raise InputError(f"seat {text!r}: put the address in angle brackets, e.g. "
                             f"\"{parts[0]} <{parts[-1]}>\"")
        return (addr := address(bare, what)), addr
    name = named["name"].strip()
    if len(name) >= 2 and name[0] == name[-1] == '"':
        name = name[1:-1].strip()
    if "@" in name:
        raise InputError(f"seat {text!r}: the name holds an address; write one "
                         "\"Name <address@example.org>\" per --seat")
    addr = address(named["addr"], what)
    return name or addr, addr


def distinct(addresses: Iterable[str]) -> None:
    """Each address on one seat only: the address is what a mail is matched to its seat by."""
    seen: set[str] = set()
    for addr in addresses:
        if addr.lower() in seen:
            raise InputError(f"{addr} is given for two seats; each seat needs its own address")
        seen.add(addr.lower())


def tag(text: str) -> str:
    """A game tag, as players write it in subjects (``[reef-12]``)."""
    value = text.strip()
    if not TAG.fullmatch(value) or len(value) > TAG_MAX:
        bad = sorted({c for c in value if not (c.isascii() and (c.isalnum() or c in "_.-"))})
        shown = f" ({' '.join(repr(c) for c in bad)} not allowed)" if bad else ""
        raise InputError(f"tag {text!r} must be 1-{TAG_MAX} letters, digits, '.', '_' or '-', "
                         f"starting with a letter or digit, e.g. reef-12{shown}")
    return value
