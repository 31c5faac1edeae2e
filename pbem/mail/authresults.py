"""The receiving server's verdict on a mail's sender (RFC 8601 ``Authentication-Results``).

A secret lifted from a player's sent folder lets anyone write as them; with
``mail.trusted_authserv_id`` set, a player's mail counts only when our own receiving server
says DKIM, SPF or DMARC passed for the domain of its From address. Only the topmost
Authentication-Results header is read, and only if it bears our server's authserv-id: every
hop prepends its headers, so anything below it may have been written by the sender.
The header is parsed with ``authres`` (a maintained RFC 8601 parser: comments, quoting,
versions and property types are its business, not ours). Alignment compares organisational
domains found with the public suffix list ``publicsuffixlist`` ships with its data.
"""

from __future__ import annotations

from dataclasses import dataclass
from email.parser import BytesHeaderParser
from functools import cache

import authres
from publicsuffixlist import PublicSuffixList

HEADER = "Authentication-Results"


@dataclass(frozen=True)
class Verdict:
    ok: bool
    why: str  # for the reply and the operator, e.g. "dkim=pass for players.test"


@cache
def _suffixes() -> PublicSuffixList:
    """The public suffix list the package ships (read once; never fetched at run time)."""
    return PublicSuffixList()


def organisational(domain: str) -> str | None:
    """The domain a registrant holds (``players.test`` of ``mx.players.test``); None for a
    public suffix itself (``test``, ``co.uk``, ``github.io``), which nobody holds."""
    name = domain.lower().strip(". ")
    if not name or len(name) > 253:
        return None
    return _suffixes().privatesuffix(name)


def _aligned(domain: str, from_domain: str) -> bool:
    """Relaxed alignment (DMARC, RFC 7489 3.1): both have the same organisational domain."""
    org = organisational(domain)
    return org is not None and org == organisational(from_domain)


def _domain(value: str) -> str:
    return value.rpartition("@")[2]  # "alice@x.org", "@x.org" and "x.org" alike


def topmost(raw: bytes) -> str | None:
    """The first Authentication-Results header of ``raw``, unfolded (None if it has none)."""
    head = raw.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
    try:
        values = BytesHeaderParser().parsebytes(head).get_all(HEADER) or []
    except Exception:  # a header block the parser cannot take: no verdict
        return None
    return " ".join(str(values[0]).split()) if values else None


def verdict(raw: bytes, from_addr: str, trusted_authserv_id: str) -> Verdict:
    """Does our server (``trusted_authserv_id``) vouch for ``from_addr``, the From of ``raw``?"""
    from_domain = _domain(from_addr).lower()
    value = topmost(raw)
    if value is None:
        return Verdict(False, f"it has no {HEADER} header from {trusted_authserv_id}")
    try:
        parsed = authres.AuthenticationResultsHeader.parse_value(value)
    except authres.AuthResError as exc:
        return Verdict(False, f"its topmost {HEADER} header cannot be read ({exc})")
    server = str(parsed.authserv_id or "")
    if server.lower() != trusted_authserv_id.lower():
        return Verdict(False, f"its topmost {HEADER} header is from {server or 'nobody'}, "
                       f"not from {trusted_authserv_id}")
    if not from_domain:
        return Verdict(False, "it has no From address to verify")
    seen = []
    for result in parsed.results:
        method, outcome = str(result.method).lower(), str(result.result).lower()
        props = {f"{p.type}.{p.name}".lower(): str(p.value) for p in result.properties}
        if method == "dmarc":
            domain = props.get("header.from", "")
        elif method == "dkim":
            domain = props.get("header.d") or _domain(props.get("header.i", ""))
        elif method == "spf":
            domain = _domain(props.get("smtp.mailfrom", "") or props.get("smtp.helo", ""))
        else:
            continue
        if outcome == "pass" and (domain.lower() == from_domain if method == "dmarc"
                                  else _aligned(domain, from_domain)):
            return Verdict(True, f"{method}=pass for {domain}")
        seen.append(f"{method}={outcome}" + (f" for {domain}" if domain else ""))
    shown = ", ".join(seen) or "no DKIM, SPF or DMARC result"
    return Verdict(False, f"{trusted_authserv_id} found no DKIM, SPF or DMARC pass for "
                   f"{from_domain} ({shown})")

