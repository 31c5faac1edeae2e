"""`pbem demo`: a whole game between bots on the embedded defaults, from the command line."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from pbem.engine import registry
from tests.support.testgame import GAME

runner = CliRunner()


@pytest.fixture(autouse=True)
def testcards(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    monkeypatch.delenv("PBEM_HOME", raising=False)
    monkeypatch.chdir(tmp_path)
    registry.register(GAME)
    yield
    registry.unregister(GAME.name)


def demo(*args: str, code: int = 0) -> str:
    result = runner.invoke(app, ["demo", *args])
    assert result.exit_code == code, result.output
    return result.output


def test_demo_plays_a_whole_game_and_says_where_the_mail_is(tmp_path: Path) -> None:
    out = demo("--game", "testcards", "--players", "2", "--seed", "s1")
    assert "testcards-1: 4 turns played by email" in out
    assert "replay verified (4 log entries)" in out
    assert re.search(r"Final scores:\n  1\. (Ann|Ben) \(\d+\)", out)
    assert "Highest score wins." in out
    paths = re.findall(r"^    (\S+)$", out, flags=re.M)
    labels = ["welcome to Ann", "reply to a 'check' dry run", "reply to an unreadable order",
              "final email to Ann", "final email to Ben"]
    for label in labels:
        assert f"  {label}:" in out
    assert len(paths) >= len(labels)
    for path in paths:  # every path printed is a real email in the demo's outbox
        file = Path(path)
        assert file.is_file() and file.resolve().is_relative_to(tmp_path / "pbem-demo" / "outbox")
        assert b"[testcards-1]" in file.read_bytes()
    final = Path(paths[-1]).read_text(encoding="utf-8")
    assert "The game is over." in final
    assert "PBEM_HOME=pbem-demo pbem game log testcards-1" in out


def test_a_second_demo_adds_a_game_beside_the_first(tmp_path: Path) -> None:
    assert "a fresh demo in pbem-demo" in demo("--game", "testcards", "--players", "2")
    out = demo("--game", "testcards", "--players", "3", "--dir", "pbem-demo")
    assert ("pbem-demo holds an earlier demo: this game is added beside its 1 game(s) "
            "(--fresh starts afresh).") in " ".join(out.split())
    assert "testcards-2: 6 turns played by email" in out
    assert "[testcards-1]" not in out


def test_a_fresh_demo_empties_only_a_demo_folder(tmp_path: Path) -> None:
    demo("--game", "testcards", "--players", "2")
    out = demo("--game", "testcards", "--players", "2", "--fresh")
    assert "a fresh demo in pbem-demo" in out and "testcards-1: 4 turns" in out
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me")
    out = " ".join(demo("--game", "testcards", "--dir", "mine", "--fresh", code=1).split())
    assert "mine holds other files than a demo's (notes.txt); choose another --dir" in out
    assert (mine / "notes.txt").read_text() == "keep me"


def test_demo_help_states_each_games_player_range() -> None:
    from pbem.engine.registry import games

    text = " ".join(demo("--help").replace("│", " ").split())  # a range may wrap in the box
    for name, rules in games().items():
        low, high = rules.min_players, rules.max_players
        if name != GAME.name:  # registered by this test, after the help was written
            assert f"{name} {low if low == high else f'{low}–{high}'}" in text


def test_the_demo_folder_is_ignored_by_git() -> None:
    ignore = (Path(__file__).parents[2] / ".gitignore").read_text().splitlines()
    assert "/pbem-demo/" in ignore


def test_demo_uses_the_data_dir_when_one_is_configured(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    out = demo("--game", "testcards", "--players", "2")
    assert (tmp_path / "home" / "demo" / "pbem.sqlite").is_file()
    assert str(tmp_path / "home" / "demo" / "outbox") in out.replace("\n", "")


def test_demo_errors_are_plain(tmp_path: Path) -> None:
    assert "takes 2–4 players, not 9" in demo("--game", "testcards", "--players", "9", code=1)
    assert "unknown game 'chess'" in demo("--game", "chess", code=1)


def test_demo_with_good_bots_plays_by_mail_and_bad_kinds_are_refused(tmp_path: Path) -> None:
    out = demo("--game", "testcards", "--players", "3", "--seed", "s2", "--bots", "good")
    assert "testcards-1: 6 turns played by email" in out
    assert "replay verified (6 log entries)" in out
    assert "--bots must be one of random, good, not 'clever'" in demo(
        "--game", "testcards", "--bots", "clever", code=1)
