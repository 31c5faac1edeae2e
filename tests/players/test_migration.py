"""0014: players, results and ratings; everyone seated before it gets an (empty) profile."""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, inspect, text

from pbem.store.db import MIGRATIONS


def test_0014_makes_a_profile_per_seated_address_and_goes_back(db_url: str) -> None:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", db_url.replace("%", "%%"))
    command.upgrade(cfg, "0012")
    engine = create_engine(db_url)
    with engine.begin() as conn:
        for tag in ("x-1", "x-2"):
            conn.execute(text(
                "INSERT INTO game (game_type, tag, options_json, seed, status, created, "
                "timeout_policy, vacation_days, language) VALUES ('x', :tag, '{}', 's', "
                "'active', CURRENT_TIMESTAMP, 'pause', 14, 'en')"), {"tag": tag})
        # Ann in both games, Ben in one
        for tag, index, name, address in [("x-1", 0, "Ann", "ann@example.org"),
                                          ("x-1", 1, "Ben", "ben@example.org"),
                                          ("x-2", 0, "Ann", "ann@example.org")]:
            conn.execute(text(
                "INSERT INTO seat (game_id, \"index\", name, address, secret_salt, secret_hash,"
                " status, vacation_days_used, mail_mode, bounce_reason, language, timezone) "
                "SELECT id, :i, :name, :address, 's', 'h', 'active', 0, 'every', '', 'en', "
                "'UTC' FROM game WHERE tag = :tag"),
                {"i": index, "name": name, "address": address, "tag": tag})
    command.upgrade(cfg, "0014")
    with engine.connect() as conn:
        rows = [tuple(r) for r in conn.execute(text(
            "SELECT address, name, language, timezone, mail_mode, banned_at, ban_reason "
            "FROM player ORDER BY address"))]
    assert rows == [("ann@example.org", "", None, None, None, None, ""),
                    ("ben@example.org", "", None, None, None, None, "")]
    assert {"gameresult", "rating"} <= set(inspect(engine).get_table_names())
    command.downgrade(cfg, "0012")
    assert not {"player", "gameresult", "rating"} & set(inspect(engine).get_table_names())
    command.upgrade(cfg, "head")
    engine.dispose()
