"""Growth bench: a year of a busy host, compressed into minutes, through the real pipeline.

    python -m bench.retention                          # 100 games, 365 days (long: ~2 h)
    python -m bench.retention --games 10               # the same per game, ~10x faster
    python -m bench.retention --games 4 --days 60 --checkpoints 10,30,60
    python -m bench.retention --db postgresql+psycopg://postgres@127.0.0.1:5432/test

Always ``--games`` active 4-player games of the showcase game (``--game`` another), each
making one move a day: the order is mailed into a Maildir inbox, one ``pbem process``-like
pass reads it, applies it, logs it, renders and sends every seat's mail to a Maildir outbox
(emptied each day, as a mail server would take it). A game that ends is replaced by a new
one, so as many games are always active. Every clock the host reads (time-machine) moves a
simulated day per day, and with retention the daily prune ``pbem serve`` makes runs at the
end of each day with the defaults of ``[retention]``.

Prints the database's size on disk per active game after the ``--checkpoints`` days, with
the default retention and, for comparison, without it (the same games, seeds and orders),
and the goals: under 2 MB per active game, and at most 1.1x between the last two
checkpoints with retention (flat after the retention horizon). On SQLite the size is the
file after a WAL checkpoint; on PostgreSQL ``pg_database_size``, and the pruned tables'
dead rows at the end (how much a vacuum has yet to make reusable).
"""

from __future__ import annotations

import argparse
import mailbox
import random
import shutil
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import time_machine
from sqlalchemy import Engine, text

from bench.common import HOST, Table, fresh_db, order_mail
from bench.machine import describe
from pbem.engine import registry
from pbem.engine.contract import localise_order
from pbem.mail.inbound import MaildirInbox
from pbem.mail.outbound import MaildirSender
from pbem.ops import api, retention
from pbem.ops.services import start
from pbem.settings.config import Retention
from pbem.store import space
from pbem.store.db import SessionFactory

START = datetime(2027, 1, 4, 8, 0, tzinfo=UTC)
MB = 1 << 20


def new_game(factory: SessionFactory, rules: Any, players: int, serial: int) -> Table:
    addresses = [f"p{serial}-{i}@players.test" for i in range(players)]
    with factory() as s:
        game, secrets = api.create_game(s, rules.name, [(f"P{i + 1}", a)
                                                        for i, a in enumerate(addresses)],
                                        seed=f"growth-{serial}", host=HOST)
        s.commit()
        return Table(game.tag, addresses, secrets)


def engine_of(factory: SessionFactory) -> Engine:
    with factory() as s:
        bind = s.get_bind()
    assert isinstance(bind, Engine)
    return bind


def measured(engine: Engine) -> int:
    if engine.dialect.name == "sqlite":
        with engine.connect() as conn:
            conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
    return space.size_on_disk(engine)


def dead_rows(engine: Engine) -> str:
    if engine.dialect.name != "postgresql":
        return ""
    with engine.connect() as conn:
        rows = conn.execute(text(
            "SELECT relname, n_live_tup, n_dead_tup FROM pg_stat_user_tables WHERE relname IN "
            "('inboundbytes', 'outboundbytes', 'snapshot') ORDER BY relname")).all()
    return "; ".join(f"{r[0]} {r[1]} live / {r[2]} dead rows" for r in rows)


def year(args: argparse.Namespace, db: str | None, keep: Retention | None,
         checkpoints: list[int]) -> dict[int, int]:
    """One simulated run; the database's bytes at each checkpoint day."""
    rules = registry.get(args.game) if args.game else registry.showcase()
    sizes: dict[int, int] = {}
    work = Path(tempfile.mkdtemp(prefix="pbem-growth-"))
    try:
        with fresh_db(db) as factory:
            engine = engine_of(factory)
            inbox_box = mailbox.Maildir(work / "inbox", create=True)
            inbox, sender = MaildirInbox(work / "inbox"), MaildirSender(work / "outbox")
            rng = random.Random(11)
            serial = 0
            with time_machine.travel(START, tick=True):
                games = []
                for _ in range(args.games):
                    serial += 1
                    games.append(new_game(factory, rules, args.players, serial))
            for day in range(1, max(checkpoints) + 1):
                with time_machine.travel(START + timedelta(days=day), tick=True):
                    with factory() as s:
                        for seated in games:
                            state = api.current_state(s, api.get_game(s, seated.tag))
                            seat = sorted(rules.waiting_for(state))[0]
                            order = localise_order(rules, rules.random_order(state, seat, rng),
                                                   "en")
                            inbox_box.add(order_mail(seated.addresses[seat], seated.tag,
                                                     seated.secrets[seat], order))
                    while True:
                        done = api.process_inbox(factory, inbox, sender, HOST, limit=100_000)
                        bad = [r for r in done.results if r.status != "applied"]
                        if bad:
                            raise RuntimeError(f"day {day}: {bad[0].status}: {bad[0].reason}")
                        if not done.results:
                            break
                    with factory() as s:
                        for i, seated in enumerate(games):
                            if rules.outcome(api.current_state(
                                    s, api.get_game(s, seated.tag))) is not None:
                                serial += 1
                                games[i] = new_game(factory, rules, args.players, serial)
                    api.process_inbox(factory, inbox, sender, HOST)  # the new welcomes
                    for sent in (work / "outbox" / "new").glob("*"):
                        sent.unlink()  # taken by the mail server
                    if keep is not None:
                        retention.prune(factory, sent_days=keep.sent_mail_days,
                                        received_days=keep.received_mail_days)
                if day in checkpoints:
                    sizes[day] = measured(engine)
                    print(f"  day {day:3}: {sizes[day] / MB:8.1f} MB, "
                          f"{sizes[day] / args.games / MB:6.2f} MB per active game "
                          f"({serial - args.games} games ended so far)", flush=True)
            extra = dead_rows(engine)
            if extra:
                print(f"  PostgreSQL at the end: {extra}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return sizes


def main() -> None:
    start()  # the services `pbem` sets up before any command
    parser = argparse.ArgumentParser(prog="python -m bench.retention",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="active games (default 100)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--game", help="a game of `pbem games` (default: the showcase game)")
    parser.add_argument("--checkpoints", default="30,180,365",
                        help="days to measure at; the run lasts to the last (default "
                        "30,180,365)")
    parser.add_argument("--days", type=int, help="shorthand: measure at 30, half and this")
    parser.add_argument("--db", help="a PostgreSQL URL (a fresh database is made beside it)")
    parser.add_argument("--only", choices=("retention", "none"),
                        help="run one of the two (default: both)")
    parser.add_argument("--sent-days", type=int, default=Retention.sent_mail_days,
                        help="[retention] sent_mail_days for the run with retention")
    parser.add_argument("--received-days", type=int, default=Retention.received_mail_days,
                        help="[retention] received_mail_days for the run with retention")
    args = parser.parse_args()
    checkpoints = sorted({int(d) for d in args.checkpoints.split(",")})
    if args.days:
        checkpoints = sorted({min(30, args.days), args.days // 2 or 1, args.days})
    print(describe())
    rules = registry.get(args.game) if args.game else registry.showcase()
    keep = Retention(args.sent_days, args.received_days)
    print(f"{args.games} active {args.players}-player games of {rules.title}, one move a day "
          f"each, {checkpoints[-1]} simulated days, on "
          f"{'PostgreSQL' if args.db else 'SQLite'}")
    results: dict[str, dict[int, int]] = {}
    for label, policy in (("retention", keep), ("none", None)):
        if args.only and args.only != label:
            continue
        told = (f"retention (sent mail {keep.sent_mail_days} days, received "
                f"{keep.received_mail_days} days after its game)" if policy
                else "no retention (everything kept)")
        print(f"with {told}:", flush=True)
        t0 = time.perf_counter()
        results[label] = year(args, args.db, policy, checkpoints)
        print(f"  ({time.perf_counter() - t0:.0f} s)")
    if "retention" in results:
        kept = results["retention"]
        last, before = checkpoints[-1], checkpoints[-2] if len(checkpoints) > 1 else None
        per_game = kept[last] / args.games / MB
        print(f"goal: under 2 MB per active game with retention: {per_game:.2f} MB, "
              f"{'meets' if per_game < 2 else 'MISSES'}")
        if before is not None:
            ratio = kept[last] / kept[before]
            print(f"goal: day {last} vs day {before} with retention <= 1.1x: {ratio:.2f}x, "
                  f"{'meets' if ratio <= 1.1 else 'MISSES'}")
        if "none" in results:
            print(f"without retention at day {last}: {results['none'][last] / args.games / MB:.2f}"
                  f" MB per active game ({results['none'][last] / kept[last]:.1f}x)")


if __name__ == "__main__":
    main()
