"""The DNS records a pbem host's mail needs (`pbem dns`), and their check (`pbem doctor --dns`).

The records follow from the config: MX and A for the mail host, SPF allowing the MX to send,
the DKIM key's TXT under ``[dns] dkim_selector``, DMARC with reports to the operator, and the
PTR of the host's address, which only the hosting provider can set. Each is looked up with
dnspython, at ``[dns] nameserver`` if set; a resolver that does not answer at all is one line.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import dns.exception
import dns.resolver
import dns.reversename

from pbem.ops.check import Check
from pbem.settings.config import Config

TTL = 3600
# The DER prefix of an Ed25519 SubjectPublicKeyInfo (RFC 8410); the key's 32 bytes follow.
ED25519_SPKI = bytes.fromhex("302a300506032b6570032100")
TXT_CHUNK = 250  # a TXT string holds at most 255 bytes: longer values are split


class DnsUnreachable(Exception):
    """No DNS server answered: nothing can be checked."""


@dataclass(frozen=True)
class Records:
    domain: str
    mail_host: str
    address: str | None
    spf: str
    dkim_name: str
    dkim: str | None  # None: no public key configured or readable
    dkim_problem: str
    dmarc: str
    relay: str | None = None  # the SMTP server pbem hands mail to, if not this machine


LOCAL = ("127.0.0.1", "::1", "localhost")


def resolver(cfg: Config) -> dns.resolver.Resolver:
    """The system's resolver, or the server ``[dns] nameserver`` names."""
    endpoint = cfg.dns.nameserver_endpoint
    res = dns.resolver.Resolver(configure=endpoint is None)
    if endpoint is not None:
        res.nameservers, res.port = [endpoint[0]], endpoint[1]
    res.lifetime = 5.0
    return res


def dkim_value(pem: str) -> str:
    """The DKIM TXT value for a public key in PEM (SubjectPublicKeyInfo, as ``openssl pkey
    -pubout`` writes it): for RSA the record's p= is that DER itself; for Ed25519 (RFC 8463)
    the 32 bytes of the key alone."""
    match = re.search(r"-----BEGIN PUBLIC KEY-----(.*?)-----END PUBLIC KEY-----", pem, re.S)
    if match is None:
        raise ValueError("not a PEM public key (-----BEGIN PUBLIC KEY-----)")
    try:
        der = base64.b64decode("".join(match.group(1).split()), validate=True)
    except binascii.Error as exc:
        raise ValueError(f"the PEM public key is damaged: {exc}") from exc
    if der.startswith(ED25519_SPKI) and len(der) == len(ED25519_SPKI) + 32:
        return f"v=DKIM1; k=ed25519; p={base64.b64encode(der[-32:]).decode()}"
    return f"v=DKIM1; k=rsa; p={base64.b64encode(der).decode()}"


def expected(cfg: Config, address: str | None = None) -> Records:
    domain = cfg.mail.message_id_domain
    dkim, problem = None, ""
    if cfg.dns.dkim_public_key is None:
        problem = "[dns] dkim_public_key is not set"
    else:
        try:
            dkim = dkim_value(cfg.dns.dkim_public_key.read_text())
        except (OSError, ValueError) as exc:
            why = getattr(exc, "strerror", None) or exc
            problem = f"dkim_public_key {cfg.dns.dkim_public_key}: {why}"
    reports = cfg.mail.operator_address or f"postmaster@{domain}"
    return Records(domain=domain, mail_host=cfg.dns.mail_host or domain,
                   address=cfg.dns.address or address, spf="v=spf1 mx -all",
                   dkim_name=f"{cfg.dns.dkim_selector}._domainkey.{domain}", dkim=dkim,
                   dkim_problem=problem,
                   dmarc=f"v=DMARC1; p=quarantine; rua=mailto:{reports}",
                   relay=smtp.host if (smtp := cfg.outbound.smtp) and smtp.host not in LOCAL
                   else None)


def _txt(value: str) -> str:
    return " ".join(f'"{value[i:i + TXT_CHUNK]}"' for i in range(0, len(value), TXT_CHUNK))


def zone_lines(r: Records) -> list[str]:
    """The records as zone-file lines (a comment where a value is not known)."""
    address = r.address or "<this server's public IPv4 address>"
    rows = [(f"{r.domain}.", "MX", f"10 {r.mail_host}."),
            (f"{r.mail_host}.", "A", address),
            (f"{r.domain}.", "TXT", _txt(r.spf))]
    if r.dkim:
        rows.append((f"{r.dkim_name}.", "TXT", _txt(r.dkim)))
    rows.append((f"_dmarc.{r.domain}.", "TXT", _txt(r.dmarc)))
    width = max(len(name) for name, _, _ in rows)
    lines = [f"; DNS records for {r.domain}: publish them in its zone"]
    lines += [f"{name:<{width}} {TTL} IN {kind:<3} {value}" for name, kind, value in rows]
    if r.relay:
        lines.append(f"; SPF: mail leaves through {r.relay}: add what its provider publishes "
                     "for it (e.g. include:...) before -all")
    if not r.dkim:
        lines.append(f"; DKIM: {r.dkim_problem}; set it to the signer's public key (PEM) to "
                     "get its record")
    lines.append(f"; PTR: ask your hosting provider to set the reverse DNS of {address} to "
                 f"{r.mail_host}")
    if r.address:
        lines.append(f"{dns.reversename.from_address(r.address)} {TTL} IN PTR {r.mail_host}.")
    return lines


def _lookup(res: dns.resolver.Resolver, name: str, kind: str) -> list[str]:
    """The answer's records as text ([] for none); a server that cannot be reached raises."""
    try:
        answer = res.resolve(name, kind, search=False)
    except (dns.resolver.NXDOMAIN, dns.resolver.NoAnswer):
        return []
    except dns.exception.Timeout as exc:
        raise DnsUnreachable(f"no answer to {name} {kind} within {res.lifetime:.0f} s") from exc
    except dns.resolver.NoNameservers as exc:
        raise DnsUnreachable(f"every server refused or failed {name} {kind}") from exc
    except OSError as exc:
        raise DnsUnreachable(f"{name} {kind}: {exc.strerror or exc}") from exc
    if kind == "TXT":
        return [b"".join(rd.strings).decode(errors="replace") for rd in answer]
    return [rd.to_text() for rd in answer]


def _host(text: str) -> str:
    return text.rstrip(".").lower()


def _tags(record: str) -> dict[str, str]:
    tags = (part.split("=", 1) for part in record.split(";") if "=" in part)
    return {k.strip().lower(): "".join(v.split()) for k, v in tags}


def checks(cfg: Config) -> list[Check]:
    """One Check per record; a DNS that answers nothing is one FAIL line and no more."""
    res = resolver(cfg)
    try:
        r = expected(cfg)
        mx = [_host(v.split()[-1]) for v in _lookup(res, r.domain, "MX")]
        a = _lookup(res, r.mail_host, "A")
    except DnsUnreachable as exc:
        where = cfg.dns.nameserver or "the system's resolver"
        return [Check("DNS", False, f"no DNS server answered ({where}): {exc}; the records "
                      "were not checked", "check the network, or set [dns] nameserver")]
    if r.address is None and a:
        r = expected(cfg, a[0])
    found: list[Check] = []
    probes: Sequence[tuple[str, Callable[[], Check]]] = (
        ("DNS MX", lambda: _mx(r, mx)),
        ("DNS A", lambda: _a(r, a)),
        ("DNS SPF", lambda: _spf(res, r)),
        ("DNS DKIM", lambda: _dkim(res, r)),
        ("DNS DMARC", lambda: _dmarc(res, r)),
        ("DNS PTR", lambda: _ptr(res, r)),
    )
    for name, probe in probes:
        try:
            found.append(probe())
        except DnsUnreachable as exc:
            found.append(Check(name, False, f"the DNS server stopped answering: {exc}",
                               "check the network, or set [dns] nameserver"))
    return found


def _publish(line: str) -> str:
    return f"publish {line} (`pbem dns` prints every record)"


def _mx(r: Records, mx: list[str]) -> Check:
    want = f"{r.domain}. IN MX 10 {r.mail_host}."
    if not mx:
        return Check("DNS MX", False, f"{r.domain} has no MX record", _publish(want))
    if r.mail_host not in mx:
        return Check("DNS MX", False, f"{r.domain}'s MX is {', '.join(mx)}, not {r.mail_host}",
                     _publish(want) + " and remove the others, or set [dns] mail_host")
    return Check("DNS MX", True, f"{r.domain} -> {r.mail_host}")


def _a(r: Records, found: list[str]) -> Check:
    want = f"{r.mail_host}. IN A {r.address or '<this server`s IPv4 address>'}"
    if not found:
        return Check("DNS A", False, f"{r.mail_host} has no A record", _publish(want))
    if r.address and r.address not in found:
        return Check("DNS A", False, f"{r.mail_host} is {', '.join(found)}, not {r.address}",
                     _publish(want) + ", or set [dns] address")
    return Check("DNS A", True, f"{r.mail_host} -> {r.address or found[0]}")


def _spf(res: dns.resolver.Resolver, r: Records) -> Check:
    spf = [t for t in _lookup(res, r.domain, "TXT") if t.lower().startswith("v=spf1")]
    want = f'{r.domain}. IN TXT "{r.spf}"'
    if not spf:
        return Check("DNS SPF", False, f"{r.domain} has no SPF record", _publish(want))
    if len(spf) > 1:  # RFC 7208: more than one is a permanent error, none of them counts
        return Check("DNS SPF", False, f"{r.domain} has {len(spf)} SPF records",
                     f"keep one: {want}")
    terms = spf[0].lower().split()
    # An operator's own record is fine if it lets this host send (by its MX, its own A, or
    # its address; the MX and A checks say where those point) and refuses everyone else.
    allows = {"mx", "+mx", "a", "+a", f"ip4:{r.address}", f"+ip4:{r.address}"}
    if terms != r.spf.split() and not (allows & set(terms) and terms[-1] in ("-all", "~all")):
        return Check("DNS SPF", False, f"{r.domain}'s SPF record is {spf[0]!r}, not {r.spf!r}",
                     _publish(want))
    return Check("DNS SPF", True, f"{r.domain}: {spf[0]}")


def _dkim(res: dns.resolver.Resolver, r: Records) -> Check:
    if r.dkim is None:
        return Check("DNS DKIM", False, r.dkim_problem,
                     "set [dns] dkim_public_key to the signer's public key (PEM), made as in "
                     "docs/operators/deploy.md")
    want = f"{r.dkim_name}. IN TXT {_txt(r.dkim)}"
    found = [t for t in _lookup(res, r.dkim_name, "TXT") if "p=" in t]
    if not found:
        return Check("DNS DKIM", False, f"{r.dkim_name} has no DKIM record", _publish(want))
    if not any(_tags(t).get("p") == _tags(r.dkim)["p"] for t in found):
        return Check("DNS DKIM", False, f"{r.dkim_name} holds another key than "
                     "[dns] dkim_public_key", _publish(want))
    return Check("DNS DKIM", True, f"{r.dkim_name} holds the signer's key")


def _dmarc(res: dns.resolver.Resolver, r: Records) -> Check:
    name = f"_dmarc.{r.domain}"
    want = f'{name}. IN TXT "{r.dmarc}"'
    found = [t for t in _lookup(res, name, "TXT") if t.lower().startswith("v=dmarc1")]
    if not found:
        return Check("DNS DMARC", False, f"{r.domain} has no DMARC record", _publish(want))
    policy = _tags(found[0]).get("p", "")
    if policy not in ("quarantine", "reject"):
        return Check("DNS DMARC", False, f"{r.domain}'s DMARC policy is p={policy or '(none)'}"
                     ": forged mail in its name is still delivered", _publish(want))
    return Check("DNS DMARC", True, f"{name}: p={policy}")


def _ptr(res: dns.resolver.Resolver, r: Records) -> Check:
    if r.address is None:
        return Check("DNS PTR", False, "this host's address is not known (no A record)",
                     "set [dns] address, or publish the A record")
    name = dns.reversename.from_address(r.address).to_text()
    found = [_host(v) for v in _lookup(res, name, "PTR")]
    ask = f"ask your hosting provider to set the reverse DNS of {r.address} to {r.mail_host}"
    if not found:
        return Check("DNS PTR", False, f"{r.address} has no reverse DNS (PTR)", ask)
    if r.mail_host not in found:
        return Check("DNS PTR", False, f"{r.address}'s reverse DNS is {', '.join(found)}, "
                     f"not {r.mail_host}", ask)
    return Check("DNS PTR", True, f"{r.address} -> {r.mail_host}")
