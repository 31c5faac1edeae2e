"""The schema is built by the alembic migrations on every backend, and is idempotent."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.config import Config
from sqlalchemy import inspect
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from pbem.store import InboundMessage, init, migrate
from pbem.store.db import MIGRATIONS


def alembic_config(db_url: str) -> Config:
    """Alembic's configuration for pbem's migrations on ``db_url``, to step through them."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", db_url.replace("%", "%%"))
    return cfg


def test_migrate_creates_every_table(db_url: str) -> None:
    engine = init(db_url)
    names = set(inspect(engine).get_table_names())
    assert {"game", "seat", "inboundmessage", "logentry", "snapshot", "outboundmessage",
            "alembic_version"} <= names
    migrate(db_url)  # a second run is a no-op
    engine.dispose()


def test_message_id_is_unique(db_url: str) -> None:
    engine = init(db_url)
    with Session(engine) as s:
        s.add(InboundMessage(message_id="<a@x>", raw=b"one"))
        s.commit()
        s.add(InboundMessage(message_id="<a@x>", raw=b"two"))
        with pytest.raises(IntegrityError):
            s.commit()
    engine.dispose()


def test_raw_bytes_round_trip(db_url: str) -> None:
    engine = init(db_url)
    raw = bytes(range(256))
    with Session(engine) as s:
        s.add(InboundMessage(message_id="<b@x>", raw=raw))
        s.commit()
    with Session(engine) as s:
        row = s.exec(select(InboundMessage)).one()
        assert row.raw == raw
    engine.dispose()


def test_migrations_match_the_models(db_url: str) -> None:
    """A column added to tables.py without a migration (or the reverse) fails here."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    from sqlmodel import SQLModel

    engine = init(db_url)
    with engine.connect() as conn:
        diffs = compare_metadata(MigrationContext.configure(conn), SQLModel.metadata)
    structural = [d for d in diffs if isinstance(d, tuple) and d[0] in
                  {"add_table", "remove_table", "add_column", "remove_column"}]
    assert structural == []
    engine.dispose()


def test_concurrent_first_runs_on_an_empty_database_do_not_race(db_url: str) -> None:
    """Workers started together on an empty PostgreSQL database all migrate it (one does the
    work under the advisory lock, the others find it done)."""
    if not db_url.startswith("postgresql"):
        pytest.skip("SQLite takes one writer at a time by itself")
    import subprocess
    import sys

    code = "import sys; from pbem.store import migrate; migrate(sys.argv[1])"
    procs = [subprocess.Popen([sys.executable, "-c", code, db_url], stderr=subprocess.PIPE,
                              text=True) for _ in range(4)]
    failures = [p.communicate(timeout=120)[1] for p in procs if p.wait(timeout=120) != 0]
    assert failures == []
    engine = init(db_url)
    assert {"game", "seat", "inboundmessage"} <= set(inspect(engine).get_table_names())
    engine.dispose()


def test_0008_gives_existing_seats_english_and_utc_and_goes_back(db_url: str) -> None:
    """Games and seats made before languages existed read English and UTC after 0008."""
    from alembic import command
    from sqlalchemy import create_engine, text


    cfg = alembic_config(db_url)
    command.upgrade(cfg, "0007")
    engine = create_engine(db_url)
    with engine.begin() as conn:
        conn.execute(text(
            "INSERT INTO game (game_type, tag, options_json, seed, status, created, "
            "timeout_policy, vacation_days) VALUES ('x', 'x-1', '{}', 's', 'active', "
            "CURRENT_TIMESTAMP, 'pause', 14)"))
        conn.execute(text(
            "INSERT INTO seat (game_id, \"index\", name, address, secret_salt, secret_hash, "
            "status, vacation_days_used, mail_mode, bounce_reason) SELECT id, 0, 'Ann', "
            "'ann@example.org', 's', 'h', 'active', 0, 'every', '' FROM game"))
    command.upgrade(cfg, "0008")
    with engine.connect() as conn:
        assert conn.execute(text("SELECT language FROM game")).scalar_one() == "en"
        assert tuple(conn.execute(text("SELECT language, timezone FROM seat")).one()) == (
            "en", "UTC")
    command.downgrade(cfg, "0007")
    assert "language" not in {c["name"] for c in inspect(engine).get_columns("seat")}
    command.upgrade(cfg, "head")
    engine.dispose()


def test_0009_stores_outbound_mail_uncompressed_on_postgresql_and_goes_back(
        db_url: str) -> None:
    """pglz cost ~9 ms per status mail and shrank nothing: outbound bytes are stored as they
    are (STORAGE EXTERNAL) on PostgreSQL; SQLite has nothing to change."""
    from alembic import command
    from sqlalchemy import create_engine, text


    def storage() -> dict[str, str]:
        with engine.connect() as conn:
            rows = conn.execute(text(
                "SELECT a.attname, a.attstorage FROM pg_attribute a "
                "WHERE a.attrelid = 'outboundmessage'::regclass "
                "AND a.attname IN ('raw', 'raw_once_sent')")).all()
            return {str(name): str(kind) for name, kind in rows}

    cfg = alembic_config(db_url)
    command.upgrade(cfg, "0009")  # (0010 moved the bytes out of outboundmessage)
    engine = create_engine(db_url)
    raw = b"From: a@b\r\n\r\n" + bytes(range(256)) * 500
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO outboundmessage (to_addr, kind, raw, status, attempts, "
                          "last_error, next_attempt_at, created) VALUES ('p@x', 'status', :r, "
                          "'queued', 0, '', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"), {"r": raw})
    with engine.connect() as conn:
        assert conn.execute(text("SELECT raw FROM outboundmessage")).scalar_one() == raw
    if engine.dialect.name == "postgresql":
        assert storage() == {"raw": "e", "raw_once_sent": "e"}
        command.downgrade(cfg, "0008")
        assert storage() == {"raw": "x", "raw_once_sent": "x"}
    else:
        command.downgrade(cfg, "0008")
    command.upgrade(cfg, "head")
    engine.dispose()


def test_0010_moves_mail_bytes_to_their_own_tables_and_back(db_url: str,
                                                            tmp_path: Path) -> None:
    """Mail stored by the old schema (bytes in the message rows) reads the same after 0010,
    from inboundbytes and outboundbytes; the outbox keeps each mail's subject; a queued mail
    with a secret is sent and then blanked as before; 0009 gets the bytes back."""
    from alembic import command
    from sqlalchemy import create_engine, text

    from pbem.mail.outbound import MaildirSender
    from pbem.outbox.delivery import deliver_outbox
    from pbem.store import OutboundMessage
    from pbem.store.db import make_engine, session_factory

    cfg = alembic_config(db_url)
    command.upgrade(cfg, "0009")
    engine = create_engine(db_url)
    inbound = b"From: ann@x\r\nSubject: orders\r\n\r\nplay 3\r\n" + bytes(range(256))
    welcome = (b"From: host@x\r\nTo: ann@x\r\nMessage-ID: <w@x>\r\n"
               b"Subject: =?utf-8?q?Bienvenue_=C3=A0?=\r\n [reef-1]\r\n\r\n"
               b"secret S3CR3T\r\n" + bytes(range(256)) * 300)
    blanked = welcome.replace(b"S3CR3T", b"[secret-removed]")
    status = b"From: host@x\r\nTo: bob@x\r\nSubject: Turn 2\r\n\r\nyour move\r\n"
    with engine.begin() as conn:
        conn.execute(text(
            "INSERT INTO inboundmessage (message_id, raw, raw_sha256, from_addr, subject, "
            "status, reason, received_at) VALUES ('<i@x>', :r, 'd', 'ann@x', 'orders', "
            "'applied', '', CURRENT_TIMESTAMP)"), {"r": inbound})
        for raw, once_sent, state in ((welcome, blanked, "queued"), (status, None, "sent")):
            conn.execute(text(
                "INSERT INTO outboundmessage (to_addr, kind, raw, raw_once_sent, status, "
                "attempts, last_error, next_attempt_at, created) VALUES ('p@x', 'status', "
                ":r, :o, :s, 0, '', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"),
                {"r": raw, "o": once_sent, "s": state})
    command.upgrade(cfg, "0010")
    columns = {t: {c["name"] for c in inspect(engine).get_columns(t)}
               for t in ("inboundmessage", "outboundmessage")}
    assert "raw" not in columns["inboundmessage"] | columns["outboundmessage"]
    assert "raw_once_sent" not in columns["outboundmessage"]
    with engine.connect() as conn:
        assert conn.execute(text("SELECT raw FROM inboundbytes")).scalar_one() == inbound
        assert [tuple(r) for r in conn.execute(text(
            "SELECT raw, raw_once_sent FROM outboundbytes ORDER BY id"))] == [
            (welcome, blanked), (status, None)]
        if engine.dialect.name == "postgresql":  # uncompressed, as 0009 made them
            assert {name: storage for name, storage in conn.execute(text(
                "SELECT attname, attstorage FROM pg_attribute WHERE attrelid = "
                "'outboundbytes'::regclass AND attname IN ('raw', 'raw_once_sent')"))
                } == {"raw": "e", "raw_once_sent": "e"}
    command.upgrade(cfg, "head")  # the models below are the latest revision's
    factory = session_factory(make_engine(db_url))
    with factory() as s:
        assert s.exec(select(InboundMessage)).one().raw == inbound
        rows = list(s.exec(select(OutboundMessage).order_by(col(OutboundMessage.id))))
        assert [(r.subject, r.raw, r.raw_once_sent) for r in rows] == [
            ("Bienvenue à [reef-1]", welcome, blanked), ("Turn 2", status, None)]
    assert deliver_outbox(factory, MaildirSender(tmp_path / "out")).sent == 1
    sent = [f.read_bytes() for f in (tmp_path / "out" / "new").iterdir()]
    assert len(sent) == 1 and b"S3CR3T" in sent[0]  # the player got the secret ...
    with factory() as s:  # ... and only the blanked copy stays
        first = s.get(OutboundMessage, rows[0].id)
        assert first is not None and (first.raw, first.raw_once_sent) == (blanked, None)
    command.downgrade(cfg, "0009")
    with engine.connect() as conn:
        assert conn.execute(text("SELECT raw FROM inboundmessage")).scalar_one() == inbound
        assert [tuple(r) for r in conn.execute(text(
            "SELECT raw, raw_once_sent FROM outboundmessage ORDER BY id"))] == [
            (blanked, None), (status, None)]
    assert not {"inboundbytes", "outboundbytes"} & set(inspect(engine).get_table_names())
    command.upgrade(cfg, "head")
    engine.dispose()


def test_0013_makes_every_existing_seat_its_players_and_goes_back(db_url: str) -> None:
    """Seats made before bots existed are played by their players after 0013."""
    from alembic import command
    from sqlalchemy import create_engine, text


    cfg = alembic_config(db_url)
    command.upgrade(cfg, "0012")
    engine = create_engine(db_url)
    with engine.begin() as conn:
        conn.execute(text(
            "INSERT INTO game (game_type, tag, options_json, seed, status, created, "
            "timeout_policy, vacation_days, language) VALUES ('x', 'x-1', '{}', 's', "
            "'active', CURRENT_TIMESTAMP, 'pause', 14, 'en')"))
        conn.execute(text(
            "INSERT INTO seat (game_id, \"index\", name, address, secret_salt, secret_hash, "
            "status, vacation_days_used, mail_mode, bounce_reason, language, timezone) "
            "SELECT id, 0, 'Ann', 'ann@example.org', 's', 'h', 'active', 0, 'every', '', "
            "'en', 'UTC' FROM game"))
    command.upgrade(cfg, "0013")
    with engine.connect() as conn:
        assert conn.execute(text("SELECT controller FROM seat")).scalar_one() == "human"
    command.downgrade(cfg, "0012")
    assert "controller" not in {c["name"] for c in inspect(engine).get_columns("seat")}
    command.upgrade(cfg, "head")
    engine.dispose()


def test_0015_adds_the_lobby_and_goes_back(db_url: str) -> None:
    """The lobby's tables come with 0015, keep a table with its seat, and leave with it."""
    from alembic import command
    from sqlalchemy import create_engine, text


    cfg = alembic_config(db_url)
    command.upgrade(cfg, "0012")
    engine = create_engine(db_url)
    assert "lobbytable" not in inspect(engine).get_table_names()
    command.upgrade(cfg, "0015")
    lobby = {"lobbytable", "lobbyseat", "lobbyinvite", "nevermail"}
    assert lobby <= set(inspect(engine).get_table_names())
    with engine.begin() as conn:
        conn.execute(text(
            "INSERT INTO lobbytable (tag, game_type, players, options_json, opener, language, "
            "status, created) VALUES ('x-t1', 'x', 2, '{}', 'ann@example.org', 'en', 'open', "
            "CURRENT_TIMESTAMP)"))
        conn.execute(text(
            "INSERT INTO lobbyseat (table_id, address, name, language, code_salt, code_hash, "
            "joined_at) SELECT id, 'ann@example.org', 'Ann', 'en', 's', 'h', CURRENT_TIMESTAMP "
            "FROM lobbytable"))
        with pytest.raises(IntegrityError), conn.begin_nested():  # one seat per address
            conn.execute(text(
                "INSERT INTO lobbyseat (table_id, address, name, language, code_salt, "
                "code_hash, joined_at) SELECT id, 'ann@example.org', 'Ann', 'en', 's', 'h', "
                "CURRENT_TIMESTAMP FROM lobbytable"))
    with engine.connect() as conn:
        assert conn.execute(text("SELECT name FROM lobbyseat")).scalar_one() == "Ann"
    command.downgrade(cfg, "0012")
    assert not lobby & set(inspect(engine).get_table_names())
    command.upgrade(cfg, "head")
    engine.dispose()


def test_0016_keeps_nothing_hidden_for_good_in_existing_games_and_goes_back(db_url: str) -> None:
    """Games made before the host option existed reveal their holdings after the end."""
    from alembic import command
    from sqlalchemy import create_engine, text


    cfg = alembic_config(db_url)
    command.upgrade(cfg, "0015")
    engine = create_engine(db_url)
    with engine.begin() as conn:
        conn.execute(text(
            "INSERT INTO game (game_type, tag, options_json, seed, status, created, "
            "timeout_policy, vacation_days, language) VALUES ('x', 'x-1', '{}', 's', "
            "'finished', CURRENT_TIMESTAMP, 'pause', 14, 'en')"))
    command.upgrade(cfg, "0016")
    with engine.connect() as conn:
        assert conn.execute(text("SELECT hidden_for_good FROM game")).scalar_one() in (False, 0)
    command.downgrade(cfg, "0015")
    assert "hidden_for_good" not in {c["name"] for c in inspect(engine).get_columns("game")}
    command.upgrade(cfg, "head")
    engine.dispose()


def test_0017_gives_existing_tables_no_bot_seats_and_goes_back(db_url: str) -> None:
    """Tables opened before bot seats have none after 0017; the columns leave with it."""
    from alembic import command
    from sqlalchemy import create_engine, text


    cfg = alembic_config(db_url)
    command.upgrade(cfg, "0016")
    engine = create_engine(db_url)
    with engine.begin() as conn:
        conn.execute(text(
            "INSERT INTO lobbytable (tag, game_type, players, options_json, opener, language, "
            "status, created) VALUES ('x-t1', 'x', 2, '{}', 'ann@example.org', 'en', 'open', "
            "CURRENT_TIMESTAMP)"))
    command.upgrade(cfg, "0017")
    with engine.connect() as conn:
        assert conn.execute(text("SELECT bots, bot_level FROM lobbytable")).one() == (
            0, "normal")
    command.downgrade(cfg, "0016")
    assert "bots" not in {c["name"] for c in inspect(engine).get_columns("lobbytable")}
    command.upgrade(cfg, "head")
    engine.dispose()


def test_0018_keeps_waiting_seats_with_no_code_sent_time_and_goes_back(db_url: str) -> None:
    """Seats waiting before 0018 have no time their code was sent: a repeated join takes
    their joining time instead (pbem.pipeline.lobby.join); the column leaves with it."""
    from alembic import command
    from sqlalchemy import create_engine, text

    cfg = alembic_config(db_url)
    command.upgrade(cfg, "0017")
    engine = create_engine(db_url)
    with engine.begin() as conn:
        conn.execute(text(
            "INSERT INTO lobbytable (tag, game_type, players, options_json, opener, language, "
            "status, created, bots, bot_level) VALUES ('x-t1', 'x', 2, '{}', "
            "'ann@example.org', 'en', 'open', CURRENT_TIMESTAMP, 0, 'normal')"))
        conn.execute(text(
            "INSERT INTO lobbyseat (table_id, address, name, language, code_salt, code_hash, "
            "joined_at) SELECT id, 'ann@example.org', 'Ann', 'en', 'aa', 'hmac-sha256$x', "
            "CURRENT_TIMESTAMP FROM lobbytable"))
    command.upgrade(cfg, "0018_lobby_code_sent")
    with engine.connect() as conn:
        assert conn.execute(text("SELECT code_sent_at FROM lobbyseat")).scalar_one() is None
    command.downgrade(cfg, "0017")
    assert "code_sent_at" not in {c["name"] for c in inspect(engine).get_columns("lobbyseat")}
    command.upgrade(cfg, "head")
    engine.dispose()
