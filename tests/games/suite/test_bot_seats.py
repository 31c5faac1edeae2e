"""Every game played to its end by the host's bot seats alone (pbem.pipeline.autoplay: the bots
move pass after pass, a bounded number each), through the engine's ``bot_order`` at every
level: every order a bot chose was legal (none fell back to the default order), and the log
replays with every hash checked."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import select

from pbem.engine.contract import BOT_LEVELS
from pbem.ops import api
from pbem.pipeline.clock import run_clocks
from pbem.settings.config import Bots, MailConfig
from pbem.settings.host import Host
from pbem.store import SessionFactory, init, session_factory
from pbem.store.tables import OutboundMessage, utcnow
from tests.games.suite.games import every_game, games

pytestmark = pytest.mark.slow

MAX_PASSES = 500


@pytest.fixture
def sqlite_factory(tmp_path: Path) -> Iterator[SessionFactory]:
    engine = init(f"sqlite:///{tmp_path / 'bots.sqlite'}")
    yield session_factory(engine)
    engine.dispose()


@pytest.mark.timeout(900)
@pytest.mark.parametrize(("name", "game", "hooks"), every_game(), ids=list(games()))
def test_bot_seats_alone_play_the_game_to_its_end_and_it_replays(
        name: str, game: Any, hooks: Any, sqlite_factory: SessionFactory) -> None:
    del hooks
    players = game.min_players
    levels = {i: BOT_LEVELS[i % len(BOT_LEVELS)] for i in range(players)}
    now = utcnow()
    host = Host(mail=MailConfig(from_address="games@host.test"),
                bots=Bots(seconds_per_move=0.05, moves_per_pass=50), clock=lambda: now)
    with sqlite_factory() as s:
        row, _ = api.create_game(s, name, [(f"Bot {i + 1}", "") for i in range(players)],
                                 seed=f"bot-seats-{name}", host=host, bots=levels)
        s.commit()
        tag = row.tag
    for _ in range(MAX_PASSES):
        with sqlite_factory() as s:
            if api.get_game(s, tag).status != "active":
                break
        now += timedelta(seconds=1)
        report = run_clocks(sqlite_factory, host, now)
        assert report.errors == 0 and report.paused == []
    with sqlite_factory() as s:
        row = api.get_game(s, tag)
        assert row.status == "finished", f"not over after {MAX_PASSES} passes"
        log = api.game_log(s, row)
        kinds = {e.kind for e in log[1:]}
        assert kinds == {"bot"}, kinds  # no default order stood in for an illegal one
        assert api.replay_game(s, row).entries == len(log) - 1
        assert s.exec(select(OutboundMessage)).all() == []  # nobody to mail
