"""A rendezvous for two worker processes, so a concurrency test forces the overlap it needs.

Left alone, one worker can do all the work while the other is still starting (a loaded CI
machine makes that likely), and the test then proves nothing about two workers. Each worker
calls ``meet`` at a point where it holds no lock (between transactions): it leaves its mark
in a shared folder and waits until the other has left one too. So each has done one piece of
work before either does a second one; after that they race freely.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ENV = "PBEM_TEST_PAIR"


def meet(folder: Path, timeout: float = 120.0) -> bool:
    """Mark this process as having worked; True once the other has too (False on timeout,
    where the test's own check then reports the idle worker)."""
    (folder / str(os.getpid())).touch()
    deadline = time.monotonic() + timeout
    while sum(1 for _ in folder.iterdir()) < 2:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


class Once:
    """``meet`` the first time ``ready()`` is called (when this worker has done one piece)."""

    def __init__(self, folder: str | None = None) -> None:
        folder = folder if folder is not None else os.environ.get(ENV)
        self.folder = Path(folder) if folder else None

    def ready(self) -> None:
        if self.folder is not None:
            folder, self.folder = self.folder, None
            print("PAIRED" if meet(folder) else "UNPAIRED", file=sys.stderr, flush=True)
