"""Two workers against one: a backlog of Reef Encounter orders across many games, in one
Dovecot mailbox, drained into one PostgreSQL database by 1 and then by 2 worker processes.

    python bench/workers.py --db postgresql+psycopg://postgres@127.0.0.1:5432/test
    (also run by ``python bench/pipeline.py workers --db ...`` and by the default goals with --db)

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
import uuid
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from sqlalchemy import create_engine, text  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402
from sqlmodel import func, select  # noqa: E402

from pbem.engine import registry  # noqa: E402
from pbem.ops import api  # noqa: E402
from pbem.settings.host import Host  # noqa: E402
from pbem.store.tables import InboundMessage, LogEntry, OutboundMessage  # noqa: E402

HOST = Host(from_address="games@bench.test")


def child(url: str, imap_port: int, user: str, password: str, smtp_port: int) -> None:
    """One worker: warm up, say READY, wait for GO, then passes until the inbox is empty."""
    from pbem.mail.inbound import ImapInbox
    from pbem.mail.outbound import SmtpSender
    from pbem.mail.settings import ImapSettings, SmtpSettings
    from pbem.pipeline.warmup import warm_up

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


def _admin(url: str) -> object:
    return create_engine(make_url(url), isolation_level="AUTOCOMMIT")


def run(url: str, games: int, rounds: int = 3) -> float | None:
    """Prints the figures; returns the ratio (None where Dovecot is missing)."""
    import pipeline  # bench/pipeline.py, beside this script

    from tests.support.mailservers import DOVECOT, DovecotServer, SmtpTestServer

    if DOVECOT is None:
        print("[workers] skipped: Dovecot is not installed (apt-get install dovecot-imapd "
              "dovecot-lmtpd)")
        return None
    base = make_url(url)
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    template = f"pbem_bench_tpl_{uuid.uuid4().hex[:8]}"
    made = [template]
    rules = registry.get("reef-encounter")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{template}"'))
        tpl_url = base.set(database=template).render_as_string(hide_password=False)
        factory = api.connect(tpl_url)
        tables = pipeline.reef_tables(factory, games)
        orders = pipeline.wave(factory, tables, random.Random(7), rules)
        with factory() as s:  # the welcome mails are set aside: not part of the backlog
            welcomes = len(s.exec(select(OutboundMessage.id)).all())
            s.exec(text("UPDATE outboundmessage SET status = 'sent'"))  # type: ignore[call-overload]
            s.commit()
            s.get_bind().dispose()  # type: ignore[union-attr]
        rates: dict[int, list[float]] = {1: [], 2: []}
        for round_ in range(rounds):
            for workers in (1, 2) if round_ % 2 == 0 else (2, 1):
                name = f"pbem_bench_{uuid.uuid4().hex[:8]}"
                with admin.connect() as conn:
                    conn.execute(text(f'CREATE DATABASE "{name}" TEMPLATE "{template}"'))
                made.append(name)
                run_url = base.set(database=name).render_as_string(hide_password=False)
                rates[workers].append(_drain(run_url, orders, welcomes, workers,
                                             DovecotServer, SmtpTestServer))
                with admin.connect() as conn:  # a run's copy is not needed once checked
                    conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        with admin.connect() as conn:
            for name in made:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
    ratio = max(rates[2]) / max(rates[1])
    each = ", ".join(f"{two / one:.2f}x" for one, two in zip(rates[1], rates[2], strict=True))
    print(f"2 workers vs 1 on PostgreSQL: {ratio:.2f}x orders/s  (goal >= 1.7x; "
          f"{len(orders)} orders in {games} games; fastest of {rounds} runs each, "
          f"round by round {each})")
    return ratio


def _drain(url: str, orders: list[bytes], welcomes: int, workers: int, dovecot: type,
           smtp_server: type) -> float:
    imap, smtp = dovecot().start(), smtp_server(auth=False).start()
    procs: list[subprocess.Popen[str]] = []
    try:
        for raw in orders:
            imap.deliver(raw)
        procs += [subprocess.Popen([sys.executable, __file__, "child", url, str(imap.port),
                                   imap.user, imap.password, str(smtp.port)],
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
        _exactly_once(url, orders, welcomes, imap, smtp)
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


def _exactly_once(url: str, orders: list[bytes], welcomes: int, imap: object, smtp: object
                  ) -> None:
    from tests.mail.test_imap import ids

    factory = api.connect(url)
    with factory() as s:
        applied = s.exec(select(func.count()).select_from(InboundMessage)
                         .where(InboundMessage.status == "applied")).one()
        entries = s.exec(select(LogEntry.source_message_id)
                         .where(LogEntry.kind == "order")).all()
        rows = s.exec(select(OutboundMessage.status)).all()
        s.get_bind().dispose()  # type: ignore[union-attr]
    assert applied == len(orders), f"{applied} of {len(orders)} orders applied"
    assert len(entries) == len(orders) and len(set(entries)) == len(entries)
    assert set(rows) == {"sent"}
    assert imap.messages("INBOX") == []  # type: ignore[attr-defined]
    processed = Counter(ids(imap.messages("pbem-processed")))  # type: ignore[attr-defined]
    assert processed == Counter(ids(orders)), "a mail moved twice, or not at all"
    sent = Counter(ids([r.raw for r in smtp.received]))  # type: ignore[attr-defined]
    assert len(sent) == sum(sent.values()), "a reply sent twice"
    assert len(sent) == len(rows) - welcomes, "a reply not sent, or one too many"


def main() -> None:
    if sys.argv[1:2] == ["child"]:
        url, port, user, password, smtp_port = sys.argv[2:7]
        registry_setup()
        child(url, int(port), user, password, int(smtp_port))
        return
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--db", required=True, help="a PostgreSQL URL")
    parser.add_argument("--games", type=int, default=40, help="4 orders each")
    parser.add_argument("--rounds", type=int, default=3,
                        help="runs of each worker count, alternating")
    args = parser.parse_args()
    registry_setup()
    run(args.db, args.games, args.rounds)


def registry_setup() -> None:
    from tests.support.testgame import GAME

    registry.register(GAME)


if __name__ == "__main__":
    main()
