"""Complete Reef Encounter games for 2, 3 and 4 players, played by bots through real mail
servers (pymap IMAP in, aiosmtpd SMTP out), then replayed from the log with every hash checked;
and ``pbem demo`` playing one on the embedded defaults."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from pbem.mail.inbound import ImapInbox
from pbem.mail.outbound import SmtpSender
from pbem.ops import api
from pbem.ops.bots import play_out
from pbem.store import SessionFactory, init, session_factory
from tests.games.reef_encounter.mailtable import HOST, PLAYERS
from tests.support.botmail import ServerMailroom

pytestmark = pytest.mark.slow


@pytest.fixture
def sqlite_factory(tmp_path: Path) -> Iterator[SessionFactory]:
    engine = init(f"sqlite:///{tmp_path / 'bots.sqlite'}")
    yield session_factory(engine)
    engine.dispose()


def test_two_players_on_every_database(db_url: str, factory: SessionFactory, imap_server: Any,
                                       smtp_server: Any, tmp_path: Path) -> None:
    tag = bots_play_a_whole_game_by_email_and_it_replays(2, factory, imap_server, smtp_server)
    # The operator's own check, from the command line, on the same database.
    config = tmp_path / "pbem.toml"
    config.write_text(f'data_dir = "{tmp_path}"\n[database]\nurl = "{db_url}"\n',
                      encoding="utf-8")
    result = CliRunner().invoke(app, ["--config", str(config), "game", "replay", tag])
    assert result.exit_code == 0, result.output
    assert "replay ok: " in result.output


@pytest.mark.parametrize("players", [3, 4])
def test_three_and_four_players(players: int, sqlite_factory: SessionFactory, imap_server: Any,
                                smtp_server: Any) -> None:
    """SQLite only: the database path is the same as with two players; CI time is not."""
    bots_play_a_whole_game_by_email_and_it_replays(players, sqlite_factory, imap_server,
                                                   smtp_server)


def bots_play_a_whole_game_by_email_and_it_replays(
        players: int, factory: SessionFactory, imap_server: Any, smtp_server: Any) -> str:
    """Play, replay, check the final emails; returns the game's tag."""
    with factory() as s:
        game, _ = api.create_game(s, "reef-encounter", PLAYERS[:players], seed=f"bots-{players}",
                                  host=HOST)
        s.commit()
        tag = game.tag
    inbox = ImapInbox(imap_server.settings)
    try:
        played = play_out(factory, tag, inbox, SmtpSender(smtp_server.settings),
                          ServerMailroom(smtp_server, imap_server), HOST, seed="reef")
    finally:
        inbox.close()
    assert sorted(s for group in played.outcome.ranking for s in group) == list(range(players))
    assert played.turns > players  # the setup answers and real turns
    assert imap_server.messages() == []  # every bot mail was handled and moved away

    with factory() as s:
        report = api.replay_game(s, api.get_game(s, tag))
    assert report.entries == played.turns

    for bot in played.bots:  # the end, sent to all: scores, coral values, every parrotfish
        final = bot.received[-1].text
        assert "The game is over." in final and "FINAL SCORING" in final
        assert final.count("    parrotfish: ") == players
        assert "Ties are broken by, in order" in final
        for seat, score in played.outcome.scores.items():  # the email agrees with the rules
            name = PLAYERS[seat][0]
            assert re.search(rf"\({name}, player {seat + 1}\): {score} points", final), final
    return tag


def test_pbem_demo_plays_reef_on_the_embedded_defaults(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBEM_HOME", raising=False)
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    result = CliRunner().invoke(app, ["demo", "--players", "2", "--seed", "demo"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert re.search(r"reef-1: \d+ turns played by email, \d+ emails sent; replay verified",
                     out)
    assert re.search(r"Final scores:\n  1\. (Ann|Ben) \(\d+\)", out)
    final = Path(re.findall(r"^    (\S+)$", out, flags=re.M)[-1]).read_text(encoding="utf-8")
    assert "FINAL SCORING" in final
    assert (tmp_path / "pbem-demo" / "pbem.sqlite").is_file()
