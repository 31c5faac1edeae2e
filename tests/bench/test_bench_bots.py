"""`python -m bench.bots` plays every game's bot against random seats and against itself, and
prints a line per game and player count with the goals it meets or misses."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from pbem.engine import registry

ROOT = Path(__file__).resolve().parents[2]  # where `python -m bench.…` runs
BENCH = [sys.executable, "-m", "bench.bots"]


def test_a_line_per_game_and_player_count_with_its_goal() -> None:
    name = next(n for n, g in sorted(registry.games().items()) if g.max_players >= 4)
    game = registry.get(name)
    done = subprocess.run([*BENCH, "--game", name, "--games", "2", "--minutes", "0.5"],
                          check=True, capture_output=True, text=True, cwd=ROOT, timeout=300)
    out = done.stdout.splitlines()
    assert out[0].startswith("machine: CPython"), out[0]
    lines = out[2:]
    counts = range(game.min_players, game.max_players + 1)
    assert len(lines) == len(counts) + 1, out
    decision = r"; [\d.]+ ms p50, \d+ ms p95 per decision"
    assert re.fullmatch(rf"{name} 2p: normal vs random, 2 games: normal wins \d+% "
                        rf"\(draws \d+%\) ±\d+%; goal >= 80%: (meets|MISSES){decision}",
                        lines[0]), lines[0]
    assert re.fullmatch(rf"{name} 4p: normal vs 3 random, 2 games: bot's win share \d+% ±\d+% "
                        rf"\(random 25%\); goal >= 50%: (meets|MISSES){decision}",
                        lines[counts.index(4)]), lines[counts.index(4)]
    assert re.fullmatch(rf"{name} 2p: strong vs normal, 2 games: strong wins \d+% \(draws \d+%\) "
                        rf"±\d+%{decision}", lines[-1]), lines[-1]
