"""Two ``pbem serve`` workers (real OS processes) on one Maildir inbox and one database.

Many messages for few games arrive in waves (each order twice, plus status requests and
forged mail), both workers race for them, and afterwards: every order applied exactly once,
every game's log contiguous and replaying to its stored state, every queued email written to
the outbox exactly once. On PostgreSQL this rests on the game row lock (SELECT ... FOR UPDATE)
and SKIP LOCKED in the sender; SQLite serialises writers by itself.
"""

from __future__ import annotations

import mailbox
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from sqlmodel import col, func, select

from pbem.mail.inbound import MaildirInbox
from pbem.ops import api
from pbem.settings.host import Host
from pbem.store import InboundMessage, LogEntry, OutboundMessage, SessionFactory
from tests.pipeline import pairing
from tests.pipeline.scripted import message_ids, scripted_games, waiting
from tests.support.playermail import mail

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
GAMES = 3
ROUNDS = 5


def worker_env(pair: Path, **extra: str) -> dict[str, str]:
    """The environment of a worker process; workers given one ``pair`` folder each do one
    piece of work before either does a second (see ``pairing``): both really take part."""
    pair.mkdir(exist_ok=True)
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, "PYTHONPATH": path, pairing.ENV: str(pair), **extra}


def serve(config: Path, name: str, logs: Path, *, reverse: bool) -> subprocess.Popen[bytes]:
    env = worker_env(logs / "pair", PBEM_CONFIG=str(config))
    if reverse:
        env["PBEM_TEST_FETCH_REVERSED"] = "1"
    out = (logs / f"{name}.log").open("wb")
    return subprocess.Popen([sys.executable, "-m", "tests.pipeline.cli_worker", "serve",
                             "--interval", "0.2"], stdout=out, stderr=subprocess.STDOUT,
                            cwd=ROOT, env=env)


def recorded(factory: SessionFactory) -> int:
    with factory() as s:
        return int(s.exec(select(func.count()).select_from(InboundMessage)).one())


def unsent(factory: SessionFactory) -> int:
    with factory() as s:
        q = select(func.count()).select_from(OutboundMessage)
        return int(s.exec(q.where(OutboundMessage.status != "sent")).one())


def wait_until(check: Callable[..., bool], what: str, procs: list[subprocess.Popen[bytes]],
               timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        for p in procs:
            assert p.poll() is None, f"a worker died (exit {p.returncode})"
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


def test_two_serve_workers_apply_each_order_once(db_url: str, factory: SessionFactory,
                                                 host: Host, tmp_path: Path) -> None:
    inbox_dir, outbox_dir = tmp_path / "inbox", tmp_path / "outbox"
    config = tmp_path / "pbem.toml"
    config.write_text(f'[database]\nurl = "{db_url}"\n'
                      f'[mail]\nfrom_address = "games@host.test"\n'
                      f'[inbound.maildir]\npath = "{inbox_dir}"\n'
                      f'[outbound.maildir]\npath = "{outbox_dir}"\n', encoding="utf-8")
    games = scripted_games(factory, host, "race", GAMES, ROUNDS)
    box = mailbox.Maildir(inbox_dir, create=True)
    mailbox.Maildir(outbox_dir, create=True)  # made up front: two processes creating one race
    # One worker reads oldest first, the other newest first, and each wave holds the first
    # seat's orders first and the second seat's in reverse game order: the two workers start
    # on the same game at once, so without the game lock two turns would interleave.
    workers = [serve(config, f"w{n}", tmp_path, reverse=n == 1) for n in range(2)]
    unique = 0
    try:
        for r in range(ROUNDS):
            wave = []
            for _, tag, seats, secrets, script in games:
                wave.append(mail(seats[0][1], f"Re: [{tag}] Test Cards",
                                 f"{script[r][0]}\nsecret {secrets[0]}"))
            for _, tag, seats, secrets, script in games:
                wave.append(mail(seats[0][1], f"[{tag}]", f"status\nsecret {secrets[0]}"))
                wave.append(mail(seats[1][1], f"[{tag}]", f"{script[r][1]}\nsecret nope"))
            for _, tag, seats, secrets, script in reversed(games):
                wave.append(mail(seats[1][1], f"Re: [{tag}] Test Cards",
                                 f"{script[r][1]}\nsecret {secrets[1]}"))
            for raw in wave:
                box.add(raw)
                if b"status" not in raw and b"nope" not in raw:
                    box.add(raw)  # an order twice (same Message-ID): applied once
            unique += len(wave)
            wait_until(lambda n=unique: recorded(factory) == n and waiting(inbox_dir) == 0,
                       f"wave {r}", workers)
        with factory() as s:
            outbound = int(s.exec(select(func.count()).select_from(OutboundMessage)).one())
        # Every mail written and its row marked sent: stopping a worker between the two
        # would leave a queued row (to be resent on restart) and fail the check below.
        wait_until(lambda: len(message_ids(outbox_dir)) >= outbound and unsent(factory) == 0,
                   "the outbox", workers)
        time.sleep(0.5)  # a double send would show up now
    finally:
        for p in workers:
            p.send_signal(signal.SIGINT)
        for p in workers:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
    logs = "".join((tmp_path / f"w{n}.log").read_text(errors="replace") for n in range(2))
    assert "Traceback" not in logs, logs

    with factory() as s:
        statuses = Counter(m.status for m in s.exec(select(InboundMessage)))
        assert statuses == {"applied": 2 * GAMES * ROUNDS, "ignored": GAMES * ROUNDS,
                            "rejected": GAMES * ROUNDS}, statuses
        entries = list(s.exec(select(LogEntry).where(LogEntry.kind == "order")))
        sources = Counter(e.source_message_id for e in entries)
        assert len(entries) == 2 * GAMES * ROUNDS and set(sources.values()) == {1}
        for game_id, tag, *_ in games:
            indices = [e.index for e in api.game_log(s, api.get_game(s, game_id))]
            assert indices == list(range(2 * ROUNDS + 1)), tag
            assert api.replay_game(s, api.get_game(s, game_id)).entries == 2 * ROUNDS
            assert api.get_game(s, game_id).status == "finished"
        rows = list(s.exec(select(OutboundMessage).order_by(col(OutboundMessage.id))))
        assert {r.status for r in rows} == {"sent"}
    sent = message_ids(outbox_dir)
    assert len(sent) == len(rows) and len(set(sent)) == len(sent)
    # Both workers applied orders (else the test would prove nothing about concurrency):
    # the pairing forces it, this checks it happened.
    for n in range(2):
        log = (tmp_path / f"w{n}.log").read_text()
        assert " applied" in log and "PAIRED" in log.split(), f"worker {n} idle: {log}"


def test_two_senders_never_send_one_mail_twice(db_url: str, factory: SessionFactory,
                                               host: Host, tmp_path: Path) -> None:
    with factory() as s:
        for g in range(150):
            api.create_game(s, "testcards", [("A", f"a{g}@players.test"),
                                             ("B", f"b{g}@players.test")], host=host)
        s.commit()
    env = worker_env(tmp_path / "pair")
    empty, outbox = tmp_path / "empty-inbox", tmp_path / "outbox"
    for folder in (empty, outbox):  # made up front: two processes creating one race
        MaildirInbox(folder)
    senders = [subprocess.Popen([sys.executable, "-m", "tests.pipeline.crash_worker", db_url,
                                 str(empty), str(outbox)], stdout=subprocess.PIPE, text=True,
                                cwd=ROOT, env=env) for _ in range(2)]
    counts = []
    for p in senders:
        out, _ = p.communicate(timeout=120)
        assert p.returncode == 0 and out.startswith("DONE [] "), out
        counts.append(int(out.split()[-1]))
    sent = message_ids(outbox)
    assert sum(counts) == len(sent) == 300 and len(set(sent)) == 300
    assert min(counts) > 0, f"the senders did not overlap: {counts}"
