"""Is an address one we can safely put in ``To:`` and hand to an SMTP server?

Only the plain ``local@domain`` form (RFC 5321 dot-atom, within its length limits) is
accepted for replies to mail that came in: anything else (a 250-character local part, quoted
strings, spaces, control characters) is where composing or sending an answer goes wrong, and
a stranger gains nothing by getting an answer there.
"""

from __future__ import annotations

import re

from email_validator import EmailNotValidError, validate_email

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


# A trial on one machine mails its own users at this dotless name; email-validator (rightly,
# for the internet) refuses a domain without a period, so it checks the rest of the address.
LOCAL_HOST = "localhost"


def syntax_checked(address: str) -> str:
    """``address`` checked by ``email-validator`` for syntax only (no DNS lookups: a host
    offline or behind a firewall still works), normalised (an internationalised domain in
    its ASCII form); ``user@localhost`` is accepted. Raises ``EmailNotValidError`` saying
    why, and what to write for a trial on this machine where the domain has no period."""
    local, _, domain = address.rpartition("@")
    trial = domain.lower() == LOCAL_HOST
    try:
        # test_environment: the reserved .test domain is accepted (and never looked up).
        checked = validate_email(f"{local}@{LOCAL_HOST}.test" if trial else address,
                                 check_deliverability=False, test_environment=True)
    except EmailNotValidError as exc:
        if domain and "." not in domain:
            raise EmailNotValidError(f"{exc} A domain without a period works only as "
                                     f"{local or 'name'}@{LOCAL_HOST}, for a trial on this "
                                     "machine.") from None
        raise
    normal = checked.ascii_email or checked.normalized
    return f"{normal.rpartition('@')[0]}@{LOCAL_HOST}" if trial else normal
