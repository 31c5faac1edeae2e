"""A mail the guide's host sent, checked as a player's provider would: runs in the guide's
root with a venv of its own (dkimpy, pyspf, dnspython), after the guide.

    guide_mailcheck.py MBOX NAMESERVER:PORT

Every mail from the host in the mbox must carry a DKIM signature that verifies against the key
the DNS server publishes (what ``pbem dns`` printed), pass SPF for 127.0.0.1 (where pbem
submitted from) at that server, have come to Postfix over TLS (its Received header), and be
aligned for DMARC: From domain = DKIM d= = envelope sender's domain.
"""

from __future__ import annotations

import mailbox
import re
import sys
from email import message_from_bytes, policy

import dkim
import dns.resolver
import spf


def main(path: str, nameserver: str) -> int:
    host, _, port = nameserver.rpartition(":")
    resolver = dns.resolver.Resolver(configure=False)
    resolver.nameservers, resolver.port = [host], int(port)
    dns.resolver.default_resolver = resolver  # pyspf asks the default resolver

    def txt(name: bytes, timeout: int = 5) -> bytes:
        answer = resolver.resolve(name.decode().rstrip("."), "TXT")
        return b"".join(next(iter(answer)).strings)

    checked = 0
    box = mailbox.mbox(path)
    for key, entry in box.items():
        raw = box.get_bytes(key)  # as stored: a DKIM check must see the bytes, not a rewrite
        msg = message_from_bytes(raw, policy=policy.default)
        if "games@games.example.org" not in str(msg["From"]):
            continue
        tags = dkim.util.parse_tag_value(str(msg["DKIM-Signature"]).encode())
        assert tags[b"s"] == b"pbem", tags
        assert dkim.verify(raw, dnsfunc=txt), f"dkim=fail: {msg['Subject']}"
        received = str((msg.get_all("Received") or [""])[-1])
        assert re.search(r"\(using TLSv1\.[23] with cipher ", received), received
        mail_from = str(entry.get_from().split()[0])
        result, why = spf.check2(i="127.0.0.1", s=mail_from, h=received.split()[1])
        assert result == "pass", why
        domain = str(msg["From"].addresses[0].domain)
        assert domain == tags[b"d"].decode() == mail_from.rpartition("@")[2]
        assert "p=quarantine" in txt(f"_dmarc.{domain}".encode()).decode()
        checked += 1
    assert checked, f"no mail from the host in {path}"
    print(f"{checked} mails in {path}: dkim=pass spf=pass dmarc aligned, TLS from pbem")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
