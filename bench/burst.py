"""Latency under a burst: 400 orders across 100 games of Reef Encounter arrive at once at
``pbem serve`` workers idling on IMAP IDLE.

    python -m bench.burst                                          # SQLite, 1 worker
    python -m bench.burst --db postgresql+psycopg://postgres@127.0.0.1:5432/test   # 1 and 2
    (also run by ``python -m bench.pipeline burst [--db ...]`` and by its default goals)

The games wait for their setup answers, one from each of the four seats, in any order, so the
burst is 400 orders all playable at once. The workers are the real command (``pbem serve``
with a config file: Dovecot IMAP in, aiosmtpd SMTP out), started and idle before the burst.
The burst goes in over one LMTP connection, as a mail server delivers it; each order's
latency runs from its delivery to the arrival of its reply (the mail whose In-Reply-To names
it). Prints p50, p95 and the slowest reply, and the time to drain the burst (its first
delivery to its last mail), for 1 worker and, on PostgreSQL, for 2. Exactly-once is checked
after each run.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import smtplib
import subprocess
import sys
import tempfile
import time
from email import policy
from email.parser import BytesHeaderParser
from pathlib import Path

from bench.common import ROOT, exactly_once, reef_tables, wave, welcomes_set_aside
from pbem.engine import registry
from pbem.ops import api
from pbem.ops.services import start
from pbem_testkit.databases import scratch_database
from pbem_testkit.dovecot import DOVECOT, DovecotServer
from pbem_testkit.smtp import SmtpTestServer

GAMES = 100


def _header(raw: bytes, name: str) -> str:
    """One header of a mail, reading the header only (the body is some 70 kB of pictures)."""
    return str(BytesHeaderParser(policy=policy.default).parsebytes(raw)[name] or "")


def _config(folder: Path, url: str, imap: DovecotServer, smtp: SmtpTestServer) -> Path:
    config = folder / "pbem.toml"
    config.write_text(f'data_dir = "{folder / "data"}"\n'
                      f'[database]\nurl = "{url}"\n'
                      f'[mail]\nfrom_address = "games@bench.test"\n'
                      f'[inbound.imap]\nhost = "127.0.0.1"\nport = {imap.port}\n'
                      f'user = "{imap.user}"\npassword_env = "BENCH_IMAP_PASSWORD"\n'
                      f'security = "none"\n'
                      f'[outbound.smtp]\nhost = "127.0.0.1"\nport = {smtp.port}\n'
                      f'security = "none"\n', encoding="utf-8")
    return config


def _serve(config: Path, password: str, log: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PBEM_CONFIG": str(config), "BENCH_IMAP_PASSWORD": password,
           "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen([sys.executable, "-c", "from pbem.cli import app; app()", "serve",
                             "--interval", "30"], stdout=subprocess.PIPE,
                            stderr=log.open("w"), text=True, cwd=ROOT, env=env)


def burst(url: str, orders: list[bytes], welcomes: int, workers: int, games: int
          ) -> tuple[float, float]:
    """One burst into fresh servers; prints its line and returns (p95, drain) in seconds."""
    imap, smtp = DovecotServer().start(), SmtpTestServer(auth=False).start()
    procs: list[subprocess.Popen[str]] = []
    try:
        with tempfile.TemporaryDirectory(prefix="pbem-burst-") as d:
            config = _config(Path(d), url, imap, smtp)
            procs = [_serve(config, imap.password, Path(d) / f"worker{i}.log")
                     for i in range(workers)]
            for p in procs:
                assert p.stdout is not None
                line = p.stdout.readline()
                assert line.startswith("serving"), (line, (Path(d) / "worker0.log").read_text())
            time.sleep(2.0)  # each worker's first pass (an empty inbox), then IDLE
            arrived: dict[str, float] = {}
            with smtplib.LMTP("127.0.0.1", imap.lmtp_port) as lmtp:
                t0 = time.perf_counter()
                for raw in orders:
                    lmtp.sendmail("sender@players.test", [imap.user], raw)
                    arrived[_header(raw, "Message-ID")] = time.perf_counter()
            delivered = time.perf_counter() - t0
            # Done when every order has its reply and no mail has come for two seconds.
            # Each mail is read once, as it comes: this process shares the workers' machine.
            deadline, quiet, read, answered = time.monotonic() + 900, 0, 0, set[str]()
            while time.monotonic() < deadline:
                time.sleep(0.5)
                received = smtp.received
                answered.update(_header(r.raw, "In-Reply-To") for r in received[read:])
                answered &= set(arrived)
                quiet = quiet + 1 if len(received) == read else 0
                read = len(received)
                if len(answered) == len(orders) and quiet >= 4:
                    break
            for p in procs:
                p.send_signal(signal.SIGTERM)
                p.wait(30)
            exactly_once(url, orders, welcomes, imap, smtp)
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
        imap.stop()
        smtp.stop()
    replied: dict[str, float] = {}
    for r in smtp.received:
        to = _header(r.raw, "In-Reply-To")
        if to in arrived and to not in replied:
            replied[to] = r.at - arrived[to]
    latencies = sorted(replied.values())
    assert len(latencies) == len(orders), f"{len(latencies)} replies to {len(orders)} orders"
    p50 = latencies[len(latencies) // 2]
    p95 = latencies[min(len(latencies) - 1, int(0.95 * len(latencies)))]
    drain = max(r.at for r in smtp.received) - t0
    print(f"[burst] {workers} worker(s): {len(orders)} orders in {games} games delivered in "
          f"{delivered:.2f} s; reply after p50 {p50:.2f} s, p95 {p95:.2f} s, slowest "
          f"{latencies[-1]:.2f} s; drained in {drain:.2f} s; exactly-once checked")
    print(f"burst: p95 reply after {p95:.2f} s, drained in {drain:.2f} s  ({workers} "
          f"worker{'s' if workers > 1 else ''})")
    return p95, drain


def run(url: str | None, games: int = GAMES) -> None:
    if DOVECOT is None:
        print("[burst] skipped: Dovecot is not installed (apt-get install dovecot-imapd "
              "dovecot-lmtpd)")
        return
    if url is None:  # SQLite: one worker, on a copy of one prepared file per run
        with tempfile.TemporaryDirectory(prefix="pbem-burst-db-") as d:
            path = Path(d) / "pbem.sqlite"
            orders, welcomes = _prepare(f"sqlite:///{path}", games)
            burst(f"sqlite:///{path}", orders, welcomes, 1, games)
        return
    with scratch_database(url, "pbem_burst_tpl") as template:
        orders, welcomes = _prepare(template, games)
        for workers in (1, 2):
            with scratch_database(url, "pbem_burst", template=template) as copy:
                burst(copy, orders, welcomes, workers, games)


def _prepare(url: str, games: int) -> tuple[list[bytes], int]:
    """The games, waiting for every seat's setup answer, and those answers as mails."""
    factory = api.connect(url)
    tables = reef_tables(factory, games)
    orders = wave(factory, tables, random.Random(11), registry.get("reef-encounter"))
    random.Random(12).shuffle(orders)  # a burst comes in no game's order
    return orders, welcomes_set_aside(factory)  # the welcome mails: not part of the burst


def main() -> None:
    start()  # the services `pbem` sets up before any command
    parser = argparse.ArgumentParser(prog="python -m bench.burst",
                                     description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--db", help="a PostgreSQL URL (default: SQLite, one worker)")
    parser.add_argument("--games", type=int, default=GAMES, help="4 orders each")
    args = parser.parse_args()
    run(args.db, args.games)


if __name__ == "__main__":
    main()
