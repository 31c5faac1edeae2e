"""``pbem doctor`` on a good setup and on each kind of broken one, with its message."""

from __future__ import annotations

import socket
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import app

runner = CliRunner()


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    yield tmp_path / "data"


def doctor(*args: str, code: int) -> str:
    result = runner.invoke(app, [*args, "doctor"])
    assert result.exit_code == code, result.output
    return " ".join(result.output.split())


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_good_embedded_setup(home: Path) -> None:
    assert runner.invoke(app, ["init"]).exit_code == 0
    out = doctor(code=0)
    assert "ok database" in out and "ok inbound Maildir" in out and "ok outbound Maildir" in out
    assert "FAIL" not in out


def test_missing_database_says_run_init(home: Path) -> None:
    out = doctor(code=1)
    assert "FAIL database: database file" in out and "does not exist" in out
    assert "fix: run `pbem init` to create it" in out


def test_unmigrated_database_says_run_init(home: Path) -> None:
    home.mkdir(parents=True)
    sqlite3.connect(home / "pbem.sqlite").execute("create table t (x)").connection.commit()
    out = doctor(code=1)
    assert "schema is at revision none, the newest is 0001" in out
    assert "fix: run `pbem init` to migrate the database" in out


def test_unreachable_mail_servers(home: Path, tmp_path: Path) -> None:
    runner.invoke(app, ["init"])
    cfg = tmp_path / "pbem.toml"
    cfg.write_text(
        f'[inbound.imap]\nhost = "127.0.0.1"\nport = {closed_port()}\nsecurity = "none"\n'
        f'user = "gm"\n\n[outbound.smtp]\nhost = "127.0.0.1"\nport = {closed_port()}\n'
        'security = "none"\n'
        f'\n[database]\nurl = "sqlite:///{home / "pbem.sqlite"}"\n')
    out = doctor("--config", str(cfg), code=1)
    assert "FAIL inbound IMAP: cannot reach 127.0.0.1:" in out
    assert "fix: check inbound.imap host, port and security" in out
    assert "FAIL outbound SMTP: cannot reach 127.0.0.1:" in out


def test_password_env_var_not_set(home: Path, tmp_path: Path,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PBEM_TEST_NO_SUCH_PASSWORD", raising=False)
    cfg = tmp_path / "pbem.toml"
    cfg.write_text('[inbound.imap]\nhost = "127.0.0.1"\nuser = "gm"\n'
                   'password_env = "PBEM_TEST_NO_SUCH_PASSWORD"\n')
    out = doctor("--config", str(cfg), code=1)
    assert "environment variable PBEM_TEST_NO_SUCH_PASSWORD is not set" in out
