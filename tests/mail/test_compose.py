"""Outgoing mail: threaded, marked automatic, and immune to header injection."""

from __future__ import annotations

from email import message_from_bytes, policy
from email.message import EmailMessage

from pbem.drawing.pictures import Picture, inline_pictures
from pbem.mail.compose import compose, game_subject, mail_bytes


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


def _picture_mail(pictures: int = 2) -> tuple[EmailMessage, list[Picture]]:
    svgs = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{300 + n}" height="200">'
            f'<rect width="{50 + n}" height="40" fill="#3a7"/><text x="5" y="90">board {n}</text>'
            "</svg>" for n in range(pictures)]
    html, pics = inline_pictures("<p>Your move — the board:</p>" + "".join(svgs), "host.test")
    msg = compose(from_addr="games@host.test", to_addr="bob@players.test", subject="s",
                  text="plain — text\n" * 20, html=html, pictures=pics)
    return msg, pics


def test_a_picture_part_is_what_the_content_manager_would_write() -> None:
    msg, pics = _picture_mail(1)
    (image,) = [p for p in msg.walk() if p.get_content_type() == "image/png"]
    plain = EmailMessage()
    plain.add_related(pics[0].png, maintype="image", subtype="png", cid=f"<{pics[0].cid}>",
                      disposition="inline", filename="board1.png")
    (expected,) = [p for p in plain.iter_parts() if p.get_content_type() == "image/png"]
    assert image.get_payload() == expected.get_payload()
    assert image.items() == expected.items()
    assert image.get_content() == pics[0].png


def test_the_spliced_serialisation_is_byte_for_byte_the_generators() -> None:
    msg, pics = _picture_mail(2)
    assert len(pics) == 2
    generated = bytes(msg)  # fixes the boundaries; the splice must then match exactly
    spliced = mail_bytes(msg)
    assert spliced == generated and bytes(msg) == generated  # the message is left as it was
    parsed = message_from_bytes(spliced, policy=policy.default)
    assert isinstance(parsed, EmailMessage)
    pngs = [p.get_content() for p in parsed.walk() if p.get_content_type() == "image/png"]
    assert pngs == [p.png for p in pics]


def test_a_mail_without_big_base64_bodies_is_serialised_the_plain_way() -> None:
    msg = compose(from_addr="games@host.test", to_addr="bob@players.test", subject="s",
                  text="plain", html="<p>html</p>")
    assert mail_bytes(msg) == bytes(msg)
