"""Every operator fault is one ``error:`` line and one ``fix:`` line in our own words (``told``
checks the pair for every failing command), and the help and listings say what they mean."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from pbem.engine import registry
from tests.ops.test_operator_errors import edited_export, home, told

__all__ = ["home"]

runner = CliRunner()

# Commands naming what is not there, or options that do not go together.
MISTAKES = [
    ["game", "log", "no-such-game"],
    ["game", "show", "no-such-game"],
    ["game", "replay", "no-such-game"],
    ["game", "export", "no-such-game"],
    ["game", "export", "testcards-1", "--format", "xml"],
    ["game", "export", "testcards-1", "--as", "1"],
    ["game", "pause", "no-such-game"],
    ["game", "new", "testcards", "--seat", "Ann"],
    ["game", "new", "testcards", "--seat", "Ann <ann@players.test>", "--seat", "bot:genius"],
    ["seat", "secret", "testcards-1", "9"],
    ["inbox", "show", "999"],
    ["quarantine", "show", "999"],
    ["quarantine", "reprocess", "999"],
    ["outbox", "hold", "999"],
]


@pytest.mark.parametrize("command", MISTAKES, ids=[" ".join(c) for c in MISTAKES])
def test_each_mistake_is_an_error_line_and_a_fix_line(home: Path, command: list[str]) -> None:
    told("init", code=0)
    told("game", "new", "testcards", "--seat", "Ann <ann@players.test>", "--seat",
         "Bob <bob@players.test>", code=0)
    out = told(*command)  # exactly "error: ..." then "fix: ..."
    assert "Traceback" not in out and "Error:" not in out


def test_pbem_home_naming_a_file_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                          ) -> None:
    afile = tmp_path / "not-a-folder"
    afile.write_text("hello\n")
    monkeypatch.setenv("PBEM_HOME", str(afile))
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    out = told("game", "list")
    assert f"error: the data folder {afile} (from PBEM_HOME) is a file, not a folder" in out
    assert "fix: point PBEM_HOME (or data_dir in the config) at a folder" in out
    assert "no pbem database" not in out


def test_an_import_refusal_is_in_our_words_not_pythons(home: Path, tmp_path: Path) -> None:
    def garbled(data: dict[str, Any]) -> None:
        data["log"][0]["created"] = "yesterday"

    export = edited_export(tmp_path, "words", garbled)
    out = told("game", "import", str(export), "--tag", "moved", "--trust-foreign")
    assert "error: import refused: log entry 0: 'yesterday' is not a timestamp" in out
    assert "ValueError" not in out and "isoformat" not in out
    assert "fix: give the JSON file `pbem game export GAME -o FILE` wrote" in out


def test_the_help_names_the_lobby_section_and_games_say_how_many_play(home: Path) -> None:
    shown = runner.invoke(app, ["--help"], terminal_width=120).output
    assert "Tables opened by mail ([lobby] in the config)." in shown
    listed = runner.invoke(app, ["games"]).output
    for name, rules in registry.games().items():
        low, high = rules.min_players, rules.max_players
        count = str(low) if low == high else f"{low}–{high}"
        assert f"{name}: {rules.title} ({count} players)" in listed
    assert not any(f"{n}–{n} players" in listed for n in range(1, 20))
