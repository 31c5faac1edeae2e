"""Complete Das Riff games played by bots through real mail servers (pymap IMAP in, aiosmtpd
SMTP out) on every database under test, then replayed from the log with every hash checked;
and ``pbem demo --game riff`` playing one on the embedded defaults."""

from __future__ import annotations

import re
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from pbem.mail.inbound import ImapInbox
from pbem.mail.outbound import SmtpSender
from pbem.ops import api
from pbem.ops.bots import play_out
from pbem.store import SessionFactory
from tests.games.riff.mailtable import HOST, PLAYERS
from tests.support.botmail import ServerMailroom

pytestmark = pytest.mark.slow


def test_a_whole_game_by_email_on_every_database(db_url: str, factory: SessionFactory,
                                                 imap_server: Any, smtp_server: Any,
                                                 tmp_path: Path) -> None:
    with factory() as s:
        game, secrets = api.create_game(s, "riff", PLAYERS, seed="bots-riff", host=HOST)
        s.commit()
        tag = game.tag
        waiting = api.current_state(s, game).to_move
    # Before the bots start, the seat not to move mails its standing worm preference.
    other = 1 - waiting
    note = EmailMessage()
    note["From"], note["To"] = PLAYERS[other][1], HOST.from_address
    note["Subject"], note["Message-ID"] = f"Re: [{tag}] Das Riff", make_msgid()
    note.set_content(f"prefer purple pink\nsecret {secrets[other]}\n")
    imap_server.deliver(bytes(note))
    inbox = ImapInbox(imap_server.settings)
    try:
        played = play_out(factory, tag, inbox, SmtpSender(smtp_server.settings),
                          ServerMailroom(smtp_server, imap_server), HOST, seed="riff",
                          showcase=True)
    finally:
        inbox.close()
    assert sorted(s for group in played.outcome.ranking for s in group) == [0, 1]
    told = [m.text for m in played.bots[other].received if "> prefer purple pink" in m.text]
    assert told and "worm preference: purple pink" in told[0]
    assert played.turns > 10
    assert imap_server.messages() == []  # every bot mail was handled and moved away
    welcome = played.bots[0].received[0].text
    assert "The card mix is a reconstruction" in welcome
    assert "check: these orders are legal" in played.showcase["check"].text
    assert "Your orders were NOT played" in played.showcase["nonsense"].text

    with factory() as s:
        report = api.replay_game(s, api.get_game(s, tag))
    assert report.entries == played.turns + 1  # the bots' turns and the preference

    for bot in played.bots:
        final = bot.received[-1].text
        assert "The game is over." in final and "Scores are completed crosses." in final
        for seat, score in played.outcome.scores.items():
            name = PLAYERS[seat][0]
            assert re.search(rf"Player {seat + 1} \({name}\)( — you)?: {score} cross\(es\) "
                             "completed", final), final

    config = tmp_path / "pbem.toml"  # the operator's own check, on the same database
    config.write_text(f'data_dir = "{tmp_path}"\n[database]\nurl = "{db_url}"\n',
                      encoding="utf-8")
    result = CliRunner().invoke(app, ["--config", str(config), "game", "replay", tag])
    assert result.exit_code == 0, result.output
    assert "replay ok: " in result.output


def test_pbem_demo_plays_das_riff(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBEM_HOME", raising=False)
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    result = CliRunner().invoke(app, ["demo", "--game", "riff", "--seed", "demo"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert re.search(r"riff-1: \d+ turns played by email, \d+ emails sent; replay verified",
                     out), out
    assert re.search(r"Final scores:\n  1\. (Ann|Ben)", out)
    final = Path(re.findall(r"^    (\S+)$", out, flags=re.M)[-1]).read_text(encoding="utf-8")
    assert "Scores are completed crosses." in final


def test_pbem_games_lists_das_riff_as_a_reconstruction() -> None:
    result = CliRunner().invoke(app, ["games"])
    assert result.exit_code == 0, result.output
    assert "riff" in result.output and "Das Riff" in result.output
    assert "The card mix is a reconstruction" in " ".join(result.output.split())


def test_game_options_reach_the_setup_from_the_command_line(tmp_path: Path) -> None:
    config = tmp_path / "pbem.toml"
    config.write_text(f'data_dir = "{tmp_path}"\n', encoding="utf-8")
    seats = ["-s", "Ann <ann@players.test>", "-s", "Ben <ben@players.test>"]
    assert CliRunner().invoke(app, ["--config", str(config), "init"]).exit_code == 0
    good = CliRunner().invoke(app, ["--config", str(config), "game", "new", "riff", *seats,
                                    "-o", "coral=9", "-o", "water=7", "-o", "turn_limit=90"])
    assert good.exit_code == 0, good.output
    bad = CliRunner().invoke(app, ["--config", str(config), "game", "new", "riff", *seats,
                                   "-o", "coral=12"])
    assert bad.exit_code != 0
    assert "the reef cards add up to 62, but the box holds 60" in " ".join(bad.output.split())
