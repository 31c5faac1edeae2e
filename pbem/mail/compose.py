"""Composing outgoing emails: threaded, marked automatic, safe against header injection."""

from __future__ import annotations

import binascii
import random
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from email import policy
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import formatdate, make_msgid

from pbem.drawing.pictures import Picture, base64_lines

_UNSAFE = re.compile(r"[\r\n\x00-\x1f\x7f]")


def clean_header(value: str, limit: int = 200) -> str:
    """One line, no control characters: a name or subject can never add a header."""
    return " ".join(_UNSAFE.sub(" ", value).split())[:limit]


def _address(name: str, addr: str) -> Address:
    local, _, domain = clean_header(addr).rpartition("@")
    return Address(display_name=clean_header(name), username=local, domain=domain)


def _threadable(message_id: str) -> bool:
    return 0 < len(clean_header(message_id, 1000)) <= 250


def _thread_headers(in_reply_to: str | None, references: list[str] | None,
                    auto_reply: bool, list_id: str | None = None,
                    list_unsubscribe: str | None = None) -> list[tuple[str, str]]:
    """In-Reply-To, References (the last 20, the replied-to id last), Auto-Submitted,
    List-Id and List-Unsubscribe, in that order, for both writers (:func:`compose`,
    :func:`compose_bytes`)."""
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


_TAG = re.compile(r"[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*")


def _language(tag: str) -> str:
    """A language tag as a header may carry it (``fr``, ``pt-BR``); anything else is ``en``."""
    return tag if _TAG.fullmatch(tag) else "en"


def game_subject(title: str, tag: str) -> str:
    """The stable subject of a game's thread, e.g. ``[reef-12] Reef Encounter``."""
    return clean_header(f"[{tag}] {title}")


@dataclass(frozen=True)
class Attachment:
    """A page a mail carries beside its text (an HTML file: a game's history)."""

    filename: str  # ASCII letters, digits, "-", "_" and "." only: it goes in a header as is
    data: bytes


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
    list_id: str | None = None,
    list_unsubscribe: str | None = None,
    language: str | None = None,
    attachment: Attachment | None = None,
) -> EmailMessage:
    """A plain-text email (with an HTML alternative if given).

    Every email pbem sends is machine-made, so it always carries Auto-Submitted: replies to a
    player's email are ``auto-replied``, everything else ``auto-generated`` (RFC 3834).
    ``language``: the reader's language tag, as Content-Language (RFC 3282), which screen
    readers and translating clients go by.
    """
    msg = EmailMessage()
    msg["From"] = _address(from_name, from_addr)
    msg["To"] = _address(to_name, to_addr)
    msg["Subject"] = clean_header(subject, 250)
    msg["Date"] = formatdate(localtime=False)
    msg["Message-ID"] = make_msgid(domain=clean_header(message_id_domain))
    for name, value in _thread_headers(in_reply_to, references, auto_reply, list_id,
                                       list_unsubscribe):
        msg[name] = value
    msg.set_content(text)
    if html is not None:
        msg.add_alternative(html, subtype="html")
        if pictures:  # multipart/related: the HTML's cid: images travel with it
            part = msg.get_body(("html",))
            assert isinstance(part, EmailMessage)
            for n, pic in enumerate(pictures, start=1):
                # The headers as for the PNG itself; the body is its base64, encoded once
                # for every seat's mail (the content manager would encode it per mail).
                part.add_related(b"", maintype="image", subtype="png", cid=f"<{pic.cid}>",
                                 disposition="inline", filename=f"board{n}.png")
                related = part.get_payload()
                assert isinstance(related, list)
                image = related[-1]
                assert isinstance(image, EmailMessage)
                image.set_payload(base64_lines(pic.png, msg.policy.max_line_length or 78))
    if attachment is not None:
        msg.add_attachment(attachment.data, maintype="text", subtype="html",
                           filename=attachment.filename)
    if language:  # after the content: setting it drops a Content-Language set before
        msg["Content-Language"] = _language(language)
    return msg


SPLICE_MIN = 4096  # a base64 body shorter than this is not worth splicing


def mail_bytes(msg: EmailMessage) -> bytes:
    """``bytes(msg)``, byte for byte, without the generator walking big base64 bodies.

    The generator writes a body line by line (a 100 kB picture is ~1,300 writes), then the
    whole text is encoded; each such body is swapped for a one-line token while the rest is
    written, then put back in place. Only bodies it would write unchanged (base64 text
    with \n line ends, under a \n line separator) are spliced."""
    if msg.policy.linesep != "\n":
        return bytes(msg)
    swapped: list[tuple[EmailMessage, str, bytes]] = []
    try:
        for part in msg.walk():
            payload = None if part.is_multipart() else part.get_payload()
            if (not isinstance(payload, str) or len(payload) < SPLICE_MIN
                    or str(part.get("Content-Transfer-Encoding", "")).lower() != "base64"
                    or not payload.isascii() or "\r" in payload):
                continue
            mark = f"pbem-splice-{len(swapped)}-{id(part):x}" + (
                "\n" if payload.endswith("\n") else "")
            part.set_payload(mark)
            swapped.append((part, payload, mark.encode("ascii")))
        raw = bytes(msg)
    finally:
        for swapped_part, payload, _ in swapped:
            swapped_part.set_payload(payload)
    for _, payload, token in swapped:
        if raw.count(token) != 1:  # never guess (a body quoting the token): the plain way
            return bytes(msg)
        head, _, tail = raw.partition(token)
        raw = head + payload.encode("ascii") + tail
    return raw


# -- the same mail, written directly -----------------------------------------------------------
# Names, addresses and ids this simple go into a header as they are; anything else (a name
# with a comma, quotes or accents, a long References line) is folded by the email package,
# always 7-bit: text beyond ASCII becomes RFC 2047 encoded words, as the generator writes
# them, since a header's raw UTF-8 is allowed only where SMTPUTF8 was negotiated.
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


def compose_bytes(
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
    attachment: Attachment | None = None,
) -> bytes:
    """The mail :func:`compose` makes, as the bytes :func:`mail_bytes` would give (the same
    headers, parts and contents; fresh boundaries, Message-ID and Date; text parts written
    7bit, 8bit or quoted-printable), written directly: building an EmailMessage parses every
    header it is given and walks every part, 8 ms of a status mail's 9 (bench/pipeline.py).

    A cid or domain the writer would have to encode (not ASCII) takes the EmailMessage way.
    ``keep_lines``: the texts' long lines may be kept encoded for the next mails (a mail
    holding no secret: see :func:`_qp`)."""
    if not all((p.cid + message_id_domain).isascii() for p in pictures) or \
            not message_id_domain.isascii():
        return mail_bytes(compose(
            from_addr=from_addr, to_addr=to_addr, subject=subject, text=text, to_name=to_name,
            from_name=from_name, html=html, in_reply_to=in_reply_to, references=references,
            auto_reply=auto_reply, message_id_domain=message_id_domain, pictures=pictures,
            list_id=list_id, list_unsubscribe=list_unsubscribe, language=language,
            attachment=attachment))
    head = [_address_header("From", from_name, from_addr),
            _address_header("To", to_name, to_addr),
            _header("Subject", clean_header(subject, 250)),
            _header("Date", formatdate(localtime=False)),
            _header("Message-ID", make_msgid(domain=clean_header(message_id_domain)))]
    head += [_header(name, value)
             for name, value in _thread_headers(in_reply_to, references, auto_reply, list_id,
                                                list_unsubscribe)]
    head.append("MIME-Version: 1.0\n")
    if language:
        head.append(_header("Content-Language", _language(language)))
    part = _text_part("plain", text, keep_lines)
    if html is not None:
        shown = _text_part("html", html, keep_lines)
        if pictures:  # multipart/related: the HTML's cid: images travel with it
            images = [(f"Content-Type: image/png\nContent-Transfer-Encoding: base64\n"
                       f'Content-Disposition: inline; filename="board{n}.png"\n'
                       f"Content-ID: <{pic.cid}>\n",
                       base64_lines(pic.png, _LINE).encode("ascii"))
                      for n, pic in enumerate(pictures, start=1)]
            shown = _multipart("related", [shown, *images])
        part = _multipart("alternative", [part, shown])
    if attachment is not None:  # multipart/mixed: the text, then the file beside it
        part = _multipart("mixed", [part, (
            f'Content-Type: text/html; charset="utf-8"\nContent-Transfer-Encoding: base64\n'
            f'Content-Disposition: attachment; filename="{attachment.filename}"\n',
            base64_lines(attachment.data, _LINE).encode("ascii"))])
    part_head, body = part
    return "".join([*head, part_head, "\n"]).encode("utf-8") + body


# -- the reply address, added to a mail already written ------------------------------------


def with_reply_to(raw: bytes, address: str) -> bytes:
    """``raw`` with a ``Reply-To: address`` header (first, before the others), the rest byte
    for byte: the seat's reply address (pbem.pipeline.reply_tokens), added after the mail is
    written, whichever writer wrote it."""
    line = _address_header("Reply-To", "", address)
    if raw.partition(b"\n")[0].endswith(b"\r"):  # a mail written with CRLF line ends
        line = line.replace("\n", "\r\n")
    return line.encode("ascii") + raw
