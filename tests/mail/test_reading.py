"""Reading real-shaped incoming mail: the orders text, the sender, and machine-made mail."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.mail.reading import read_message
from pbem.mail.reply import new_text
from tests.support import corpus

EML = Path(__file__).parent.parent / "fixtures" / "eml"


def read(name: str, **kw: int):  # type: ignore[no-untyped-def]
    return read_message(corpus.load(name), **kw)


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
    assert new_text(text).text == "take pink"


def test_outlook_reply_in_windows_1252_keeps_only_the_new_text() -> None:
    mail = read("outlook-reply.eml")
    assert mail.body_text == "secret k3y\ntake yellow – fast"
    assert mail.from_name == "Grace"


def test_gmail_html_reply_drops_the_quote_and_its_attribution() -> None:
    mail = read("gmail-html-reply-wrapped-attribution.eml")
    assert mail.body_text == "take orange\nsecret zz9"


def test_an_attribution_line_wrapped_in_two_is_still_cut() -> None:
    assert read("plain-reply-wrapped-attribution.eml").body_text == "take white"


def test_latin1_bytes_declared_as_utf8_are_still_read() -> None:
    assert read("wrong-charset-latin1-declared-utf8.eml").body_text == "prends le rosé\ntake pink"


def test_an_attachment_alone_gives_no_orders() -> None:
    mail = read("attachment-only.eml")
    assert mail.body_text == ""
    assert not mail.automatic


def test_a_huge_mail_is_flagged_at_the_default_limit() -> None:
    mail = read("huge-body.eml")
    assert mail.too_large
    assert mail.body_text == ""
    assert mail.message_id == "<huge@players.test>"
    assert read("huge-body.eml", max_bytes=2_000_000).body_text.startswith("take pink take pink")


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("empty-return-path.eml", "empty Return-Path"),
        ("x-autoreply.eml", "X-Autoreply header"),
        ("dsn-report-from-person-address.eml", "delivery status report"),
        ("list-unsubscribe-only.eml", "List-Unsubscribe header"),
        ("precedence-bulk.eml", "Precedence: bulk"),
    ],
)
def test_more_machine_made_mail_is_recognised(name: str, reason: str) -> None:
    mail = read(name)
    assert mail.automatic
    assert mail.automatic_reason == reason


def test_auto_submitted_no_is_a_person_writing() -> None:
    mail = read("auto-submitted-no.eml")
    assert not mail.automatic
    assert mail.body_text == "take pink"


def test_every_fixture_reads_without_raising() -> None:
    names = corpus.names()
    assert len(names) >= 30
    for name in names:
        mail = read(name)
        assert mail.message_id.startswith("<")
        assert "\n" not in mail.subject and "\r" not in mail.from_name
