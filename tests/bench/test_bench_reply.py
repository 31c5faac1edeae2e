"""`python -m bench.reply` reads each adversarial reply and prints its figures beside the
references."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]  # where `python -m bench.…` runs
BENCH = [sys.executable, "-m", "bench.reply"]


@pytest.mark.slow  # about 25 s: a megabyte of each kind, read three ways
def test_the_reply_bench_prints_a_figure_for_every_input() -> None:
    done = subprocess.run([*BENCH, "--rounds", "1"], check=True,
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    lines = done.stdout.splitlines()
    assert lines[0].startswith("machine: CPython")
    rows = [line for line in lines[2:] if re.search(r"\d\.\d{3}s", line)]
    assert len(rows) == 10
    assert all(re.search(r"[\d,]+ +\d+\.\d{3}s +\d+\.\d{3}s", row) for row in rows)
    assert sum("blockquotes" in row and re.search(r"s +\d+\.\d{3}s$", row) is not None
               for row in rows) == 2  # HTML rows show the HTMLParser alone too
    assert re.match(r"worst: \d+\.\d{3} s of CPU \(goal: under 1 s\)", lines[-1])
