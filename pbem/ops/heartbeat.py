"""How another command knows `pbem serve` is running: serve writes a small file in the data
folder when it starts and after every pass, and removes it when it stops. `pbem game new`
then says the welcomes go out with serve's next pass instead of asking for `pbem process`.

A file, not a row: the database may be what is failing, and a crashed serve leaves a beat
that simply grows old (its process gone, or no pass within twice its interval).
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import time
from pathlib import Path

NAME = "serve.json"
SLACK = 120.0  # seconds a pass may take beyond serve's interval before the beat is stale


def _path(data_dir: Path) -> Path:
    return data_dir / NAME


def beat(data_dir: Path, interval: float) -> None:
    """Serve is alive now; it looks again within ``interval`` seconds."""
    data = {"pid": os.getpid(), "host": socket.gethostname(), "interval": interval,
            "at": time.time()}
    path = _path(data_dir)
    tmp = path.with_name(f".{NAME}.{os.getpid()}")
    with contextlib.suppress(OSError):  # a full disk must not stop serve: the beat just ages
        data_dir.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps(data), encoding="utf-8")
        os.replace(tmp, path)


def stopped(data_dir: Path) -> None:
    """Serve ends: its beat goes (only its own, never another serve's)."""
    path = _path(data_dir)
    with contextlib.suppress(OSError, ValueError):
        if json.loads(path.read_text(encoding="utf-8")).get("pid") == os.getpid():
            path.unlink()


def serving(data_dir: Path, now: float | None = None) -> bool:
    """Is a `pbem serve` running on this data folder: its beat recent, and on this machine
    its process alive?"""
    try:
        data = json.loads(_path(data_dir).read_text(encoding="utf-8"))
        at, interval, pid = float(data["at"]), float(data["interval"]), int(data["pid"])
        host = str(data["host"])
    except (OSError, ValueError, KeyError, TypeError):
        return False
    if (now if now is not None else time.time()) - at > 2 * interval + SLACK:
        return False
    if host == socket.gethostname():
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:  # alive, another user's
            return True
    return True
