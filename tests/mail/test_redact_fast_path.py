"""redact's fast path: a mail is passed through unparsed only when parsing it would find no
secret either."""

from __future__ import annotations

from email.message import EmailMessage

from pbem.drawing.pictures import inline_pictures
from pbem.mail.compose import compose
from pbem.mail.redact import (
    _BASE64_LINES,
    MARK,
    _base64_lead,
    blank,
    might_hold_secret,
    redact,
    shows_secret,
)

SECRET = "Zq8v-LmN3xTr0pQa7sWd1e"


def mail(text: str, html: str | None = None) -> bytes:
    """A mail as the email package writes it (whose content manager writes a text mostly
    beyond ASCII in base64, unlike pbem's writer: redact must read both)."""
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "games@host.test", "Ann <ann@players.test>", \
        "[g-1] Test"
    msg.set_content(text)
    if html is not None:
        msg.add_alternative(html, subtype="html")
    return bytes(msg)


def test_a_status_mail_naming_no_secret_is_returned_as_it_is() -> None:
    raw = mail('Send one order per line, and a line "secret <your secret>".\n' * 50,
               '<p>and a line <code>secret &lt;your secret&gt;</code>.</p>')
    assert not might_hold_secret(raw)
    assert redact(raw) is raw


def test_a_secret_in_quoted_printable_text_split_by_soft_line_breaks_is_found() -> None:
    raw = mail("é" + "x" * 70 + f" secret {SECRET} and more words to fold the line " * 3)
    assert b"=\n" in raw or b"=\r\n" in raw  # quoted-printable with soft line breaks
    assert might_hold_secret(raw)
    assert SECRET.encode() not in redact(raw) and MARK.encode() in redact(raw)


def test_a_base64_part_or_a_known_token_always_takes_the_full_path() -> None:
    raw = mail("日本語のテキスト " * 40 + f"\nsecret {SECRET}\n")
    assert b"base64" in raw.lower() and might_hold_secret(raw)
    assert SECRET.encode() not in redact(raw)
    assert might_hold_secret(mail(f"your code is {SECRET}"), [SECRET])
    assert not might_hold_secret(mail(f"your code is {SECRET}"))


def picture_mail(text: str) -> bytes:
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="300" height="200">'
           '<rect width="90" height="40" fill="#3a7"/></svg>')
    html, pictures = inline_pictures(f"<p>{text}</p>{svg}", "host.test")
    return compose(from_addr="games@host.test", to_addr="ann@players.test",
                   subject="[g-1] Test", text=text, html=html, pictures=pictures).raw


def test_a_pictures_base64_is_not_read_but_the_text_around_it_is() -> None:
    raw = picture_mail('Send your orders with a line "secret <your secret>".')
    assert b"image/png" in raw and b"base64" in raw.lower()
    assert not might_hold_secret(raw)
    assert redact(raw) is raw
    leaky = picture_mail(f"Your orders were played.\nsecret {SECRET}\n")
    assert might_hold_secret(leaky)
    assert SECRET.encode() not in redact(leaky) and MARK.encode() in redact(leaky)


def test_a_base64_text_part_after_a_picture_takes_the_full_path() -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "games@host.test", "ann@players.test", "x"
    msg.set_content("plain")
    msg.add_attachment(bytes(range(256)) * 40, maintype="image", subtype="png",
                       filename="board.png")
    msg.add_attachment(("日本語 " * 30 + f"secret {SECRET}\n").encode(), maintype="text",
                       subtype="plain", cte="base64", filename="notes.txt")
    raw = bytes(msg)
    assert might_hold_secret(raw)
    assert SECRET.encode() not in redact(raw)


SHOWN = [
    f"secret {SECRET}", f"SECRET: {SECRET}", f"\u017fecret {SECRET}",  # the long s matches "s"
    f"x\nsecret is: <code>{SECRET}</code>", f"> Secret = {SECRET}",
    f"İstanbul secret {SECRET}",  # "İ" lowers to two characters
    f"secret {MARK}secret {SECRET}", f"secret secret {SECRET}", f"mysecret {MARK} secret {SECRET}",
]
NOT_SHOWN = [
    "the secret in your mail", "secret new", f"secret {MARK}", "mysecret abcdefghij",
    "secret <your secret>", "İstanbul", f"secret is: <code>{MARK}</code> and secret short",
    "secret-removed", "",
]


def test_shows_secret_answers_as_blanking_would() -> None:
    for text in SHOWN:
        assert shows_secret(text) and blank(text) != text, text
    for text in NOT_SHOWN:
        assert not shows_secret(text) and blank(text) == text, text
    assert shows_secret(f"your code is {SECRET}", [SECRET])


def test_a_pictures_base64_is_skipped_as_the_line_pattern_would() -> None:
    lines = b"QUJD\nREVG+/==\n"
    for piece in (lines + b"--b--\n", lines, lines + b"--b--\n" + lines, b"\n" + lines,
                  lines + b"not base64\n--b--\n", lines.replace(b"\n", b"\r\n") + b"--b\r\n",
                  b"QUJD", b"--b--\n", lines + b"QUJD"):
        found = _BASE64_LINES.match(piece)
        assert _base64_lead(piece) == (found.end() if found else 0), piece


def test_content_type_lines_are_found_where_the_line_start_pattern_finds_them() -> None:
    """redact looks for Content-Type fields by their words, then checks each starts a line:
    the same fields as ``^content-type:`` with re.MULTILINE, on mixed and folded headers."""
    import random
    import re

    from pbem.mail.redact import _content_types, _field_starts, _not_text

    pieces = [b"content-type:", b"content-type: image/png", b"content-type: text/plain;",
              b"\n", b"\r\n", b" charset=utf-8", b"\n\tcharset=x", b"x", b"content-type:\t",
              b"application/pdf", b"\n "]
    rng = random.Random(9)
    for _ in range(3000):
        data = b"".join(rng.choice(pieces) for _ in range(rng.randrange(0, 12)))
        assert list(_field_starts(data)) == \
            [m.start() for m in re.finditer(rb"^content-type:", data, re.MULTILINE)], data
        assert _content_types(data) == re.findall(
            rb"^content-type:[^\n]*(?:\r?\n[ \t][^\n]*)*", data, re.MULTILINE), data
        assert _not_text(data) == (re.search(
            rb"^content-type:[ \t]*(?:image|audio|video|application|font|model)/", data,
            re.MULTILINE) is not None), data
