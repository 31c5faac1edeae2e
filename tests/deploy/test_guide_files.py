"""The guide's two ways of running ``pbem serve`` run the same thing, and its runner says when
it cannot run instead of failing with a traceback."""

from __future__ import annotations

import configparser
import subprocess
import sys
from pathlib import Path

from tests.deploy import run_guide

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def unit(name: str) -> dict[str, str]:
    lines = (DEPLOY / "systemd" / name).read_text().splitlines()
    return dict(line.split("=", 1) for line in lines if "=" in line and line[:1] not in "#;")


def test_supervisor_runs_the_units_command() -> None:
    service = unit("pbem-serve.service")
    parser = configparser.ConfigParser(interpolation=None, inline_comment_prefixes=(";",))
    parser.read(DEPLOY / "supervisor" / "pbem-serve.conf")
    program = parser["program:pbem-serve"]
    assert program["command"] == service["ExecStart"]
    assert program["user"] == service["User"]
    assert service["Environment"] in program["environment"].replace('"', "")
    assert "78" in program["exitcodes"].split(",") and service["RestartPreventExitStatus"] == "78"


def test_guide_names_the_shipped_files() -> None:
    script = run_guide.guide_script(run_guide.README.read_text(),
                                    {"sqlite", "no-systemd"}, "/somewhere/pbem.git")
    assert "REPO=/somewhere/pbem.git" in script
    assert "cp deploy/supervisor/pbem-serve.conf /etc/supervisor/conf.d/" in script
    assert "apt-get install -y sqlite3" in script and "umask 077" in script
    assert "maillog_file=" in script and "systemctl" not in script
    assert "pbem process" not in script  # cron is the fallback, not run by default


def test_run_guide_without_a_runtime_skips_in_one_line() -> None:
    done = subprocess.run([sys.executable, "-m", "tests.deploy.run_guide", "sqlite",
                           "--podman", "no-such-podman-here"], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[2], timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "SKIP guide run: no-such-podman-here not found\n"
    assert done.stderr == ""
