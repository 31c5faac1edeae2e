"""How a mail is kept: its key (the Message-ID, bounded), its bytes (bounded, secrets
blanked), and whether a mail arriving is one already kept."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from email.message import Message

from pbem.mail.reading import IncomingMail, read_message, text_safe
from pbem.mail.redact import blank, redact
from pbem.store.tables import InboundMessage

log = logging.getLogger(__name__)


def synthetic_message_id(raw: bytes) -> str:
    return f"<sha256-{hashlib.sha256(raw).hexdigest()}@pbem.invalid>"


MAX_KEY = 250  # a longer Message-ID (PostgreSQL's btree rows hold ~2,700 bytes) is digested


def message_key(mid: str) -> str:
    """The Message-ID as stored and indexed: kept as is when short and printable ASCII, else a
    digest of it, so no sender can choose a key the unique index cannot hold."""
    if len(mid) <= MAX_KEY and mid.isascii() and mid.isprintable():
        return mid
    digest = hashlib.sha256(mid.encode("utf-8", "surrogatepass")).hexdigest()
    return f"<sha256-{digest}@long-id.pbem.invalid>"


def conflict_key(raw: bytes) -> str:
    """The key of a mail reusing a recorded Message-ID with a different body."""
    return f"<conflict-{hashlib.sha256(raw).hexdigest()}@pbem.invalid>"


def _body_bytes(raw: bytes) -> bytes:
    """What stays the same when one mail arrives twice (relays add headers, not body)."""
    text = raw.replace(b"\r\n", b"\n")
    return text.partition(b"\n\n")[2].rstrip()


def same_mail(stored: InboundMessage, raw: bytes) -> bool:
    """Whether ``raw`` is the mail already stored as ``stored`` (delivered twice). The stored
    copy has its secret blanked and may be cut short (see :func:`seal`), so compare the digest
    of the bytes as received, else the bodies with what reads as a secret blanked on both."""
    if stored.raw_sha256 and stored.raw_sha256 == hashlib.sha256(raw).hexdigest():
        return True
    if len(raw) > 2 * len(stored.raw) + 65536:  # cut short when stored: the digest decides
        return False
    return _body_bytes(redact(stored.raw)) == _body_bytes(redact(raw))


def kept_bytes(raw: bytes, limit: int) -> bytes:
    """What is stored of a mail: all of it, or for a mail over ``limit`` its headers (up to
    ``limit``) and the first ``limit`` bytes of its body: a 28 MB mail costs no 28 MB row."""
    if len(raw) <= limit:
        return raw
    cut = raw.replace(b"\r\n", b"\n").find(b"\n\n")
    head = min(cut if cut >= 0 else limit, limit)
    return raw[:head + limit]


@dataclass(frozen=True)
class Arrived:
    """A mail as it came in: its bytes and what they say, read once (``mail`` None: they
    could not be read). The pipeline and its failure path (duplicate check, quarantine, the
    note to the sender) all take this, so none of them parses the mail again."""

    raw: bytes
    mail: IncomingMail | None

    @classmethod
    def read(cls, raw: bytes, max_bytes: int) -> Arrived:
        """``raw`` read; a mail that cannot be read is kept as bytes (``mail`` None)."""
        try:
            return cls(raw, read_message(raw, max_bytes=max_bytes))
        except Exception:  # the caller keeps the mail whatever it holds
            log.debug("a mail cannot be read", exc_info=True)
            return cls(raw, None)

    @property
    def message_id(self) -> str:
        """Its Message-ID (a digest of its bytes if it has none or cannot be read)."""
        return (self.mail.message_id if self.mail is not None else "") \
            or synthetic_message_id(self.raw)

    @property
    def key(self) -> str:
        """Its Message-ID as stored and indexed (:func:`message_key`)."""
        return message_key(self.message_id)


def safe_reason(reason: str) -> str:
    """A reason any database stores: no NUL or lone surrogate, bounded."""
    return text_safe(reason)[:2000]


def seal(row: InboundMessage, original: bytes, seat: int | None, secret: str | None,
         limit: int | None = None, also: Sequence[str] = (),
         parsed: Message | None = None) -> None:
    """Store the mail without its secret: the digest of the bytes as received (for audit),
    the seat its secret proved (what a reprocess trusts), the text with the secret blanked
    (of a mail over ``limit``, only the part that is kept: see :func:`kept_bytes`); ``also``:
    other secrets it holds (typed into its talk). ``parsed``: ``original`` as the pipeline
    read it, so it is not parsed again (used only when all of it is kept)."""
    if not row.raw_sha256:
        row.raw_sha256 = hashlib.sha256(original).hexdigest()
    if seat is not None:
        row.secret_seat = seat
    tokens = [*([secret] if secret else []), *also]
    kept = original if limit is None else kept_bytes(original, limit)
    row.raw = redact(kept, tokens, parsed=parsed if kept is original else None)
    row.reason = blank(row.reason, tokens)  # an error may quote the line that held it
    row.subject = blank(row.subject, tokens)  # "Re: [reef-1] my secret is ..."
