"""The schema is whole after every migration, though SQLite batch steps cannot reflect all."""

from __future__ import annotations

from sqlalchemy import create_engine, text

from pbem.store import init


def test_the_case_blind_tag_index_survives_every_migration(db_url: str) -> None:
    init(db_url).dispose()
    engine = create_engine(db_url)
    with engine.connect() as conn:
        if engine.dialect.name == "sqlite":
            found = conn.execute(text("SELECT sql FROM sqlite_master WHERE type = 'index' "
                                      "AND name = 'ix_game_tag_lower'")).scalar()
        else:
            found = conn.execute(text("SELECT indexdef FROM pg_indexes "
                                      "WHERE indexname = 'ix_game_tag_lower'")).scalar()
    engine.dispose()
    assert found is not None and "lower(" in str(found).lower()
