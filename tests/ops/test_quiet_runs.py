"""A healthy run says nothing on stderr: a newcomer reads anything there as an error.

Run as an operator would, in a new process with stderr a pipe (as under cron or a supervisor).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def pbem(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PBEM_HOME": str(tmp_path / "data")}
    env.pop("PBEM_CONFIG", None)
    return subprocess.run([sys.executable, "-c", "from pbem.cli import main; main()", *args],
                          env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300,
                          check=False)


def test_init_prints_nothing_on_stderr(tmp_path: Path) -> None:
    done = pbem(tmp_path, "init")
    assert done.returncode == 0, done.stderr
    assert "database ready" in done.stdout.lower()
    assert done.stderr == ""


def test_the_first_demo_prints_nothing_on_stderr(tmp_path: Path) -> None:
    done = pbem(tmp_path, "demo", "--game", "reef2018", "--players", "2", "--seed", "q1")
    assert done.returncode == 0, done.stderr
    assert "replay verified" in done.stdout
    assert done.stderr == ""
