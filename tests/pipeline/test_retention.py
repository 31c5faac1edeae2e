"""Retention: what a prune cuts, when, and what it never touches; the space it gives back;
the settings; serve's daily turn."""

from __future__ import annotations

import random
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import Engine
from sqlmodel import col, select

from pbem.mail.outbound import MaildirSender
from pbem.ops import admin, api, retention
from pbem.outbox.delivery import deliver_outbox
from pbem.pipeline.one_mail import process_raw
from pbem.pipeline.quarantine import quarantine
from pbem.settings import config
from pbem.settings.host import Host
from pbem.store import InboundMessage, OutboundMessage, SessionFactory, space
from pbem.store.tables import OutboundBytes, utcnow
from tests.pipeline.conftest import ALICE, BOB, Table, hand
from tests.support.playermail import mail


def _status(factory: SessionFactory) -> dict[str, set[bool]]:
    """For each kind of stored mail, whether it was pruned."""
    out: dict[str, set[bool]] = {}
    with factory() as s:
        for m in s.exec(select(InboundMessage)):
            key = f"in:{m.status}:{'game' if m.game_id else 'none'}"
            out.setdefault(key, set()).add(m.pruned_at is not None)
        for o in s.exec(select(OutboundMessage)):
            out.setdefault(f"out:{o.status}", set()).add(o.pruned_at is not None)
    return out


def test_a_prune_cuts_only_what_is_past_its_time(
        factory: SessionFactory, host: Host, table: Table, tmp_path: Path) -> None:
    card = hand(factory, table, 0)[0]
    assert process_raw(factory, mail(ALICE, f"Re: [{table.tag}]",
                                     f"play {card}\nsecret {table.secrets[0]}"),
                       host).status == "applied"
    stranger = process_raw(factory, mail("who@else.test", "hi", "what is this?"), host)
    assert stranger.status != "quarantined"
    kept = quarantine(factory, mail(BOB, f"[{table.tag}]", "broken"), "test: held", None, host)
    assert kept.status == "quarantined"
    deliver_outbox(factory, MaildirSender(tmp_path / "out"), host)
    with factory() as s:
        failed = s.exec(select(OutboundMessage)).first()
        assert failed is not None
        failed.status = "failed"
        s.add(failed)
        s.commit()
    now = utcnow()

    early = retention.prune(factory, sent_days=30, received_days=30,
                            now=now + timedelta(days=29))
    assert (early.sent.count, early.received.count) == (0, 0)
    assert all(pruned == {False} for pruned in _status(factory).values())

    later = retention.prune(factory, sent_days=30, received_days=30,
                            now=now + timedelta(days=31))
    assert later.sent.count > 0 and later.received.count == 1  # the stranger's
    assert _status(factory) == {
        "in:applied:game": {False},  # its game goes on
        f"in:{stranger.status}:none": {True},
        "in:quarantined:game": {False},  # the operator's
        "out:sent": {True}, "out:failed": {False}}

    with factory() as s:
        admin.archive(s, host, api.get_game(s, table.game_id), abandon=True)
        s.commit()
    ended = utcnow()
    waits = retention.prune(factory, sent_days=30, received_days=30,
                            now=ended + timedelta(days=29))
    assert waits.received.count == 0  # 30 days after the game's end, not after the mail
    gone = retention.prune(factory, sent_days=30, received_days=30,
                           now=ended + timedelta(days=31))
    assert gone.received.count == 1
    status = _status(factory)
    assert status["in:applied:game"] == {True} and status["in:quarantined:game"] == {False}
    assert status["out:queued"] == {False}  # the abandon notices, not sent yet
    with factory() as s:
        cut = s.exec(select(OutboundMessage).where(col(OutboundMessage.pruned_at).is_not(None))
                     ).first()
        assert cut is not None and cut.raw.startswith(b"Content-Type") is False
        assert b"\n\n" in cut.raw and cut.raw_size and len(cut.raw) < cut.raw_size
        assert cut.raw_sha256 is not None and len(cut.raw_sha256) == 64


def test_headers_of_keeps_the_header_block_only() -> None:
    assert retention.headers_of(b"From: a\r\nTo: b\r\n\r\nbody\r\n") == b"From: a\r\nTo: b\r\n\r\n"
    assert retention.headers_of(b"From: a\n\nbody") == b"From: a\n\n"
    assert retention.headers_of(b"no blank line") == b"no blank line"


def _engine(factory: SessionFactory) -> Engine:
    with factory() as s:
        bind = s.get_bind()
    assert isinstance(bind, Engine)
    return bind


def _sent_mails(factory: SessionFactory, count: int, when: object) -> None:
    body = random.Random(count).randbytes(51_200)  # 50 kB that nothing compresses
    with factory() as s:
        for _ in range(count):
            row = OutboundMessage(to_addr="p@players.test", status="sent", sent_at=when,
                                  raw=b"From: x\n\n" + body)
            s.add(row)
        s.commit()


def _sqlite(factory: SessionFactory) -> Engine:
    engine = _engine(factory)
    if engine.dialect.name != "sqlite":
        pytest.skip("SQLite's file (PostgreSQL: see the vacuum test below)")
    return engine


def test_the_sqlite_file_shrinks_after_a_prune(factory: SessionFactory) -> None:
    engine = _sqlite(factory)
    with engine.connect() as conn:  # a new file frees its pages as it goes
        assert conn.exec_driver_sql("PRAGMA auto_vacuum").scalar() == space.INCREMENTAL
    old = utcnow() - timedelta(days=40)
    _sent_mails(factory, 200, old)
    grown = space.size_on_disk(engine)
    done = retention.prune(factory, sent_days=30, received_days=30)
    assert done.space is not None and done.space.how == "incremental vacuum"
    assert done.space.after < grown / 4, (grown, done.space)


def test_an_older_sqlite_file_is_rewritten_once_then_shrinks_as_it_goes(
        factory: SessionFactory) -> None:
    engine = _sqlite(factory)
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.exec_driver_sql("PRAGMA auto_vacuum=NONE")  # as files made before retention
        conn.exec_driver_sql("VACUUM")
        assert conn.exec_driver_sql("PRAGMA auto_vacuum").scalar() == 0
    old = utcnow() - timedelta(days=40)
    _sent_mails(factory, 200, old)
    full = space.size_on_disk(engine)
    done = retention.prune(factory, sent_days=30, received_days=30)
    assert done.space is not None and done.space.how.startswith("vacuum")
    assert done.space.after < full / 4, (full, done.space)
    _sent_mails(factory, 200, old)
    grown = space.size_on_disk(engine)
    again = retention.prune(factory, sent_days=30, received_days=30)
    assert again.space is not None and again.space.how == "incremental vacuum"
    assert again.space.after < grown / 2, (grown, again.space)


def test_on_postgresql_the_prune_vacuums_the_tables_it_rewrote(
        factory: SessionFactory) -> None:
    engine = _engine(factory)
    if engine.dialect.name != "postgresql":
        pytest.skip("the PostgreSQL side of reclaiming")
    _sent_mails(factory, 50, utcnow() - timedelta(days=40))
    done = retention.prune(factory, sent_days=30, received_days=30)
    assert done.space is not None
    assert done.space.how == ("vacuum of inboundbytes, outboundbytes, mailpart, mailpartuse, "
                              "snapshot")
    with engine.connect() as conn:
        vacuumed = conn.exec_driver_sql(
            "SELECT last_vacuum IS NOT NULL FROM pg_stat_user_tables "
            "WHERE relname = 'outboundbytes'").scalar()
    assert vacuumed


def test_a_dry_run_changes_nothing(factory: SessionFactory) -> None:
    _sent_mails(factory, 3, utcnow() - timedelta(days=40))
    dry = retention.prune(factory, sent_days=30, received_days=30, dry_run=True)
    assert dry.sent.count == 3 and dry.sent.bytes > 3 * 50_000 and dry.space is None
    assert "3 (" in dry.lines()[0] and "would go" in dry.lines()[0]
    with factory() as s:
        assert all(len(b.raw) > 50_000 for b in s.exec(select(OutboundBytes)))
    assert retention.prune(factory, sent_days=30, received_days=30).sent.count == 3


def test_retention_settings_read_and_refused(tmp_path: Path) -> None:
    assert config.from_dict({}).retention == config.Retention(30, 30)
    got = config.from_dict({"retention": {"sent_mail_days": 7, "received_mail_days": 0}})
    assert got.retention == config.Retention(7, 0)
    with pytest.raises(config.ConfigError, match=r"retention\.sent_mail_days must be 0 or "
                       r"more days, not -1"):
        config.from_dict({"retention": {"sent_mail_days": -1}})
    with pytest.raises(config.ConfigError, match=r"retention\.received_mail_days must be a "
                       r"whole number"):
        config.from_dict({"retention": {"received_mail_days": "soon"}})
    with pytest.raises(config.ConfigError, match=r"unknown setting 'days' in \[retention\]"):
        config.from_dict({"retention": {"days": 3}})


def test_serve_prunes_once_a_day(tmp_path: Path) -> None:
    daily = retention.Daily(tmp_path / "last-prune.json")
    now = utcnow()
    assert daily.due(now)
    daily.done(now)
    assert not daily.due(now + timedelta(hours=23))
    assert daily.due(now + timedelta(hours=24))
    (tmp_path / "last-prune.json").write_text("garbage", "utf-8")
    assert daily.due(now)  # a damaged mark prunes (again) rather than never


def test_serve_prunes_on_its_first_pass_then_waits_a_day(
        factory: SessionFactory, db_url: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    from pbem.ops.runner import Notice, daily_prune

    def tell(notice: Notice) -> None:
        print(notice.text)

    cfg = config.from_dict({"data_dir": str(tmp_path), "database": {"url": db_url}})
    _sent_mails(factory, 2, utcnow() - timedelta(days=40))
    daily_prune(cfg, factory, tell)
    assert "retention: sent mails cut to their headers: 2 (" in capsys.readouterr().out
    _sent_mails(factory, 2, utcnow() - timedelta(days=40))
    daily_prune(cfg, factory, tell)  # the same day: nothing
    assert capsys.readouterr().out == ""
    with factory() as s:
        assert [m.pruned_at is None for m in s.exec(select(OutboundMessage).order_by(
            col(OutboundMessage.id)))] == [False, False, True, True]
