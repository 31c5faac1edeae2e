"""redact's fast path against the full parse: whatever header form a sender's client writes,
``might_hold_secret`` answers False only for a mail whose parse would blank nothing.

Mail from strangers is stored redacted (pbem.pipeline.stored): a secret the fast path
misses stays in the database in clear."""

from __future__ import annotations

import base64
import quopri
from email import message_from_bytes, policy

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.mail.redact import (
    _BASE64_LINES,
    MARK,
    _base64_lead,
    _redact_part,
    _shows_secret_in_bytes,
    might_hold_secret,
    redact,
    shows_secret,
)

SECRET = "Zq8v-LmN3xTr0pQa7sWd1e"


def parse_blanks_something(raw: bytes) -> bool:
    """What redact's full path would do: parse, and blank each text part."""
    msg = message_from_bytes(raw, policy=policy.compat32)
    changed = False
    for part in msg.walk():
        if not part.is_multipart() and part.get_content_maintype() == "text":
            changed |= _redact_part(part, [])
    return changed


CHARSET_PARAMS = [b"charset=%s", b'charset="%s"', b"CHARSET = %s", b"charset*=''%s",
                  b"charset*=us-ascii'en'%s", b"charset*0=%s", b"charset*0*=''%s"]


def a_mail(newline: bytes, charset: str, param: bytes, cte: str) -> bytes:
    data = f"Your orders.\nsecret {SECRET}\n".encode(charset)
    body = {"base64": base64.encodebytes(data), "quoted-printable": quopri.encodestring(data),
            "8bit": data}[cte]
    head = [b"From: ann@players.test", b"Subject: [g-1] orders",
            b"Content-Type: text/plain; " + param % charset.encode(),
            b"Content-Transfer-Encoding: " + cte.encode()]
    return newline.join(head) + newline + newline + body.replace(b"\n", newline)


@settings(max_examples=300, deadline=None)
@given(newline=st.sampled_from([b"\n", b"\r\n", b"\r"]),
       charset=st.sampled_from(["utf-8", "utf-16", "utf-16-le", "utf-32", "latin-1"]),
       param=st.sampled_from(CHARSET_PARAMS),
       cte=st.sampled_from(["base64", "quoted-printable", "8bit"]))
def test_the_fast_path_passes_no_mail_the_parse_would_blank(
        newline: bytes, charset: str, param: bytes, cte: str) -> None:
    raw = a_mail(newline, charset, param, cte)
    if parse_blanks_something(raw):
        assert might_hold_secret(raw), raw
        assert not parse_blanks_something(redact(raw))


def test_a_charset_named_by_rfc2231_parameters_takes_the_full_path() -> None:
    """``charset*=''utf-16``: the parser reads it (get_content_charset), so the fast path
    may not take the mail for ASCII-compatible text."""
    for param in (b"charset*=''%s", b"charset*0=%s"):
        raw = a_mail(b"\n", "utf-16", param, "8bit")
        assert parse_blanks_something(raw)
        assert might_hold_secret(raw)
        assert not parse_blanks_something(redact(raw))


def test_a_mail_with_bare_carriage_returns_takes_the_full_path() -> None:
    """The parser ends a line at a lone CR too: a Content-Type after one is a field."""
    raw = a_mail(b"\r", "utf-16", b"charset=%s", "8bit")
    assert parse_blanks_something(raw)
    assert might_hold_secret(raw)
    assert not parse_blanks_something(redact(raw))


# Pieces a mail's text is made of, where the byte and the character views may part: "secret"
# in any case and with the long s, non-ASCII letters (İ lowers to two characters), bytes no
# UTF-8 reads, the mark, tags and separators the pattern reads between the word and a value.
_PIECES = ["secret", "SeCrEt", "\u017fecret", "secret is:", " ", "\t", "\n", ": ", "=", "<code>",
           "İ", "—", "é", "ABCDEFGHIJ", "abc", MARK, "&lt;", "\udcc5", "\udcbf", "\udce2",
           "Zq8v-LmN3xTr0pQa7sWd1e", "\u017f", "x"]


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=24),
       st.sampled_from([(), ("Zq8v-LmN3xTr0pQa7sWd1e",), ("ABCDEFGHIJ", "é" * 9)]))
def test_the_byte_look_for_a_secret_answers_as_the_texts(pieces: list[str],
                                                          tokens: tuple[str, ...]) -> None:
    """might_hold_secret reads the mail's bytes for what shows_secret finds in their text."""
    view = "".join(pieces).encode("utf-8", errors="surrogateescape")
    text = view.decode("utf-8", errors="surrogateescape")
    assert _shows_secret_in_bytes(view, list(tokens)) == shows_secret(text, list(tokens))


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from([b"QUJD", b"+/=", b"\n", b"\n\n", b"--b--", b"x y", b"\r\n",
                                 b"-", b"Zz09", b"\n--"]), max_size=10))
def test_a_pictures_lines_are_skipped_as_the_line_pattern_would(pieces: list[bytes]) -> None:
    piece = b"".join(pieces)
    found = _BASE64_LINES.match(piece)
    assert _base64_lead(piece) == (found.end() if found else 0), piece
