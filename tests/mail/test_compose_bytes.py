"""compose_bytes writes the mail compose() builds, directly: parsed back, the two give the same
headers, the same tree of parts and the same contents, with no defect, for every kind of name,
subject, body and picture pbem sends (and some no one should)."""

from __future__ import annotations

import binascii
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.drawing.pictures import inline_pictures
from pbem.mail import compose as compose_module
from pbem.mail.compose import compose, compose_bytes, mail_bytes

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


@pytest.mark.parametrize(("language", "header"), [
    ("nl", "nl"), ("pt-BR", "pt-BR"), ("de\nBcc: v@example.org", "en"), ("", None)])
def test_the_readers_language_is_the_content_language(language: str, header: str | None
                                                      ) -> None:
    for raw in (compose_bytes(from_addr="games@host.test", to_addr="ann@players.test",
                              subject="s", text="x", language=language),
                mail_bytes(compose(from_addr="games@host.test", to_addr="ann@players.test",
                                   subject="s", text="x", language=language))):
        msg = message_from_bytes(raw, policy=policy.default)
        assert msg["Content-Language"] == header and msg["Bcc"] is None


def both(case: dict[str, Any], pictures: int) -> tuple[EmailMessage, EmailMessage]:
    args = {"from_addr": "games@host.test", "to_addr": "ann@players.test", "subject": "s",
            "message_id_domain": "host.test", **case}
    if pictures and args.get("html") is not None:
        svgs = "".join(SVG.format(w=300 + n) for n in range(pictures))
        args["html"], args["pictures"] = inline_pictures(args["html"] + svgs, "host.test")
    old, new = (message_from_bytes(raw, policy=policy.default)
                for raw in (mail_bytes(compose(**args)), compose_bytes(**args)))
    assert isinstance(old, EmailMessage) and isinstance(new, EmailMessage)
    return old, new


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
    old, new = both(case, pictures)
    assert tree(new) == tree(old)
    assert all(not part.defects for part in new.walk())
    assert new["Date"] and str(new["Message-ID"]).endswith("@host.test>")


def test_no_header_line_is_longer_than_the_policy_allows() -> None:
    for case in CASES:
        raw = compose_bytes(**{"from_addr": "games@host.test", "to_addr": "ann@players.test",
                               "subject": "s", **case})
        head = raw.split(b"\n\n", 1)[0]
        assert max(len(line) for line in head.split(b"\n")) <= 78, case
        assert b"\nBcc:" not in head


def test_long_lines_are_quoted_printable_and_short_ones_stay_readable() -> None:
    raw = compose_bytes(from_addr="games@host.test", to_addr="ann@players.test", subject="s",
                        text="short é line\n", html=f"<p>{LONG}</p>")
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
    kept = compose_bytes(**args, keep_lines=True)
    assert list(compose_module._QP_KEPT) == [shared.encode() + b"\n"]
    compose_module._QP_KEPT.clear()
    plain = compose_bytes(**args)
    assert not compose_module._QP_KEPT
    html_part = b'Content-Type: text/html; charset="utf-8"\n' \
        b"Content-Transfer-Encoding: quoted-printable\n\n"
    assert kept.split(html_part)[1].split(b"\n--")[0] == \
        plain.split(html_part)[1].split(b"\n--")[0]
