"""Das Riff from the command line: ``pbem games`` names it a reconstruction, and its options
reach the setup (its bot games by mail and its demo: tests/games/suite/test_bot_games.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import app

pytestmark = pytest.mark.slow


def test_pbem_games_lists_das_riff_as_a_reconstruction() -> None:
    result = CliRunner().invoke(app, ["games"])
    assert result.exit_code == 0, result.output
    assert "riff" in result.output and "Das Riff" in result.output
    assert "The card mix is a reconstruction" in " ".join(result.output.split())


def test_game_options_reach_the_setup_from_the_command_line(tmp_path: Path) -> None:
    config = tmp_path / "pbem.toml"
    config.write_text(f'data_dir = "{tmp_path}"\n', encoding="utf-8")
    seats = ["-s", "Ann <ann@players.test>", "-s", "Ben <ben@players.test>"]
    assert CliRunner().invoke(app, ["--config", str(config), "init"]).exit_code == 0
    good = CliRunner().invoke(app, ["--config", str(config), "game", "new", "riff", *seats,
                                    "-o", "coral=9", "-o", "water=7", "-o", "turn_limit=90"])
    assert good.exit_code == 0, good.output
    bad = CliRunner().invoke(app, ["--config", str(config), "game", "new", "riff", *seats,
                                   "-o", "coral=12"])
    assert bad.exit_code != 0
    assert "the reef cards add up to 62, but the box holds 60" in " ".join(bad.output.split())
