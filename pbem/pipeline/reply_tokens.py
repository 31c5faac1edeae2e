"""The reply address of a seat's mail: ``<local>+<token>@<domain>``, whose token proves the
seat, so a reply to the seat's own mail plays without a ``secret`` line.

The token is never kept anywhere: it is an HMAC under the host's key (pbem.ops.hostkey) of
the game, the seat, its address, the seat's secret hash and the day it was issued, so the
host writes and checks it again from the seat's row. A ``secret new`` changes the hash, so
every token issued before stops proving the seat; the day, written in the token, bounds how
long it proves it. Lower-case base32: mail servers often fold the case of a local part.

Where it rides: a ``Reply-To`` header, which every mail client answers to, and the
``mailto:`` links of one-tap orders. Threading headers (In-Reply-To, References) would not
do: many webmails and phone clients drop them.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from datetime import date, datetime
from email.message import Message
from email.parser import BytesHeaderParser

from pbem.i18n import msg
from pbem.mail.redact import MARK, redact
from pbem.settings.host import Host
from pbem.store.packing import join, split
from pbem.store.tables import Game, Seat

MAC_BYTES = 16  # 128 bits
DAY_BYTES = 3  # days since 1970 (until the year 47900)
# In base32: 19 bytes are 31 characters (and one pad, left out).
# Headers that name the address a mail was sent to (the last two as the receiving server
# writes them, when the client's To shows another address, e.g. a Bcc).
RECIPIENT_HEADERS = ("To", "Cc", "Delivered-To", "X-Original-To")
_EPOCH = date(1970, 1, 1)

# What the welcome mail and help say of it, in one line.
REPLY_NEEDS_NO_SECRET = msg("A reply to a mail from the game needs no secret line: just reply "
                            "and write your orders. A new mail needs it.")

# Used when the host was given no key (a test's, a tool's): tokens then hold within this
# process only.
_PROCESS_KEY = secrets.token_bytes(32)


def _day(moment: datetime) -> int:
    return (moment.date() - _EPOCH).days


def _mac(host: Host, game: Game, seat: Seat, day: int) -> bytes:
    text = f"pbem reply {game.id} {seat.index} {seat.address.strip().lower()} " \
           f"{seat.secret_hash} {day}"
    return hmac.new(host.key or _PROCESS_KEY, text.encode("utf-8"),
                    hashlib.sha256).digest()[:MAC_BYTES]


def token(host: Host, game: Game, seat: Seat) -> str:
    """The seat's token for mail sent today (the host's clock)."""
    day = _day(host.clock())
    raw = day.to_bytes(DAY_BYTES, "big") + _mac(host, game, seat, day)
    return base64.b32encode(raw).decode("ascii").rstrip("=").lower()


@dataclass(frozen=True)
class ReplyAddress:
    """Where a reply to a seat's mail goes, and the token in it (blanked in what is kept)."""

    address: str
    token: str

    def shown_in(self, text: str, html: str | None) -> bool:
        """Whether a mail's text shows the token (one-tap orders' links), not only its
        Reply-To line."""
        return self.token in text or (html is not None and self.token in html)


def reply_address(host: Host, game: Game, seat: Seat) -> ReplyAddress:
    """The address a reply to the seat's mail goes to: the host's, plus the seat's token."""
    local, _, domain = host.mail.from_address.rpartition("@")
    made = token(host, game, seat)
    return ReplyAddress(f"{local}+{made}@{domain}", made)


def seat_reply_address(host: Host, game: Game | None, seat: Seat | None,
                       to: str) -> ReplyAddress | None:
    """The reply address of a mail to ``to``: the seat's, when ``to`` is its address."""
    return reply_address(host, game, seat) if game is not None and seat is not None \
        and to == seat.address else None


def _tokens_re(host: Host) -> re.Pattern[str]:
    local, _, domain = host.mail.from_address.rpartition("@")
    return re.compile(rf"(?<![\w.+-]){re.escape(local)}\+([a-z2-7]{{31}}|{re.escape(MARK)})"
                      rf"@{re.escape(domain)}(?![\w.-])", re.IGNORECASE)


@dataclass(frozen=True)
class Found:
    """What a mail's recipient headers show of a token."""

    tokens: tuple[str, ...] = ()  # as written (to blank them in what is kept)
    blanked: bool = False  # a kept mail whose token was blanked when it came in


def found_in(host: Host, raw: bytes, parsed: Message | None = None) -> Found:
    """The tokens in the recipient headers of ``raw`` (To, Cc, Delivered-To, X-Original-To);
    ``parsed``: ``raw`` as already parsed, if it was."""
    try:
        head = parsed if parsed is not None else BytesHeaderParser().parsebytes(raw)
        values = [str(v) for name in RECIPIENT_HEADERS for v in head.get_all(name) or []]
    except Exception:  # an unreadable header proves nothing
        return Found()
    seen = [m.group(1) for v in values for m in _tokens_re(host).finditer(v)]
    return Found(tuple(dict.fromkeys(t for t in seen if t != MARK)), MARK in seen)


@dataclass(frozen=True)
class Check:
    """A token checked against the sender's seats: the seat it proves, else why not."""

    seat: Seat | None = None
    expired: bool = False  # it was a seat's, but issued more than the valid days ago


def valid_days(host: Host, game: Game) -> int:
    """How many days a token proves its seat: the host's ``reply_days``, and never less
    than the game's deadline and a day (a reply on the deadline's last hour still plays)."""
    return max(host.secrets.reply_days, -(-(game.deadline_hours or 0) // 24) + 1)


def check(host: Host, game: Game, candidates: list[Seat], tokens: tuple[str, ...]) -> Check:
    """The seat among ``candidates`` (the sender's seats in ``game``) that one of ``tokens``
    proves, issued within :func:`valid_days`."""
    today = _day(host.clock())
    expired = False
    for text in tokens:
        try:
            raw = base64.b32decode(text.upper() + "=" * (-len(text) % 8))
        except ValueError:
            continue
        if len(raw) != DAY_BYTES + MAC_BYTES:
            continue
        day, mac = int.from_bytes(raw[:DAY_BYTES], "big"), raw[DAY_BYTES:]
        for seat in candidates:
            if hmac.compare_digest(_mac(host, game, seat, day), mac):
                if today - valid_days(host, game) <= day <= today + 1:
                    return Check(seat)
                expired = True
    return Check(None, expired)


def sent_copy(raw: bytes, hidden: list[str], reply_to: ReplyAddress | None,
              shown: bool) -> bytes | None:
    """The copy of ``raw`` kept once it is sent (None: ``raw`` itself, nothing to hide).
    A mail whose only hidden word is ``reply_to``'s token, in its Reply-To line alone (not
    ``shown`` in its text), has it blanked there, in its bytes, and is parsed only if its
    text reads as holding a secret (a player's own words echoed back: see redact)."""
    if not hidden:
        return None
    # Redaction reads text: a mail's pictures (most of its bytes) are set aside while it
    # looks, and put back as they were.
    skeleton, pictures = split(raw)
    if reply_to is not None and not shown and hidden == [reply_to.token]:
        token = reply_to.token.encode("ascii")
        return join(redact(skeleton.replace(token, MARK.encode("ascii"), 1)), pictures)
    return join(redact(skeleton, hidden), pictures)

