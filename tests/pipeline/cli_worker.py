"""The real ``pbem`` command line as a subprocess, with the test game registered.

``python -m tests.pipeline.cli_worker serve --interval 0.2`` is ``pbem serve`` for a game
the installed package does not know; the configuration comes from ``PBEM_CONFIG``. Each inbox
pass prints ``PASS <statuses>`` so a test can see which worker handled what. With
``PBEM_TEST_FETCH_REVERSED=1`` the worker takes Maildir mail newest first, so two workers
meet in the middle of a wave instead of trailing each other through it. With
``PBEM_TEST_PAIR=<folder>`` (see ``pairing``) a worker that applied its first order waits,
after the commit, until the other worker has applied one too.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from typing import Any

from pbem import cli
from pbem.engine import registry
from pbem.mail.inbound import Claim, FetchedMail, MaildirInbox, _arrival
from pbem.ops import api
from pbem.pipeline.one_mail import Result
from tests.pipeline.pairing import Once
from tests.support.testgame import GAME

_process_inbox = api.process_inbox
_pair = Once()


def _after_commit(result: Result) -> None:
    if result.status == "applied":
        _pair.ready()


def _reporting(*args: Any, **kwargs: Any) -> api.Pass:
    kwargs.setdefault("after_commit", _after_commit)
    done = _process_inbox(*args, **kwargs)
    if done.results or done.delivery.sent:
        print("PASS", " ".join(r.status for r in done.results), f"sent={done.delivery.sent}",
              flush=True)
    return done


def _reversed(self: MaildirInbox, limit: int | None = None, claim: Claim | None = None
              ) -> Iterator[FetchedMail]:
    files = sorted(self._files(), key=lambda item: _arrival(item[0]), reverse=True)
    for key, path in files[:limit]:
        if claim is not None and key not in claim([key]):
            continue  # the other worker's
        try:
            with open(path, "rb") as f:
                raw = f.read()
        except FileNotFoundError:  # taken by the other worker
            continue
        self._taken[key] = path
        yield FetchedMail(key, raw)


if __name__ == "__main__":
    registry.register(GAME)
    if os.environ.get("PBEM_TEST_FETCH_REVERSED"):
        MaildirInbox.fetch = _reversed  # type: ignore[method-assign]
    api.process_inbox = _reporting
    sys.argv = ["pbem", *sys.argv[1:]]
    cli.main()
