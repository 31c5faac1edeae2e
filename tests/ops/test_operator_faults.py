"""The faults of a running host, through the real command: each one is an ``error:`` line and a
``fix:`` line with the exit code a scheduler acts on (75: try again later, 78: fix the
config first), and a closed standard output is no fault at all."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from pbem.engine import registry
from tests.cli.test_cli import post
from tests.ops.test_operator_errors import closed_port, home, told  # noqa: F401  (home: fixture)
from tests.support.mailservers import PymapServer

runner = CliRunner()
ENTRY = [sys.executable, "-c", "from pbem.cli import main; main()"]  # the console script's


def imap_config(tmp_path: Path, home: Path, port: int, *,  # noqa: F811
                password_env: str = "PBEM_TEST_IMAP_PW", folder: str = "INBOX") -> Path:
    cfg = tmp_path / "pbem.toml"
    cfg.write_text(f'data_dir = "{home}"\n[inbound.imap]\nhost = "127.0.0.1"\nport = {port}\n'
                   f'user = "gm"\npassword_env = "{password_env}"\nsecurity = "none"\n'
                   f'folder = "{folder}"\n')
    told("--config", str(cfg), "init", code=0)
    return cfg


def environment(home: Path, **extra: str) -> dict[str, str]:  # noqa: F811
    env = {k: v for k, v in os.environ.items() if k not in ("PBEM_CONFIG", "PBEM_TEST_NO_PW")}
    return {**env, "PBEM_HOME": str(home), **extra}


# --- pbem process, the scheduled pass -----------------------------------------------------------


def test_process_with_the_imap_server_down_is_a_temporary_failure(
        home: Path, tmp_path: Path, imap_server: PymapServer,  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_TEST_IMAP_PW", imap_server.password)
    port = imap_server.port
    imap_server.stop()
    cfg = imap_config(tmp_path, home, port)
    out = told("--config", str(cfg), "process", code=75)
    assert (f"error: IMAP connection to 127.0.0.1:{port} keeps failing: cannot reach IMAP "
            f"server 127.0.0.1:{port}") in out
    assert ("fix: check that the IMAP server runs, inbound.imap host, port and security, and "
            "the firewall") in out


def test_process_whose_imap_login_is_refused_is_a_config_error(
        home: Path, tmp_path: Path, imap_server: PymapServer,  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_TEST_IMAP_PW", "not-the-password")
    cfg = imap_config(tmp_path, home, imap_server.port)
    out = told("--config", str(cfg), "process", code=78)
    assert f"error: IMAP login as 'gm' on 127.0.0.1:{imap_server.port} was refused" in out
    assert "fix: check inbound.imap user and the password in its env var or file" in out
    assert "not-the-password" not in out


def test_process_with_a_missing_imap_folder_is_a_config_error(
        home: Path, tmp_path: Path, imap_server: PymapServer,  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_TEST_IMAP_PW", imap_server.password)
    cfg = imap_config(tmp_path, home, imap_server.port, folder="Orders")
    out = told("--config", str(cfg), "process", code=78)
    assert (f"error: folder 'Orders' not found on 127.0.0.1:{imap_server.port} (there: "
            "INBOX") in out
    assert "fix: set inbound.imap folder to an existing folder" in out
    result = runner.invoke(app, ["--debug", "--config", str(cfg), "process"])
    assert "not found" in str(result.exception) and result.exc_info is not None


def test_process_with_the_database_down_at_start_is_a_temporary_failure(
        home: Path, tmp_path: Path) -> None:  # noqa: F811
    cfg = tmp_path / "pbem.toml"
    cfg.write_text('[database]\nurl = "postgresql+psycopg://pbem@127.0.0.1:'
                   f'{closed_port()}/pbem?connect_timeout=5"\n')
    out = told("--config", str(cfg), "process", code=75)
    assert "error: cannot reach the database:" in out
    assert "fix: start the database server, or check [database] url" in out


# --- pbem serve, the service --------------------------------------------------------------------


def serve(home: Path, cfg: Path, env: dict[str, str]) -> subprocess.Popen[str]:  # noqa: F811
    return subprocess.Popen([*ENTRY, "--config", str(cfg), "serve", "--interval", "0.2"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)


# `pbem serve` in its own process for tens of seconds: a long run.
@pytest.mark.slow
def test_serve_stops_on_an_unset_password_variable(home: Path,  # noqa: F811
                                                   tmp_path: Path) -> None:
    cfg = imap_config(tmp_path, home, closed_port(), password_env="PBEM_TEST_NO_PW")
    proc = serve(home, cfg, environment(home))
    try:
        _, err = proc.communicate(timeout=120)  # it looped for ever, "pass failed, retrying"
    finally:
        proc.kill()
    assert proc.returncode == 78, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert lines[0] == ("error: config error: environment variable PBEM_TEST_NO_PW is not set"
                        ), err
    assert lines[1].startswith("fix: edit the config file"), err
    assert len(lines) == 2 and "retrying" not in err, err


# `pbem serve` in its own process for tens of seconds: a long run.
@pytest.mark.slow
def test_serve_stops_when_the_imap_login_is_refused(home: Path, tmp_path: Path,  # noqa: F811
                                                     imap_server: PymapServer) -> None:
    cfg = imap_config(tmp_path, home, imap_server.port)
    proc = serve(home, cfg, environment(home, PBEM_TEST_IMAP_PW="not-the-password"))
    try:
        _, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == 78, err
    assert f"error: IMAP login as 'gm' on 127.0.0.1:{imap_server.port} was refused" in err
    assert "retrying" not in err


# `pbem serve` in its own process for tens of seconds: a long run.
@pytest.mark.slow
def test_serve_keeps_retrying_while_the_imap_server_is_down(
        home: Path, tmp_path: Path, imap_server: PymapServer) -> None:  # noqa: F811
    port = imap_server.port
    imap_server.stop()
    cfg = imap_config(tmp_path, home, port)
    proc = serve(home, cfg, environment(home, PBEM_TEST_IMAP_PW="whatever"))
    watchdog = threading.Timer(120, proc.kill)
    watchdog.start()
    try:
        assert proc.stderr is not None
        retries = 0
        while retries < 2:  # between them, the inbox's own "reconnecting" warnings
            line = proc.stderr.readline()
            assert line, "serve ended"
            retries += line.startswith(f"pass failed, retrying: IMAP connection to 127.0.0.1:"
                                       f"{port} keeps failing")
        assert proc.poll() is None  # still serving
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 0
    finally:
        watchdog.cancel()
        proc.kill()
        proc.wait()


# --- a reader that has gone (`pbem ... | head -1`) ----------------------------------------------


@pytest.fixture
def one_game(home: Path) -> str:  # noqa: F811
    """A game of the first installed game type, as `pbem demo` picks it."""
    told("init", code=0)
    rules = registry.games()[sorted(registry.games())[0]]
    seats = [arg for i in range(rules.min_players)
             for arg in ("--seat", f"P{i} <p{i}@players.test>")]
    out = told("game", "new", rules.name, *seats, code=0)
    return out.split()[1]


# Three ways pbem writes: typer's help, pbem's own rich console, and plain print().
@pytest.mark.parametrize("command", [["game", "new", "--help"], ["games"],
                                     ["game", "export", "{tag}"]])
def test_a_closed_standard_output_ends_quietly(home: Path, one_game: str,  # noqa: F811
                                               command: list[str]) -> None:
    reader, writer = os.pipe()
    os.close(reader)  # `head -1` has had its line and gone
    try:
        done = subprocess.run([*ENTRY, *(a.format(tag=one_game) for a in command)],
                              env=environment(home), stdout=writer, stderr=subprocess.PIPE,
                              text=True, timeout=120)
    finally:
        os.close(writer)
    assert done.stderr == ""  # no "error: cannot reach a server: [Errno 32] Broken pipe"
    assert done.returncode == 128 + signal.SIGPIPE  # what `yes | head -1` reports for yes


# --- files -------------------------------------------------------------------------------------


def test_a_damaged_host_key_says_how_to_fix_it(home: Path, one_game: str,  # noqa: F811
                                               tmp_path: Path) -> None:
    key = home / "host.key"
    key.write_text("zz" * 32 + "\n")
    for command in (["init"], ["game", "export", one_game, "-o", str(tmp_path / "g.json")]):
        out = told(*command)
        assert f"error: cannot read the host key {key}: non-hexadecimal number" in out
        assert (f"fix: restore {key} from a backup; else move it away and run `pbem init` to "
                "make a new key") in out
    key.write_text("ab" * 8 + "\n")
    out = told("init")
    assert f"error: the host key {key} is too short (8 bytes;" in out
    assert f"fix: restore {key} from a backup" in out


def test_an_import_nested_too_deeply_is_refused(home: Path, one_game: str,  # noqa: F811
                                                tmp_path: Path) -> None:
    bomb = tmp_path / "deep.json"
    bomb.write_text("[" * 100_000 + "]" * 100_000)
    out = told("game", "import", str(bomb))
    assert (f"error: cannot read {bomb}: its JSON is nested too deeply to be a game export"
            ) in out
    assert "fix: give the JSON file `pbem game export GAME -o FILE` wrote" in out


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 1 MiB tmpfs: a disk that really fills up (mounting needs root)."""
    where = tmp_path / "small"
    where.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(where)],
                             capture_output=True, text=True, check=False)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {mounted.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def fill(disk: Path) -> Path:
    filler = disk / "filler"
    with filler.open("wb", buffering=0) as fh:
        try:
            while True:
                fh.write(b"\0" * 4096)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC
    return filler


def test_a_full_disk_leaves_no_empty_file_in_the_outbox(home: Path, tmp_path: Path,  # noqa: F811
                                                        small_disk: Path) -> None:
    cfg = tmp_path / "pbem.toml"
    outbox = small_disk / "outbox"
    cfg.write_text(f'data_dir = "{home}"\n[outbound.maildir]\npath = "{outbox}"\n')
    told("--config", str(cfg), "init", code=0)
    # Strangers get a short note: it fits in the file's write buffer, so the full disk is met
    # only when the buffer is flushed, after the file was made.
    post(home, "stranger@elsewhere.test", "hello", "Is this the reef game?")
    filler = fill(small_disk)
    out = told("--config", str(cfg), "process", code=0)
    assert "sent 0, retrying 1" in out
    assert os.listdir(outbox / "tmp") == [] and os.listdir(outbox / "new") == []
    filler.unlink()
    told("--config", str(cfg), "outbox", "retry", code=0)
    assert "sent 1," in told("--config", str(cfg), "process", code=0)
    assert os.listdir(outbox / "tmp") == [] and len(os.listdir(outbox / "new")) == 1
