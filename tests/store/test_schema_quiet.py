"""`pbem init` on a new host: a healthy run says nothing on stderr, and the schema is whole."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from sqlalchemy import create_engine, text

from pbem.store import init


def test_init_prints_nothing_on_stderr(tmp_path: Path) -> None:
    env = {**os.environ, "PBEM_HOME": str(tmp_path / "data")}
    env.pop("PBEM_CONFIG", None)
    done = subprocess.run([sys.executable, "-c", "from pbem.cli import main; main()", "init"],
                          env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "Database ready" in done.stdout or "database ready" in done.stdout.lower()
    assert done.stderr == ""


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
