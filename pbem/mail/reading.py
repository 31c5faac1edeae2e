"""Reading an incoming email: who sent it, is it automatic, and what orders it carries.

Never raises on malformed mail: whatever can be read is returned, so the pipeline can always
record the message and answer it. A mail whose structure cannot be read at all (MIME nested a
thousand levels deep) comes back with its headers and ``unreadable`` saying why.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage, Message
from email.parser import BytesParser
from email.utils import getaddresses, parseaddr
from typing import Any

from pbem.mail.reply import new_text
from pbem.mail.text import html_to_text

MAX_DEPTH = 200  # MIME nesting followed when looking for the text
MAX_PARTS = 10_000  # parts looked at; a mail's text may sit after thousands of attachments
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
    # The new text of the mail: its quotes left out, its signature lines blank or cut, so a
    # line's number is its number in what the sender typed (pbem.mail.reply).
    body_text: str = ""
    # Signature and mobile-client lines ("Sent from my iPhone") under the new text, each with
    # its line number there: set aside, never read as orders unmentioned.
    signature: tuple[tuple[int, str], ...] = ()
    automatic: bool = False
    automatic_reason: str = ""
    too_large: bool = False
    unreadable: str = ""  # why the body could not be read at all ("" when it could)
    bounces: tuple[Bounce, ...] = ()  # failed recipients of a delivery status report
    # The language the sender's client says the mail is in (Content-Language's first tag,
    # "fr" of "fr-FR"), "" if none: a note to a sender who has no seat is written in it.
    language: str = ""
    # The message as parsed (compat32), unchanged, for whatever reads it again (redaction);
    # None when only its headers were read (too large, unreadable).
    parsed: Message | None = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class Bounce:
    """One recipient a delivery status report (RFC 3464) says could not be reached."""

    recipient: str
    status: str  # e.g. 5.1.1
    diagnostic: str = ""
    # The Message-ID of the mail that failed, as the report's original-message part (a
    # message/rfc822 or text/rfc822-headers part) gives it; "" when it gives none.
    original_id: str = ""


def text_safe(value: str) -> str:
    """``value`` with lone surrogates (from broken UTF-7 or UTF-16) and NULs replaced: a
    string that can always be encoded, stored and put in a reply."""
    return value.encode("utf-8", "replace").decode("utf-8").replace("\x00", "")


def _header(msg: Message, name: str) -> str:
    try:
        value = msg.get(name)
    except Exception:  # a header the parser cannot decode: treat as absent
        return ""
    if value is None:
        return ""
    # NUL and undecodable bytes (kept by the parser as lone surrogates) never reach the
    # database or a reply: PostgreSQL refuses NUL, and no codec writes a lone surrogate.
    return " ".join(text_safe(str(value)).split())


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
    text = _decoded_payload(payload, part.get_content_charset() or "utf-8")
    if str(part.get_param("format") or "").lower() == "flowed":
        return unflowed(text, delsp=str(part.get_param("delsp") or "").lower() == "yes")
    return text


def _decoded_payload(payload: bytes, declared: str) -> str:
    # The declared charset first; mail clients often lie, so then UTF-8, then Windows-1252
    # (a superset of Latin-1 that decodes nearly any byte), never failing.
    for charset in (declared, "utf-8", "cp1252"):
        try:
            return payload.decode(charset)
        except (LookupError, UnicodeDecodeError):  # unknown name, or not really that charset
            continue
    return payload.decode("utf-8", errors="replace")


def unflowed(text: str, *, delsp: bool) -> str:
    """A format=flowed text (RFC 3676) as its writer typed it: a line ending in a space
    goes on in the next line of the same quote depth (the space dropped with delsp=yes);
    space-stuffing undone."""
    out: list[str] = []
    pending: list[str] = []
    pending_depth = -1
    for line in text.replace("\r\n", "\n").split("\n"):
        body = line.lstrip(">")
        depth = len(line) - len(body)
        body = body[1:] if body.startswith(" ") else body
        if pending and depth != pending_depth:
            out.append(">" * pending_depth + " " * bool(pending_depth) + "".join(pending))
            pending = []
        soft = body.endswith(" ") and body != "-- "
        pending.append(body[:-1] if soft and delsp else body)
        pending_depth = depth
        if not soft:
            out.append(">" * depth + " " * bool(depth) + "".join(pending))
            pending = []
    if pending:
        out.append(">" * pending_depth + " " * bool(pending_depth) + "".join(pending))
    return "\n".join(out)


def _leaves(msg: Message) -> Iterator[Message]:
    """The non-multipart parts in order, without recursion, within MAX_DEPTH and MAX_PARTS."""
    stack: list[tuple[Message, int]] = [(msg, 0)]
    seen = 0
    while stack and seen < MAX_PARTS:
        part, depth = stack.pop()
        seen += 1
        if not part.is_multipart():
            yield part
            continue
        payload = part.get_payload()
        if depth < MAX_DEPTH and isinstance(payload, list):
            stack.extend((p, depth + 1) for p in reversed(payload) if isinstance(p, Message))


def _body(msg: Message) -> str:
    """text/plain preferred, else HTML turned into text; attachments ignored."""
    plain: str | None = None
    html: str | None = None
    for part in _leaves(msg):
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


def _bounces(msg: Message) -> tuple[Bounce, ...]:
    """The failed recipients of a multipart/report; report-type=delivery-status."""
    if (msg.get_content_type() != "multipart/report"
            or str(msg.get_param("report-type") or "").lower() != "delivery-status"):
        return ()
    found: list[Bounce] = []
    parts = msg.get_payload()
    original = _original_id(parts if isinstance(parts, list) else [])
    for part in parts if isinstance(parts, list) else []:
        if not isinstance(part, Message) or part.get_content_type() != "message/delivery-status":
            continue
        # The stdlib parses the status part as a list of header blocks: one per message,
        # then one per recipient (RFC 3464 section 2.1).
        blocks = part.get_payload()
        if not isinstance(blocks, list):
            continue
        for block in blocks:
            if not isinstance(block, Message):
                continue
            action = _header(block, "Action").lower()
            recipient = _header(block, "Final-Recipient") or _header(block, "Original-Recipient")
            if action != "failed" or not recipient:
                continue
            address = recipient.partition(";")[2].strip() or recipient
            found.append(Bounce(parseaddr(address)[1].lower() or address.lower(),
                                _header(block, "Status")[:20],
                                text_safe(_header(block, "Diagnostic-Code"))[:300], original))
    return tuple(found)


def _original_id(parts: list[Any]) -> str:
    """The Message-ID of the failed mail: in the report's message/rfc822 part (the message
    itself) or text/rfc822-headers part (its headers only), RFC 6522 section 3."""
    for part in parts:
        if not isinstance(part, Message):
            continue
        kind = part.get_content_type()
        if kind == "message/rfc822":
            inner = part.get_payload()
            original = inner[0] if isinstance(inner, list) and inner else None
        elif kind == "text/rfc822-headers":
            payload = part.get_payload(decode=True)
            text = payload.decode("ascii", "replace") if isinstance(payload, bytes) else ""
            original = BytesParser(policy=policy.compat32).parsebytes(
                text[:65536].encode("ascii", "replace"), headersonly=True)
        else:
            continue
        if isinstance(original, Message):
            return _header(original, "Message-ID").strip()[:250]
    return ""


def _parse(raw: bytes) -> tuple[Message, str]:
    """The parsed message, and why only its headers could be read ("" if all could)."""
    try:
        return message_from_bytes(raw, policy=policy.compat32), ""
    except RecursionError:  # the stdlib parser recurses once per nesting level
        head = BytesParser(policy=policy.compat32).parsebytes(raw, headersonly=True)
        return head, "its MIME parts are nested too deeply to read"


def read_message(raw: bytes, *, max_bytes: int = 1_000_000) -> IncomingMail:
    """Read ``raw`` into an :class:`IncomingMail`. Oversized bodies are not read at all."""
    too_large = len(raw) > max_bytes
    head = raw if not too_large else raw.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
    msg, unreadable = _parse(head)
    name, addr = parseaddr(_header(msg, "From"))
    addr = addr.strip().lower()
    message_id = _header(msg, "Message-ID").strip()
    if not message_id:
        message_id = f"<synthetic-{hashlib.sha256(raw).hexdigest()[:32]}@pbem.invalid>"
    refs = _header(msg, "References").split()
    # NUL bytes never belong in text (and PostgreSQL text columns refuse them).
    read = None
    try:
        read = None if too_large or unreadable else new_text(text_safe(_body(msg)))
        bounces = _bounces(msg)
    except RecursionError:
        read, bounces, unreadable = None, (), "its MIME parts are nested too deeply to read"
    return IncomingMail(
        message_id=message_id,
        from_addr=addr,
        from_name=" ".join(_decoded(name).split()),
        subject=_decoded(_header(msg, "Subject")),
        date=_header(msg, "Date"),
        in_reply_to=_header(msg, "In-Reply-To") or None,
        references=refs,
        body_text=read.text if read is not None else "",
        signature=read.signature if read is not None else (),
        automatic=bool(reason := _automatic(msg, addr)),
        automatic_reason=reason,
        too_large=too_large,
        unreadable=unreadable,
        bounces=bounces,
        language=_language(_header(msg, "Content-Language")),
        parsed=None if too_large or unreadable else msg,
    )


def _language(value: str) -> str:
    """The primary subtag of a Content-Language header's first language (RFC 3282)."""
    primary = value.split(",")[0].strip().lower().split("-")[0]
    return primary if primary.isascii() and primary.isalpha() else ""


def _decoded(value: str) -> str:
    """Decode RFC 2047 words, dropping anything that could break a header later."""
    from email.header import decode_header, make_header

    try:
        text = str(make_header(decode_header(value)))
    except Exception:
        text = value
    return text_safe(re.sub(r"[\r\n\x00]", " ", text))


def recipients(msg: EmailMessage) -> list[str]:
    """The To/Cc addresses of a composed message (for the outbound queue)."""
    return [a for _, a in getaddresses(msg.get_all("To", []) + msg.get_all("Cc", []))]
