"""Composing outgoing emails: threaded, marked automatic, safe against header injection."""

from __future__ import annotations

import re
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import formatdate, make_msgid

_UNSAFE = re.compile(r"[\r\n\x00-\x1f\x7f]")


def clean_header(value: str, limit: int = 200) -> str:
    """One line, no control characters: a name or subject can never add a header."""
    return " ".join(_UNSAFE.sub(" ", value).split())[:limit]


def _address(name: str, addr: str) -> Address:
    local, _, domain = clean_header(addr).rpartition("@")
    return Address(display_name=clean_header(name), username=local, domain=domain)


def _threadable(message_id: str) -> bool:
    return 0 < len(clean_header(message_id, 1000)) <= 250


def game_subject(title: str, tag: str) -> str:
    """The stable subject of a game's thread, e.g. ``[reef-12] Reef Encounter``."""
    return clean_header(f"[{tag}] {title}")


def compose(
    *,
    from_addr: str,
    to_addr: str,
    subject: str,
    text: str,
    to_name: str = "",
    from_name: str = "",
    html: str | None = None,
    in_reply_to: str | None = None,
    references: list[str] | None = None,
    auto_reply: bool = False,
    message_id_domain: str = "pbem.invalid",
) -> EmailMessage:
    """A plain-text email (with an HTML alternative if given).

    Every email pbem sends is machine-made, so it always carries Auto-Submitted: replies to a
    player's email are ``auto-replied``, everything else ``auto-generated`` (RFC 3834).
    """
    msg = EmailMessage()
    msg["From"] = _address(from_name, from_addr)
    msg["To"] = _address(to_name, to_addr)
    msg["Subject"] = clean_header(subject, 250)
    msg["Date"] = formatdate(localtime=False)
    msg["Message-ID"] = make_msgid(domain=clean_header(message_id_domain))
    # An id longer than a header line can hold is left out: cut short, it would name nothing.
    refs = [clean_header(r) for r in (references or []) if _threadable(r)]
    if in_reply_to and _threadable(in_reply_to):
        msg["In-Reply-To"] = clean_header(in_reply_to)
        if clean_header(in_reply_to) not in refs:
            refs.append(clean_header(in_reply_to))
    if refs:
        msg["References"] = " ".join(refs[-20:])
    msg["Auto-Submitted"] = "auto-replied" if auto_reply else "auto-generated"
    msg.set_content(text)
    if html is not None:
        msg.add_alternative(html, subtype="html")
    return msg
