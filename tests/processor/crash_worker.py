"""A pbem worker run as a real subprocess by the crash test.

``python -m tests.processor.crash_worker DB_URL INBOX OUTBOX [--stall]``: one inbox pass; with
``--stall`` it stops after the first commit (before marking the mail or sending anything),
prints COMMITTED and waits to be killed.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from pbem.engine import registry
from pbem.mail.inbound import MaildirInbox
from pbem.mail.outbound import MaildirSender
from pbem.processor import api
from pbem.processor.host import Host
from pbem.processor.pipeline import Result
from pbem.store import init, session_factory
from tests.support.testgame import GAME


def stall(result: Result) -> None:
    print("COMMITTED", result.status, flush=True)
    while True:
        time.sleep(1)


def main(argv: list[str]) -> None:
    url, inbox, outbox = argv[:3]
    registry.register(GAME)
    factory = session_factory(init(url))
    done = api.process_inbox(factory, MaildirInbox(Path(inbox)), MaildirSender(Path(outbox)),
                             Host(from_address="games@host.test"),
                             after_commit=stall if "--stall" in argv else None)
    print("DONE", [r.status for r in done.results], done.delivery.sent, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
