"""Every bench scenario is a command of its own, `python -m bench.NAME`, that starts from the
checkout without touching sys.path (the slow tests run each one at its smallest)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]  # where `python -m bench.…` runs
SCENARIOS = ("pipeline", "workers", "burst", "bots", "bot_budget", "engine", "reply",
             "retention")


def test_every_scenario_module_of_bench_is_listed() -> None:
    found = {p.stem for p in (ROOT / "bench").glob("*.py")} | {"pipeline"}
    assert found - {"__init__", "common", "machine"} == set(SCENARIOS)


@pytest.mark.parametrize("name", SCENARIOS)
def test_each_scenario_is_a_command(name: str) -> None:
    done = subprocess.run([sys.executable, "-m", f"bench.{name}", "--help"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("usage: python -m bench."), done.stdout
