"""`pbem serve`'s runner (pbem.ops.runner) on a real database and real Maildirs, its pauses
taken by a recording sleeper instead of the clock: how long it backs off after a database fault
or a failed pass, when the operator is told, what the heartbeat and the metrics say, and that a
wrong setting stops it at once."""

from __future__ import annotations

import mailbox
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import col, select

from pbem.engine import registry
from pbem.ops import api, heartbeat
from pbem.ops.metrics import Metrics
from pbem.ops.runner import Backoff, Notice, Runner
from pbem.settings import config
from pbem.settings.config import Config, ConfigError, MailConfig
from pbem.settings.host import Host
from pbem.store import InboundMessage, init, session_factory
from pbem.store.db import SessionFactory
from tests.pipeline.conftest import ALICE, BOB
from tests.support.dbfaults import DbFaults
from tests.support.playermail import mail
from tests.support.testgame import GAME

INTERVAL = 60.0
ALERT_SUBJECT = "pbem: the database or disk keeps failing"


@pytest.fixture(autouse=True)
def testcards() -> Iterator[None]:
    registry.register(GAME)
    yield
    registry.unregister(GAME.name)


def settings(tmp_path: Path, db_url: str, **more: Any) -> Config:
    """Maildirs in the data folder; a fault is not retried within the pass, and two faulty
    passes in a row make the operator's alert."""
    return config.from_dict({
        "data_dir": str(tmp_path / "data"), "database": {"url": db_url},
        "mail": {"from_address": "games@host.test", "operator_address": "op@host.test"},
        "limits": {"transient_retries": 0, "transient_backoff_ms": 0, "fault_alert_after": 2},
        **more})


def an_order_waiting(factory: SessionFactory, cfg: Config) -> None:
    """A game of two, and Alice's legal order in the inbox."""
    with factory() as s:
        game, secrets = api.create_game(s, "testcards", [("Alice", ALICE), ("Bob", BOB)],
                                        seed="runner",
                                        host=Host(mail=MailConfig(from_address="games@host.test")))
        s.commit()
        card = sorted(api.current_state(s, game).hands[0])[0]
        tag = game.tag
    cfg.data_dir.mkdir(parents=True, exist_ok=True)
    mailbox.Maildir(cfg.inbound.maildir, create=True).add(
        mail(ALICE, f"Re: [{tag}] Test Cards", f"play {card}\nsecret {secrets[0]}"))


def mails_to(cfg: Config, address: str) -> list[str]:
    """The subjects of the mails in the outbox Maildir to ``address``."""
    return [str(m["Subject"]) for m in mailbox.Maildir(cfg.outbound.maildir, create=False)
            if m["To"] == address]


def counted(metrics: Metrics, name: str) -> float:
    value = metrics.registry.get_sample_value(name)
    assert value is not None, name
    return value


def test_the_backoff_doubles_for_database_faults_and_is_short_for_other_failures() -> None:
    backoff = Backoff(INTERVAL)
    assert [backoff.fault() for _ in range(6)] == [60.0, 120.0, 240.0, 480.0, 900.0, 900.0]
    assert backoff.failure() == 30.0  # a failed pass neither waits long nor counts as a fault
    assert backoff.fault() == 900.0
    backoff.clean()  # a pass went through: the next fault starts over
    assert backoff.fault() == 60.0
    assert Backoff(5.0).failure() == 5.0  # never longer than the interval itself


def test_database_faults_double_the_pause_the_operator_is_told_once_and_the_mail_waits(
        db_url: str, tmp_path: Path) -> None:
    engine = init(db_url)
    factory = session_factory(engine)
    cfg = settings(tmp_path, db_url)
    an_order_waiting(factory, cfg)
    faults = DbFaults(engine)
    faults.next(10**6, "locked")  # the database refuses everything until it comes back
    slept: list[tuple[float, bool]] = []
    waited: list[tuple[float, bool]] = []

    def sleep(seconds: float) -> None:
        slept.append((seconds, heartbeat.serving(cfg.data_dir)))
        if len(slept) == 3:
            faults.off()  # back during serve's third pause

    def wait(seconds: float) -> None:
        waited.append((seconds, heartbeat.serving(cfg.data_dir)))
        raise KeyboardInterrupt  # Ctrl-C while serve waits for new mail

    notices: list[Notice] = []
    metrics = Metrics(factory)
    try:
        Runner(cfg, factory, INTERVAL, notices.append, metrics=metrics, sleep=sleep,
               wait=wait).serve()
    finally:
        faults.close()
    # Three faulty passes, each pause twice the last, serve alive (its beat fresh) in each.
    assert slept == [(60.0, True), (120.0, True), (240.0, True)]
    assert [n.kind for n in notices] == ["fault", "fault", "fault", "said"]
    # The driver's own words: SQLite's "database is locked", PostgreSQL's LockNotAvailable.
    assert all(n.text in ("OperationalError: database is locked",
                          "LockNotAvailable: could not obtain lock on row in relation")
               for n in notices[:3])
    assert notices[3].text.startswith("retention: ")  # the first clean pass prunes
    # The fourth pass went through: the order applied, then serve waited for mail.
    assert waited == [(INTERVAL, True)]
    with factory() as s:
        assert [m.status for m in s.exec(select(InboundMessage).order_by(
            col(InboundMessage.id)))] == ["applied"]
    # Told once, at the second fault in a row (fault_alert_after), not again at the third;
    # the clean pass forgot the count.
    assert mails_to(cfg, "op@host.test") == [ALERT_SUBJECT]
    assert not (cfg.data_dir / "faults.json").exists()
    assert counted(metrics, "pbem_passes_total") == 4
    assert counted(metrics, "pbem_pass_faults_total") == 3
    assert not heartbeat.serving(cfg.data_dir)  # stopped: its beat is gone
    engine.dispose()


def test_a_failed_pass_is_retried_after_a_short_pause_and_is_no_database_fault(
        db_url: str, tmp_path: Path) -> None:
    engine = init(db_url)
    factory = session_factory(engine)
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the inbox should be", encoding="utf-8")
    cfg = settings(tmp_path, db_url, inbound={"maildir": {"path": str(blocked)}})
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        if len(slept) == 2:
            blocked.unlink()  # the operator clears the way during the second pause

    def wait(seconds: float) -> None:
        raise KeyboardInterrupt

    notices: list[Notice] = []
    metrics = Metrics(factory)
    Runner(cfg, factory, INTERVAL, notices.append, metrics=metrics, sleep=sleep,
           wait=wait).serve()
    assert slept == [30.0, 30.0]  # at most 30 s, and not doubled
    assert [n.kind for n in notices] == ["failed", "failed", "said"]
    assert str(blocked) in notices[0].text
    assert counted(metrics, "pbem_passes_total") == 1
    assert counted(metrics, "pbem_pass_faults_total") == 2
    assert not (cfg.data_dir / "faults.json").exists()  # the fault watch counts only faults
    assert mails_to(cfg, "op@host.test") == []
    engine.dispose()


def test_a_wrong_setting_stops_serve_at_once(db_url: str, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PBEM_TEST_NO_PW", raising=False)
    engine = init(db_url)
    cfg = settings(tmp_path, db_url, inbound={"imap": {
        "host": "127.0.0.1", "port": 1, "user": "gm", "password_env": "PBEM_TEST_NO_PW"}})
    slept: list[float] = []
    notices: list[Notice] = []
    runner = Runner(cfg, session_factory(engine), INTERVAL, notices.append,
                    sleep=slept.append, wait=slept.append)
    with pytest.raises(ConfigError, match="PBEM_TEST_NO_PW is not set"):
        runner.serve()
    assert slept == [] and notices == []  # no pause, no "retrying"
    assert not heartbeat.serving(cfg.data_dir)
    engine.dispose()
