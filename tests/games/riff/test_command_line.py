"""Das Riff from the command line: ``pbem games`` names it a reconstruction, and its options
reach the setup (its bot games by mail and its demo: tests/games/suite/test_bot_games.py)."""

from __future__ import annotations

import json
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


def test_fish_counted_per_colour_and_sex_reach_the_setup(tmp_path: Path) -> None:
    """The fish option takes one number for all colours or a table per colour (by sex too);
    the stored options hold the table and the deck follows it."""
    from sqlmodel import select

    from pbem.games.riff.components import reef_deck
    from pbem.store import Game, init, session_factory

    config = tmp_path / "pbem.toml"
    config.write_text(f'data_dir = "{tmp_path}"\n', encoding="utf-8")
    seats = ["-s", "Ann <ann@players.test>", "-s", "Ben <ben@players.test>"]
    assert CliRunner().invoke(app, ["--config", str(config), "init"]).exit_code == 0
    fish = ('{"red": {"m": 4, "f": 2}, "yellow": 3, "blue": 3, "green": 3, "pink": 3, '
            '"purple": 3}')
    good = CliRunner().invoke(app, ["--config", str(config), "game", "new", "riff", *seats,
                                    "-o", f"fish_per_colour_per_sex={fish}"])
    assert good.exit_code == 0, good.output
    with session_factory(init(f"sqlite:///{tmp_path / 'pbem.sqlite'}"))() as s:
        options = json.loads(s.exec(select(Game)).one().options_json)
    assert options["fish_per_colour_per_sex"]["red"] == {"m": 4, "f": 2}
    deck = reef_deck(options)
    assert (deck.count("fish:red:m"), deck.count("fish:red:f")) == (4, 2)
    bad = CliRunner().invoke(app, ["--config", str(config), "game", "new", "riff", *seats,
                                   "-o", "fish_per_colour_per_sex=lots"])
    assert bad.exit_code != 0
    assert ("option fish_per_colour_per_sex is a whole number or JSON dict (like"
            in " ".join(bad.output.split())), bad.output
