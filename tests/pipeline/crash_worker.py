"""A pbem worker run as a real subprocess by the crash tests.

``python -m tests.pipeline.crash_worker DB_URL INBOX OUTBOX [--stall] [--smtp PORT]``: one
inbox pass (Maildir in; Maildir out, or SMTP on 127.0.0.1:PORT without login). With
``--stall`` it stops after the first commit (before marking the mail or sending anything),
prints COMMITTED and waits to be killed.

``PBEM_CRASH_AT=<point>:<n>`` makes the worker SIGKILL itself (a real kill -9, no cleanup) at
the n-th time it reaches ``point``:

- ``fetched``: a mail was read from the inbox, nothing recorded yet;
- ``committed``: its transaction committed, the mail not yet moved out of the inbox;
- ``before-send``: an outbox row is claimed, the email not yet handed to the server;
- ``after-send``: the server accepted the email, the row not yet marked sent.

``PBEM_TEST_LEASE=<seconds>`` sets the outbox claim's lease (default 300).

With ``PBEM_TEST_PAIR=<folder>`` (see ``pairing``) a worker that sent its first mail waits,
before opening its next transaction, until the other worker has sent one too.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path

from sqlmodel import Session

from pbem.engine import registry
from pbem.mail.inbound import Claim, FetchedMail, Inbox, MaildirInbox
from pbem.mail.outbound import MaildirSender, Sender, SmtpSender
from pbem.mail.settings import SmtpSettings
from pbem.ops import api
from pbem.ops.services import start
from pbem.pipeline.one_mail import Result
from pbem.settings.config import Limits, MailConfig
from pbem.settings.host import Host
from pbem.store import init, session_factory
from tests.pipeline.pairing import Once
from tests.support.testgame import GAME

POINTS = ("fetched", "committed", "before-send", "after-send")


class Crash:
    """Counts the crash points passed and dies at the one named in PBEM_CRASH_AT."""

    def __init__(self, spec: str) -> None:
        point, _, n = spec.partition(":")
        assert not spec or point in POINTS, f"unknown crash point {point!r}"
        self.point, self.n = point, int(n or 1)
        self.seen: dict[str, int] = {}

    def at(self, point: str) -> None:
        self.seen[point] = self.seen.get(point, 0) + 1
        if point == self.point and self.seen[point] == self.n:
            print("CRASH", point, self.n, flush=True)
            os.kill(os.getpid(), signal.SIGKILL)


class CrashingInbox:
    def __init__(self, inner: MaildirInbox, crash: Crash) -> None:
        self.inner, self.crash = inner, crash

    def fetch(self, limit: int | None = None, claim: Claim | None = None
              ) -> Iterator[FetchedMail]:
        for fetched in self.inner.fetch(limit, claim):
            self.crash.at("fetched")
            yield fetched

    def mark_processed(self, key: str) -> None:
        self.inner.mark_processed(key)

    def mark_failed(self, key: str) -> None:
        self.inner.mark_failed(key)

    def wait(self, timeout: float) -> bool:
        return self.inner.wait(timeout)

    def close(self) -> None:
        self.inner.close()


class CrashingSender:
    def __init__(self, inner: Sender, crash: Crash) -> None:
        self.inner, self.crash = inner, crash
        self.sent = 0  # mails the server accepted

    def send(self, msg: EmailMessage) -> None:
        self.crash.at("before-send")
        self.inner.send(msg)
        self.sent += 1
        self.crash.at("after-send")


def stall(result: Result) -> None:
    print("COMMITTED", result.status, flush=True)
    while True:
        time.sleep(1)


def main(argv: list[str]) -> None:
    url, inbox_path, outbox = argv[:3]
    start()  # the services `pbem` sets up before any command
    registry.register(GAME)
    crash = Crash(os.environ.get("PBEM_CRASH_AT", ""))
    opened = session_factory(init(url))
    pair = Once()

    def factory() -> Session:  # between transactions: no lock is held while pairing waits
        if sending.sent:
            pair.ready()
        return opened()

    sender: Sender = MaildirSender(Path(outbox))
    if "--smtp" in argv:
        port = int(argv[argv.index("--smtp") + 1])
        sender = SmtpSender(SmtpSettings(host="127.0.0.1", port=port, security="none",
                                         timeout=10.0))
    inbox: Inbox = CrashingInbox(MaildirInbox(Path(inbox_path)), crash)

    def committed(result: Result) -> None:
        if "--stall" in argv:
            stall(result)
        crash.at("committed")

    sending = CrashingSender(sender, crash)
    # A mail claimed by a worker killed before marking it waits out the claim's lease; the
    # crash tests restart one worker at once and set PBEM_TEST_LEASE=0 not to wait for it.
    lease = int(os.environ.get("PBEM_TEST_LEASE", "300"))
    done = api.process_inbox(factory, inbox, sending,
                             Host(mail=MailConfig(from_address="games@host.test"),
                                  limits=Limits(send_lease_seconds=lease)),
                             after_commit=committed)
    print("DONE", [r.status for r in done.results], done.delivery.sent, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
