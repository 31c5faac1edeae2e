"""Game ids are the names players know; former ids still find their game; "reef" is refused.

Stored games move to the new ids by a migration; their tags (``reef-1``) stay and still find
them, and new games keep each game's short tag prefix.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from pbem.engine import registry
from pbem.engine.contract import GameRules
from pbem.games.reef2018 import GAME as REEF
from pbem.games.reef_encounter import GAME as REEF_ENCOUNTER
from pbem.games.riff import GAME as RIFF

IDS: dict[str, GameRules] = {"reef-encounter": REEF_ENCOUNTER, "reef-2018": REEF, "das-riff": RIFF}


def test_the_ids_are_the_names_players_know() -> None:
    assert {name: registry.games()[name] for name in IDS} == IDS


@pytest.mark.parametrize(("typed", "game"), [
    ("reef-encounter", REEF_ENCOUNTER), ("reefencounter", REEF_ENCOUNTER),
    ("Reef_Encounter", REEF_ENCOUNTER), ("reef-2018", REEF), ("reef2018", REEF),
    ("REEF 2018", REEF), ("das-riff", RIFF), ("riff", RIFF), ("Das Riff", RIFF)])
def test_former_ids_and_spellings_find_their_game(typed: str, game: object) -> None:
    assert registry.get(typed) is game


def test_a_bare_reef_is_refused_naming_both_games() -> None:
    with pytest.raises(registry.UnknownGame) as caught:
        registry.get("reef")
    assert str(caught.value) == ("'reef' could mean several games: reef-2018 (Reef) or "
                                 "reef-encounter (Reef Encounter)")
    assert caught.value.fix == "name the game by its id: reef-2018 or reef-encounter"


def test_stored_data_under_a_former_id_means_the_game_that_had_it() -> None:
    """An export written before the rename says "reef": that was Reef Encounter."""
    assert registry.stored("reef") is REEF_ENCOUNTER
    assert registry.stored("riff") is RIFF
    assert registry.stored("reef-2018") is REEF


def test_the_demo_shows_reef_encounter_whatever_the_ids_sort_like() -> None:
    assert registry.showcase() is REEF_ENCOUNTER


def test_tags_keep_each_games_short_prefix() -> None:
    assert [registry.tag_prefix(g) for g in IDS.values()] == ["reef", "reef2018", "riff"]


def _cli(config: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["--config", str(config), *args])
    return result.exit_code, " ".join(result.output.split())


@pytest.fixture
def config(tmp_path: Path) -> Path:
    path = tmp_path / "pbem.toml"
    path.write_text(f'data_dir = "{tmp_path}"\n', encoding="utf-8")
    assert _cli(path, "init")[0] == 0
    return path


SEATS = ("-s", "Ann <ann@players.test>", "-s", "Ben <ben@players.test>")


def test_the_cli_refuses_a_bare_reef_with_an_error_and_a_fix(config: Path) -> None:
    code, out = _cli(config, "game", "new", "reef", *SEATS)
    assert code == 1
    assert ("error: 'reef' could mean several games: reef-2018 (Reef) or reef-encounter "
            "(Reef Encounter)") in out
    assert "fix: name the game by its id: reef-2018 or reef-encounter" in out
    assert "Traceback" not in out


def test_a_former_id_makes_a_game_of_the_new_id_tagged_as_before(config: Path) -> None:
    code, out = _cli(config, "game", "new", "riff", *SEATS)
    assert code == 0, out
    assert "game riff-1 created (das-riff)" in out
    code, out = _cli(config, "game", "new", "reef2018", *SEATS)
    assert code == 0, out
    assert "game reef2018-2 created (reef-2018)" in out


def test_the_demo_refuses_a_bare_reef_too(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["demo", "--game", "reef", "--dir", str(tmp_path / "d")])
    assert result.exit_code == 1
    out = " ".join(result.output.split())
    assert "error: 'reef' could mean several games" in out
    assert "fix: name the game by its id: reef-2018 or reef-encounter" in out


def test_the_migration_renames_stored_games_and_keeps_their_tags(tmp_path: Path) -> None:
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine, text
    from sqlmodel import Session

    from pbem.store import queries
    from pbem.store.db import MIGRATIONS

    url = f"sqlite:///{tmp_path / 'old.db'}"
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", url)
    command.upgrade(cfg, "0010")
    engine = create_engine(url)
    old = {"reef-1": "reef", "reef2018-2": "reef2018", "riff-3": "riff", "nim-4": "nim"}
    with engine.begin() as conn:
        for tag, kind in old.items():
            conn.execute(text(
                "INSERT INTO game (game_type, tag, options_json, seed, status, created, "
                "timeout_policy, vacation_days, language) VALUES (:kind, :tag, '{}', 's', "
                "'active', CURRENT_TIMESTAMP, 'pause', 14, 'en')"), {"kind": kind, "tag": tag})
    command.upgrade(cfg, "head")  # the queries read the tables as the code of today knows them
    with Session(engine) as session:
        found = {tag: queries.game_by_tag(session, tag) for tag in old}
        assert {tag: g.game_type for tag, g in found.items() if g} == {
            "reef-1": "reef-encounter", "reef2018-2": "reef-2018", "riff-3": "das-riff",
            "nim-4": "nim"}
        assert registry.get(found["reef-1"].game_type) is REEF_ENCOUNTER  # type: ignore[union-attr]
    command.downgrade(cfg, "0010")
    with engine.connect() as conn:
        assert dict(conn.execute(text("SELECT tag, game_type FROM game")).all()) == old
    engine.dispose()
