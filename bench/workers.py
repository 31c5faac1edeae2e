"""Two workers against one: a backlog of Reef Encounter orders across many games, in one
Dovecot mailbox, drained into one PostgreSQL database by 1 and then by 2 worker processes.

    python -m bench.workers --db postgresql+psycopg://postgres@127.0.0.1:5432/test
    (also run by ``python -m bench.pipeline workers --db ...`` and by its default goals with --db)

Each run starts from a copy of one database (``CREATE DATABASE ... TEMPLATE``) holding the
games, with the same orders waiting in a fresh Dovecot; orders come in over IMAP and every
reply goes out over SMTP (aiosmtpd, in this process). The workers are separate processes,
warmed up before the clock starts; the clock stops when both have found the inbox empty and
sent their mail. Exactly-once is checked after each run: every order applied once, each
mail once in the processed folder, every queued reply sent once.

The runs alternate (1, 2, then 2, 1, ...) for ``--rounds`` rounds and the ratio is taken from
each count's fastest run: on a shared virtual machine a run is only ever slowed by what else
runs there, never sped up, so the fastest run is the one least swayed by it. Every run is
printed, with the workers' CPU per order, so a slowed run can be seen as such, and the CPU
the SMTP sink (aiosmtpd, in this process) took per order: it shares the same two cores.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time

from bench.common import HOST, ROOT, exactly_once, reef_tables, wave, welcomes_set_aside
from pbem.engine import registry
from pbem.mail.inbound import ImapInbox
from pbem.mail.outbound import SmtpSender
from pbem.mail.settings import ImapSettings, SmtpSettings
from pbem.ops import api
from pbem.ops.services import start
from pbem.pipeline.warmup import warm_up
from pbem_testkit.databases import scratch_database
from pbem_testkit.dovecot import DOVECOT, DovecotServer
from pbem_testkit.smtp import SmtpTestServer
from pbem_testkit.testgame import GAME


def child(url: str, imap_port: int, user: str, password: str, smtp_port: int) -> None:
    """One worker: warm up, say READY, wait for GO, then passes until the inbox is empty."""
    factory = api.connect(url)
    inbox = ImapInbox(ImapSettings(host="127.0.0.1", port=imap_port, user=user,
                                   password=password, security="none", timeout=30.0))
    sender = SmtpSender(SmtpSettings(host="127.0.0.1", port=smtp_port, security="none",
                                     timeout=30.0))
    warm_up()
    inbox.wait(0)  # connected
    print("READY", f"{time.process_time():.3f}", flush=True)
    sys.stdin.readline()
    applied = passes = 0
    while True:
        done = api.process_inbox(factory, inbox, sender, HOST)
        passes += 1
        applied += sum(1 for r in done.results if r.status == "applied")
        if done.fault:
            raise SystemExit(f"pass fault: {done.fault}")
        if not done.results:
            if not inbox.wait(0):
                break
            time.sleep(0.05)  # what is left is the other worker's: no busy search
    inbox.close()
    print("DONE", applied, passes, f"{time.process_time():.3f}", flush=True)


def run(url: str, games: int, rounds: int = 3) -> float | None:
    """Prints the figures; returns the ratio (None where Dovecot is missing)."""
    if DOVECOT is None:
        print("[workers] skipped: Dovecot is not installed (apt-get install dovecot-imapd "
              "dovecot-lmtpd)")
        return None
    rules = registry.get("reef-encounter")
    rates: dict[int, list[float]] = {1: [], 2: []}
    with scratch_database(url, "pbem_bench_tpl") as template:
        factory = api.connect(template)
        tables = reef_tables(factory, games)
        orders = wave(factory, tables, random.Random(7), rules)
        welcomes = welcomes_set_aside(factory)
        for round_ in range(rounds):
            for workers in (1, 2) if round_ % 2 == 0 else (2, 1):
                # each run on a copy of the games, dropped once checked
                with scratch_database(url, "pbem_bench", template=template) as copy:
                    rates[workers].append(_drain(copy, orders, welcomes, workers))
    ratio = max(rates[2]) / max(rates[1])
    each = ", ".join(f"{two / one:.2f}x" for one, two in zip(rates[1], rates[2], strict=True))
    print(f"2 workers vs 1 on PostgreSQL: {ratio:.2f}x orders/s  (goal >= 1.7x; "
          f"{len(orders)} orders in {games} games; fastest of {rounds} runs each, "
          f"round by round {each})")
    return ratio


def _drain(url: str, orders: list[bytes], welcomes: int, workers: int) -> float:
    imap, smtp = DovecotServer().start(), SmtpTestServer(auth=False).start()
    procs: list[subprocess.Popen[str]] = []
    try:
        for raw in orders:
            imap.deliver(raw)
        procs += [subprocess.Popen([sys.executable, "-m", "bench.workers", "child", url,
                                    str(imap.port), imap.user, imap.password, str(smtp.port)],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                  cwd=ROOT) for _ in range(workers)]
        warm = 0.0
        for p in procs:
            assert p.stdout is not None
            ready = p.stdout.readline().split()
            assert ready[:1] == ["READY"], ready
            warm += float(ready[1])
        t0, c0 = time.perf_counter(), time.process_time()
        for p in procs:
            assert p.stdin is not None
            p.stdin.write("GO\n")
            p.stdin.flush()
        outs = [p.communicate(timeout=600)[0] for p in procs]
        seconds, sink = time.perf_counter() - t0, time.process_time() - c0
        assert all(p.returncode == 0 for p in procs), outs
        applied = [int(out.split()[1]) for out in outs]
        cpu = sum(float(out.split()[3]) for out in outs) - warm
        exactly_once(url, orders, welcomes, imap, smtp)
    finally:
        for p in procs:  # one worker failed: end the others before their servers go
            if p.poll() is None:
                p.kill()
                p.wait()
        imap.stop()
        smtp.stop()
    rate = len(orders) / seconds
    print(f"[workers] {workers} worker(s): {len(orders)} orders in {seconds:.2f} s = "
          f"{rate:.1f} orders/s (applied per worker: {applied}; worker CPU "
          f"{cpu / len(orders) * 1000:.0f} ms per order, SMTP sink {sink / len(orders) * 1000:.0f} "
          "ms); exactly-once checked")
    return rate


def main() -> None:
    start()  # the services `pbem` sets up before any command
    if sys.argv[1:2] == ["child"]:
        url, port, user, password, smtp_port = sys.argv[2:7]
        registry.register(GAME)
        child(url, int(port), user, password, int(smtp_port))
        return
    parser = argparse.ArgumentParser(prog="python -m bench.workers",
                                     description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--db", required=True, help="a PostgreSQL URL")
    parser.add_argument("--games", type=int, default=40, help="4 orders each")
    parser.add_argument("--rounds", type=int, default=3,
                        help="runs of each worker count, alternating")
    args = parser.parse_args()
    registry.register(GAME)
    run(args.db, args.games, args.rounds)


if __name__ == "__main__":
    main()
