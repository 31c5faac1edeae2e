"""The lookups every order or clock pass makes use an index, so 1,000 idle games cost nothing
(SQLite's plan is checked; PostgreSQL plans by statistics and may scan a tiny table)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import Engine, text
from sqlmodel import func, select

from pbem.pipeline.clock import due_games
from pbem.store import Game, init


def plan(engine: Engine, statement: object) -> str:
    compiled = statement.compile(engine, compile_kwargs={"literal_binds": True})  # type: ignore[attr-defined]
    with engine.connect() as conn:
        return " ".join(str(r[-1]) for r in conn.execute(text(f"EXPLAIN QUERY PLAN {compiled}")))


@pytest.mark.parametrize("what", ["tag", "clock"])
def test_the_tag_lookup_and_the_clock_pass_search_an_index(tmp_path: object, what: str) -> None:
    engine = init(f"sqlite:///{tmp_path}/db.sqlite")
    statement = (select(Game).where(func.lower(Game.tag) == "reef-7") if what == "tag" else
                 due_games(datetime(2030, 1, 1, tzinfo=UTC)))
    assert "USING INDEX" in plan(engine, statement), plan(engine, statement)
    engine.dispose()
