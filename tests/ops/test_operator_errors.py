"""An operator's mistake or a broken environment gets one line and a fix, never a traceback;
``pbem --debug`` shows the traceback. Each case here was seen printing a traceback before."""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Callable, Iterator
from email import message_from_bytes, policy
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from pbem.cli import app
from pbem.engine import registry
from pbem.ops import exchange
from tests.ops.test_doctor import valid_keys
from tests.support.testgame import GAME

runner = CliRunner()


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    registry.register(GAME)
    yield tmp_path / "data"
    registry.unregister(GAME.name)


def told(*args: str, code: int = 1) -> str:
    """The command's output, which must be short and hold no traceback."""
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    if code:
        assert len(result.output.splitlines()) <= 2, result.output
        assert_error_and_fix(result.output)
    return " ".join(result.output.split())


def assert_error_and_fix(output: str) -> None:
    """An operator fault: one ``error:`` line, then one ``fix:`` line, in our own words."""
    lines = [x for x in output.splitlines() if x.strip()]
    assert [x.split(":", 1)[0] for x in lines] == ["error", "fix"], output


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_corrupt_sqlite_file(home: Path) -> None:
    home.mkdir()
    (home / "pbem.sqlite").write_bytes(b"this is no database\n" * 200)
    out = told("game", "list")
    assert "error: the SQLite database file is damaged or is not a database" in out
    assert "fix: restore it from a backup" in out


def test_debug_shows_the_traceback(home: Path) -> None:
    home.mkdir()
    (home / "pbem.sqlite").write_bytes(b"this is no database\n" * 200)
    result: Result = runner.invoke(app, ["--debug", "game", "list"])
    assert result.exit_code == 1
    assert "not a database" in str(result.exception)
    assert result.exc_info is not None and result.exc_info[2] is not None


def test_an_unset_password_env_var(home: Path, tmp_path: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PBEM_TEST_UNSET_PASSWORD", raising=False)
    told("init", code=0)
    cfg = tmp_path / "pbem.toml"
    cfg.write_text(f'data_dir = "{home}"\n[inbound.imap]\nhost = "127.0.0.1"\nuser = "gm"\n'
                   'password_env = "PBEM_TEST_UNSET_PASSWORD"\n')
    out = told("--config", str(cfg), "process", code=78)  # EX_CONFIG: fix the setting first
    assert "error: config error: environment variable PBEM_TEST_UNSET_PASSWORD is not set" in out
    assert "fix: " in out


def test_pbem_home_is_a_file(home: Path) -> None:
    home.write_text("not a folder")
    out = told("init")
    assert f"error: File exists: {home}" in out or f"Not a directory: {home}" in out
    assert "fix: check that PBEM_HOME, data_dir and the paths in the config name folders" in out


def test_a_database_server_that_is_not_running(home: Path, tmp_path: Path) -> None:
    cfg = tmp_path / "pbem.toml"
    cfg.write_text('[database]\nurl = "postgresql+psycopg://pbem@127.0.0.1:'
                   f'{closed_port()}/pbem?connect_timeout=5"\n')
    out = told("--config", str(cfg), "game", "list", code=75)  # EX_TEMPFAIL: try again later
    assert "error: cannot reach the database:" in out
    assert "fix: start the database server, or check [database] url" in out


def edited_export(tmp_path: Path, seed: str, edit: Callable[[dict[str, Any]], None]) -> Path:
    """A new game's export, edited by ``edit`` and passed off as another host's (trusted)."""
    told("init", code=0)
    told("game", "new", "testcards", "--seat", "Ann <ann@players.test>", "--seat",
         "Bob <bob@players.test>", "--seed", seed, code=0)
    export = tmp_path / "game.json"
    told("game", "export", "testcards-1", "-o", str(export), code=0)
    data = json.loads(export.read_text())
    edit(data)
    data["host"] = "0123456789abcdef"
    data["checksum"] = exchange._checksum(exchange._body(data))
    export.write_text(json.dumps(data))
    return export


def test_an_import_whose_timestamps_have_no_timezone(home: Path, tmp_path: Path) -> None:
    def naive(data: dict[str, Any]) -> None:
        for entry in data["log"]:
            entry["created"] = entry["created"].removesuffix("+00:00")

    export = edited_export(tmp_path, "tz", naive)
    out = told("game", "import", str(export), "--tag", "moved", "--trust-foreign")
    assert "import refused" in out and "has no timezone; nothing was imported" in out
    assert "moved" not in told("game", "list", code=0)


def test_only_init_creates_the_data_folder(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PBEM_HOME", raising=False)
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)
    for command in (["game", "list"], ["process"], ["outbox", "list"], ["quarantine", "list"]):
        out = told(*command)
        assert (f"error: no pbem database at {tmp_path / 'pbem-data' / 'pbem.sqlite'} "
                "(the default ./pbem-data in the current folder)") in out
        assert "run `pbem init` to make one there, or point PBEM_HOME or --config" in out
    assert os.listdir(tmp_path) == []
    told("init", code=0)
    assert (tmp_path / "pbem-data" / "pbem.sqlite").exists()
    told("game", "list", code=0)


def test_unknown_config_keys_are_refused_with_the_valid_ones(tmp_path: Path) -> None:
    cfg = tmp_path / "pbem.toml"
    cfg.write_text('[databse]\nurl = "sqlite:///x"\n[inbound.imap]\nhost = "h"\n'
                   'processed_folder = "done"\n')
    out = told("--config", str(cfg), "game", "list", code=78)
    assert "config error: unknown setting 'databse' at the top level (valid there: " in out
    assert {"data_dir", "database", "deadlines", "inbound", "limits", "mail", "outbound"} <= (
        valid_keys(out, "databse"))
    assert "unknown setting 'processed_folder' in [inbound.imap] (valid there: " in out
    assert {"failed", "folder", "host", "password_env", "password_file", "port", "processed",
            "security", "user"} <= valid_keys(out, "processed_folder")
    assert "password" not in valid_keys(out, "processed_folder")  # refused: never in the file


def test_a_from_address_that_is_no_address(tmp_path: Path) -> None:
    cfg = tmp_path / "pbem.toml"
    cfg.write_text('[mail]\nfrom_address = "not-an-address"\n')
    out = told("--config", str(cfg), "init", code=78)
    assert "mail.from_address 'not-an-address' is not an email address" in out


def test_from_name_is_in_every_from_header(home: Path, tmp_path: Path) -> None:
    cfg = tmp_path / "pbem.toml"
    cfg.write_text(f'data_dir = "{home}"\n[mail]\nfrom_address = "games@example.org"\n'
                   'from_name = "The Reef Keeper"\n')
    told("--config", str(cfg), "init", code=0)
    told("--config", str(cfg), "game", "new", "testcards", "--seat", "Ann <ann@players.test>",
         "--seat", "Bob <bob@players.test>", code=0)
    told("--config", str(cfg), "process", code=0)
    sent = sorted((home / "outbox" / "new").iterdir())
    assert len(sent) == 2
    for path in sent:
        msg = message_from_bytes(path.read_bytes(), policy=policy.default)
        assert msg["From"] == "The Reef Keeper <games@example.org>"


def test_mail_another_imap_session_removed_is_transient_not_a_setting() -> None:
    """A race with a second worker is no reason to check the login: exit 75, try again."""
    import imaplib

    from pbem.ops.operator_errors import EX_TEMPFAIL, explain

    told = explain(imaplib.IMAP4.error("fetch failed: [EXPUNGEISSUED] Some of the requested "
                                       "messages no longer exist (0.001 + 0.000 secs)."))
    assert told is not None and told.code == EX_TEMPFAIL
    assert "password" not in told.fix and "next pass" in told.fix
    wrong = explain(imaplib.IMAP4.error("select failed: [NONEXISTENT] Mailbox doesn't exist"))
    assert wrong is not None and wrong.code != EX_TEMPFAIL and "password" in wrong.fix
