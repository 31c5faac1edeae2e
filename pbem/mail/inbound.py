"""Where orders come from: the Inbox protocol and the Maildir inbox (the embedded default).

IMAP lives in :mod:`pbem.mail.imap`.
"""

from __future__ import annotations

import mailbox
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol


@dataclass(frozen=True)
class FetchedMail:
    key: str
    raw: bytes


class Inbox(Protocol):
    def fetch(self, limit: int | None = None) -> Iterator[FetchedMail]: ...
    def mark_processed(self, key: str) -> None: ...
    def mark_failed(self, key: str) -> None: ...
    def wait(self, timeout: float) -> bool: ...
    def close(self) -> None: ...


class MaildirInbox:
    """A Maildir: new mail in new/ and cur/; handled mail moves to .processed or .failed.

    Moving (not flagging) keeps each pass proportional to the new mail, not the history.
    """

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.box = mailbox.Maildir(self.path, create=True)
        self._processed = self._folder("processed")
        self._failed = self._folder("failed")

    def _folder(self, name: str) -> mailbox.Maildir:
        if name in self.box.list_folders():
            return self.box.get_folder(name)
        return self.box.add_folder(name)

    def fetch(self, limit: int | None = None) -> Iterator[FetchedMail]:
        keys = sorted(self.box.iterkeys())
        if limit is not None:
            keys = keys[:limit]
        for key in keys:
            try:
                raw = self.box.get_bytes(key)
            except KeyError:  # another worker took it
                continue
            yield FetchedMail(key, raw)

    def _move(self, key: str, dest: mailbox.Maildir) -> None:
        try:
            msg = self.box.get_message(key)
        except KeyError:
            return
        dest.add(msg)
        self.box.discard(key)

    def mark_processed(self, key: str) -> None:
        self._move(key, self._processed)

    def mark_failed(self, key: str) -> None:
        self._move(key, self._failed)

    def wait(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(True for _ in self.box.iterkeys()):
                return True
            time.sleep(min(1.0, max(0.0, deadline - time.monotonic())))
        return False

    def close(self) -> None:
        self.box.close()
