"""Reading the host's replies to bad mails, for the shared suite and each game's own tests."""

from __future__ import annotations

from tests.support.seated import Table

# The first line of a refusal, by the sender's language (the host's own words).
NOT_PLAYED = {"en": "Your orders were NOT played; nothing changed.",
              "fr": "Vos ordres n'ont PAS été joués ; rien n'a changé."}


def refused(table: Table, body: str, seat: int = 0) -> str:
    """Send ``body``; it must be rejected with nothing changed. Returns the reply's text."""
    before = table.state_json()
    result, reply = table.send(seat, body)
    assert result.status == "rejected", (result, reply)
    assert table.state_json() == before
    return reply


def reason(reply: str) -> str:
    """The line of the reply that says why: the first after the echoed orders."""
    lines = reply.splitlines()
    return next(ln for ln in lines[lines.index(""):] if ln)
