"""Redacting a mail the pipeline already parsed gives the very bytes a fresh parse gives: the
parse is shared, the redaction is not weakened."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.mail.reading import read_message
from pbem.mail.redact import redact

EML = sorted((Path(__file__).resolve().parent.parent / "fixtures" / "eml").glob("*.eml"))
SECRET = "Zq3xK9mPw2LrT8vN5bYc1d"


def with_secret(raw: bytes) -> bytes:
    """``raw`` with a secret line at the top of its body (or as is, if it has no body)."""
    head, sep, body = raw.partition(b"\r\n\r\n" if b"\r\n\r\n" in raw else b"\n\n")
    return head + sep + f"secret {SECRET}\n".encode() + body if sep else raw


@pytest.mark.parametrize("path", EML, ids=[p.name for p in EML])
def test_a_parsed_mail_is_redacted_as_a_fresh_parse_is(path: Path) -> None:
    for raw in (path.read_bytes(), with_secret(path.read_bytes())):
        fresh = redact(raw, [SECRET])
        parsed = read_message(raw).parsed
        assert redact(raw, [SECRET], parsed=parsed) == fresh
        assert SECRET.encode() not in fresh


def test_a_mail_only_partly_read_carries_no_parse() -> None:
    raw = b"From: a@b.test\nSubject: x\n\n" + b"secret abcdefgh12345678\n" * 10
    assert read_message(raw, max_bytes=100).parsed is None
    assert read_message(raw).parsed is not None
