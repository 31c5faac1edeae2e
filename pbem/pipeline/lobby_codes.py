"""The lobby's codes, derived from the host's key: a seat's code from its row, an address's
"never" code from the address. Only their salted hashes are kept (a seat's), or nothing at
all (an address's), yet the host can write the same code again: a repeated ``join`` mails
the code it mailed before instead of making the earlier mail useless, and every mail to
someone who holds no seat can carry the one code that ends the host's mail to them."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from urllib.parse import quote

from pbem.settings.host import Host
from pbem.store.tables import LobbySeat

# A code a person can copy from a subject: no 0/O, 1/I; 40 bits, tried only by mail.
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_RE = re.compile(r"(?<![A-Za-z0-9])([A-HJ-NP-Za-hj-np-z2-9]{4}-[A-HJ-NP-Za-hj-np-z2-9]{4})"
                     r"(?![A-Za-z0-9])")

# Used when the host was given no key (a test's, a tool's): codes then hold within this
# process, and a code mailed by another process is not mailed again (see join.at).
_PROCESS_KEY = secrets.token_bytes(32)


def _code(host: Host, purpose: str) -> str:
    digest = hmac.new(host.key or _PROCESS_KEY, f"pbem lobby {purpose}".encode(),
                      hashlib.sha256).digest()
    letters = "".join(CODE_ALPHABET[b % len(CODE_ALPHABET)] for b in digest[:8])
    return f"{letters[:4]}-{letters[4:]}"


def seat_code(host: Host, seat: LobbySeat) -> str:
    """The code of a seat: its row, table and address make each seat's its own."""
    return _code(host, f"seat {seat.id} {seat.table_id} {seat.address}")


def never_code(host: Host, address: str) -> str:
    """The code that proves a ``never`` comes from whoever reads ``address``'s mail: only
    mail to that address carries it."""
    return _code(host, f"never {address.strip().lower()}")


def unsubscribe_link(host: Host, address: str) -> str:
    """The ``List-Unsubscribe`` value for mail to ``address``: a mail client sends its mail
    as it is (subject only), and that mail is a proven ``never``. No
    ``List-Unsubscribe-Post``: the host has no web endpoint to take it."""
    return (f"<mailto:{host.mail.from_address}?subject="
            f"{quote('never ' + never_code(host, address))}>")


# A watch's codes: four groups of five (100 bits), a shape no lobby code has (CODE_RE wants
# groups of four), so a reply carrying one is never read as a lobby confirmation.
WATCH_CODE_RE = re.compile(r"(?<![A-Za-z0-9-])((?:[A-HJ-NP-Za-hj-np-z2-9]{5}-){3}"
                           r"[A-HJ-NP-Za-hj-np-z2-9]{5})(?![A-Za-z0-9-])")


def watch_code(host: Host, purpose: str, game_id: int, address: str) -> str:
    """The code that proves a ``watch`` (``purpose`` "watch every", "watch digest"...) or an
    ``unwatch`` of game ``game_id`` comes from whoever reads ``address``'s mail."""
    digest = hmac.new(host.key or _PROCESS_KEY,
                      f"pbem watch {purpose} {game_id} {address.strip().lower()}".encode(),
                      hashlib.sha256).digest()
    letters = "".join(CODE_ALPHABET[b % len(CODE_ALPHABET)] for b in digest[:20])
    return "-".join(letters[i:i + 5] for i in range(0, 20, 5))
