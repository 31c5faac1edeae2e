"""Reading an incoming email: who sent it, is it automatic, and what orders it carries.

Never raises on malformed mail: whatever can be read is returned, so the pipeline can always
record the message and answer it.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage, Message
from email.utils import getaddresses, parseaddr

from pbem.mail.text import html_to_text, strip_quotes_and_signature

_AUTO_FROM = re.compile(r"^(mailer-daemon|postmaster|no-?reply|bounce[s]?)(\+.*)?@", re.I)


@dataclass(frozen=True)
class IncomingMail:
    message_id: str
    from_addr: str
    from_name: str
    subject: str
    date: str
    in_reply_to: str | None
    references: list[str] = field(default_factory=list)
    body_text: str = ""
    automatic: bool = False
    automatic_reason: str = ""
    too_large: bool = False


def _header(msg: Message, name: str) -> str:
    try:
        value = msg.get(name)
    except Exception:  # a header the parser cannot decode: treat as absent
        return ""
    if value is None:
        return ""
    return " ".join(str(value).replace("\x00", "").split())  # NUL: see read_message


def _automatic(msg: Message, from_addr: str) -> str:
    """Why this mail is machine-made (so we must never answer it), or ''."""
    auto = _header(msg, "Auto-Submitted").lower()
    if auto and auto != "no":
        return f"Auto-Submitted: {auto}"
    precedence = _header(msg, "Precedence").lower()
    if precedence in {"bulk", "junk", "list"}:
        return f"Precedence: {precedence}"
    for key in msg:
        if key.lower().startswith("list-"):
            return f"{key} header"
    if msg.get("Return-Path") is not None and _header(msg, "Return-Path").strip() in {"<>", ""}:
        return "empty Return-Path"
    if _AUTO_FROM.match(from_addr):
        return f"sent by {from_addr}"
    if msg.get("X-Autoreply") is not None or msg.get("X-Autorespond") is not None:
        return "X-Autoreply header"
    if msg.get_content_type() == "multipart/report":
        return "delivery status report"
    return ""


def _part_text(part: Message) -> str:
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return ""
    # The declared charset first; mail clients often lie, so then UTF-8, then Windows-1252
    # (a superset of Latin-1 that decodes nearly any byte), never failing.
    declared = part.get_content_charset() or "utf-8"
    for charset in (declared, "utf-8", "cp1252"):
        try:
            return payload.decode(charset)
        except (LookupError, UnicodeDecodeError):  # unknown name, or not really that charset
            continue
    return payload.decode("utf-8", errors="replace")


def _body(msg: Message) -> str:
    """text/plain preferred, else HTML turned into text; attachments ignored."""
    plain: str | None = None
    html: str | None = None
    parts = msg.walk() if msg.is_multipart() else iter([msg])
    for depth, part in enumerate(parts):
        if depth > 200:  # absurd nesting: stop reading
            break
        if part.is_multipart():
            continue
        disposition = (part.get("Content-Disposition") or "").lower()
        if "attachment" in disposition:
            continue
        ctype = part.get_content_type()
        if ctype == "text/plain" and plain is None:
            plain = _part_text(part)
        elif ctype == "text/html" and html is None:
            html = _part_text(part)
    if plain is not None and plain.strip():
        return plain
    if html is not None:
        return html_to_text(html)
    return plain or ""


def read_message(raw: bytes, *, max_bytes: int = 1_000_000) -> IncomingMail:
    """Read ``raw`` into an :class:`IncomingMail`. Oversized bodies are not read at all."""
    too_large = len(raw) > max_bytes
    head = raw if not too_large else raw.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
    msg = message_from_bytes(head, policy=policy.compat32)
    name, addr = parseaddr(_header(msg, "From"))
    addr = addr.strip().lower()
    message_id = _header(msg, "Message-ID").strip()
    if not message_id:
        message_id = f"<synthetic-{hashlib.sha256(raw).hexdigest()[:32]}@pbem.invalid>"
    refs = _header(msg, "References").split()
    # NUL bytes never belong in text (and PostgreSQL text columns refuse them).
    body = "" if too_large else strip_quotes_and_signature(_body(msg).replace("\x00", ""))
    return IncomingMail(
        message_id=message_id,
        from_addr=addr,
        from_name=" ".join(_decoded(name).split()),
        subject=_decoded(_header(msg, "Subject")),
        date=_header(msg, "Date"),
        in_reply_to=_header(msg, "In-Reply-To") or None,
        references=refs,
        body_text=body,
        automatic=bool(reason := _automatic(msg, addr)),
        automatic_reason=reason,
        too_large=too_large,
    )


def _decoded(value: str) -> str:
    """Decode RFC 2047 words, dropping anything that could break a header later."""
    from email.header import decode_header, make_header

    try:
        text = str(make_header(decode_header(value)))
    except Exception:
        text = value
    return re.sub(r"[\r\n\x00]", " ", text)


def recipients(msg: EmailMessage) -> list[str]:
    """The To/Cc addresses of a composed message (for the outbound queue)."""
    return [a for _, a in getaddresses(msg.get_all("To", []) + msg.get_all("Cc", []))]
