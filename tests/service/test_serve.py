"""`pbem serve` as a real process on real servers: it idles on IMAP, wakes for new mail,
answers it over SMTP, and keeps serving when the IMAP connection is cut under it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pbem.ops import api
from pbem.settings.config import MailConfig
from pbem.settings.host import Host
from pbem.store import init, session_factory
from tests.pipeline.conftest import ALICE, BOB
from tests.support.mailservers import PymapServer, SmtpTestServer
from tests.support.playermail import mail
from tests.support.testgame import GAME

pytestmark = pytest.mark.slow
# Without IDLE the service would look again only after this long: every wait below is
# shorter, so an answer within it shows IDLE woke the service (the waits are generous so a
# loaded machine does not fail the test; they cost time only when it fails).
INTERVAL = 300
WAKE = 60.0


def write_config(tmp: Path, imap: PymapServer, smtp: SmtpTestServer) -> Path:
    path = tmp / "pbem.toml"
    path.write_text(f"""
data_dir = "{tmp / 'data'}"
[database]
url = "sqlite:///{tmp / 'pbem.sqlite'}"
[mail]
from_address = "games@host.test"
[inbound.imap]
host = "{imap.host}"
port = {imap.port}
user = "{imap.user}"
password_env = "TEST_IMAP_PASSWORD"
security = "none"
[outbound.smtp]
host = "{smtp.host}"
port = {smtp.port}
user = "{smtp.user}"
password_env = "TEST_SMTP_PASSWORD"
security = "none"
""")
    return path


@pytest.fixture
def game_tag(tmp_path: Path) -> str:
    from pbem.engine import registry

    registry.register(GAME)
    try:
        factory = session_factory(init(f"sqlite:///{tmp_path / 'pbem.sqlite'}"))
        with factory() as s:
            game, _ = api.create_game(s, "testcards", [("Alice", ALICE), ("Bob", BOB)],
                                      host=Host(mail=MailConfig(from_address="games@host.test")))
            s.commit()
            return game.tag
    finally:
        registry.unregister(GAME.name)


@pytest.fixture
def serving(tmp_path: Path, imap_server: PymapServer, smtp_server: SmtpTestServer,
            game_tag: str) -> Iterator[subprocess.Popen[str]]:
    env = {**os.environ, "TEST_IMAP_PASSWORD": imap_server.password,
           "TEST_SMTP_PASSWORD": smtp_server.password or "",
           "PBEM_CONFIG": str(write_config(tmp_path, imap_server, smtp_server))}
    proc = subprocess.Popen([sys.executable, "-m", "tests.service.cli_with_testgame", "serve",
                             "--interval", str(INTERVAL)], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    yield proc
    stop_and_show(proc)


def stop_and_show(proc: subprocess.Popen[str], timeout: float = 10) -> None:
    """Stop the service (if it still runs) and print what it said: pytest shows it when the
    test failed, what the service saw and did."""
    if proc.poll() is None:
        proc.terminate()
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
    print(out)


def eventually(check: Callable[[], bool], timeout: float = WAKE, what: str = "") -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def test_serve_wakes_on_new_mail_and_survives_a_dropped_connection(
        serving: subprocess.Popen[str], imap_server: PymapServer,
        smtp_server: SmtpTestServer, game_tag: str) -> None:
    # The first pass sends the two opening status mails.
    eventually(lambda: len(smtp_server.messages) >= 2, what="the opening mails")
    before = len(smtp_server.messages)
    # A reply well within the interval proves IDLE woke the loop.
    imap_server.deliver(mail(BOB, f"Re: [{game_tag}] Test Cards", "help"))
    eventually(lambda: len(smtp_server.messages) > before, what="the reply to Bob")
    # Cut every IMAP connection; the service must reconnect and answer the next mail too.
    imap_server.drop_connections()
    before = len(smtp_server.messages)
    imap_server.deliver(mail(ALICE, f"Re: [{game_tag}] Test Cards", "help"))
    eventually(lambda: len(smtp_server.messages) > before, what="the reply after the cut")
    assert serving.poll() is None


def test_serve_stops_with_0_on_sigterm(serving: subprocess.Popen[str],
                                       smtp_server: SmtpTestServer) -> None:
    """systemd and `podman stop` send SIGTERM. As a container's PID 1 a process without a
    handler would not even notice it, so serve handles it: it stops at once and exits 0."""
    eventually(lambda: len(smtp_server.messages) >= 2, what="the first pass")
    serving.send_signal(signal.SIGTERM)
    assert serving.wait(60) == 0
    assert serving.stdout is not None and "stopped (SIGTERM)" in serving.stdout.read()
