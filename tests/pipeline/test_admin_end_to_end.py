"""A takeover and an undo through the real mail path: the `pbem` CLI configured for a pymap
IMAP mailbox and an aiosmtpd SMTP server, orders arriving by IMAP, replies read back from
SMTP; each operator action then shows in `game log` and passes `game replay`."""

from __future__ import annotations

import re
from collections.abc import Iterator
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from tests.pipeline.conftest import ALICE, BOB
from tests.support.playermail import mail

pytestmark = pytest.mark.slow
CAROL = "carol@players.test"
runner = CliRunner()


class Host:
    """The CLI against real servers, and the players' side of the mail."""

    def __init__(self, config: Path, imap: Any, smtp: Any) -> None:
        self.config, self.imap, self.smtp = config, imap, smtp
        self.secrets: dict[str, str] = {}
        self.tag = ""

    def pbem(self, *args: str, code: int = 0) -> str:
        result = runner.invoke(app, ["--config", str(self.config), *args])
        assert result.exit_code == code, result.output
        return result.output

    def last_to(self, address: str) -> str:
        for raw in reversed(self.smtp.messages):
            msg = message_from_bytes(raw, policy=policy.default)
            assert isinstance(msg, EmailMessage)
            if address in str(msg["To"]):
                part = msg.get_body(("plain",))
                assert part is not None
                return str(part.get_content())
        raise AssertionError(f"no mail to {address}")

    def learn_secret(self, address: str) -> None:
        found = re.search(r"Your secret is: (\S+)", self.last_to(address))
        assert found is not None
        self.secrets[address] = found.group(1)

    def send_lowest_card(self, address: str) -> int:
        found = re.search(r"Your hand: ([\d, ]+)", self.last_to(address))
        assert found is not None
        card = min(int(c) for c in found.group(1).split(","))
        self.imap.deliver(mail(address, f"Re: [{self.tag}] Test Cards",
                               f"play {card}\nsecret {self.secrets[address]}"))
        assert "1 applied" in self.pbem("process")
        return card


@pytest.fixture
def host(request: pytest.FixtureRequest, tmp_path: Path, db_url: str,
         monkeypatch: pytest.MonkeyPatch) -> Iterator[Host]:
    from pbem.engine import registry
    from tests.support.testgame import GAME

    imap, smtp = request.getfixturevalue("imap_server"), request.getfixturevalue("smtp_server")
    monkeypatch.setenv("PBEM_TEST_IMAP_PW", imap.password)
    monkeypatch.setenv("PBEM_TEST_SMTP_PW", smtp.password)
    config = tmp_path / "pbem.toml"
    config.write_text(
        f'data_dir = "{tmp_path / "data"}"\n'
        f'[database]\nurl = "{db_url}"\n'
        '[mail]\nfrom_address = "games@host.test"\n'
        f'[inbound.imap]\nhost = "127.0.0.1"\nport = {imap.port}\nuser = "{imap.user}"\n'
        'password_env = "PBEM_TEST_IMAP_PW"\nsecurity = "none"\n'
        f'[outbound.smtp]\nhost = "127.0.0.1"\nport = {smtp.port}\nuser = "{smtp.user}"\n'
        'password_env = "PBEM_TEST_SMTP_PW"\nsecurity = "none"\n'
        '[deadlines]\nturn_hours = 0\n')
    registry.register(GAME)
    h = Host(config, imap, smtp)
    h.pbem("init")
    out = h.pbem("game", "new", "testcards", "--seat", f"Alice <{ALICE}>",
                 "--seat", f"Bob <{BOB}>", "--seed", "admin-e2e")
    found = re.search(r"game (\S+) created", out)
    assert found is not None
    h.tag = found.group(1)
    h.pbem("process")  # the welcome mails go out by SMTP
    for who in (ALICE, BOB):
        h.learn_secret(who)
    yield h
    registry.unregister(GAME.name)


def log_rows(host: Host) -> list[str]:
    return [" ".join(line.split()) for line in host.pbem("game", "log", host.tag).splitlines()]


def test_takeover_by_mail_shows_in_log_and_replays(host: Host) -> None:
    host.send_lowest_card(ALICE)
    out = host.pbem("seat", "takeover", host.tag, "2", "--name", "Carol", "--address", CAROL)
    assert f"Carol <{CAROL}> now holds seat 2 of {host.tag}" in out
    host.pbem("process")
    welcome = host.last_to(CAROL)
    assert "You take over the seat of Bob." in welcome and "It is your turn." in welcome
    assert "Carol has taken over your seat" in host.last_to(BOB)
    host.learn_secret(CAROL)

    # Bob's secret no longer plays: his mail is turned away and changes nothing.
    host.imap.deliver(mail(BOB, f"Re: [{host.tag}] Test Cards",
                           f"play 1\nsecret {host.secrets[BOB]}"))
    assert "1 rejected" in host.pbem("process")
    host.send_lowest_card(CAROL)
    assert "Done. Your orders were played" in host.last_to(CAROL)
    assert "Carol takes over from Bob." in host.last_to(ALICE)

    rows = log_rows(host)
    assert any(r.startswith("│ 2 │ admin │ 2 │ takeover seat 2: Bob → Carol") for r in rows), rows
    assert any(r.startswith("│ 3 │ order │ 2 │ play") for r in rows), rows
    assert "replay ok: 3 entries" in host.pbem("game", "replay", host.tag)


def test_undo_by_mail_shows_in_log_and_replays(host: Host) -> None:
    first = host.send_lowest_card(ALICE)
    out = host.pbem("game", "undo", host.tag)
    assert f"undid log entry 1 of {host.tag}" in out
    host.pbem("process")
    for who in (ALICE, BOB):
        assert "The game's host undid the last turn (Alice: log #1)" in host.last_to(who)
    # The card came back: Alice's status lists it again, and she can play it again.
    assert re.search(rf"Your hand: .*\b{first}\b", host.last_to(ALICE))
    assert host.send_lowest_card(ALICE) == first
    host.send_lowest_card(BOB)

    rows = log_rows(host)
    assert any(r.startswith(f"│ 1 │ order │ 1 │ play {first} (undone by #2)") for r in rows), rows
    assert any(r.startswith("│ 2 │ admin │ │ undo 1 (the last turn: Alice)") for r in rows), rows
    assert "replay ok: 4 entries" in host.pbem("game", "replay", host.tag)
    assert "nothing to undo" not in host.pbem("game", "undo", host.tag)
    assert "replay ok: 5 entries" in host.pbem("game", "replay", host.tag)
