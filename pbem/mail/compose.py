"""Composing outgoing emails: threaded, marked automatic, safe against header injection."""

from __future__ import annotations

import re
from collections.abc import Sequence
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import formatdate, make_msgid

from pbem.mail.pictures import Picture, base64_lines

_UNSAFE = re.compile(r"[\r\n\x00-\x1f\x7f]")


def clean_header(value: str, limit: int = 200) -> str:
    """One line, no control characters: a name or subject can never add a header."""
    return " ".join(_UNSAFE.sub(" ", value).split())[:limit]


def _address(name: str, addr: str) -> Address:
    local, _, domain = clean_header(addr).rpartition("@")
    return Address(display_name=clean_header(name), username=local, domain=domain)


def _threadable(message_id: str) -> bool:
    return 0 < len(clean_header(message_id, 1000)) <= 250


def game_subject(title: str, tag: str) -> str:
    """The stable subject of a game's thread, e.g. ``[reef-12] Reef Encounter``."""
    return clean_header(f"[{tag}] {title}")


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
) -> EmailMessage:
    """A plain-text email (with an HTML alternative if given).

    Every email pbem sends is machine-made, so it always carries Auto-Submitted: replies to a
    player's email are ``auto-replied``, everything else ``auto-generated`` (RFC 3834).
    """
    msg = EmailMessage()
    msg["From"] = _address(from_name, from_addr)
    msg["To"] = _address(to_name, to_addr)
    msg["Subject"] = clean_header(subject, 250)
    msg["Date"] = formatdate(localtime=False)
    msg["Message-ID"] = make_msgid(domain=clean_header(message_id_domain))
    # An id longer than a header line can hold is left out: cut short, it would name nothing.
    refs = [clean_header(r) for r in (references or []) if _threadable(r)]
    if in_reply_to and _threadable(in_reply_to):
        msg["In-Reply-To"] = clean_header(in_reply_to)
        if clean_header(in_reply_to) not in refs:
            refs.append(clean_header(in_reply_to))
    if refs:
        msg["References"] = " ".join(refs[-20:])
    msg["Auto-Submitted"] = "auto-replied" if auto_reply else "auto-generated"
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
