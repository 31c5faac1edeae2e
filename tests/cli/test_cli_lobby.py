"""`pbem lobby list|close`: a table opened by mail (through `pbem process`), seen and closed by
the operator; its confirmed player told."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from pbem.engine import registry
from tests.cli.test_cli import body, outbox, pbem, post
from tests.support.testgame import GAME


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.delenv("PBEM_HOME", raising=False)
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    path = tmp_path / "pbem.toml"
    path.write_text(f'data_dir = "{tmp_path / "data"}"\n[lobby]\nenabled = true\n',
                    encoding="utf-8")
    registry.register(GAME)
    yield path
    registry.unregister(GAME.name)


def test_the_operator_lists_and_closes_a_table(config: Path) -> None:
    home = config.parent / "data"
    cfg = ("--config", str(config))
    pbem(*cfg, "init")
    post(home, "Ann <ann@players.test>", "a game?", "new testcards players 3")
    pbem(*cfg, "process")
    (opened,) = outbox(home)
    code = re.search(r"code (\S+)$", str(opened["Subject"]))
    assert code is not None
    post(home, "Ann <ann@players.test>", f"Re: {opened['Subject']}", "yes!")
    pbem(*cfg, "process")
    post(home, "ben@players.test", "hi", "join testcards-t1")
    pbem(*cfg, "process")
    listed = " ".join(pbem(*cfg, "lobby", "list").split())
    assert re.search(r"testcards-t1 testcards open 3 seats: confirmed Ann; waiting 1; "
                     r"opened by ann@players.test \d\d-\d\d \d\d:\d\d UTC", listed), listed
    out = pbem(*cfg, "lobby", "close", "testcards-t1")
    assert "table testcards-t1 closed; 1 players told" in out
    pbem(*cfg, "process")
    notice = outbox(home)[-1]
    assert notice["To"] == "ann@players.test"
    assert notice["Subject"] == "[testcards-t1] The table was closed"
    assert "The host's operator closed table [testcards-t1]; it will not start." in " ".join(
        body(notice).split())
    failed = pbem(*cfg, "lobby", "close", "testcards-t1", code=1)
    assert "error: table testcards-t1 is closed, not open" in failed
    assert "fix: see the open tables with `pbem lobby list`" in failed
    assert pbem(*cfg, "lobby", "list").startswith("no open table")
    assert "closed" in pbem(*cfg, "lobby", "list", "--all")


def test_the_list_shows_a_tables_bot_seats(config: Path) -> None:
    home = config.parent / "data"
    cfg = ("--config", str(config))
    pbem(*cfg, "init")
    post(home, "Ann <ann@players.test>", "a game?", "new testcards players 4 bots 2 strong")
    pbem(*cfg, "process")
    listed = " ".join(pbem(*cfg, "lobby", "list").split())
    assert "testcards-t1 testcards open 4 seats (2 bots, strong): confirmed —; waiting 1;" in (
        listed), listed
