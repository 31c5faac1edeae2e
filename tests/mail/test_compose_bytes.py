"""compose writes directly the mail the email package would build (:func:`built`): parsed back,
the two give the same headers, the same tree of parts and the same contents, with no defect,
for every kind of name, subject, body and picture pbem sends (and some no one should); and the
generator writes the parsed mail back byte for byte."""

from __future__ import annotations

import binascii
from collections.abc import Sequence
from email import message_from_bytes, policy
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.drawing.pictures import Picture, base64_lines, inline_pictures
from pbem.mail import compose as compose_module
from pbem.mail.compose import Attachment, clean_header, compose

SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="200">'
       '<rect width="{w}" height="40" fill="#3a7"/></svg>')
LONG = "Une ligne bien plus longue que soixante-dix-huit caractères, accentuée : é à ç ô ü ß — fin"

CASES: list[dict[str, Any]] = [
    {"text": "hello"},
    {"text": "plain\n" * 3, "html": "<p>html</p>"},
    {"text": LONG + "\n" + LONG, "html": f"<p>{LONG * 3}</p>", "to_name": "Zoë Ünal"},
    {"text": "a\u2028b\x0bc\r\nd\re\n\nlast line with trailing space \n",
     "to_name": 'Ann "A", Bob'},
    {"text": "x", "to_name": "Eve\r\nBcc: victim@example.org", "subject": "hi\nBcc: v@example.org"},
    {"text": "x", "subject": "[reef-1] Tour 9 — à vous (avant jeu. 26 nov. 18:00 UTC) " * 4},
    {"text": "x", "subject": "=?utf-8?q?Hidden?= words", "from_name": "Games (pbem)"},
    {"text": "x", "in_reply_to": "<r1@players.test>", "auto_reply": True,
     "references": [f"<ref{n}.{'x' * 30}@players.test>" for n in range(25)]},
    {"text": "x", "to_addr": "\"odd local\"@players.test", "in_reply_to": "<ünï@players.test>"},
    {"text": "=3D and = and --===============0000000000000000000==\n", "html": "<p>=</p>"},
    {"text": "", "html": ""},
    {"text": "日本語のテキスト " * 20, "html": "<p>" + "日本語 " * 40 + "</p>"},
    {"text": "x", "html": "<p>x</p>", "language": "fr"},
    {"text": "x", "language": "de\nBcc: v@example.org"},
]


def built(*, from_addr: str, to_addr: str, subject: str, text: str, to_name: str = "",
          from_name: str = "", html: str | None = None, in_reply_to: str | None = None,
          references: list[str] | None = None, auto_reply: bool = False,
          message_id_domain: str = "pbem.invalid", pictures: Sequence[Picture] = (),
          list_id: str | None = None, list_unsubscribe: str | None = None,
          language: str | None = None) -> bytes:
    """The mail :func:`compose` writes, built with the email package's objects and content
    manager instead, and written by its generator: the reference the writer is held to."""
    msg = EmailMessage()
    local, _, domain = clean_header(to_addr).rpartition("@")
    msg["From"] = Address(display_name=clean_header(from_name),
                          username=clean_header(from_addr).rpartition("@")[0],
                          domain=clean_header(from_addr).rpartition("@")[2])
    msg["To"] = Address(display_name=clean_header(to_name), username=local, domain=domain)
    msg["Subject"] = clean_header(subject, 250)
    msg["Date"] = formatdate(localtime=False)
    msg["Message-ID"] = make_msgid(domain=clean_header(message_id_domain))
    for name, value in compose_module._thread_headers(in_reply_to, references, auto_reply,
                                                      list_id, list_unsubscribe):
        msg[name] = value
    msg.set_content(text)
    if html is not None:
        msg.add_alternative(html, subtype="html")
        if pictures:
            part = msg.get_body(("html",))
            assert isinstance(part, EmailMessage)
            for n, pic in enumerate(pictures, start=1):
                part.add_related(b"", maintype="image", subtype="png", cid=f"<{pic.cid}>",
                                 disposition="inline", filename=f"board{n}.png")
                related = part.get_payload()
                assert isinstance(related, list) and isinstance(related[-1], EmailMessage)
                related[-1].set_payload(base64_lines(pic.png, 78))
    if language:
        msg["Content-Language"] = compose_module._language(language)
    return bytes(msg)


@pytest.mark.parametrize(("language", "header"), [
    ("nl", "nl"), ("pt-BR", "pt-BR"), ("de\nBcc: v@example.org", "en"), ("", None)])
def test_the_readers_language_is_the_content_language(language: str, header: str | None
                                                      ) -> None:
    for raw in (compose(from_addr="games@host.test", to_addr="ann@players.test",
                        subject="s", text="x", language=language).raw,
                built(from_addr="games@host.test", to_addr="ann@players.test",
                      subject="s", text="x", language=language)):
        msg = message_from_bytes(raw, policy=policy.default)
        assert msg["Content-Language"] == header and msg["Bcc"] is None


def both(case: dict[str, Any], pictures: int) -> tuple[EmailMessage, EmailMessage, bytes]:
    args = {"from_addr": "games@host.test", "to_addr": "ann@players.test", "subject": "s",
            "message_id_domain": "host.test", **case}
    if pictures and args.get("html") is not None:
        svgs = "".join(SVG.format(w=300 + n) for n in range(pictures))
        args["html"], args["pictures"] = inline_pictures(args["html"] + svgs, "host.test")
    written = compose(**args).raw
    old, new = (message_from_bytes(raw, policy=policy.default)
                for raw in (built(**args), written))
    assert isinstance(old, EmailMessage) and isinstance(new, EmailMessage)
    return old, new, written


def tree(msg: EmailMessage) -> list[tuple[Any, ...]]:
    """Each part: its type, its headers (but those made fresh per mail, the encoding and the
    sub-parts' MIME-Version), its defects and its decoded content."""
    fresh = {"date", "message-id", "content-transfer-encoding", "content-type"}
    out = []
    for depth, part in enumerate(msg.walk()):
        headers = [(k.lower(), str(v)) for k, v in part.items()
                   if k.lower() not in fresh and (depth == 0 or k.lower() != "mime-version")]
        content = None if part.is_multipart() else part.get_content()
        out.append((part.get_content_type(), part.get_content_charset(), headers,
                    [type(d).__name__ for d in part.defects], content))
    return out


@pytest.mark.parametrize("pictures", [0, 1, 2])
@pytest.mark.parametrize("case", CASES)
def test_the_written_mail_reads_as_the_built_one(case: dict[str, Any], pictures: int) -> None:
    old, new, written = both(case, pictures)
    assert tree(new) == tree(old)
    assert bytes(new) == written  # as the generator writes what it reads
    assert all(not part.defects for part in new.walk())
    assert new["Date"] and str(new["Message-ID"]).endswith("@host.test>")


def test_no_header_line_is_longer_than_the_policy_allows() -> None:
    for case in CASES:
        raw = compose(**{"from_addr": "games@host.test", "to_addr": "ann@players.test",
                         "subject": "s", **case}).raw
        head = raw.split(b"\n\n", 1)[0]
        assert max(len(line) for line in head.split(b"\n")) <= 78, case
        assert b"\nBcc:" not in head


def test_long_lines_are_quoted_printable_and_short_ones_stay_readable() -> None:
    raw = compose(from_addr="games@host.test", to_addr="ann@players.test", subject="s",
                  text="short é line\n", html=f"<p>{LONG}</p>").raw
    assert b"Content-Transfer-Encoding: 8bit\n\nshort \xc3\xa9 line\n" in raw
    assert b"Content-Transfer-Encoding: quoted-printable" in raw
    assert max(len(line) for line in raw.split(b"\n")) <= 78


_LINE_PIECES = ["a", " ", "\t", ".", "=", "é", "—", "\n", "x" * 70, "y" * 99, "z" * 140,
                " \n", "\t\n", ".\n", "\x00", "\x7f", "\r\n"]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_LINE_PIECES), max_size=30))
def test_quoted_printable_line_by_line_is_the_encoders_own(pieces: list[str]) -> None:
    """Long lines are encoded one by one (and kept), the rest together: the same bytes as
    the encoder gives the whole text, kept lines or not."""
    lines = "".join(pieces).encode("utf-8").splitlines()
    whole = binascii.b2a_qp(b"\n".join(lines) + b"\n", istext=True)
    assert compose_module._qp(lines) == whole
    assert compose_module._qp(lines) == whole  # the second time from the kept lines


def test_a_mail_keeps_its_long_lines_only_when_told_and_never_one_naming_a_secret() -> None:
    compose_module._QP_KEPT.clear()
    shared, secret = "<p>" + "board " * 30 + "</p>", "<p>Your secret is: " + "s" * 90 + "</p>"
    args: dict[str, Any] = {"from_addr": "games@host.test", "to_addr": "ann@players.test",
                            "subject": "s", "text": "x", "html": f"{shared}\n{secret}"}
    kept = compose(**args, keep_lines=True).raw
    assert list(compose_module._QP_KEPT) == [shared.encode() + b"\n"]
    compose_module._QP_KEPT.clear()
    plain = compose(**args).raw
    assert not compose_module._QP_KEPT
    html_part = b'Content-Type: text/html; charset="utf-8"\n' \
        b"Content-Transfer-Encoding: quoted-printable\n\n"
    assert kept.split(html_part)[1].split(b"\n--")[0] == \
        plain.split(html_part)[1].split(b"\n--")[0]


def test_the_message_id_returned_is_the_one_the_mail_carries() -> None:
    mail = compose(from_addr="games@host.test", to_addr="ann@players.test", subject="s",
                   text="x", message_id_domain="host.test")
    assert mail.message()["Message-ID"] == mail.message_id
    assert mail.message_id.startswith("<") and mail.message_id.endswith("@host.test>")


def test_a_domain_beyond_ascii_is_written_in_its_idna_form() -> None:
    mail = compose(from_addr="games@host.test", to_addr="ann@players.test", subject="s",
                   text="x", message_id_domain="jeux.exemple-é.test")
    assert mail.message_id.endswith("@jeux.xn--exemple--i1a.test>")
    assert mail.raw.split(b"\n\n")[0].isascii()


def test_extra_headers_and_attachments_go_where_the_docstring_says() -> None:
    calendar = b"BEGIN:VCALENDAR\r\nMETHOD:REQUEST\r\nEND:VCALENDAR\r\n"
    mail = compose(from_addr="games@host.test", to_addr="ann@players.test", subject="s",
                   text="x", html="<p>x</p>", list_id="reef-1 <reef-1.host.test>",
                   extra_headers=[("Reply-To", "games+t0k3n@host.test\nBcc: v@example.org")],
                   attachments=[Attachment('text/calendar; charset="utf-8"; method=REQUEST',
                                           calendar, "turn 9/invite.ics")])
    msg = mail.message()
    names = [k for k, _ in msg.items()]
    assert names.index("Reply-To") == names.index("List-Id") + 1
    assert names.index("Reply-To") < names.index("MIME-Version")
    assert msg["Bcc"] is None and str(msg["Reply-To"]).startswith("games+t0k3n@host.test")
    assert [p.get_content_type() for p in msg.walk()] == [
        "multipart/mixed", "multipart/alternative", "text/plain", "text/html", "text/calendar"]
    (part,) = [p for p in msg.walk() if p.get_content_type() == "text/calendar"]
    assert part.get_param("method") == "REQUEST" and part.get_filename() == "turn_9_invite.ics"
    assert part.get_content() == calendar.decode()
    assert bytes(msg) == mail.raw and not any(p.defects for p in msg.walk())


@pytest.mark.parametrize("name", ["From", "message-id", "Content-Type", "X Bad", "Bcc:\nX"])
def test_an_extra_header_cannot_stand_in_for_one_the_writer_writes(name: str) -> None:
    with pytest.raises(ValueError, match="is not a header an extra header may set"):
        compose(from_addr="games@host.test", to_addr="ann@players.test", subject="s",
                text="x", extra_headers=[(name, "x")])
