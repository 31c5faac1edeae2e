"""Is an address one we can safely put in ``To:`` and hand to an SMTP server?

Only the plain ``local@domain`` form (RFC 5321 dot-atom, within its length limits) is
accepted for replies to mail that came in: anything else (a 250-character local part, quoted
strings, spaces, control characters) is where composing or sending an answer goes wrong, and
a stranger gains nothing by getting an answer there.
"""

from __future__ import annotations

import re

_ATOM = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
_LOCAL = re.compile(rf"{_ATOM}(\.{_ATOM})*")
_LABEL = re.compile(r"[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?")


def deliverable(address: str) -> bool:
    """True when ``address`` is a plain ``local@domain`` within SMTP's limits."""
    if not address or len(address) > 254 or not address.isascii():
        return False
    local, at, domain = address.rpartition("@")
    if not at or not 0 < len(local) <= 64 or not 0 < len(domain) <= 253:
        return False
    return bool(_LOCAL.fullmatch(local)) and all(_LABEL.fullmatch(p) for p in domain.split("."))
