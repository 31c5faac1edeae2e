"""Outgoing mail: threaded, marked automatic, and immune to header injection."""

from __future__ import annotations

from email import message_from_bytes, policy
from email.message import EmailMessage

from pbem.drawing.pictures import Picture, inline_pictures
from pbem.mail.compose import compose, game_subject


def test_reply_is_threaded_and_marked_auto_replied() -> None:
    msg = compose(from_addr="games@host.test", to_addr="alice@players.test", to_name="Alice",
                  subject=game_subject("Reef Encounter", "reef-12"), text="hello",
                  in_reply_to="<r1@players.test>", references=["<s1@host.test>"],
                  auto_reply=True, message_id_domain="host.test").message()
    assert msg["Subject"] == "[reef-12] Reef Encounter"
    assert msg["In-Reply-To"] == "<r1@players.test>"
    assert msg["References"] == "<s1@host.test> <r1@players.test>"
    assert msg["Auto-Submitted"] == "auto-replied"
    assert str(msg["Message-ID"]).endswith("@host.test>")


def test_status_mail_is_auto_generated_with_html_alternative() -> None:
    msg = compose(from_addr="games@host.test", to_addr="bob@players.test", subject="s",
                  text="plain", html="<p>html</p>").message()
    assert msg["Auto-Submitted"] == "auto-generated"
    assert msg.get_content_type() == "multipart/alternative"


def test_names_and_subjects_cannot_inject_headers() -> None:
    raw = compose(from_addr="games@host.test", to_addr="eve@players.test",
                  to_name="Eve\r\nBcc: victim@example.org", subject="hi\nBcc: victim@example.org",
                  text="x").raw
    parsed = message_from_bytes(raw, policy=policy.default)
    assert parsed["Bcc"] is None
    assert b"\nBcc:" not in raw
    assert "victim@example.org" in str(parsed["To"])  # kept as harmless display text


def _picture_mail(pictures: int = 2) -> tuple[bytes, list[Picture]]:
    svgs = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{300 + n}" height="200">'
            f'<rect width="{50 + n}" height="40" fill="#3a7"/><text x="5" y="90">board {n}</text>'
            "</svg>" for n in range(pictures)]
    html, pics = inline_pictures("<p>Your move — the board:</p>" + "".join(svgs), "host.test")
    raw = compose(from_addr="games@host.test", to_addr="bob@players.test", subject="s",
                  text="plain — text\n" * 20, html=html, pictures=pics).raw
    return raw, pics


def test_a_picture_part_is_what_the_content_manager_would_write() -> None:
    raw, pics = _picture_mail(1)
    msg = message_from_bytes(raw, policy=policy.default)
    (image,) = [p for p in msg.walk() if p.get_content_type() == "image/png"]
    plain = EmailMessage()
    plain.add_related(pics[0].png, maintype="image", subtype="png", cid=f"<{pics[0].cid}>",
                      disposition="inline", filename="board1.png")
    (expected,) = [p for p in plain.iter_parts() if p.get_content_type() == "image/png"]
    assert image.get_payload() == expected.get_payload()
    # (A part the content manager builds carries its own MIME-Version, which means nothing
    # below the top of a mail: the writer leaves it out.)
    assert image.items() == [(k, v) for k, v in expected.items() if k != "MIME-Version"]
    assert image.get_content() == pics[0].png


def test_the_written_mail_is_byte_for_byte_what_the_generator_writes() -> None:
    raw, pics = _picture_mail(2)
    assert len(pics) == 2
    parsed = message_from_bytes(raw, policy=policy.default)
    assert bytes(parsed) == raw  # its boundaries read back; the rest must then match exactly
    assert isinstance(parsed, EmailMessage)
    pngs = [p.get_content() for p in parsed.walk() if p.get_content_type() == "image/png"]
    assert pngs == [p.png for p in pics]


def test_a_mail_without_pictures_is_what_the_generator_writes() -> None:
    raw = compose(from_addr="games@host.test", to_addr="bob@players.test", subject="s",
                  text="plain", html="<p>html</p>").raw
    assert bytes(message_from_bytes(raw, policy=policy.default)) == raw
