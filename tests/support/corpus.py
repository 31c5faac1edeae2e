"""The .eml corpus: files kept in tests/fixtures/eml/, plus the few generated at test time
because storing them would only bloat the repository (a 1.2 MB body)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

EML = Path(__file__).resolve().parent.parent / "fixtures" / "eml"


def _huge_body() -> bytes:
    head = (b"From: mallory@players.test\nTo: games@host.test\nSubject: huge\n"
            b"Message-ID: <huge@players.test>\nContent-Type: text/plain\n\n")
    return head + b"take pink " * 120_000


def _huge_28mb() -> bytes:
    """Far over the limit: refused, and only its headers and a bounded prefix are kept."""
    head = (b"From: mallory@players.test\nTo: games@host.test\nSubject: [reef-12] huge\n"
            b"Message-ID: <huge-28mb@players.test>\nContent-Type: text/plain\n\n")
    return head + b"play 1 " * 4_000_000


def _deep_nesting() -> bytes:
    """1,500 nested multiparts: more than the stdlib parser's recursion can follow."""
    levels = 1500
    head = (b"From: alice@players.test\nTo: games@host.test\nSubject: [reef-12] deeper\n"
            b"Message-ID: <deep-1500@players.test>\nMIME-Version: 1.0\n")
    opening = b"".join(b'Content-Type: multipart/mixed; boundary="b%d"\n\n--b%d\n' % (i, i)
                       for i in range(levels))
    text = b"Content-Type: text/plain\n\nstatus\nsecret corpus-alice-secret\n"
    closing = b"".join(b"\n--b%d--\n" % i for i in reversed(range(levels)))
    return head + opening + text + closing


def _many_parts() -> bytes:
    """5,000 attachments, then the text: the orders are read wherever they sit."""
    head = (b"From: alice@players.test\nTo: games@host.test\nSubject: [reef-12] parts\n"
            b"Message-ID: <five-thousand-parts@players.test>\nMIME-Version: 1.0\n"
            b'Content-Type: multipart/mixed; boundary="P"\n\n')
    junk = b"".join(b'--P\nContent-Type: application/octet-stream\nContent-Disposition: '
                    b'attachment; filename="f%d.bin"\n\nx\n' % i for i in range(5000))
    text = b"--P\nContent-Type: text/plain\n\nstatus\nsecret corpus-alice-secret\n--P--\n"
    return head + junk + text


def _long_order_line() -> bytes:
    """One 750 KB order line: answered, but not echoed whole."""
    head = (b"From: Bob <bob@players.test>\nTo: games@host.test\nSubject: Re: [reef-12] Test "
            b"Cards\nMessage-ID: <long-line@players.test>\nContent-Type: text/plain\n\n")
    return head + b"play " + b"seven" * 150_000 + b"\nsecret corpus-bob-secret\n"


GENERATED: dict[str, Callable[[], bytes]] = {
    "huge-body.eml": _huge_body, "huge-28mb.eml": _huge_28mb,
    "deep-mime-1500-levels.eml": _deep_nesting, "five-thousand-parts.eml": _many_parts,
    "long-order-line.eml": _long_order_line,
}


def names() -> list[str]:
    """Every fixture name, stored or generated."""
    return sorted({p.name for p in EML.glob("*.eml")} | set(GENERATED))


def load(name: str) -> bytes:
    if name in GENERATED:
        return GENERATED[name]()
    return (EML / name).read_bytes()
