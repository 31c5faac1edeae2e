"""Database fixtures: SQLite always, PostgreSQL when PBEM_TEST_POSTGRES_URL is set.

Each test gets a fresh database: a new SQLite file, or a new PostgreSQL database created for
the test and dropped after it, so parallel tests never collide.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from pbem.store import SessionFactory, init, session_factory

PG_ENV = "PBEM_TEST_POSTGRES_URL"


def _backends() -> list[object]:
    params: list[object] = ["sqlite"]
    if os.environ.get(PG_ENV):
        params.append(pytest.param("postgresql", marks=pytest.mark.postgres))
    return params


@pytest.fixture(params=_backends())
def db_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[str]:
    """A URL of an empty database of each backend under test (schema not yet created)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path_factory.mktemp('db') / 'pbem.sqlite'}"
        return
    base = make_url(os.environ[PG_ENV])
    name = f"pbem_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield base.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture
def factory(db_url: str) -> Iterator[SessionFactory]:
    """A session factory over a migrated database of each backend under test."""
    engine = init(db_url)
    yield session_factory(engine)
    engine.dispose()
