"""What the figures were measured on: the interpreter, and a fixed pure-Python yardstick.

Machines differ (one session's 2-core machine ran the engines at half another's speed) and so
do builds of one CPython version: a distribution's or the official container image's, built
with profile-guided optimisation, runs pure Python some 1.3-1.7x faster than a plain source
build such as pyenv's. A figure from another run compares with this one only after scaling by
the yardstick measured in each.
"""

from __future__ import annotations

import platform
import sys
import time


class _Cell:
    __slots__ = ("x", "y")

    def __init__(self, x: int, y: int) -> None:
        self.x, self.y = x, y

    def near(self, other: _Cell) -> bool:
        return abs(self.x - other.x) + abs(self.y - other.y) == 1


def _yardstick_round() -> int:
    """A fixed mix of what game rules do in Python: calls, attribute and dict reads, small
    objects, tuples and lists, integer arithmetic; returns a checksum so nothing is skipped."""
    table = {i: (i * 7) % 13 for i in range(64)}
    cells = [(i % 8, i // 8) for i in range(64)]
    total = 0
    objects = [_Cell(x, y) for x, y in cells]
    for a in objects:
        for b in objects[::7]:
            if a.near(b):
                total += table[a.x * 8 + a.y]
        total += len([c for c in cells if c[0] == a.x])
    return total


def yardstick(seconds: float = 0.3) -> float:
    """Rounds of the yardstick per CPU second (best of three runs of ``seconds``)."""
    best = 0.0
    for _ in range(3):
        rounds, start = 0, time.process_time()
        while (spent := time.process_time() - start) < seconds:
            _yardstick_round()
            rounds += 1
        best = max(best, rounds / spent)
    return best


def describe() -> str:
    """One line: the interpreter and the yardstick."""
    return (f"machine: {platform.python_implementation()} {platform.python_version()} "
            f"({sys.executable}), {platform.machine()}; pure-Python yardstick "
            f"{yardstick():,.0f} rounds/s (bench/machine.py: scale figures between machines "
            f"by it)")
