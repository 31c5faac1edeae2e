"""``pbem doctor`` on a good setup and on each kind of broken one, with its message."""

from __future__ import annotations

import getpass
import re
import socket
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from pbem.ops.doctor import _head_revision

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
    assert f"schema is at revision none, the newest is {_head_revision()}" in out
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


def test_password_file_unreadable(home: Path, tmp_path: Path) -> None:
    missing = tmp_path / "imap-password"
    cfg = tmp_path / "pbem.toml"
    cfg.write_text('[inbound.imap]\nhost = "127.0.0.1"\nuser = "gm"\n'
                   f'password_file = "{missing}"\n')
    out = doctor("--config", str(cfg), code=1)
    assert f"FAIL inbound IMAP: password_file {missing} cannot be read" in out
    assert (f"fix: the file must be readable by the pbem user (the one that runs pbem, here "
            f"{getpass.getuser()}): chown pbem: {missing} && chmod 600 {missing}") in out


# --- against the real test servers (pymap IMAP, aiosmtpd SMTP with AUTH) -----------------------


def mail_config(tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch, imap: Any,
                smtp: Any, *, imap_password: str, smtp_password: str,
                folder: str = "INBOX", smtp_user: str | None = "mailer",
                smtp_security: str = "none") -> Path:
    """A config for the test servers; the passwords go through env vars, as in production."""
    monkeypatch.setenv("PBEM_TEST_IMAP_PW", imap_password)
    monkeypatch.setenv("PBEM_TEST_SMTP_PW", smtp_password)
    login = (f'user = "{smtp_user}"\npassword_env = "PBEM_TEST_SMTP_PW"\n' if smtp_user
             else "")
    cfg = tmp_path / "pbem.toml"
    cfg.write_text(
        f'[database]\nurl = "sqlite:///{home / "pbem.sqlite"}"\n'
        f'[inbound.imap]\nhost = "127.0.0.1"\nport = {imap.port}\nuser = "{imap.user}"\n'
        f'password_env = "PBEM_TEST_IMAP_PW"\nsecurity = "none"\nfolder = "{folder}"\n'
        f'[outbound.smtp]\nhost = "127.0.0.1"\nport = {smtp.port}\n{login}'
        f'security = "{smtp_security}"\n')
    assert runner.invoke(app, ["--config", str(cfg), "init"]).exit_code == 0
    return cfg


def test_good_mail_servers(home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                           imap_server: Any, smtp_server: Any) -> None:
    cfg = mail_config(tmp_path, home, monkeypatch, imap_server, smtp_server,
                      imap_password=imap_server.password, smtp_password=smtp_server.password)
    out = doctor("--config", str(cfg), code=0)
    assert f"ok inbound IMAP: gm@127.0.0.1:{imap_server.port}, folder INBOX" in out
    assert f"ok outbound SMTP: 127.0.0.1:{smtp_server.port} as mailer" in out
    assert "FAIL" not in out


def test_wrong_passwords(home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                         imap_server: Any, smtp_server: Any) -> None:
    cfg = mail_config(tmp_path, home, monkeypatch, imap_server, smtp_server,
                      imap_password="not-the-password", smtp_password="not-it-either")
    out = doctor("--config", str(cfg), code=1)
    assert (f"FAIL inbound IMAP: login as 'gm' on 127.0.0.1:{imap_server.port} was refused "
            "fix: check inbound.imap user and the password in its env var or file") in out
    assert (f"FAIL outbound SMTP: login as 'mailer' on 127.0.0.1:{smtp_server.port} was "
            "refused fix: check outbound.smtp user and the password in its env var or file"
            ) in out
    assert "not-the-password" not in out and "not-it-either" not in out


def test_missing_imap_folder(home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                             imap_server: Any, smtp_server: Any) -> None:
    cfg = mail_config(tmp_path, home, monkeypatch, imap_server, smtp_server,
                      imap_password=imap_server.password, smtp_password=smtp_server.password,
                      folder="Orders")
    out = doctor("--config", str(cfg), code=1)
    assert (f"FAIL inbound IMAP: folder 'Orders' not found on 127.0.0.1:{imap_server.port} "
            "(there: INBOX") in out
    assert "fix: set inbound.imap folder to an existing folder" in out
    assert "ok outbound SMTP" in out


def test_smtp_that_needs_a_login_none_configured(home: Path, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 imap_server: Any, smtp_server: Any) -> None:
    cfg = mail_config(tmp_path, home, monkeypatch, imap_server, smtp_server,
                      imap_password=imap_server.password, smtp_password="", smtp_user=None)
    out = doctor("--config", str(cfg), code=1)
    assert (f"FAIL outbound SMTP: 127.0.0.1:{smtp_server.port} requires a login before it "
            "takes mail (530") in out
    assert "fix: set outbound.smtp user and password_env or password_file" in out


def test_smtp_without_auth_or_starttls(home: Path, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch, imap_server: Any,
                                       make_smtp_server: Callable[..., Any]) -> None:
    open_relay = make_smtp_server(auth=False)
    cfg = mail_config(tmp_path, home, monkeypatch, imap_server, open_relay,
                      imap_password=imap_server.password, smtp_password="x")
    out = doctor("--config", str(cfg), code=1)
    assert (f"FAIL outbound SMTP: 127.0.0.1:{open_relay.port} offers no login (SMTP AUTH) on "
            'this connection fix: use security "tls" or "starttls"') in out
    cfg = mail_config(tmp_path, home, monkeypatch, imap_server, open_relay,
                      imap_password=imap_server.password, smtp_password="x",
                      smtp_security="starttls")
    out = doctor("--config", str(cfg), code=1)
    assert (f"FAIL outbound SMTP: 127.0.0.1:{open_relay.port} does not offer STARTTLS fix: "
            'set outbound.smtp security to "tls"') in out
    cfg = mail_config(tmp_path, home, monkeypatch, imap_server, open_relay,
                      imap_password=imap_server.password, smtp_password="", smtp_user=None)
    assert f"ok outbound SMTP: 127.0.0.1:{open_relay.port}" in doctor("--config", str(cfg),
                                                                      code=0)


def valid_keys(out: str, unknown: str) -> set[str]:
    """The keys a message about ``unknown`` lists as valid (more may be added over time)."""
    found = re.search(rf"unknown setting '{unknown}' [^(]*\(valid there: ([^)]*)\)", out)
    assert found is not None, out
    return set(found.group(1).split(", "))


def test_unknown_config_keys_are_a_fail_line(home: Path, tmp_path: Path) -> None:
    cfg = tmp_path / "pbem.toml"
    cfg.write_text('[databse]\nurl = "sqlite:///x.sqlite"\n[mail]\nfrom_adress = "a@b.org"\n')
    out = doctor("--config", str(cfg), code=1)
    assert "FAIL config: unknown setting 'databse' at the top level (valid there: " in out
    assert {"data_dir", "database", "mail", "inbound", "outbound"} <= valid_keys(out, "databse")
    assert {"from_address", "from_name"} <= valid_keys(out, "from_adress")
    assert f"in {cfg} fix: edit the config file" in out
    assert "Traceback" not in out


def test_a_data_folder_pbem_cannot_write(home: Path, tmp_path: Path) -> None:
    home.write_text("a file where the folder should be")
    out = doctor(code=1)
    assert f"FAIL data folder: {home} is a file, not a folder" in out
    assert "fix: set data_dir (or PBEM_HOME) to a folder" in out


@pytest.mark.dovecot
def test_imap_login_that_cannot_open_its_mailbox(home: Path, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Dovecot lets a user in whose uid it will not serve mail for (Debian's system user
    `games` is uid 5): LIST fails after login. That is a FAIL line, not a traceback."""
    from pbem_testkit import dovecot as mailservers
    from tests.support.mailservers import IMAP_USER

    if mailservers.DOVECOT is None:
        pytest.skip("Dovecot is not installed")
    monkeypatch.setattr(mailservers, "_DOVECOT_CONF", mailservers._DOVECOT_CONF.replace(
        "uid=nobody gid=nogroup", "uid=5 gid=60"))
    server = mailservers.DovecotServer().start()
    try:
        runner.invoke(app, ["init"])
        monkeypatch.setenv("PBEM_TEST_IMAP_PW", server.password)
        cfg = tmp_path / "pbem.toml"
        cfg.write_text(f'[database]\nurl = "sqlite:///{home / "pbem.sqlite"}"\n'
                       f'[inbound.imap]\nhost = "127.0.0.1"\nport = {server.port}\n'
                       f'user = "{server.user}"\npassword_env = "PBEM_TEST_IMAP_PW"\n'
                       'security = "none"\n')
        out = doctor("--config", str(cfg), code=1)
    finally:
        server.stop()
    assert "FAIL inbound IMAP:" in out and "Traceback" not in out
    assert (f"let '{IMAP_USER}' log in but refused to list its folders: command: LIST => "
            "Internal error occurred.") in out  # the reason is only in Dovecot's log
    assert "fix: the mail server cannot open this mailbox: check its log" in out


def test_a_config_file_that_is_not_there(home: Path, tmp_path: Path) -> None:
    out = doctor("--config", str(tmp_path / "nope.toml"), code=1)
    assert f"FAIL config: config file {tmp_path / 'nope.toml'} not found fix: create it" in out
