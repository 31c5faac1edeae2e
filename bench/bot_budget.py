"""Bot CPU across many tables: one clock pass over 100 tables of Reef Encounter, each three
strong bots and a resigned player a strong bot stands in for, with and without the shared
budget per pass (``[bots] seconds_per_pass``), in the same run.

    python -m bench.bot_budget                      # 100 tables, 0.02 s per bot move (~2 min)
    python -m bench.bot_budget --tables 20 --seconds-per-move 0.05
    python -m bench.bot_budget --db postgresql+psycopg://postgres@127.0.0.1:5432/test

A player at a table of people mails an order just as a pass turns to the clocks (after its
inbox fetch), so it waits for that pass; the next pass answers it. Mail in and out are
Maildirs. Prints, for each mode: the pass's wall time, the bots' moves and CPU in it, and the
player's reply latency (mail in the inbox → reply written to the outbox). A strong bot takes
up to its budget per move; the host's default is 1 s, which would make the run take hours,
so the bench scales the per-move budget down (``--seconds-per-move``) and the pass budget
with it (the default 30 s per pass at 1 s per move is 0.6 s at 0.02 s). Without a budget a
pass plays every table's 12 moves (1,200 moves: at 1 s each, 20 minutes of CPU); with it,
about the budget's worth, whatever the number of tables.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import tempfile
import time
from collections.abc import Iterator
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from typing import Any

from bench.common import fresh_db
from bench.machine import describe
from pbem.engine import registry
from pbem.i18n import msg
from pbem.mail.inbound import Claim, FetchedMail, MaildirInbox
from pbem.mail.outbound import MaildirSender
from pbem.ops import api
from pbem.ops.services import start
from pbem.pipeline import controllers, stand_in
from pbem.settings.config import Bots, MailConfig
from pbem.settings.host import Host
from pbem.store import queries
from pbem.store.db import SessionFactory

GAME = "reef-encounter"
DEFAULT_PASS_BUDGET = Host().bots.seconds_per_pass  # at the default 1 s per move
ALICE, BOB = "alice@players.test", "bob@players.test"


def make_tables(factory: SessionFactory, host: Host, tables: int) -> tuple[str, str]:
    """``tables`` tables of a resigned player and three strong bots, and one of two people;
    the people's tag and Alice's secret."""
    rules = registry.get(GAME)
    bots = {1: "strong", 2: "strong", 3: "strong"}
    with factory() as s:
        for n in range(tables):
            game, _ = api.create_game(
                s, GAME, [("Hana", f"hana{n}@players.test"),
                          *[(controllers.bot_name(i, bots[i]), "") for i in bots]],
                seed=f"budget-{n}", host=host, bots=bots,
                clocks=api.ClockSettings(timeout_policy="bot"))
            hana = next(x for x in queries.seats(s, game.id or 0) if x.index == 0)
            hana.status = "resigned"
            stand_in.take_over(s, rules, game, api.current_state(s, game), hana, "strong",
                               msg("{name} resigned.", name="Hana"))
        people, secrets = api.create_game(s, GAME, [("Alice", ALICE), ("Bob", BOB)],
                                          seed="budget-people", host=host)
        s.commit()
        return people.tag, secrets[0]


def order_mail(factory: SessionFactory, tag: str, secret: str) -> bytes:
    with factory() as s:
        game = api.get_game(s, tag)
        order = registry.get(GAME).default_order(api.current_state(s, game), 0)
    mail = EmailMessage()
    mail["From"], mail["To"] = ALICE, "games@bench.test"
    mail["Subject"], mail["Message-ID"] = f"Re: [{tag}]", make_msgid(domain="players.test")
    mail.set_content(f"{order}\nsecret {secret}")
    return bytes(mail)


class ArrivesDuringThePass:
    """The inbox; once its fetch is done, the player's mail lands in it (too late for this
    pass), and the moment is kept."""

    def __init__(self, inner: MaildirInbox, folder: Path, raw: bytes) -> None:
        self.inner, self.folder, self.raw = inner, folder, raw
        self.arrived: float | None = None

    def fetch(self, limit: int | None = None, claim: Claim | None = None) -> Iterator[FetchedMail]:
        yield from self.inner.fetch(limit, claim)
        (self.folder / "new" / "alice.eml").write_bytes(self.raw)
        self.arrived = time.perf_counter()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


class Stamped(MaildirSender):
    """The outbox, noting when the first mail to Alice is written."""

    answered: float | None = None

    def send_bytes(self, raw: bytes) -> None:
        super().send_bytes(raw)
        head = raw.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
        if self.answered is None and ALICE.encode() in head.lower():
            self.answered = time.perf_counter()


@dataclasses.dataclass
class Figures:
    pass_seconds: float
    bot_moves: int
    cpu: float
    latency: float


def run(db: str | None, tables: int, per_move: float, per_pass: float) -> Figures:
    host = Host(mail=MailConfig(from_address="games@bench.test"),
                bots=Bots(seconds_per_move=per_move, seconds_per_pass=per_pass))
    with fresh_db(db) as factory, tempfile.TemporaryDirectory(prefix="pbem-bench-") as d:
        t0 = time.perf_counter()
        tag, secret = make_tables(factory, host, tables)
        print(f"  (set up {tables} tables in {time.perf_counter() - t0:.1f} s)", flush=True)
        inbox_dir, outbox = Path(d) / "in", Stamped(Path(d) / "out")
        for sub in ("new", "cur", "tmp"):
            (inbox_dir / sub).mkdir(parents=True)
        starved = dataclasses.replace(host.bots, seconds_per_pass=1e-9)  # no bot plays yet
        api.process_inbox(factory, MaildirInbox(inbox_dir), outbox,
                          dataclasses.replace(host, bots=starved))  # the welcomes out
        outbox.answered = None
        inbox = ArrivesDuringThePass(MaildirInbox(inbox_dir), inbox_dir,
                                     order_mail(factory, tag, secret))
        cpu, start = time.process_time(), time.perf_counter()
        done = api.process_inbox(factory, inbox, outbox, host)
        took, cpu = time.perf_counter() - start, time.process_time() - cpu
        second = api.process_inbox(factory, MaildirInbox(inbox_dir), outbox, host)
        assert [r.status for r in second.results] == ["applied"], second.results
        assert inbox.arrived is not None and outbox.answered is not None, "no reply to Alice"
        return Figures(took, done.clocks.bot_moves, cpu, outbox.answered - inbox.arrived)


def main() -> None:
    start()  # the services `pbem` sets up before any command
    parser = argparse.ArgumentParser(prog="python -m bench.bot_budget",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds-per-move", type=float, default=0.02)
    parser.add_argument("--db", default=None, help="PostgreSQL URL (default: SQLite)")
    args = parser.parse_args()
    random.seed(1)
    budget = DEFAULT_PASS_BUDGET * args.seconds_per_move
    print(describe())
    print(f"{args.tables} tables of {GAME}: 3 strong bots and a resigned player each; "
          f"{args.seconds_per_move} s per bot move ({'PostgreSQL' if args.db else 'SQLite'})")
    for label, per_pass in (("no pass budget (before)", 1e9),
                            (f"pass budget {budget:g} s", budget)):
        got = run(args.db, args.tables, args.seconds_per_move, per_pass)
        print(f"{label}: pass {got.pass_seconds:.1f} s ({got.cpu:.1f} s CPU), "
              f"{got.bot_moves} bot moves; the player's reply after {got.latency:.1f} s",
              flush=True)


if __name__ == "__main__":
    main()
