"""Running totals of this process that no database row keeps: the CPU its bots spent and the
delivery reports it read. The operator's metrics (pbem.ops.metrics) read them."""

from __future__ import annotations

import threading

_lock = threading.Lock()
_totals: dict[str, float] = {}

BOT_CPU_SECONDS = "bot_cpu_seconds"
BOUNCE_REPORTS = "bounce_reports"


def add(name: str, amount: float = 1.0) -> None:
    with _lock:
        _totals[name] = _totals.get(name, 0.0) + amount


def total(name: str) -> float:
    with _lock:
        return _totals.get(name, 0.0)
