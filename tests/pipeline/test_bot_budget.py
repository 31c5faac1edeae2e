"""One budget of bot CPU per clock pass, shared round robin over games, through real mail
(orders by IMAP from pymap, mail out to aiosmtpd) on each database: tables of bots and a
resigned player's stand-in make each pass a bounded amount of work, every table is served in
turn (none twice before all once), and a player's order in the same pass is answered in it."""

from __future__ import annotations

import dataclasses
from typing import Any

from sqlmodel import select

from pbem.engine import registry
from pbem.i18n import msg
from pbem.ops import api
from pbem.ops.api import ClockSettings
from pbem.pipeline import controllers, stand_in
from pbem.settings.config import Bots
from pbem.store import SessionFactory
from pbem.store.tables import LogEntry, Seat
from tests.pipeline.clocked import FakeClock, clocked_host
from tests.pipeline.conftest import ALICE, BOB, Table, hand
from tests.support.playermail import mail
from tests.support.wire import Wire

TABLES = 5


def bot_moves(factory: SessionFactory) -> dict[int, int]:
    """Bot entries so far, by game."""
    out: dict[int, int] = {}
    with factory() as s:
        for game_id in s.exec(select(LogEntry.game_id).where(LogEntry.kind == "bot")):
            out[game_id] = out.get(game_id, 0) + 1
    return out


def test_bots_share_one_budget_per_pass_in_turn_and_a_players_order_is_answered_at_once(
        factory: SessionFactory, imap_server: Any, smtp_server: Any) -> None:
    clock = FakeClock()
    # A budget the first bot move of a pass spends: one move per pass, the rest wait.
    host = dataclasses.replace(clocked_host(clock), bots=Bots(seconds_per_pass=1e-9))
    bots = {1: "strong", 2: "strong", 3: "strong"}
    tables = []
    with factory() as s:
        for n in range(TABLES):  # a resigned player and three strong bots
            game, _ = api.create_game(
                s, "testcards", [("Hana", f"hana{n}@players.test"),
                                 *[(controllers.bot_name(i, bots[i]), "") for i in bots]],
                seed=f"t{n}", host=host, options={"rounds": 6}, bots=bots, now=clock(),
                clocks=ClockSettings(timeout_policy="bot"))
            (hana,) = [x for x in s.exec(select(Seat).where(Seat.game_id == game.id))
                       if x.index == 0]
            hana.status = "resigned"
            stand_in.take_over(s, registry.get("testcards"), game, api.current_state(s, game),
                               hana, "strong", msg("{name} resigned.", name="Hana"))
            tables.append(game.id or 0)
        game, secrets = api.create_game(s, "testcards", [("Alice", ALICE), ("Bob", BOB)],
                                        seed="people", host=host, now=clock())
        s.commit()
        people = Table(game.id or 0, game.tag, secrets)
    start = bot_moves(factory)
    wire = Wire(factory, host, imap_server, smtp_server)
    order = mail(ALICE, f"Re: [{people.tag}]",
                 f"play {hand(factory, people, 0)[0]}\nsecret {people.secrets[0]}")
    served: list[int] = []
    for n in range(TABLES):
        clock.advance(minutes=1)
        sent = wire.run(order) if n == 0 else wire.run()
        if n == 0:  # Alice's order came in this pass: her answer went out in it
            assert (ALICE, f"[{people.tag}] Orders accepted") in sent, sent
        now = bot_moves(factory)
        moved = [g for g in tables if now.get(g, 0) > start.get(g, 0)]
        assert len(moved) == 1, (n, now, start)  # the pass's budget: one table's bot move
        assert sum(now.values()) - sum(start.values()) == 1
        served += moved
        start = now
    assert sorted(served) == sorted(tables)  # each table in turn, none twice
