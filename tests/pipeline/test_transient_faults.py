"""Transient database faults at every step of a pass over a backlog of valid orders.

The first run of every step, then about every n-th statement or COMMIT, fails the way a locked
database, a full disk or a dropped connection fails (see tests/support/dbfaults.py; on
PostgreSQL the dropped connection is a real ``pg_terminate_backend``). Passes run until the
inbox is empty and the outbox drained, and then: every order applied exactly once, none
quarantined, every mail sent once, every log replaying.
A fault is never the message's fault, so no valid order may land in quarantine.
"""

from __future__ import annotations

import email
import mailbox
from collections import Counter
from email import policy
from pathlib import Path

import pytest
from sqlmodel import col, func, select

from pbem.mail.inbound import MaildirInbox
from pbem.mail.outbound import MaildirSender
from pbem.ops import api
from pbem.settings.config import Limits, MailConfig
from pbem.settings.host import Host
from pbem.store import InboundMessage, LogEntry, OutboundMessage, init, session_factory
from tests.pipeline.conftest import ALICE, BOB
from tests.pipeline.scripted import scripted_orders, waiting
from tests.support.dbfaults import KINDS, DbFaults
from tests.support.playermail import mail

pytestmark = pytest.mark.slow
GAMES = 20
ROUNDS = 5  # 20 games x 5 rounds x 2 seats = 200 orders
PERIOD = 30  # about one statement or COMMIT in 30 fails, and every step's first run
SEED = 13


def test_transient_faults_at_every_step_lose_and_repeat_nothing(db_url: str,
                                                                 tmp_path: Path) -> None:
    engine = init(db_url)
    factory = session_factory(engine)
    # One quick retry inside a pass; a fault that hits the retry too ends the pass.
    host = Host(mail=MailConfig(from_address="games@host.test"),
                limits=Limits(transient_retries=1, transient_backoff_ms=0))
    box = mailbox.Maildir(tmp_path / "inbox", create=True)
    with factory() as s:
        games = [api.create_game(s, "testcards", [("Alice", ALICE), ("Bob", BOB)],
                                 {"rounds": ROUNDS}, seed=f"fault-{g}", host=host)
                 for g in range(GAMES)]
        s.commit()
    scripts = [scripted_orders(f"fault-{g}", ROUNDS) for g in range(GAMES)]
    for r in range(ROUNDS):  # arrival order: round by round, game by game
        for (game, secrets), script in zip(games, scripts, strict=True):
            for seat, who in enumerate((ALICE, BOB)):
                box.add(mail(who, f"Re: [{game.tag}] Test Cards",
                             f"{script[r][seat]}\nsecret {secrets[seat]}",
                             message_id=f"<{game.tag}-{r}-{seat}@players.test>"))
    orders = GAMES * ROUNDS * 2
    assert waiting(tmp_path / "inbox") == orders

    faults = DbFaults(engine, seed=SEED)
    faults.every(PERIOD)
    outbox = tmp_path / "outbox"
    stopped = passes = 0
    try:
        while passes < 5000:
            passes += 1
            done = api.process_inbox(factory, MaildirInbox(tmp_path / "inbox"),
                                     MaildirSender(outbox), host)
            assert "quarantined" not in {r.status for r in done.results}, done.results
            stopped += bool(done.fault)
            faults.off()
            with factory() as s:
                unsent = s.exec(select(func.count()).select_from(OutboundMessage)
                                .where(OutboundMessage.status != "sent")).one()
            faults.every(PERIOD)
            if not waiting(tmp_path / "inbox") and not unsent and not done.fault:
                break
    finally:
        faults.close()

    # The passes ran every step, a game's end (once a game) included, each struck at least
    # its first time, and every kind of fault struck.
    assert {"COMMIT", "INSERT inboundmessage", "INSERT logentry", "UPDATE outboundmessage",
            "SELECT snapshot", "INSERT gameresult", "INSERT rating"} <= set(faults.struck)
    assert set().union(*faults.struck.values()) == set(KINDS)
    # Some faults ended a pass (the mail waited for the next), more were absorbed by a retry.
    assert 0 < stopped < faults.faults
    print(f"{orders} orders, {passes} passes, {faults.faults} faults, {stopped} passes stopped")

    with factory() as s:
        statuses = Counter(m.status for m in s.exec(select(InboundMessage)))
        assert statuses == {"applied": orders}
        entries = s.exec(select(LogEntry).where(LogEntry.kind == "order")).all()
        assert len(entries) == orders
        assert len({(e.game_id, e.source_message_id) for e in entries}) == orders
        for game, _ in games:
            assert api.replay_game(s, api.get_game(s, game.id or 0)).entries == ROUNDS * 2
        rows = s.exec(select(OutboundMessage).order_by(col(OutboundMessage.id))).all()
        assert {r.status for r in rows} == {"sent"}, [
            (r.id, r.attempts, r.next_attempt_at) for r in rows if r.status != "sent"]
        queued = [str(email.message_from_bytes(r.raw, policy=policy.default)["Message-ID"])
                  for r in rows]
    assert len(queued) == GAMES * 2 + orders * 2  # welcomes, then both seats after each order
    sent = Counter(str(email.message_from_bytes(m.as_bytes(), policy=policy.default)
                       ["Message-ID"]) for m in mailbox.Maildir(outbox, create=False))
    assert sent == Counter(queued)  # every mail sent, exactly once
    engine.dispose()
