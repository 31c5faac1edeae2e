"""Per-order cost in a game whose log holds 10 and then 1,000 entries (must not grow with
history), and, for comparison, with status mails that read the whole log."""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bench.common import HOST, fresh_db, make_games, ms, order_mail, pad_log, pct
from pbem.ops import api
from pbem.pipeline.one_mail import process_raw
from pbem.store import queries
from pbem.store.db import SessionFactory
from pbem_testkit.testgame import GAME


def per_order_cost(factory: SessionFactory, history: int, orders: int) -> list[float]:
    (table,) = make_games(factory, 1, orders // 2 + 1)
    pad_log(factory, table.tag, history, "order",
            [{"text": "Seat 1 played a card.", "visible_to": None},
             {"text": "You played 7.", "visible_to": [0]}])
    rng = random.Random(3)
    costs = []
    for n in range(orders):
        seat = n % 2
        with factory() as s:
            state = api.current_state(s, api.get_game(s, table.tag))
        raw = order_mail(table.addresses[seat], table.tag, table.secrets[seat],
                         GAME.random_order(state, seat, rng))
        t0 = time.perf_counter()
        result = process_raw(factory, raw, HOST)
        costs.append(time.perf_counter() - t0)
        assert result.status == "applied", result.reason
    return costs


def bench_history(args: argparse.Namespace) -> None:
    results: dict[str, float] = {}
    for label, old in (("", False), (" (old full-log read)", True)):
        saved = queries.log_since_last_order
        if old:  # what status mails did before: read the game's whole log
            queries.log_since_last_order = lambda s, g, _seat, _kinds=(): queries.log(s, g)  # type: ignore[assignment]
        try:
            for history in (10, 1000):
                with fresh_db(args.db) as factory:
                    costs = per_order_cost(factory, history, args.history_orders)
                p50 = statistics.median(costs)
                results[f"{history}{label}"] = p50
                print(f"[history] {history:5d} log entries{label}: per order p50 {ms(p50)}, "
                      f"p95 {ms(pct(costs, 0.95))}  ({len(costs)} orders)")
        finally:
            queries.log_since_last_order = saved
        print(f"[history] ratio 1,000 vs 10{label}: "
              f"{results[f'1000{label}'] / results[f'10{label}']:.2f}x")
