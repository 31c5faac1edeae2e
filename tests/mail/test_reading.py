"""Reading real-shaped incoming mail: the orders text, the sender, and machine-made mail."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.mail.reading import read_message
from pbem.mail.text import strip_quotes_and_signature

EML = Path(__file__).parent.parent / "fixtures" / "eml"


def read(name: str, **kw: int):  # type: ignore[no-untyped-def]
    return read_message((EML / name).read_bytes(), **kw)


def test_reply_keeps_orders_and_drops_the_quoted_status() -> None:
    mail = read("reply-with-quote.eml")
    assert mail.body_text == "secret abc\ntake pink"
    assert mail.from_addr == "alice@players.test"
    assert mail.from_name == "Alice Player"
    assert mail.message_id == "<reply-1@players.test>"
    assert mail.in_reply_to == "<status-9@host.test>"
    assert mail.references == ["<status-1@host.test>", "<status-9@host.test>"]
    assert not mail.automatic


def test_html_only_mail_becomes_text_without_styles_or_quotes() -> None:
    mail = read("html-only.eml")
    assert mail.body_text.split() == ["secret", "xyz", "take", "white"]


def test_latin1_quoted_printable_and_signature() -> None:
    mail = read("latin1-qp-signature.eml")
    assert mail.body_text == "prends le rosé\ntake pink"
    assert mail.from_name == "Renée"
    assert mail.subject == "ordres début"


def test_nested_multipart_base64_prefers_plain_and_ignores_attachments() -> None:
    mail = read("nested-base64-attachment.eml")
    assert mail.body_text == "take grey\nlarva white: 2F3"


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("vacation-autoreply.eml", "Auto-Submitted: auto-replied"),
        ("bounce.eml", "sent by mailer-daemon@mx.players.test"),
        ("mailing-list.eml", "Precedence: list"),
    ],
)
def test_machine_made_mail_is_recognised(name: str, reason: str) -> None:
    mail = read(name)
    assert mail.automatic
    assert mail.automatic_reason == reason


def test_missing_message_id_is_synthesised_stably_and_unknown_charset_read() -> None:
    a, b = read("no-message-id-unknown-charset.eml"), read("no-message-id-unknown-charset.eml")
    assert a.message_id == b.message_id
    assert a.message_id.startswith("<synthetic-")
    assert a.body_text == "take yellow"


def test_too_large_mail_is_flagged_and_its_body_not_read() -> None:
    mail = read("reply-with-quote.eml", max_bytes=100)
    assert mail.too_large
    assert mail.body_text == ""
    assert mail.from_addr == "alice@players.test"


@pytest.mark.parametrize("raw", [b"", b"\x00\xff garbage", b"From: \r\n\r\n", b"::::\n\n\n"])
def test_garbage_never_raises(raw: bytes) -> None:
    mail = read_message(raw)
    assert mail.message_id.startswith("<synthetic-")


def test_outlook_original_message_block_is_cut() -> None:
    text = "take pink\n\n-----Original Message-----\nFrom: pbem\neat 2F4\n"
    assert strip_quotes_and_signature(text) == "take pink"
