"""Database fixtures: SQLite always, PostgreSQL when PBEM_TEST_POSTGRES_URL is set.

``db_url`` is an empty database of each backend: a new SQLite file, or a new PostgreSQL
database created for the test and dropped after it, so parallel tests never collide.

``factory`` is a migrated one, made without running the migrations per test (from nothing
they take some 150 ms, which over a thousand tests is minutes): on SQLite a copy of a file
the migrations built once per test process; on PostgreSQL, where even an empty CREATE
DATABASE costs 100 ms, one migrated database per test process, emptied before each test
that asks for ``factory`` (its rows deleted, its sequences restarted, every other connection
to it ended). A test that asks for both gets the same database under both names.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import MetaData, create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool
from sqlmodel import SQLModel

from pbem.store import SessionFactory, init, make_engine, session_factory
from pbem.store.packing import inflate
from pbem_testkit.databases import database_url, run_as_admin, scratch_database

PG_ENV = "PBEM_TEST_POSTGRES_URL"


def _backends() -> list[object]:
    params: list[object] = ["sqlite"]
    if os.environ.get(PG_ENV):
        params.append(pytest.param("postgresql", marks=pytest.mark.postgres))
    return params


def bench_databases() -> list[object]:
    """What a bench's smoke test runs on: its default (SQLite, None) and PostgreSQL when set."""
    found: list[object] = [None]
    if os.environ.get(PG_ENV):
        found.append(pytest.param(os.environ[PG_ENV], marks=pytest.mark.postgres))
    return found


def _as_admin(*statements: str) -> None:
    """Run ``statements`` on the server's own database (CREATE and DROP DATABASE)."""
    run_as_admin(os.environ[PG_ENV], *statements)


def _url_of(database: str) -> str:
    return database_url(os.environ[PG_ENV], database)


class _Reused:
    """A migrated PostgreSQL database that one test process empties between its tests."""

    def __init__(self) -> None:
        self.name = f"pbem_reused_{uuid.uuid4().hex[:12]}"
        self.url = _url_of(self.name)
        self._create()

    def _create(self) -> None:
        _as_admin(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)',
                  f'CREATE DATABASE "{self.name}"')
        init(self.url).dispose()
        # No pool: emptied() ends every other connection, an idle pooled one included.
        self.engine = create_engine(self.url, poolclass=NullPool)
        tables = MetaData()
        tables.reflect(self.engine)
        self._delete = [f'DELETE FROM "{t.name}"' for t in reversed(tables.sorted_tables)
                        if t.name != "alembic_version"]
        self._tables = set(tables.tables)
        with self.engine.connect() as conn:
            self._version = conn.execute(text("SELECT version_num FROM alembic_version")
                                         ).scalar()
            self._restart = [f'ALTER SEQUENCE "{s}" RESTART' for s in conn.execute(text(
                "SELECT sequence_name FROM information_schema.sequences")).scalars()]

    def emptied(self) -> str:
        """The URL, after the last test's rows, sequences and connections are gone. A test
        that changed the schema itself (a downgrade) gets the database made anew."""
        with self.engine.begin() as conn:
            conn.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                              "WHERE datname = current_database() "
                              "AND pid <> pg_backend_pid()"))
            version = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
            names = set(conn.execute(text(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
            ).scalars())
            if version == self._version and names == self._tables:
                for statement in [*self._delete, *self._restart]:
                    conn.execute(text(statement))
                return self.url
        self.engine.dispose()
        self._create()
        return self.url

    def drop(self) -> None:
        self.engine.dispose()
        _as_admin(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def _reused_postgres() -> Iterator[_Reused]:
    reused = _Reused()
    yield reused
    reused.drop()


@pytest.fixture(scope="session")
def _sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "pbem.sqlite"
    init(f"sqlite:///{path}").dispose()
    assert not path.with_name(path.name + "-wal").exists()  # closed: the file is whole
    return path


@pytest.fixture(params=_backends())
def db_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[str]:
    """A URL of an empty database of each backend under test (schema not yet created); the
    migrated one of ``factory`` when the test asks for that too."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path_factory.mktemp('db') / 'pbem.sqlite'}"
        return
    if "factory" in request.fixturenames:
        yield request.getfixturevalue("_reused_postgres").emptied()
        return
    with scratch_database(os.environ[PG_ENV], "pbem_test") as url:
        yield url


@pytest.fixture
def factory(db_url: str, request: pytest.FixtureRequest) -> Iterator[SessionFactory]:
    """A session factory over a migrated database of each backend under test."""
    url = make_url(db_url)
    if url.get_backend_name() == "sqlite":
        assert url.database is not None
        shutil.copyfile(request.getfixturevalue("_sqlite_template"), url.database)
    engine = make_engine(db_url)  # at the newest revision already, as init leaves it
    yield session_factory(engine)
    engine.dispose()


def every_stored_byte(factory: SessionFactory) -> bytes:
    """Every value of every row of every table, as one blob: what a database copy holds."""
    out = []
    with factory() as s:
        for table in SQLModel.metadata.sorted_tables:  # every one: none can be forgotten
            for row in s.connection().execute(text(f"SELECT * FROM {table.name}")):
                for value in row:  # compressed as stored, as anyone can read it
                    out.append(inflate(value) if isinstance(value, bytes)
                               else str(value).encode())
    return b"\n".join(out)
