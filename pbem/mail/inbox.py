"""What every inbox is: the Inbox protocol, the mail it hands over, its error, and how workers
share a mailbox (claims)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

# Given the keys of waiting mails, the ones this worker may take (the others are another
# worker's): see pbem.store.claims.
Claim = Callable[[Sequence[str]], Collection[str]]
# How many mails a worker claims at a time: enough to read their bodies in one command, few
# enough that a worker near the end of a backlog does not sit on mail another could handle.
CLAIM_AHEAD = 4


@dataclass(frozen=True)
class FetchedMail:
    """One message as it arrived; ``key`` names it for :meth:`Inbox.mark_processed`."""

    key: str
    raw: bytes


class InboxError(Exception):
    """The mailbox cannot be reached or used, even after reconnecting.

    ``fix`` tells the operator what to do; ``transient`` says whether a later try may work
    as it is (the server is down or unreachable) or the settings must change first (the login
    is refused, the folder does not exist).
    """

    def __init__(self, message: str, fix: str, *, transient: bool) -> None:
        super().__init__(message)
        self.fix = fix
        self.transient = transient


class Inbox(Protocol):
    """A source of incoming mail. Mail stays in the inbox until it is marked."""

    def fetch(self, limit: int | None = None, claim: Claim | None = None
              ) -> Iterator[FetchedMail]:
        """The waiting messages, oldest first, at most ``limit`` of them; with ``claim``,
        only those it grants, asked before each message is read."""
        ...

    def mark_processed(self, key: str) -> None:
        """Move a handled message out of the inbox (to the processed folder)."""
        ...

    def mark_failed(self, key: str) -> None:
        """Move a message that could not be handled to the failed folder."""
        ...

    def wait(self, timeout: float) -> bool:
        """Block up to ``timeout`` seconds; True when new mail may be there."""
        ...

    def close(self) -> None:
        """Release the connection or files."""
        ...
