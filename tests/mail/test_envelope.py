"""The envelope of a stored mail: the quick read of plain headers gives exactly what the full
parser (and so aiosmtplib) gives, and anything it does not understand goes to the full parser."""

from __future__ import annotations

from email import policy
from email.message import EmailMessage
from email.parser import BytesHeaderParser

import pytest
from aiosmtplib.email import extract_recipients, extract_sender

from pbem.mail.compose import compose
from pbem.mail.outbound import _simple_envelope, envelope


def parsed(raw: bytes) -> tuple[str, list[str]]:
    """What aiosmtplib reads from the mail parsed whole."""
    head = BytesHeaderParser(policy=policy.default).parsebytes(raw)
    assert isinstance(head, EmailMessage)
    return extract_sender(head) or "", extract_recipients(head)


def mail(*headers: str) -> bytes:
    return ("\r\n".join([*headers, "Subject: x"]) + "\r\n\r\nbody\r\n").encode("utf-8")


PLAIN = [
    mail("From: games@host.test", "To: ann@players.test"),
    mail("From: Games <games@host.test>", "To: Ann Lee <ann@players.test>"),
    mail('From: "Games, the host" <games@host.test>', 'To: "Lee, Ann" <ann@players.test>'),
    mail("From: =?utf-8?q?J=C3=B6rg?= <games@host.test>", "To: J. Smith <j@players.test>"),
    mail("From: <games@host.test>", "To: ann@players.test", "Cc: Ben <ben@players.test>",
         "Bcc: cy@players.test"),
    mail("From: games@host.test", "To: Ann\r\n  Lee <ann@players.test>"),  # folded
    mail("from: games@host.test", "TO: ann@players.test", "To: ben@players.test"),
    mail("From: Jörg <games@host.test>", "To: 李 <ann@players.test>"),  # raw UTF-8 names
]
OTHER = [
    mail("From: games@host.test", "To: ann@players.test, ben@players.test"),
    mail("From: games@host.test (the host)", "To: ann@players.test"),
    mail("From: games@host.test", "To: undisclosed-recipients:;", "Cc: ann@players.test"),
    mail('From: games@host.test', 'To: "ann lee"@players.test'),
    mail("From: games@host.test", "Sender: other@host.test", "To: ann@players.test"),
    mail("From: games@host.test", "Resent-Date: Thu, 1 Jan 2026 00:00:00 +0000",
         "Resent-From: r@host.test", "Resent-To: ben@players.test", "To: ann@players.test"),
    mail("From: games@host.test", "To: jörg@players.test"),  # a UTF-8 address
    mail("From: games@host.test", "To: ann@[192.0.2.1]"),
    mail("To: ann@players.test"),  # no From
    # A blank line, a space before the colon: what the parser makes of these is used.
    mail("From: games@host.test", "To: ann@players.test", "X-B: b\n\r\nTo: evil@e.test"),
    mail("From: games@host.test", "To: ann@players.test", "To : evil@e.test"),
]
# Characters str.splitlines takes for line ends and the email parser does not (found in
# review: the quick read once saw a second To line in them).
STRANGE = [mail("From: games@host.test", f"X-A: q{end}To: evil@e.test", "To: ann@players.test")
           for end in ("\x0c", "\x1c", "\x85", "\u2028")]


@pytest.mark.parametrize("raw", STRANGE)
def test_no_line_end_of_another_kind_adds_a_recipient(raw: bytes) -> None:
    assert _simple_envelope(raw.partition(b"\r\n\r\n")[0]) == parsed(raw)
    assert envelope(raw) == parsed(raw) == ("games@host.test", ["ann@players.test"])


@pytest.mark.parametrize("raw", PLAIN)
def test_plain_headers_are_read_quickly_and_alike(raw: bytes) -> None:
    assert _simple_envelope(raw.partition(b"\r\n\r\n")[0]) == parsed(raw)
    assert envelope(raw) == parsed(raw)


@pytest.mark.parametrize("raw", OTHER)
def test_anything_else_goes_to_the_full_parser(raw: bytes) -> None:
    assert _simple_envelope(raw.partition(b"\r\n\r\n")[0]) is None
    assert envelope(raw) == parsed(raw)


@pytest.mark.parametrize("name", ["Ann", "Zoë Müller", "Lee, Ann", 'Ann "the" Lee', "李"])
def test_every_mail_pbem_composes_is_read_quickly_and_alike(name: str) -> None:
    raw = compose(from_addr="games@host.test", from_name="Game Host",
                  to_addr="ann@players.test", to_name=name,
                  subject="[reef-1] Turn 3 — Bob moved", text="t").raw
    assert _simple_envelope(raw.partition(b"\n\n")[0]) is not None
    assert envelope(raw) == parsed(raw) == ("games@host.test", ["ann@players.test"])
