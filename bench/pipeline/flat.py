"""An order's cost beside 10 and 1,000 idle games, and a status mail after 10 and 1,000
default orders played at deadlines (goals <= 1.2x)."""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import time

from bench.common import HOST, Table, fresh_db, make_games, ms, order_mail, pad_log
from pbem.ops import api
from pbem.pipeline.one_mail import process_raw
from pbem.store.db import SessionFactory
from pbem_testkit.testgame import GAME


def timed_mail(factory: SessionFactory, table: Table, seat: int, body: str,
               expect: str) -> float:
    """The cost of one mail from ``seat`` through the whole pipeline."""
    raw = order_mail(table.addresses[seat], table.tag, table.secrets[seat], body)
    t0 = time.perf_counter()
    result = process_raw(factory, raw, HOST)
    cost = time.perf_counter() - t0
    assert result.status == expect, result.reason
    return cost


def bench_flat(args: argparse.Namespace) -> None:
    """An order's cost beside 10 and 1,000 idle games; a status after 10 and 1,000 default
    orders played at deadlines. The two sizes take turns, mail by mail, so a change in the
    machine's load meets both."""
    rng = random.Random(5)
    idle: dict[int, list[float]] = {10: [], 1000: []}
    status: dict[int, list[float]] = {10: [], 1000: []}
    with contextlib.ExitStack() as stack:
        games: dict[int, tuple[SessionFactory, list[Table]]] = {}
        timeouts: dict[int, tuple[SessionFactory, Table]] = {}
        for count in (10, 1000):
            factory = stack.enter_context(fresh_db(args.db))
            make_games(factory, count, 5)  # idle: nobody writes to them
            # the games ordered in: a fresh one every 4 orders (the test game's deck is short)
            games[count] = (factory, make_games(factory, (args.flat_mails + 3) // 4, 5))
            factory = stack.enter_context(fresh_db(args.db))
            (table,) = make_games(factory, 1, 5)
            pad_log(factory, table.tag, count, "timeout",  # seats that never mail an order
                    [{"text": "Seat 1's deadline passed; its default was played.",
                      "visible_to": None}])
            timeouts[count] = (factory, table)
        for n in range(args.flat_mails):
            for count in ((10, 1000) if n % 2 else (1000, 10)):
                factory, tables = games[count]
                table = tables[n // 4]
                for seat in (0, 1):  # seat 0's order is timed, seat 1's answer is not
                    with factory() as s:
                        state = api.current_state(s, api.get_game(s, table.tag))
                    cost = timed_mail(factory, table, seat,
                                      GAME.random_order(state, seat, rng), "applied")
                    if seat == 0:
                        idle[count].append(cost)
                factory, table = timeouts[count]
                status[count].append(timed_mail(factory, table, 0, "status", "ignored"))
    p50 = {k: statistics.median(v) for k, v in idle.items()}
    s50 = {k: statistics.median(v) for k, v in status.items()}
    print(f"[flat] order beside 10 / 1,000 idle games: p50 {ms(p50[10])} / {ms(p50[1000])}; "
          f"status after 10 / 1,000 default orders: p50 {ms(s50[10])} / {ms(s50[1000])} "
          f"({args.flat_mails} of each, interleaved)")
    print(f"order cost, 1,000 vs 10 idle games: {p50[1000] / p50[10]:.2f}x  (goal <= 1.2x)")
    print(f"status after 1,000 vs 10 default orders (deadline seats): "
          f"{s50[1000] / s50[10]:.2f}x  (goal <= 1.2x)")
