"""Faults: kill -9 at every step of the pipeline, an SMTP outage, IMAP dropping mid-pass.

After each, nothing is lost and nothing is applied twice. Email is exactly-once except in
the one window SMTP itself cannot close (RFC 1047): killed after the server accepted a mail
and before the worker recorded it, that one mail is sent again, with the same Message-ID so
the reader's mail program shows it once.
"""

from __future__ import annotations

import email
import mailbox
import os
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from datetime import timedelta
from email import policy
from pathlib import Path

import pytest
from sqlmodel import col, select

from pbem.mail.inbound import ImapInbox
from pbem.mail.outbound import MaildirSender, SmtpSender
from pbem.ops import api
from pbem.outbox.delivery import deliver_outbox
from pbem.pipeline.one_mail import Result
from pbem.settings.config import Limits, MailConfig
from pbem.settings.host import Host
from pbem.store import InboundMessage, LogEntry, OutboundMessage, SessionFactory
from pbem.store.tables import utcnow
from tests.pipeline.conftest import ALICE, BOB, Table, hand
from tests.pipeline.scripted import scripted_orders, waiting
from tests.support.mailservers import PymapServer, SmtpTestServer
from tests.support.playermail import mail

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]


def message_id(raw: bytes) -> str:
    return str(email.message_from_bytes(raw, policy=policy.default)["Message-ID"])


def worker(db_url: str, inbox: Path, port: int, crash: str = ""
           ) -> subprocess.CompletedProcess[str]:
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    # One worker at a time, restarted at once: a mail claimed by the killed one is due again
    # now, not after the claim's lease.
    env = {**os.environ, "PYTHONPATH": path, "PBEM_CRASH_AT": crash, "PBEM_TEST_LEASE": "0"}
    return subprocess.run([sys.executable, "-m", "tests.pipeline.crash_worker", db_url,
                           str(inbox), str(inbox.parent / "unused"), "--smtp", str(port)],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)


@pytest.mark.parametrize("crash", ["fetched:2", "committed:1", "committed:4",
                                   "before-send:3", "after-send:3"])
def test_kill_9_at_each_step_then_restart(crash: str, db_url: str, factory: SessionFactory,
                                          host: Host, tmp_path: Path,
                                          make_smtp_server: Callable[..., SmtpTestServer]
                                          ) -> None:
    smtp = make_smtp_server(auth=False)
    with factory() as s:
        game, secrets = api.create_game(s, "testcards", [("Alice", ALICE), ("Bob", BOB)],
                                        {"rounds": 1}, seed="crash", host=host)
        s.commit()
    ((first, second),) = scripted_orders("crash", 1)
    inbox = tmp_path / "inbox"
    box = mailbox.Maildir(inbox, create=True)
    for raw in (mail(ALICE, f"[{game.tag}]", f"{first}\nsecret {secrets[0]}"),
                mail(BOB, f"[{game.tag}]", f"{second}\nsecret {secrets[1]}"),
                mail(ALICE, f"[{game.tag}]", f"status\nsecret {secrets[0]}"),
                mail(BOB, f"[{game.tag}]", f"{second}\nsecret {secrets[0]}")):  # forged
        box.add(raw)

    killed = worker(db_url, inbox, smtp.port, crash)
    assert killed.returncode == -9, killed.stdout + killed.stderr
    assert killed.stdout.split()[:2] == ["CRASH", crash.partition(":")[0]]
    again = worker(db_url, inbox, smtp.port)
    assert again.returncode == 0, again.stdout + again.stderr
    assert worker(db_url, inbox, smtp.port).stdout.startswith("DONE [] 0")

    assert waiting(inbox) == 0
    with factory() as s:
        statuses = sorted(m.status for m in s.exec(select(InboundMessage)))
        assert statuses == ["applied", "applied", "ignored", "rejected"]
        assert len(s.exec(select(LogEntry).where(LogEntry.kind == "order")).all()) == 2
        assert api.replay_game(s, api.get_game(s, game.id or 0)).entries == 2
        rows = s.exec(select(OutboundMessage).order_by(col(OutboundMessage.id))).all()
        # 2 welcomes + 2 after each order + the status + one note about the wrong secret
        assert len(rows) == 8 and {r.status for r in rows} == {"sent"}
        queued = [message_id(r.raw) for r in rows]
    got = Counter(message_id(raw) for raw in smtp.messages)
    assert set(got) == set(queued)  # nothing lost
    if crash.startswith("after-send"):
        assert sorted(got.values()) == [1] * 7 + [2]  # the one mail in flight, same id
    else:
        assert set(got.values()) == {1}  # exactly once


def test_smtp_down_then_back_drains_the_queue(factory: SessionFactory, table: Table,
                                              make_smtp_server: Callable[..., SmtpTestServer],
                                              ) -> None:
    host = Host(mail=MailConfig(from_address="games@host.test"),
                limits=Limits(retry_base_seconds=60))
    smtp = make_smtp_server(auth=False)
    sender = SmtpSender(smtp.settings)
    card = hand(factory, table, 0)[0]
    from pbem.pipeline.one_mail import process_raw

    assert process_raw(factory, mail(ALICE, f"[{table.tag}]",
                                     f"play {card}\nsecret {table.secrets[0]}"),
                       host).status == "applied"
    smtp.stop()  # the server is down: connections are refused
    down = deliver_outbox(factory, sender, host)
    assert (down.sent, down.retrying, down.failed) == (0, 2, 0)
    with factory() as s:
        rows = api.outbox_list(s, "queued")
        assert [r.attempts for r in rows] == [1, 1]
        assert all("unreachable" in r.last_error for r in rows)
    later = utcnow() + timedelta(seconds=61)
    assert deliver_outbox(factory, sender, host, now=later).retrying == 2  # still down
    smtp.restart()  # back, on the same port
    assert deliver_outbox(factory, sender, host).sent == 0  # backing off: not due yet
    back = deliver_outbox(factory, sender, host, now=utcnow() + timedelta(seconds=121))
    assert (back.sent, back.retrying, back.failed) == (2, 0, 0)
    assert deliver_outbox(factory, sender, host, now=later + timedelta(days=1)).sent == 0
    assert len(smtp.messages) == 2
    with factory() as s:
        assert {r.status for r in api.outbox_list(s)} == {"sent"}


def test_imap_dropping_mid_pass_loses_and_repeats_nothing(
        factory: SessionFactory, host: Host, table: Table, imap_server: PymapServer,
        tmp_path: Path) -> None:
    alice, bob = hand(factory, table, 0), hand(factory, table, 1)
    mails = [mail(ALICE, f"[{table.tag}]", f"play {alice[0]}\nsecret {table.secrets[0]}"),
             mail(BOB, f"[{table.tag}]", f"play {bob[0]}\nsecret {table.secrets[1]}"),
             mail(ALICE, f"[{table.tag}]", f"status\nsecret {table.secrets[0]}"),
             mail(BOB, f"[{table.tag}]", f"play {bob[1]}\nsecret {table.secrets[0]}")]
    for raw in mails:
        imap_server.deliver(raw)
    inbox = ImapInbox(imap_server.settings, batch_size=1, retry_delay=0.01)
    drops: list[int] = []

    def cut(result: Result) -> None:  # the server drops us after each of the first two
        if len(drops) < 2:
            drops.append(imap_server.drop_connections())

    try:
        done = api.process_inbox(factory, inbox, MaildirSender(tmp_path / "out"), host,
                                 after_commit=cut)
    finally:
        inbox.close()
    assert drops == [1, 1] and inbox.reconnects >= 2
    assert [r.status for r in done.results] == ["applied", "applied", "ignored", "rejected"]
    assert imap_server.messages("INBOX") == []
    assert sorted(map(message_id, imap_server.messages("pbem-processed"))) == sorted(
        map(message_id, mails))
    with factory() as s:
        assert len(s.exec(select(LogEntry).where(LogEntry.kind == "order")).all()) == 2


def test_imap_handled_mail_moves_in_one_command_per_group_and_a_crash_before_it_repeats_nothing(
        factory: SessionFactory, host: Host, table: Table, imap_server: PymapServer,
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Handled mails leave the IMAP inbox in groups (one MOVE each, not one per mail); if the
    pass dies before the group's move, the next pass finds them again and each is only a
    duplicate of its recorded Message-ID."""
    from imapclient import IMAPClient

    alice, bob = hand(factory, table, 0), hand(factory, table, 1)
    mails = [mail(ALICE, f"[{table.tag}]", f"play {alice[0]}\nsecret {table.secrets[0]}"),
             mail(BOB, f"[{table.tag}]", f"play {bob[0]}\nsecret {table.secrets[1]}"),
             mail(ALICE, f"[{table.tag}]", f"status\nsecret {table.secrets[0]}")]
    for raw in mails:
        imap_server.deliver(raw)
    moves: list[int] = []
    real_move = IMAPClient.move

    def dead_before_moving(self: IMAPClient, uids: list[int], folder: str) -> object:
        raise SystemExit("killed before the move")

    def counted(self: IMAPClient, uids: list[int], folder: str) -> object:
        moves.append(len(uids))
        return real_move(self, uids, folder)

    inbox = ImapInbox(imap_server.settings, retry_delay=0.01)
    try:
        monkeypatch.setattr(IMAPClient, "move", dead_before_moving)
        with pytest.raises(SystemExit):
            api.process_inbox(factory, inbox, None, host)
        assert len(imap_server.messages("INBOX")) == 3  # committed, not yet moved
        monkeypatch.setattr(IMAPClient, "move", counted)
        again = api.process_inbox(factory, inbox, None, host)
    finally:
        inbox.close()
    assert [r.status for r in again.results] == ["duplicate"] * 3
    assert moves == [3]
    assert imap_server.messages("INBOX") == []
    assert sorted(map(message_id, imap_server.messages("pbem-processed"))) == sorted(
        map(message_id, mails))
    with factory() as s:
        assert len(s.exec(select(LogEntry).where(LogEntry.kind == "order")).all()) == 2
