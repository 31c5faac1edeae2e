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


GENERATED: dict[str, Callable[[], bytes]] = {"huge-body.eml": _huge_body}


def names() -> list[str]:
    """Every fixture name, stored or generated."""
    return sorted({p.name for p in EML.glob("*.eml")} | set(GENERATED))


def load(name: str) -> bytes:
    if name in GENERATED:
        return GENERATED[name]()
    return (EML / name).read_bytes()
