"""`python -m bench.retention` at its smallest: every figure it promises is printed, on each
database under test, so the bench cannot rot between the runs someone makes by hand. Its figures
are not checked: growth is the bench's to report."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.db import bench_databases

ROOT = Path(__file__).resolve().parents[2]  # where `python -m bench.…` runs
BENCH = [sys.executable, "-m", "bench.retention"]


@pytest.mark.slow
@pytest.mark.timeout(900)
@pytest.mark.parametrize("db", bench_databases())
def test_a_short_year_prints_every_figure(db: str | None) -> None:
    args = [*BENCH, "--games", "1", "--checkpoints", "2,4",
            "--sent-days", "1", "--received-days", "1"] + (["--db", db] if db else [])
    done = subprocess.run(args, capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    out = done.stdout
    assert re.search(r"^machine: CPython", out, re.M), out
    assert re.search(r"^1 active 4-player games of .+, one move a day each, 4 simulated days, "
                     rf"on {'PostgreSQL' if db else 'SQLite'}$", out, re.M), out
    assert "with retention (sent mail 1 days, received 1 days after its game):" in out
    assert "with no retention (everything kept):" in out
    days = re.findall(r"^  day +(\d+): +[\d.]+ MB, +[\d.]+ MB per active game", out, re.M)
    assert days == ["2", "4", "2", "4"], out
    assert re.search(r"^goal: under 2 MB per active game with retention: [\d.]+ MB, "
                     r"(meets|MISSES)$", out, re.M), out
    assert re.search(r"^goal: day 4 vs day 2 with retention <= 1.1x: [\d.]+x, (meets|MISSES)$",
                     out, re.M), out
    assert re.search(r"^without retention at day 4: [\d.]+ MB per active game", out, re.M), out
    if db:
        assert re.search(r"PostgreSQL at the end: inboundbytes \d+ live / \d+ dead rows", out)
