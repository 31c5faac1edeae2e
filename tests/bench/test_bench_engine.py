"""`python -m bench.engine` runs every registered game (or one, with --game) and reports per
game."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from pbem.engine import registry

ROOT = Path(__file__).resolve().parents[2]  # where `python -m bench.…` runs
BENCH = [sys.executable, "-m", "bench.engine"]


def bench(*args: str) -> str:
    done = subprocess.run([*BENCH, "--games", "4", *args], check=True,
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    return done.stdout


def test_every_registered_game_gets_its_figures() -> None:
    out = bench()
    # What it ran on comes first: figures compare between machines only through the yardstick.
    assert re.match(r"machine: CPython 3\.\d+\.\d+ \(.+\), \w+; pure-Python yardstick "
                    r"[\d,]+ rounds/s", out), out.splitlines()[0]
    for name, game in registry.games().items():
        block = out.split(f"{game.title} ({name}): ")[1].split("wall time")[0]
        assert re.match(rf"4 complete random {game.max_players}-player games", block), block
        assert re.search(r"whole loop .*:\s+[\d,.]+ games/s  [\d,]+/s orders", block)
        assert re.search(r"rules only .*:\s+[\d,.]+ games/s  [\d,]+/s orders", block)


def test_one_game_at_a_player_count() -> None:
    # A game for more than 2 players, so that 2 is not its most.
    name = next(n for n, g in sorted(registry.games().items()) if g.max_players > 2)
    out = bench("--game", name, "--players", "2")
    assert out.count("complete random 2-player games") == 1
    assert f"({name}): 4 complete random 2-player games" in out
    assert "goal" not in out  # a goal is stated for the most players only
