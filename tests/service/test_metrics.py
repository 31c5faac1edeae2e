"""`pbem serve --metrics 127.0.0.1:PORT` as a real process: Prometheus's text read over real
HTTP shows its passes, the mail in and out, the quarantine, the outbox and the bots' CPU; and
while it runs, `pbem game new` says the welcomes go out with its next pass."""

from __future__ import annotations

import json
import mailbox
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from datetime import timedelta
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import create_engine
from typer.testing import CliRunner

from pbem.cli import app
from pbem.engine import registry
from pbem.ops import api, heartbeat
from pbem.ops.metrics import Metrics
from pbem.pipeline import controllers
from pbem.settings.config import MailConfig
from pbem.settings.host import Host
from pbem.store import SessionFactory, init, session_factory
from pbem.store.tables import InboundMessage, OutboundMessage, utcnow
from tests.service.test_serve import eventually, stop_and_show
from tests.support.testgame import GAME


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def scrape(port: int) -> dict[str, float]:
    """Every sample of ``/metrics`` by name and labels, e.g. ``pbem_mails_in_total{status=
    "quarantined"}``."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as answer:
        text = answer.read().decode("utf-8")
    samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            labels = ",".join(f'{k}="{v}"' for k, v in sorted(sample.labels.items()))
            samples[f"{sample.name}{{{labels}}}" if labels else sample.name] = sample.value
    return samples


def post(home: Path, raw: bytes) -> None:
    mailbox.Maildir(home / "inbox", create=True).add(raw)


def player_mail(sender: str, body: str, message_id: str) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, "games@host.test", "hello"
    msg["Message-ID"] = message_id
    msg.set_content(body)
    return bytes(msg)


def passes_past(port: int, count: float) -> Callable[[], bool]:
    return lambda: scrape(port)["pbem_passes_total"] >= count


def ann_moves(home: Path) -> None:
    """Ann's default order, mailed (when she is to move)."""
    ann = json.loads((home / "ann.json").read_text())
    factory = session_factory(init(f"sqlite:///{home / 'pbem.sqlite'}"))
    with factory() as s:
        game = api.get_game(s, ann["tag"])
        rules = registry.get(game.game_type)
        state = api.current_state(s, game)
    if 0 in rules.waiting_for(state):
        order = rules.default_order(state, 0)
        raw = player_mail("ann@players.test", f"{order}\nsecret {ann['secret']}",
                          make_msgid(domain="players.test"))
        post(home, raw.replace(b"Subject: hello", f"Subject: [{ann['tag']}]".encode()))


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    data = tmp_path / "data"
    config = tmp_path / "pbem.toml"
    config.write_text(f'data_dir = "{data}"\n[mail]\nfrom_address = "games@host.test"\n'
                      "[bots]\nseconds_per_move = 0.2\n")
    monkeypatch.setenv("PBEM_CONFIG", str(config))
    monkeypatch.delenv("PBEM_HOME", raising=False)
    registry.register(GAME)
    factory = session_factory(init(f"sqlite:///{data / 'pbem.sqlite'}"))
    with factory() as s:  # Ann and a bot, which answers each of her moves in serve's pass
        game, secrets = api.create_game(
            s, "reef-encounter", [("Ann", "ann@players.test"),
                                  (controllers.bot_name(1, "normal"), "")],
            host=Host(mail=MailConfig(from_address="games@host.test")), bots={1: "normal"})
        s.commit()
    (data / "ann.json").write_text(json.dumps({"tag": game.tag, "secret": secrets[0]}))
    post(data, player_mail("stranger@players.test", "hello?", "<same@players.test>"))
    post(data, player_mail("stranger@players.test", "something else", "<same@players.test>"))
    yield data
    registry.unregister(GAME.name)


@pytest.fixture
def serving(home: Path) -> Iterator[tuple[subprocess.Popen[str], int]]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "tests.service.cli_with_testgame", "serve",
                             "--interval", "1", "--metrics", f"127.0.0.1:{port}"],
                            env=dict(os.environ), text=True, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    yield proc, port
    stop_and_show(proc, timeout=20)


@pytest.mark.slow  # a real serve, its passes and a bot's moves: some 25 s on a loaded box
def test_a_running_serve_is_scraped_over_http(
        serving: tuple[subprocess.Popen[str], int], home: Path) -> None:
    proc, port = serving

    def served() -> bool:
        try:
            return scrape(port).get("pbem_passes_total", 0) >= 2
        except OSError:
            return False

    eventually(served, what="two passes on /metrics")
    for _ in range(4):  # Ann moves until the bot has had to answer in serve's pass
        if scrape(port)["pbem_bot_cpu_seconds_total"] > 0:
            break
        ann_moves(home)
        eventually(passes_past(port, scrape(port)["pbem_passes_total"] + 2),
                   what="Ann's move")
    got = scrape(port)
    assert got['pbem_mails_in_total{status="quarantined"}'] == 1  # the conflicting duplicate
    assert got["pbem_quarantine_size"] == 1
    assert got['pbem_mails_out_total{outcome="sent"}'] >= 2  # Ann's welcome, the stranger note
    assert got["pbem_replies_sent_total"] >= 1  # the answer to the stranger
    assert got["pbem_outbox_backlog"] == 0 and got["pbem_outbox_oldest_age_seconds"] == 0
    assert got["pbem_pass_duration_seconds_count"] == got["pbem_passes_total"]
    assert got["pbem_pass_duration_seconds_sum"] > 0
    assert got["pbem_bot_cpu_seconds_total"] > 0  # the bot chose its setup within its budget
    assert got["pbem_bounces_total"] == 0
    assert time.time() - got["pbem_last_pass_timestamp_seconds"] < 30

    # While serve runs, a new game's welcomes wait for its next pass, not for `pbem process`.
    assert heartbeat.serving(home)
    out = CliRunner().invoke(app, ["game", "new", "testcards", "--seat", "Ann <ann@localhost>",
                                   "--seat", "Ben <ben@localhost>"]).output
    assert "the running `pbem serve` sends them with its next pass" in " ".join(out.split())
    sent = scrape(port)['pbem_mails_out_total{outcome="sent"}']
    eventually(lambda: scrape(port)['pbem_mails_out_total{outcome="sent"}'] >= sent + 2,
               what="the new game's welcomes sent by serve")

    proc.send_signal(signal.SIGTERM)
    assert proc.wait(20) == 0
    assert not heartbeat.serving(home)
    out = CliRunner().invoke(app, ["game", "new", "testcards", "--seat", "Cy <cy@localhost>",
                                   "--seat", "Di <di@localhost>"]).output
    assert "run `pbem process` to send them" in " ".join(out.split())


def test_a_wrong_metrics_address_is_one_error_and_its_form(home: Path) -> None:
    out = CliRunner().invoke(app, ["serve", "--metrics", "9464"])
    assert out.exit_code == 1
    said = " ".join(out.output.split())
    assert "error: --metrics '9464' is not an address to listen on" in said
    assert "fix: give it as HOST:PORT, e.g. --metrics 127.0.0.1:9464" in said
    assert "Traceback" not in out.output


def test_a_stale_or_dead_serve_is_not_running(tmp_path: Path) -> None:
    heartbeat.beat(tmp_path, 60.0)
    assert heartbeat.serving(tmp_path)
    assert not heartbeat.serving(tmp_path, now=time.time() + 2 * 60 + heartbeat.SLACK + 1)
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    beat = (tmp_path / heartbeat.NAME).read_text().replace(f'"pid": {os.getpid()}',
                                                           f'"pid": {gone.pid}')
    (tmp_path / heartbeat.NAME).write_text(beat)
    assert not heartbeat.serving(tmp_path)  # its process is gone: a crashed serve


def test_the_queue_gauges_are_read_from_the_database(factory: SessionFactory) -> None:
    """A mail waiting in the outbox (its server down) and one in quarantine, as a scrape
    reads them, on each database."""
    with factory() as s:
        s.add(OutboundMessage(to_addr="ann@players.test", raw=b"x", kind="status",
                              created=utcnow() - timedelta(minutes=20)))
        s.add(OutboundMessage(to_addr="ben@players.test", raw=b"x", kind="status"))
        s.add(OutboundMessage(to_addr="cy@players.test", raw=b"x", kind="status",
                              status="sent"))
        s.add(InboundMessage(message_id="<q@players.test>", raw=b"x", status="quarantined"))
        s.commit()
    got = {sample.name: sample.value
           for family in Metrics(factory).registry.collect() for sample in family.samples}
    assert got["pbem_outbox_backlog"] == 2
    assert 20 * 60 <= got["pbem_outbox_oldest_age_seconds"] < 30 * 60
    assert got["pbem_quarantine_size"] == 1
    assert got["pbem_passes_total"] == 0 and got["pbem_seats_bouncing"] == 0
    assert got["pbem_database_readable"] == 1


def test_a_scrape_while_the_database_is_down_says_so(tmp_path: Path) -> None:
    down = session_factory(create_engine(f"sqlite:///{tmp_path / 'gone' / 'pbem.sqlite'}"))
    got = {sample.name: sample.value
           for family in Metrics(down).registry.collect() for sample in family.samples}
    assert got["pbem_database_readable"] == 0
    assert "pbem_outbox_backlog" not in got and got["pbem_passes_total"] == 0
