"""A player's mail to the host, as its bytes arrive: the one builder every test folder uses."""

from __future__ import annotations

from email.message import EmailMessage
from email.utils import make_msgid

HOST_ADDRESS = "games@host.test"


def mail(frm: str, subject: str, body: str, *, message_id: str | None = None,
         headers: dict[str, str] | None = None, name: str = "", lang: str = "") -> bytes:
    """From ``frm`` (shown as ``name`` if given) to the host; ``lang``: its
    Content-Language; ``headers``: any others, added as given."""
    msg = EmailMessage()
    msg["From"] = f"{name} <{frm}>" if name else frm
    msg["To"] = HOST_ADDRESS
    msg["Subject"] = subject
    msg["Message-ID"] = message_id or make_msgid(domain="players.test")
    for k, v in (headers or {}).items():
        msg[k] = v
    msg.set_content(body)
    if lang:  # after set_content, which drops it
        msg["Content-Language"] = lang
    return bytes(msg)
