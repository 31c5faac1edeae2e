"""Killed between commit and send (SIGKILL, a real process), restarted: every email goes out
exactly once, and the refetched order is not applied twice."""

from __future__ import annotations

import email
import mailbox
import os
import signal
import subprocess
import sys
from email import policy
from pathlib import Path

from sqlmodel import select

from pbem.settings.host import Host
from pbem.store import InboundMessage, LogEntry, SessionFactory
from tests.pipeline.conftest import ALICE, Table, hand
from tests.support.playermail import mail

ROOT = Path(__file__).resolve().parents[2]


def worker(db_url: str, inbox: Path, outbox: Path, *extra: str) -> subprocess.Popen[str]:
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    env = {**os.environ, "PYTHONPATH": path}
    return subprocess.Popen(
        [sys.executable, "-m", "tests.pipeline.crash_worker", db_url, str(inbox), str(outbox),
         *extra], stdout=subprocess.PIPE, text=True, cwd=ROOT, env=env)


def delivered(outbox: Path) -> list[str]:
    ids = []
    for f in sorted((outbox / "new").glob("*")) + sorted((outbox / "cur").glob("*")):
        ids.append(str(email.message_from_bytes(f.read_bytes(), policy=policy.default)
                       ["Message-ID"]))
    return ids


def test_kill_between_commit_and_send(db_url: str, factory: SessionFactory, host: Host,
                                      table: Table, tmp_path: Path) -> None:
    inbox_dir, outbox_dir = tmp_path / "inbox", tmp_path / "outbox"
    card = hand(factory, table, 0)[0]
    order = mail(ALICE, f"[{table.tag}]", f"play {card}\nsecret {table.secrets[0]}")
    mailbox.Maildir(inbox_dir, create=True).add(order)

    first = worker(db_url, inbox_dir, outbox_dir, "--stall")
    assert first.stdout is not None
    assert first.stdout.readline().split() == ["COMMITTED", "applied"]
    first.send_signal(signal.SIGKILL)
    first.wait(timeout=30)
    assert first.returncode == -signal.SIGKILL
    assert delivered(outbox_dir) == []

    second = worker(db_url, inbox_dir, outbox_dir)
    out, _ = second.communicate(timeout=60)
    assert second.returncode == 0, out
    assert out.startswith("DONE ['duplicate'] 2")

    third = worker(db_url, inbox_dir, outbox_dir)
    out, _ = third.communicate(timeout=60)
    assert out.startswith("DONE [] 0")

    ids = delivered(outbox_dir)
    assert len(ids) == 2 and len(set(ids)) == 2
    with factory() as s:
        assert len(s.exec(select(LogEntry).where(LogEntry.kind == "order")).all()) == 1
        assert [m.status for m in s.exec(select(InboundMessage)).all()] == ["applied"]
