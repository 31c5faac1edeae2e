"""Where orders come from: the Inbox protocol (pbem.mail.inbox), a Maildir inbox (the embedded
default, here) and an IMAP inbox (pbem.mail.imap_inbox) that survives dropped connections and
waits with IDLE."""

from __future__ import annotations

import contextlib
import heapq
import mailbox
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path

from pbem.mail.imap_inbox import ImapInbox, no_delay
from pbem.mail.inbox import CLAIM_AHEAD, Claim, FetchedMail, Inbox, InboxError

__all__ = ["CLAIM_AHEAD", "Claim", "FetchedMail", "ImapInbox", "Inbox", "InboxError",
           "MaildirInbox", "no_delay"]


def _arrival(key: str) -> list[tuple[int, str]]:
    """Sort key putting Maildir names in arrival order.

    Names begin with the delivery second, then fields such as ``M<microseconds>`` that are
    not zero-padded (``1.M99P...`` came before ``1.M100P...``), so digits compare as numbers.
    """
    return [(int(part), "") if part.isdigit() else (-1, part)
            for part in re.split(r"(\d+)", key) if part]


class MaildirInbox:
    """A Maildir: new mail in new/ and cur/; handled mail moves to .processed or .failed.

    Moving (not flagging) keeps each pass proportional to the new mail, not the history. The
    folder is read with ``os.scandir`` and only the ``limit`` oldest names are kept, so a
    backlog of 10,000 mails costs no more memory per pass than one of 100 (``mailbox``
    would build a table of every file first). A move is one atomic rename: when two workers
    share the Maildir, exactly one of them moves each mail.
    """

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.box = mailbox.Maildir(self.path, create=True)
        for name in ("processed", "failed"):
            if name not in self.box.list_folders():
                self.box.add_folder(name)
        self._taken: dict[str, str] = {}  # key → file, for the mails this pass fetched

    def _files(self) -> Iterator[tuple[str, str]]:
        """(key, path) of every waiting mail, streamed; the key drops the ``:2,`` flags."""
        for sub in ("new", "cur"):
            with contextlib.suppress(FileNotFoundError), os.scandir(self.path / sub) as it:
                for entry in it:
                    if not entry.name.startswith("."):
                        # plain str: a Path per file would intern every name (pathlib)
                        yield entry.name.split(":", 1)[0], entry.path

    def fetch(self, limit: int | None = None, claim: Claim | None = None
              ) -> Iterator[FetchedMail]:
        key = lambda item: _arrival(item[0])  # noqa: E731
        files = (sorted(self._files(), key=key) if limit is None
                 else heapq.nsmallest(limit, self._files(), key=key))
        for name, path in files:
            if claim is not None and name not in claim([name]):
                continue  # another worker's
            try:
                with open(path, "rb") as f:
                    raw = f.read()
            except FileNotFoundError:  # another worker took it
                continue
            self._taken[name] = path
            yield FetchedMail(name, raw)

    def _move(self, key: str, folder: str) -> None:
        path = self._taken.pop(key, None)
        if path is None:  # not fetched by this instance: look for it
            path = next((p for k, p in self._files() if k == key), None)
            if path is None:
                return
        name = os.path.basename(path)
        name = name if ":" in name else f"{name}:2,"  # names in cur/ carry flags
        with contextlib.suppress(FileNotFoundError):  # moved by another worker meanwhile
            # os.path, not pathlib: a Path per mail would intern every file name
            os.rename(path, os.path.join(self.path, f".{folder}", "cur", name))  # byte-exact

    def mark_processed(self, key: str) -> None:
        self._move(key, "processed")

    def mark_failed(self, key: str) -> None:
        self._move(key, "failed")

    def wait(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if next(self._files(), None) is not None:
                return True
            time.sleep(min(1.0, max(0.0, deadline - time.monotonic())))
        return False

    def close(self) -> None:
        self._taken.clear()
