"""Outgoing mail: threaded, marked automatic, and immune to header injection."""

from __future__ import annotations

from email import message_from_bytes, policy

from pbem.mail.compose import compose, game_subject


def test_reply_is_threaded_and_marked_auto_replied() -> None:
    msg = compose(from_addr="games@host.test", to_addr="alice@players.test", to_name="Alice",
                  subject=game_subject("Reef Encounter", "reef-12"), text="hello",
                  in_reply_to="<r1@players.test>", references=["<s1@host.test>"],
                  auto_reply=True, message_id_domain="host.test")
    assert msg["Subject"] == "[reef-12] Reef Encounter"
    assert msg["In-Reply-To"] == "<r1@players.test>"
    assert msg["References"] == "<s1@host.test> <r1@players.test>"
    assert msg["Auto-Submitted"] == "auto-replied"
    assert str(msg["Message-ID"]).endswith("@host.test>")


def test_status_mail_is_auto_generated_with_html_alternative() -> None:
    msg = compose(from_addr="games@host.test", to_addr="bob@players.test", subject="s",
                  text="plain", html="<p>html</p>")
    assert msg["Auto-Submitted"] == "auto-generated"
    assert msg.get_content_type() == "multipart/alternative"


def test_names_and_subjects_cannot_inject_headers() -> None:
    msg = compose(from_addr="games@host.test", to_addr="eve@players.test",
                  to_name="Eve\r\nBcc: victim@example.org", subject="hi\nBcc: victim@example.org",
                  text="x")
    raw = bytes(msg)
    parsed = message_from_bytes(raw, policy=policy.default)
    assert parsed["Bcc"] is None
    assert b"\nBcc:" not in raw
    assert "victim@example.org" in str(parsed["To"])  # kept as harmless display text
