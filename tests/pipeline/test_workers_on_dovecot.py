"""Two ``pbem serve`` workers (real OS processes) on one Dovecot mailbox and one PostgreSQL
database drain a backlog of orders across several games.

Each order is applied once, each mail is handled by one worker only (no duplicate beyond the
copies delivered twice), lands once in the processed folder, and no pass fails: Dovecot
refuses a MOVE of mail another session already moved, and copies mail twice when two
sessions move it at once, so two workers taking the same mail would show here.
"""

from __future__ import annotations

import email
import mailbox
import signal
import subprocess
import sys
from collections import Counter
from email import policy
from pathlib import Path

import pytest
from sqlmodel import select

from pbem.ops import api
from pbem.settings.host import Host
from pbem.store import InboundMessage, LogEntry, SessionFactory
from tests.pipeline.scripted import scripted_games
from tests.pipeline.test_concurrency import ROOT, recorded, unsent, wait_until, worker_env
from tests.support.mailservers import DovecotServer
from tests.support.playermail import mail

pytestmark = [pytest.mark.slow, pytest.mark.dovecot]
GAMES = 12
ROUNDS = 2


def message_id(raw: bytes) -> str:
    return str(email.message_from_bytes(raw, policy=policy.default)["Message-ID"])


def serve(config: Path, name: str, logs: Path, password: str) -> subprocess.Popen[bytes]:
    env = worker_env(logs / "pair", PBEM_CONFIG=str(config), TEST_IMAP_PASSWORD=password)
    out = (logs / f"{name}.log").open("wb")
    return subprocess.Popen([sys.executable, "-m", "tests.pipeline.cli_worker", "serve",
                             "--interval", "0.2"], stdout=out, stderr=subprocess.STDOUT,
                            cwd=ROOT, env=env)


def test_two_workers_on_one_dovecot_mailbox_share_a_backlog(
        db_url: str, factory: SessionFactory, host: Host, tmp_path: Path,
        dovecot_server: DovecotServer) -> None:
    if not db_url.startswith("postgresql"):
        pytest.skip("several workers share a mailbox through PostgreSQL")
    imap = dovecot_server
    config = tmp_path / "pbem.toml"
    config.write_text(f'data_dir = "{tmp_path / "data"}"\n'
                      f'[database]\nurl = "{db_url}"\n'
                      f'[mail]\nfrom_address = "games@host.test"\n'
                      f'[inbound.imap]\nhost = "{imap.host}"\nport = {imap.port}\n'
                      f'user = "{imap.user}"\npassword_env = "TEST_IMAP_PASSWORD"\n'
                      f'security = "none"\n'
                      f'[outbound.maildir]\npath = "{tmp_path / "outbox"}"\n', encoding="utf-8")
    games = scripted_games(factory, host, "dove", GAMES, ROUNDS)
    mailbox.Maildir(tmp_path / "outbox", create=True)  # made up front: two processes race
    delivered: list[bytes] = []
    copies = 0

    def backlog(r: int) -> None:
        nonlocal copies
        for _, tag, seats, secrets, script in games:
            for seat in (0, 1):
                raw = mail(seats[seat][1], f"Re: [{tag}] Test Cards",
                           f"{script[r][seat]}\nsecret {secrets[seat]}")
                imap.deliver(raw)
                delivered.append(raw)
                if seat == 1:
                    imap.deliver(raw)  # delivered twice: applied once
                    delivered.append(raw)
                    copies += 1

    backlog(0)  # waiting before any worker starts: both meet it at once
    workers = [serve(config, f"w{n}", tmp_path, imap.password) for n in range(2)]
    try:
        unique = len({message_id(raw) for raw in delivered})
        wait_until(lambda: recorded(factory) == unique and not imap.messages("INBOX"),
                   "the first backlog", workers, timeout=180)
        backlog(1)
        unique = len({message_id(raw) for raw in delivered})
        wait_until(lambda: recorded(factory) == unique and not imap.messages("INBOX"),
                   "the second backlog", workers, timeout=180)
        wait_until(lambda: unsent(factory) == 0, "the outbox", workers)
    finally:
        for p in workers:
            p.send_signal(signal.SIGINT)
        for p in workers:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
    logs = [(tmp_path / f"w{n}.log").read_text(errors="replace") for n in range(2)]
    assert not any("Traceback" in log or "pass failed" in log for log in logs), logs

    with factory() as s:
        statuses = Counter(m.status for m in s.exec(select(InboundMessage)))
        assert statuses == {"applied": 2 * GAMES * ROUNDS}, statuses
        entries = list(s.exec(select(LogEntry).where(LogEntry.kind == "order")))
        assert len(entries) == 2 * GAMES * ROUNDS
        assert set(Counter(e.source_message_id for e in entries).values()) == {1}
        for game_id, tag, *_ in games:
            assert api.replay_game(s, api.get_game(s, game_id)).entries == 2 * ROUNDS, tag
    # Every mail handled by one worker only: the one duplicate per copy delivered twice.
    results = Counter(word for log in logs for line in log.splitlines()
                      if line.startswith("PASS ") for word in line.split()[1:]
                      if not word.startswith("sent="))
    assert results == {"applied": 2 * GAMES * ROUNDS, "duplicate": copies}, results
    # Each mail once in the processed folder: no second copy of a mail moved twice.
    processed = Counter(map(message_id, imap.messages("pbem-processed")))
    assert processed == Counter(map(message_id, delivered))
    for n, log in enumerate(logs):  # both took part (the pairing makes sure of it)
        assert " applied" in log and "PAIRED" in log.split(), f"worker {n} idle: {log}"
