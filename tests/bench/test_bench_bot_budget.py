"""`python -m bench.bot_budget` at its smallest size prints every figure it promises (its figures
are the bench's to report, not checked here), so the bench cannot rot between runs by hand."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]  # where `python -m bench.…` runs
BENCH = [sys.executable, "-m", "bench.bot_budget"]

pytestmark = pytest.mark.slow


def test_both_modes_print_the_pass_time_and_the_players_reply_latency() -> None:
    done = subprocess.run([*BENCH, "--tables", "2"], check=True,
                          capture_output=True, text=True, cwd=ROOT, timeout=600)
    lines = [x for x in done.stdout.splitlines() if not x.startswith("  (set up")]
    assert lines[0].startswith("machine: CPython"), lines
    figures = r"pass [\d.]+ s \([\d.]+ s CPU\), \d+ bot moves; the player's reply after [\d.]+ s"
    assert re.fullmatch(rf"no pass budget \(before\): {figures}", lines[2]), lines
    assert re.fullmatch(rf"pass budget 0.6 s: {figures}", lines[3]), lines
