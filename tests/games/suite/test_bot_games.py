"""Complete games of every game played by bots through real mail servers (pymap IMAP in,
aiosmtpd SMTP out), then replayed from the log with every hash checked, and by the operator's
``pbem game replay``; and ``pbem demo`` playing each game on the embedded defaults.

Each game's hooks name its bot games (player counts, options; on every database under test or
on SQLite only, where the database path is the same and CI time is not) and what its last mail
shows.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from pbem.engine import registry
from pbem.mail.inbound import ImapInbox
from pbem.mail.outbound import SmtpSender
from pbem.ops import api
from pbem.ops.bots import play_out
from pbem.ops.demo import PLAYERS as DEMO_PLAYERS
from pbem.store import SessionFactory, init, session_factory
from tests.games.suite.games import every_game, games
from tests.games.suite.hooks import BotGame, Bots
from tests.support.botmail import ServerMailroom
from tests.support.seated import HOST, PLAYERS

pytestmark = pytest.mark.slow


def bot_games(game: Any, bots: Bots) -> list[BotGame]:
    if bots.games is not None:
        return list(bots.games)
    return [BotGame(game.min_players, "bots", every_database=True)]


def _params(every_database: bool) -> list[Any]:
    return [pytest.param(name, hooks.bots, bot, id=f"{name}-{bot.players}p")
            for name, game, hooks in every_game() for bot in bot_games(game, hooks.bots)
            if bot.every_database == every_database]


@pytest.fixture
def sqlite_factory(tmp_path: Path) -> Iterator[SessionFactory]:
    engine = init(f"sqlite:///{tmp_path / 'bots.sqlite'}")
    yield session_factory(engine)
    engine.dispose()


@pytest.mark.timeout(900)
@pytest.mark.parametrize(("name", "bots", "bot"), _params(every_database=True))
def test_a_whole_game_by_email_on_every_database(
        name: str, bots: Bots, bot: BotGame, db_url: str, factory: SessionFactory,
        imap_server: Any, smtp_server: Any, tmp_path: Path) -> None:
    tag = bots_play_a_whole_game_by_email_and_it_replays(name, bots, bot, factory,
                                                         imap_server, smtp_server)
    # The operator's own check, from the command line, on the same database.
    config = tmp_path / "pbem.toml"
    config.write_text(f'data_dir = "{tmp_path}"\n[database]\nurl = "{db_url}"\n',
                      encoding="utf-8")
    result = CliRunner().invoke(app, ["--config", str(config), "game", "replay", tag])
    assert result.exit_code == 0, result.output
    assert "replay ok: " in result.output


@pytest.mark.timeout(900)
@pytest.mark.parametrize(("name", "bots", "bot"), _params(every_database=False))
def test_a_whole_game_by_email_on_sqlite(name: str, bots: Bots, bot: BotGame,
                                         sqlite_factory: SessionFactory, imap_server: Any,
                                         smtp_server: Any) -> None:
    bots_play_a_whole_game_by_email_and_it_replays(name, bots, bot, sqlite_factory,
                                                   imap_server, smtp_server)


def bots_play_a_whole_game_by_email_and_it_replays(
        name: str, bots: Bots, bot: BotGame, factory: SessionFactory, imap_server: Any,
        smtp_server: Any) -> str:
    """Play, replay, check the final emails; returns the game's tag."""
    with factory() as s:
        game, secrets = api.create_game(s, name, PLAYERS[:bot.players], options=bot.options,
                                        seed=bot.seed, host=HOST)
        s.commit()
        tag = game.tag
    entries = 0 if bots.before is None else bots.before(factory, tag, secrets, imap_server)
    inbox = ImapInbox(imap_server.settings)
    try:
        played = play_out(factory, tag, inbox, SmtpSender(smtp_server.settings),
                          ServerMailroom(smtp_server, imap_server), HOST, seed=bots.seed,
                          showcase=bots.showcase)
    finally:
        inbox.close()
    ranked = sorted(s for group in played.outcome.ranking for s in group)
    assert ranked == list(range(bot.players))
    assert played.turns > bots.more_turns_than(bot.players)
    assert imap_server.messages() == []  # every bot mail was handled and moved away

    with factory() as s:
        report = api.replay_game(s, api.get_game(s, tag))
    assert report.entries == played.turns + entries

    for player in played.bots:  # the end, sent to all; the email agrees with the rules
        final = player.received[-1].text
        assert "The game is over" in final, final
        bots.check_final(final, bot.players, played.outcome)
    bots.check_played(played)
    return tag


@pytest.mark.parametrize(("name", "game", "hooks"), every_game(), ids=list(games()))
def test_pbem_demo_plays_the_game_on_the_embedded_defaults(
        name: str, game: Any, hooks: Any, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBEM_HOME", raising=False)
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    bots: Bots = hooks.bots
    args = bots.demo_args or ["--game", name, "--players", str(game.min_players)]
    players = (int(args[args.index("--players") + 1]) if "--players" in args
               else max(game.min_players, min(3, game.max_players)))  # the demo's own default
    result = CliRunner().invoke(app, ["demo", *args, "--seed", "demo"])
    assert result.exit_code == 0, result.output
    out = result.output
    tag = f"{registry.tag_prefix(game)}-1"  # games keep their tag prefix across id renames
    assert re.search(rf"{re.escape(tag)}: \d+ turns played by email, \d+ emails sent; "
                     "replay verified", out), out
    winners = "|".join(name for name, _ in DEMO_PLAYERS[:players])  # one of those who played
    assert re.search(rf"Final scores:\n  1\. ({winners}) \(\d+\)", out), out
    final = Path(re.findall(r"^    (\S+)$", out, flags=re.M)[-1]).read_text(encoding="utf-8")
    assert bots.demo_final in final
    assert (tmp_path / "pbem-demo" / "pbem.sqlite").is_file()
