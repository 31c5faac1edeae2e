"""Taking seat secrets out of stored mail, so a copy of the database lets no one play.

A secret is blanked wherever a mail's text shows one: the value on a ``secret ...`` line (also
quoted, ``> secret ...``), after ``secret is:`` (a quoted welcome mail), and any exact token
the caller knows. Each text part is decoded (base64, quoted-printable, any charset), blanked,
and encoded back the same way, so the stored mail still reads as the original did; a mail with
nothing to blank is returned byte for byte.
"""

from __future__ import annotations

import base64
import quopri
import re
from collections.abc import Iterable, Iterator, Sequence
from email import message_from_bytes, policy
from email.message import Message

MARK = "[secret-removed]"
# "secret X", "secret: X", "SECRET:X", "Secret = X", "secret is: X", "secret is: <code>X"
# (HTML); X is 8+ characters (secrets are 22), so prose such as "the secret in your mail"
# keeps its words. "secret new" is a command, not a secret. Either ":" or "=" or a space must
# follow the word: "secretariat" is no secret line.
_SECRET_LINE = re.compile(
    r"(?P<head>\bsecret(?:\s+is)?(?:\s*[:=](?:[ \t]|<[^<>\n]{0,60}>)*|(?:[ \t]|<[^<>\n]{0,60}>)+))"
    r"(?!new\b)(?P<value>[^\s<>\"'&]{8,})", re.IGNORECASE)


def blank(text: str, tokens: Iterable[str] = ()) -> str:
    """``text`` with what reads as a secret, and each of ``tokens``, replaced by :data:`MARK`."""
    text = _SECRET_LINE.sub(lambda m: m.group("head") + MARK, text)
    for token in sorted({t for t in tokens if len(t) >= 8}, key=len, reverse=True):
        text = text.replace(token, MARK)
    return text


def shows_secret(text: str, tokens: Sequence[str] = ()) -> bool:
    """Whether :func:`blank` would change ``text`` (``tokens`` as :func:`redact` keeps them:
    8+ characters). Cheaper than blanking: the pattern is tried only where the word
    "secret" stands, not at every character; it may answer True where blank changes nothing
    (then only a needless full parse follows), never the reverse."""
    if any(token in text for token in tokens):
        return True
    # Where the pattern (IGNORECASE) can start: "secret" in the lowered text, with the long
    # s (U+017F), the only other character it takes for one of these letters, made an "s".
    folded = text.lower()
    if len(folded) != len(text):  # a character lowered to two: positions would not match
        return blank(text, tokens) != text
    folded = folded.replace("\u017f", "s")
    at = folded.find("secret")
    while at >= 0:
        found = _SECRET_LINE.match(text, at)
        if found is not None and found.group("value") != MARK:
            return True
        at = folded.find("secret", at + 1)
    return False


def _charset(part: Message, payload: bytes) -> str:
    """The codec this part decodes with (its declared charset, else UTF-8, else cp1252)."""
    for name in (part.get_content_charset() or "utf-8", "utf-8", "cp1252"):
        try:
            payload.decode(name)
            return name
        except (LookupError, UnicodeDecodeError):
            continue
    return "latin-1"  # decodes any byte


def _redact_part(part: Message, tokens: list[str]) -> bool:
    """Blank the secrets of one text part in place; True when something changed."""
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return False
    codec = _charset(part, payload)
    text = payload.decode(codec, errors="replace")
    blanked = blank(text, tokens)
    if blanked == text:
        return False
    data = blanked.encode(codec, errors="replace")
    cte = str(part.get("Content-Transfer-Encoding", "")).strip().lower()
    if cte == "base64":
        part.set_payload(base64.encodebytes(data).decode("ascii"))
    elif cte == "quoted-printable":
        part.set_payload(quopri.encodestring(data).decode("ascii"))
    else:  # 7bit/8bit/binary: the bytes as they were, kept through the generator
        part.set_payload(data.decode("ascii", errors="surrogateescape"))
    return True


# Charsets in which ASCII text keeps its bytes: a secret in them shows in the raw bytes (or in
# their quoted-printable decoding), so a mail in them can be cleared without parsing it.
_PLAIN_CHARSETS = re.compile(rb"^(us-ascii|utf-8|iso-8859-\d+|windows-125\d|cp125\d)$")
# A Content-Type field with its folded lines, matched where _field_starts finds one.
_CONTENT_TYPE = re.compile(rb"content-type:[^\n]*(?:\r?\n[ \t][^\n]*)*")
# "charset*=''utf-16", "charset*0=utf-": RFC 2231 forms the parser reads too; what they
# capture is no plain charset's name, so such a mail takes the full path.
_CHARSET = re.compile(rb"charset[*\d]*\s*=\s*\"?([^\s\";]*)")
# A part redact never reads (it blanks text parts only): a picture's base64 hides no secret.
_NOT_TEXT = re.compile(rb"content-type:[ \t]*(?:image|audio|video|application|font|model)/")
_FIELD = b"content-type:"


def _field_starts(lowered: bytes) -> Iterator[int]:
    """Where a line of ``lowered`` starts with ``content-type:``: what ``^content-type:``
    finds with re.MULTILINE, found by searching for the words (a pattern anchored to line
    starts is tried at every byte: a tenth of a millisecond on a status mail's text)."""
    at = lowered.find(_FIELD)
    while at >= 0:
        if at == 0 or lowered[at - 1] == 0x0A:  # "\n"
            yield at
        at = lowered.find(_FIELD, at + 1)


def _not_text(lowered: bytes) -> bool:
    """Whether a line of ``lowered`` declares a part redact never reads (_NOT_TEXT)."""
    return any(_NOT_TEXT.match(lowered, at) for at in _field_starts(lowered))


def _content_types(lowered: bytes) -> list[bytes]:
    """Every Content-Type field of ``lowered``, with its folded lines."""
    return [found.group(0) for at in _field_starts(lowered)
            if (found := _CONTENT_TYPE.match(lowered, at)) is not None]
_BLANK_LINE = re.compile(rb"\r?\n\r?\n")
_BASE64_LINES = re.compile(rb"(?:[A-Za-z0-9+/=]+\r?\n)+")
_BASE64_CHARS = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=\n"


def _pieces(raw: bytes) -> list[bytes]:
    """``raw`` split at its blank lines (a mail without \\r: one C-level split)."""
    return _BLANK_LINE.split(raw) if b"\r" in raw else raw.split(b"\n\n")


def _base64_lead(piece: bytes) -> int:
    """How many leading bytes of ``piece`` are whole base64 lines (``_BASE64_LINES``).

    A picture's body runs to the boundary line after it (``--``, never a base64 character):
    that stretch is checked in one pass instead of line by line, else the pattern decides.
    A piece of a mail split at its blank lines is a body without its last line end: its
    whole lines are those up to its last line end (the pattern's lines end with one)."""
    if b"\r" not in piece:
        lead, checked = piece, not piece.translate(None, _BASE64_CHARS)
        if not checked:  # more than base64: the lines up to a boundary line
            # (looking for one in a picture's 9 kB took longer than that first look)
            end = piece.find(b"\n--")
            lead = piece if end < 0 else piece[:end + 1]
        lead = lead[:lead.rfind(b"\n") + 1]
        if (lead and not lead.startswith(b"\n") and b"\n\n" not in lead
                and (checked or not lead.translate(None, _BASE64_CHARS))):
            return len(lead)
    lines = _BASE64_LINES.match(piece)
    return 0 if lines is None else lines.end()


def _readable(raw: bytes) -> tuple[bytes, bool]:
    """``raw`` without the base64 bodies of parts redact never reads (a status mail's
    picture: most of its bytes), to look for secrets in; and whether a part that may be text
    is base64 (its words unreadable in the raw bytes: only a full parse can tell).

    Headers and bodies alternate between blank lines: a stretch naming base64 with no
    non-text Content-Type is taken for a text part's headers; one with a non-text type is a
    picture's, and the base64 lines after it are left out. When a body shows the word (a
    text body, or a base64 one by chance) the answer is only a needless full parse."""
    pieces, after_picture, text_base64 = [], False, False
    for piece in _pieces(raw):
        if after_picture:
            piece = piece[_base64_lead(piece):]
        low = piece.lower()
        after_picture = b"base64" in low and _not_text(low)
        text_base64 = text_base64 or (b"base64" in low and not after_picture)
        pieces.append(piece)
    return b"\n\n".join(pieces), text_base64


def might_hold_secret(raw: bytes, tokens: Iterable[str] = ()) -> bool:
    """False only when :func:`redact` would surely find nothing to blank: no base64 text part
    (a status mail's picture is base64, its text is not), only ASCII-compatible charsets, and
    neither the bytes nor their quoted-printable decoding show a secret. Parsing a 50 kB mail
    costs ~100x more than this look, and most mails hold none."""
    if b"\r" in raw and raw.count(b"\r") != raw.count(b"\r\n"):
        return True  # a lone CR ends a line for the parser: its fields are not where we look
    readable, text_base64 = _readable(raw)
    lowered = readable.lower()
    charsets = [c for h in _content_types(lowered) for c in _CHARSET.findall(h)]
    if text_base64 or any(not _PLAIN_CHARSETS.match(c) for c in charsets):
        return True
    known = [t for t in tokens if len(t) >= 8]
    return any(_shows_secret_in_bytes(view, known)
               for view in (readable, quopri.decodestring(readable)))


def _shows_secret_in_bytes(view: bytes, tokens: Sequence[str]) -> bool:
    """:func:`shows_secret` of ``view`` decoded (UTF-8, surrogateescape), without lowering
    the decoded text: a status mail's is not ASCII (a dash, a name), and lowering such a
    text cost some 70 µs of a mail's 450. The pattern can start only where the bytes read
    "secret" in any case: IGNORECASE takes no other character for one of its letters but
    the long s (U+017F, then the text's own way). An ASCII token is in the text exactly
    where its bytes are in ``view`` (no ASCII byte is part of a longer character)."""
    # (b"\xc5" first: one byte is found by memchr, two bytes were 20 µs on 28 kB.)
    if (b"\xc5" in view and b"\xc5\xbf" in view) or not all(t.isascii() for t in tokens):
        return shows_secret(view.decode("utf-8", errors="surrogateescape"), tokens)
    if any(t.encode("ascii") in view for t in tokens):
        return True
    folded = view.lower()  # ASCII letters only, each byte where it was
    at = folded.find(b"secret")
    if at < 0:
        return False
    text = view.decode("utf-8", errors="surrogateescape")
    same = view.isascii()  # then a byte's position is its character's
    byte, start = 0, 0  # else counted on from the last: bytes between two ASCII bytes
    while at >= 0:     # decode alike alone or in the whole
        if same:
            start = at
        else:
            start += len(view[byte:at].decode("utf-8", errors="surrogateescape"))
            byte = at
        found = _SECRET_LINE.match(text, start)
        if found is not None and found.group("value") != MARK:
            return True
        at = folded.find(b"secret", at + 1)
    return False


def redact(raw: bytes, tokens: Iterable[str] = (), parsed: Message | None = None) -> bytes:
    """``raw`` with every secret its text parts show replaced by :data:`MARK`.

    ``parsed``: ``raw`` as already parsed (compat32, unchanged since), so a mail is parsed
    once on its way through the pipeline; its text parts are blanked in place.
    Never raises: a mail the parser cannot take apart is blanked in its raw bytes instead.
    """
    known = sorted({t for t in tokens if len(t) >= 8}, key=len, reverse=True)
    if not might_hold_secret(raw, known):
        return raw
    try:
        msg = parsed if parsed is not None else message_from_bytes(raw, policy=policy.compat32)
        changed = False
        for depth, part in enumerate(msg.walk()):
            if depth > 1000:  # absurd nesting: what is below is blanked as raw bytes
                break
            if not part.is_multipart() and part.get_content_maintype() == "text":
                changed |= _redact_part(part, known)
        out = msg.as_bytes(policy=policy.compat32) if changed else raw
    except Exception:  # never let a strange mail keep its secret or stop the pipeline
        out = raw
    # Whatever the parts held, no secret may survive in the bytes as stored.
    text = out.decode("ascii", errors="surrogateescape")
    blanked = blank(text, known)
    return out if blanked == text else blanked.encode("ascii", errors="surrogateescape")
