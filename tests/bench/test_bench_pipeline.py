"""`python -m bench.pipeline`'s default run (its goals), at its smallest sizes: every figure it
promises is printed, on each database under test, so the bench cannot rot between the runs
someone makes by hand. Its figures are not checked: speed is the bench's to report."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.db import bench_databases
from tests.support.mailservers import DOVECOT

ROOT = Path(__file__).resolve().parents[2]  # where `python -m bench.…` runs
BENCH = [sys.executable, "-m", "bench.pipeline"]
STAGES = ("fetch", "parse", "rules", "store", "render", "pictures", "compose", "redact", "send",
          "other")
GOALS = ("overhead vs peer", "clock pass, 1,000 vs 10 timed games",
         "order cost, 1,000 vs 10 idle games",
         "status after 1,000 vs 10 default orders (deadline seats)")


# A whole bench run: a long run (CI runs it in its slow step), minutes on a busy machine.
@pytest.mark.slow
@pytest.mark.timeout(900)
@pytest.mark.parametrize("db", bench_databases())
def test_the_goal_run_prints_every_figure(db: str | None) -> None:
    args = [*BENCH, "--reef-games", "1", "--reef-rounds", "2",
            "--clock-passes", "2", "--flat-mails", "2", "--burst-games", "2",
            "--worker-games", "2", "--worker-rounds", "1"] + (["--db", db] if db else [])
    done = subprocess.run(args, capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    out = done.stdout
    assert re.search(r"^machine: CPython .* pure-Python yardstick [\d,]+ rounds/s", out, re.M)
    assert re.search(r"4-player games of Reef Encounter, \d+ mails sent \(mean [\d.]+ kB\), "
                     r"real IMAP \(pymap\) and SMTP \(aiosmtpd\)", out), out
    stages = re.search(r"per order by stage: (.*)", out)
    assert stages is not None, out
    for stage in STAGES:
        assert re.search(rf"\b{stage} [\d.]+ ms", stages.group(1)), stage
    database = "PostgreSQL" if db else "SQLite"
    for goal in GOALS:
        line = re.search(rf"^{re.escape(goal)}: ([\d.]+)x  \(goal <= ([\d.]+)x(; \w+)?\)$", out,
                         re.M)
        assert line is not None, (goal, out)
        assert float(line.group(1)) > 0
    assert f"(goal <= 1.5x; {database})" in out
    # A burst at idle `pbem serve` workers: 1 worker, and 2 on PostgreSQL (where Dovecot is).
    if DOVECOT is not None:
        for workers in (1, 2) if db else (1,):
            assert re.search(rf"^burst: p95 reply after [\d.]+ s, drained in [\d.]+ s  "
                             rf"\({workers} workers?\)$", out, re.M), out
    # Two workers against one, on PostgreSQL, each run's exactly-once checked.
    if db and DOVECOT is not None:
        assert re.search(r"^2 workers vs 1 on PostgreSQL: [\d.]+x orders/s  \(goal >= 1\.7x; "
                         r"8 orders in 2 games; fastest of 1 runs each", out, re.M), out
        assert len(re.findall(r"^\[workers\] \d worker\(s\): .* exactly-once checked$", out,
                              re.M)) == 2, out
    # The peer of the goal carries the same pictures; a text-only peer is shown beside it.
    assert re.search(r"mails of the same size and pictures\)", out), out
    assert re.search(r"a text-only peer \(no pictures\): [\d.]+ ms per order; overhead vs "
                     r"it: [\d.]+x", out), out
