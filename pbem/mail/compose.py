"""Composing outgoing emails: threaded, marked automatic, safe against header injection.

:func:`compose` is the one writer of every mail pbem sends; it returns the bytes with their
Message-ID (:class:`Composed`)."""

from __future__ import annotations

import binascii
import random
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from email import message_from_bytes, policy
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import formatdate, make_msgid

from pbem.drawing.pictures import Picture, base64_lines

_UNSAFE = re.compile(r"[\r\n\x00-\x1f\x7f]")


def clean_header(value: str, limit: int = 200) -> str:
    """One line, no control characters: a name or subject can never add a header."""
    return " ".join(_UNSAFE.sub(" ", value).split())[:limit]


def _threadable(message_id: str) -> bool:
    return 0 < len(clean_header(message_id, 1000)) <= 250


def _thread_headers(in_reply_to: str | None, references: list[str] | None,
                    auto_reply: bool, list_id: str | None = None,
                    list_unsubscribe: str | None = None) -> list[tuple[str, str]]:
    """In-Reply-To, References (the last 20, the replied-to id last), Auto-Submitted,
    List-Id and List-Unsubscribe, in that order."""
    headers = []
    # An id longer than a header line can hold is left out: cut short, it would name nothing.
    refs = [clean_header(r) for r in (references or []) if _threadable(r)]
    if in_reply_to and _threadable(in_reply_to):
        headers.append(("In-Reply-To", clean_header(in_reply_to)))
        if clean_header(in_reply_to) not in refs:
            refs.append(clean_header(in_reply_to))
    if refs:
        headers.append(("References", " ".join(refs[-20:])))
    headers.append(("Auto-Submitted", "auto-replied" if auto_reply else "auto-generated"))
    if list_id:
        headers.append(("List-Id", clean_header(list_id)))
    if list_unsubscribe:
        headers.append(("List-Unsubscribe", clean_header(list_unsubscribe)))
    return headers


_LABEL_CUT = re.compile(r"[^A-Za-z0-9-]+")


def list_id(tag: str, domain: str) -> str:
    """A game's ``List-Id`` (RFC 2919): the same for every mail of the game, so a player's
    filter catches its thread, e.g. ``reef-12 <reef-12.games.example.org>``."""
    label = _LABEL_CUT.sub("-", clean_header(tag)).strip("-").lower()[:60] or "game"
    try:
        host = clean_header(domain).encode("idna").decode("ascii")
    except UnicodeError:
        host = "pbem.invalid"
    return f"{label} <{label}.{host or 'pbem.invalid'}>"


def ascii_domain(domain: str) -> str:
    """``domain`` as a Message-ID or Content-ID may carry it: one line, and a name beyond
    ASCII in its IDNA form (``xn--...``), since those ids are never encoded."""
    host = clean_header(domain)
    if host.isascii():
        return host
    try:
        return host.encode("idna").decode("ascii")
    except UnicodeError:
        return "pbem.invalid"


_TAG = re.compile(r"[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*")


def _language(tag: str) -> str:
    """A language tag as a header may carry it (``fr``, ``pt-BR``); anything else is ``en``."""
    return tag if _TAG.fullmatch(tag) else "en"


def game_subject(title: str, tag: str) -> str:
    """The stable subject of a game's thread, e.g. ``[reef-12] Reef Encounter``."""
    return clean_header(f"[{tag}] {title}")


# -- the mail written directly ------------------------------------------------------------------
# Building an EmailMessage parses every header it is given and walks every part (8 ms of a
# status mail's 9, bench/pipeline): the mail is written as the email package's generator would
# write it instead, the same headers, parts and contents. Names, addresses and ids this simple
# go into a header as they are; anything else (a name with a comma, quotes or accents, a long
# References line) is folded by the email package, always 7-bit: text beyond ASCII becomes
# RFC 2047 encoded words, as the generator writes them, since a header's raw UTF-8 is allowed
# only where SMTPUTF8 was negotiated.
_PLAIN_NAME = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~ -]*")
_PLAIN_ADDRESS = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+@[A-Za-z0-9.-]+")
_LINE = 78  # policy.default's max_line_length


def _header(name: str, value: str) -> str:
    line = f"{name}: {value}\n"
    if value.isascii() and "=?" not in value and len(line) <= _LINE + 1:
        return line
    # policy.fold would keep a short line as it is, UTF-8 and all; the header object encodes.
    return policy.default.header_factory(name, value).fold(policy=policy.default)


def _address_header(name: str, display: str, addr: str) -> str:
    display, addr = clean_header(display), clean_header(addr)
    if _PLAIN_ADDRESS.fullmatch(addr) and _PLAIN_NAME.fullmatch(display):
        return _header(name, f"{display} <{addr}>" if display else addr)
    local, _, domain = addr.rpartition("@")
    return _header(name, str(Address(display_name=display, username=local, domain=domain)))


def seven_bit_head(raw: bytes) -> bytes:
    """``raw`` with each header that holds 8-bit text written as :func:`_header` writes it
    (RFC 2047 encoded words), the other headers and the body byte for byte: for a mail
    stored before its headers were written 7-bit, going to a server without SMTPUTF8."""
    ends = [i for i in (raw.find(b"\n\n"), raw.find(b"\r\n\r\n")) if i >= 0]
    end = min(ends) if ends else len(raw)
    head, rest = raw[:end], raw[end:]
    if head.isascii():
        return raw
    crlf = b"\r\n" in head
    fields: list[bytes] = []
    for line in head.splitlines(keepends=True):
        if fields and line[:1] in (b" ", b"\t"):
            fields[-1] += line
        else:
            fields.append(line)
    out = []
    for field in fields:
        name, colon, value = field.partition(b":")
        if field.isascii() or not colon:
            out.append(field)
            continue
        text = " ".join(value.decode("utf-8", "replace").split())
        folded = _header(name.decode("ascii", "replace").strip(), text)
        out.append(folded.replace("\n", "\r\n" if crlf else "\n").encode("ascii", "replace"))
    new = b"".join(out)
    if not head.endswith((b"\n", b"\r")):  # the last header's line end is the blank line's
        new = new.rstrip(b"\r\n")
    return new + rest


Part = tuple[str, bytes]  # a MIME part's header lines and its body


def _text_part(subtype: str, text: str, keep_lines: bool = False) -> Part:
    """A UTF-8 text part, encoded as the content manager chooses for the texts pbem writes:
    7bit or 8bit when every line fits (78 bytes), else quoted-printable (binascii's encoder:
    the stdlib's pure-Python one cost ~1 ms a part; ``keep_lines``: see :func:`_qp`)."""
    lines = text.encode("utf-8", "surrogateescape").splitlines()
    body = b"\n".join(lines) + b"\n"  # as the content manager: an empty text is one newline
    if max(map(len, lines), default=0) <= _LINE:
        cte = "7bit" if body.isascii() else "8bit"
    else:
        cte = "quoted-printable"
        body = _qp(lines) if keep_lines else binascii.b2a_qp(body, istext=True)
    return (f'Content-Type: text/{subtype}; charset="utf-8"\n'
            f"Content-Transfer-Encoding: {cte}\n"), body


# Long lines encoded, kept: a move's mails share most of their lines (the board, the players,
# the footer), and the HTML's, its styles inlined, run to hundreds of bytes each; encoding
# them was most of a mail's composing. Never a line naming a secret.
_QP_KEPT: dict[bytes, bytes] = {}
_QP_KEPT_MAX = 4096  # lines; then the whole store starts again
_QP_LONG = 100  # bytes: shorter lines cost less to encode (together) than to keep


def _qp(lines: list[bytes]) -> bytes:
    """``binascii.b2a_qp(b"\\n".join(lines) + b"\\n", istext=True)``, line by line: the
    encoder reads no further than a line's end (its line length restarts there, and what it
    protects at a line's end is at that end), so a text's encoding is its lines' encodings
    one after the other. Lines with a carriage return (the encoder would then write CRLF for
    every line end) take the whole way."""
    body = b"\n".join(lines) + b"\n"
    if b"\r" in body or not lines:
        return binascii.b2a_qp(body, istext=True)
    kept, out, short = _QP_KEPT.get, [], 0  # lines[short:n]: short ones, encoded together
    for n, line in enumerate(lines):
        if len(line) < _QP_LONG:
            continue
        if short < n:
            out.append(binascii.b2a_qp(b"\n".join(lines[short:n]) + b"\n", istext=True))
        short = n + 1
        line += b"\n"
        done = kept(line)
        if done is None:
            done = binascii.b2a_qp(line, istext=True)
            if b"secret" not in line.lower():
                if len(_QP_KEPT) >= _QP_KEPT_MAX:
                    _QP_KEPT.clear()
                _QP_KEPT[line] = done
        out.append(done)
    if short < len(lines):
        out.append(binascii.b2a_qp(b"\n".join(lines[short:]) + b"\n", istext=True))
    return b"".join(out)


def _boundary(bodies: Sequence[bytes]) -> str:
    """A boundary like the email package's, found in none of the bodies."""
    while True:
        boundary = "=" * 15 + f"{random.randrange(sys.maxsize):019d}" + "=="
        mark = f"--{boundary}".encode("ascii")
        if not any(mark in body for body in bodies):
            return boundary


def _multipart(subtype: str, parts: Sequence[Part]) -> Part:
    """A multipart of ``parts``, laid out as the email package's generator writes it."""
    boundary = _boundary([body for _, body in parts])
    mark = f"--{boundary}\n".encode("ascii")
    inner = b"".join(mark + head.encode("ascii") + b"\n" + body + b"\n" for head, body in parts)
    return (f'Content-Type: multipart/{subtype};\n boundary="{boundary}"\n',
            inner + f"--{boundary}--\n".encode("ascii"))




@dataclass(frozen=True)
class Attachment:
    """A part that follows the body: ``content_type`` as its header reads (parameters
    included, e.g. ``text/calendar; charset="utf-8"; method=REQUEST``), its bytes (written
    base64), and a file name (letters, digits, ``.``, ``_`` and ``-``; others become ``_``).
    ``inline``: shown in the mail where the client can, else offered as a file."""

    content_type: str
    data: bytes
    filename: str = ""
    inline: bool = False


@dataclass(frozen=True)
class Composed:
    """A mail as :func:`compose` wrote it: its bytes, and the Message-ID they carry (minted
    by the writer; nothing reads it back out of the bytes)."""

    raw: bytes
    message_id: str

    def message(self) -> EmailMessage:
        """The mail parsed, for a reader that wants its headers and parts as objects."""
        msg = message_from_bytes(self.raw, policy=policy.default)
        assert isinstance(msg, EmailMessage)
        return msg


# The headers the writer itself writes: an extra header may not stand in for one of them.
_OWN_HEADERS = frozenset({
    "from", "to", "subject", "date", "message-id", "in-reply-to", "references",
    "auto-submitted", "list-id", "list-unsubscribe", "mime-version", "content-language"})
_FIELD_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]{0,75}")
_FILE_CUT = re.compile(r"[^A-Za-z0-9._-]")


def _extra_header(name: str, value: str) -> str:
    if not _FIELD_NAME.fullmatch(name) or name.lower() in _OWN_HEADERS \
            or name.lower().startswith("content-"):
        raise ValueError(f"{name!r} is not a header an extra header may set")
    return _header(name, clean_header(value, 998))


def _attachment_part(attachment: Attachment) -> Part:
    shown = "inline" if attachment.inline else "attachment"
    name = _FILE_CUT.sub("_", attachment.filename)[:100]
    return (_header("Content-Type", clean_header(attachment.content_type, 500))
            + "Content-Transfer-Encoding: base64\n"
            + (f'Content-Disposition: {shown}; filename="{name}"\n' if name
               else f"Content-Disposition: {shown}\n"),
            base64_lines(attachment.data, _LINE).encode("ascii"))


def compose(
    *,
    from_addr: str,
    to_addr: str,
    subject: str,
    text: str,
    to_name: str = "",
    from_name: str = "",
    html: str | None = None,
    in_reply_to: str | None = None,
    references: list[str] | None = None,
    auto_reply: bool = False,
    message_id_domain: str = "pbem.invalid",
    pictures: Sequence[Picture] = (),
    keep_lines: bool = False,
    list_id: str | None = None,
    list_unsubscribe: str | None = None,
    language: str | None = None,
    extra_headers: Sequence[tuple[str, str]] = (),
    attachments: Sequence[Attachment] = (),
) -> Composed:
    """The one mail writer: a plain-text mail (with an HTML alternative if given), as bytes,
    with the Message-ID it minted.

    Every email pbem sends is machine-made, so it always carries Auto-Submitted: replies to a
    player's email are ``auto-replied``, everything else ``auto-generated`` (RFC 3834).
    ``language``: the reader's language tag, as Content-Language (RFC 3282), which screen
    readers and translating clients go by. Every header is 7-bit (RFC 2047 encoded words
    for text beyond ASCII) and no line is longer than 78 bytes; text parts are 7bit, 8bit or
    quoted-printable, line ends ``\\n``.

    The layout, outermost first::

        multipart/mixed                 only with attachments
          multipart/alternative         only with html
            text/plain
            multipart/related           only with pictures
              text/html
              image/png ...             pictures: Content-ID <cid>, the HTML's cid: images
          attachment ...                attachments, in order

    Where more goes:

    - ``extra_headers``: (name, value) pairs written after the threading and list headers,
      in order (e.g. ``("Reply-To", ...)``). A value is cleaned to one line and folded as
      any header; a name the writer writes itself (From, To, Subject, Date, Message-ID,
      In-Reply-To, References, Auto-Submitted, List-*, MIME-Version, Content-*) raises
      ValueError.
    - ``attachments``: parts after the body (:class:`Attachment`), e.g. a ``text/calendar``
      invitation; with any, the body and they go in a ``multipart/mixed``.
    - ``pictures``: the PNGs the HTML shows by ``cid:`` (pbem.drawing.pictures).

    ``keep_lines``: the texts' long lines may be kept encoded for the next mails (only for a
    mail holding no secret: see :func:`_qp`).
    """
    domain = ascii_domain(message_id_domain)
    message_id = make_msgid(domain=domain)
    head = [_address_header("From", from_name, from_addr),
            _address_header("To", to_name, to_addr),
            _header("Subject", clean_header(subject, 250)),
            _header("Date", formatdate(localtime=False)),
            _header("Message-ID", message_id)]
    head += [_header(name, value)
             for name, value in _thread_headers(in_reply_to, references, auto_reply, list_id,
                                                list_unsubscribe)]
    head += [_extra_header(name, value) for name, value in extra_headers]
    head.append("MIME-Version: 1.0\n")
    if language:
        head.append(_header("Content-Language", _language(language)))
    part = _text_part("plain", text, keep_lines)
    if html is not None:
        shown = _text_part("html", html, keep_lines)
        if pictures:  # multipart/related: the HTML's cid: images travel with it
            images = [(f"Content-Type: image/png\nContent-Transfer-Encoding: base64\n"
                       f'Content-Disposition: inline; filename="board{n}.png"\n'
                       f"Content-ID: <{clean_header(pic.cid, 250)}>\n",
                       base64_lines(pic.png, _LINE).encode("ascii"))
                      for n, pic in enumerate(pictures, start=1)]
            shown = _multipart("related", [shown, *images])
        part = _multipart("alternative", [part, shown])
    if attachments:
        part = _multipart("mixed", [part, *map(_attachment_part, attachments)])
    part_head, body = part
    return Composed("".join([*head, part_head, "\n"]).encode("utf-8") + body, message_id)
