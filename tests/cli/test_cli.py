"""The operator CLI on the embedded defaults (SQLite + Maildirs under PBEM_HOME)."""

from __future__ import annotations

import mailbox
import random
import re
from collections.abc import Iterator
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from pbem.engine import registry
from pbem.ops import api
from pbem.ops.bots import _maildir_order
from tests.support.testgame import GAME

runner = CliRunner()


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    registry.register(GAME)
    yield tmp_path / "data"
    registry.unregister(GAME.name)


def pbem(*args: str, code: int = 0) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, result.output
    return result.output


def outbox(home: Path) -> list[EmailMessage]:
    box = mailbox.Maildir(home / "outbox", create=False)
    # Maildir keys hold unpadded microseconds ("M5" is earlier than "M123"): sort as numbers,
    # in the order the mails were written.
    return [message_from_bytes(box.get_bytes(k), policy=policy.default)
            for k in sorted(box.iterkeys(), key=_maildir_order)]


def body(msg: EmailMessage) -> str:
    part = msg.get_body(("plain",))
    assert part is not None
    return str(part.get_content())


def post(home: Path, sender: str, subject: str, text: str) -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, "pbem@localhost", subject
    msg["Message-ID"] = make_msgid(domain="players.test")
    msg.set_content(text)
    mailbox.Maildir(home / "inbox", create=True).add(bytes(msg))


def test_help_at_every_level() -> None:
    assert "game" in pbem("--help")
    assert "new" in pbem("game", "--help")
    assert "retry" in pbem("outbox", "--help")
    assert "reprocess" in pbem("quarantine", "--help")


def test_a_short_game_from_the_command_line(home: Path) -> None:
    assert "database ready" in pbem("init")
    listed = pbem("games")
    assert "testcards" in listed
    assert "A tiny card game for the host's own tests." in listed  # each game's `about` line
    out = pbem("game", "new", "testcards", "--seat", "Alice <alice@players.test>",
               "--seat", "Bob <bob@players.test>", "--seed", "cli-seed")
    assert "testcards-1" in out
    assert "secret" not in out.lower().replace("secret.", "")  # secrets are mailed, not shown
    assert "testcards-1" in pbem("game", "list")

    assert "sent 2" in pbem("process")
    secrets = {}
    for msg in outbox(home):
        assert "A tiny card game for the host's own tests." in body(msg)  # said on welcome
        found = re.search(r"Your secret is: (\S+)", body(msg))
        assert found, body(msg)
        secrets[str(msg["To"]).split("<")[-1].rstrip(">")] = found.group(1)
    assert set(secrets) == {"alice@players.test", "bob@players.test"}

    rng = random.Random(1)
    while True:
        factory = api.connect(f"sqlite:///{home / 'pbem.sqlite'}")
        with factory() as session:
            state = api.current_state(session, api.get_game(session, "testcards-1"))
        waiting = sorted(GAME.waiting_for(state))
        if not waiting:
            break
        for seat in waiting:
            address = ["alice@players.test", "bob@players.test"][seat]
            order = GAME.random_order(state, seat, rng)
            post(home, address, "Re: [testcards-1] Test Cards",
                 f"secret {secrets[address]}\n{order}\n")
        assert "applied" in pbem("process")

    log = pbem("game", "log", "testcards-1")
    assert "setup" in log and "order" in log
    assert "replay ok" in pbem("game", "replay", "testcards-1")
    shown = pbem("game", "show", "testcards-1", "--as", "1")
    assert "Test Cards" in shown or "testcards-1" in shown
    assert "[testcards-1] — Alice" in shown
    # Seats count from 1 here as in the mails; a wrong number names the seats there are.
    for wrong in ("0", "3"):
        out = " ".join(pbem("game", "show", "testcards-1", "--as", wrong, code=1).split())
        assert f"has no seat {wrong}" in out and "its seats are: 1 (Alice), 2 (Bob)" in out
    assert "seats count from 1" in pbem("seat", "secret", "testcards-1", "0", code=1)
    log = pbem("game", "log", "testcards-1")
    assert re.search(r"│ 1\s+│ order\s+│ [12]\s+│", log), log  # the log's seats: 1 and 2
    assert "queued" not in pbem("outbox", "list", "--status", "queued").split("\n", 3)[-1]


def test_errors_are_clear_and_exit_nonzero(home: Path) -> None:
    pbem("init")
    assert "no game 'nope'" in pbem("game", "show", "nope", code=1)
    assert "unknown game 'chess'" in pbem("game", "new", "chess", "--seat", "A <a@x.test>",
                                          "--seat", "B <b@x.test>", code=1)
    assert 'write it as "Name <address@example.org>"' in pbem(
        "game", "new", "testcards", "--seat", "Alice", "--seat", "B <b@x.test>", code=1)
    assert "takes 2" in pbem("game", "new", "testcards", "--seat", "A <a@x.test>", code=1)


def test_a_bad_config_file_is_named(tmp_path: Path, home: Path) -> None:
    cfg = tmp_path / "bad.toml"
    cfg.write_text('[inbound.imap]\nhost = "x"\npassword = "hunter2"\n')
    out = pbem("--config", str(cfg), "init", code=78)
    assert "password_env or password_file" in out
    assert "hunter2" not in out
