"""Ratings count people. A game with a bot seat, played through real mail (orders by IMAP
from pymap, answers sent to aiosmtpd) on each database, rates no one by default; with
``[bots] rated`` each bot level is a player of its own, named for its level, and beating a
bot again and again lifts no one's rating above that bot's."""

from __future__ import annotations

import dataclasses
import json
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlmodel import col, select

from pbem.ops import api
from pbem.pipeline import controllers, standings
from pbem.settings.config import Bots
from pbem.settings.host import Host
from pbem.store import SessionFactory, players, ratings
from pbem.store.tables import GameResult, Player, Rating
from tests.players.support import ANN, BEN, CY, ONE_ROUND, host, new_game, testcards
from tests.players.support import ratings as stored
from tests.support.playermail import mail
from tests.support.wire import Wire

__all__ = ["testcards"]


def play_against_bots(factory: SessionFactory, server: Host, wire: Wire,
                      bots: dict[int, str], seed: str) -> None:
    """Ann against ``bots`` (seat index: level), her card played by mail."""
    seats = [("Ann", ANN), *[(controllers.bot_name(i, bots[i]), "") for i in sorted(bots)]]
    with factory() as s:
        game, secrets = api.create_game(s, "testcards", seats, options=ONE_ROUND, seed=seed,
                                        host=server, bots=bots)
        s.commit()
        (card,) = api.current_state(s, game).hands[0]
        tag = game.tag
    wire.run()
    sent = wire.run(mail(ANN, f"Re: [{tag}]", f"play {card}\nsecret {secrets[0]}"))
    assert any("Game over" in subject for _, subject in sent), sent


def test_a_game_with_a_bot_seat_rates_no_one_by_default(
        factory: SessionFactory, imap_server: Any, smtp_server: Any) -> None:
    server = host()
    wire = Wire(factory, server, imap_server, smtp_server)
    play_against_bots(factory, server, wire, {1: "random"}, "b1")
    play_against_bots(factory, server, wire, {1: "strong", 2: "random"}, "b2")
    with factory() as s:
        assert s.exec(select(GameResult)).all() == []
        assert ratings.standings(s, "testcards") == []
        assert s.exec(select(Player).where(Player.address == "")).all() == []
        assert standings.rebuild(s).results == {}  # a rebuild agrees


def test_rated_bot_games_rate_each_level_as_its_own_player(
        factory: SessionFactory, imap_server: Any, smtp_server: Any) -> None:
    server = dataclasses.replace(host(), bots=Bots(rated=True))
    wire = Wire(factory, server, imap_server, smtp_server)
    play_against_bots(factory, server, wire, {1: "random"}, "b1")
    play_against_bots(factory, server, wire, {1: "strong", 2: "random"}, "b2")
    got = stored(factory)
    assert set(got) == {ANN, "bot:random", "bot:strong"}
    assert (got[ANN][2], got["bot:random"][2], got["bot:strong"][2]) == (2, 2, 1)
    with factory() as s:
        names = {row.name for row in ratings.standings(s, "testcards")}
        assert names == {"Ann", "Bot (random)", "Bot (strong)"}
        before = stored(factory)
        standings.rebuild(s, rate_bots=True)
        s.commit()
    assert stored(factory) == before  # a rebuild gives the same numbers


def test_beating_a_bot_again_and_again_lifts_no_one_above_it(
        factory: SessionFactory) -> None:
    start = datetime(2026, 12, 1, tzinfo=UTC)
    rounds = 15
    games = [new_game(factory, [ANN, BEN], f"f{n}") for n in range(2 * rounds)]  # result rows
    with factory() as s:
        ann, ben, cy = (players.ensure(s, a) for a in (ANN, BEN, CY))
        bot = ratings.bot_player(s, ratings.bot_address("random"))
        for n in range(rounds):  # Ann beats the bot again and again; Ben beats Cy as often
            for game_id, ranking in ((games[2 * n], [[ann.id], [bot.id]]),
                                     (games[2 * n + 1], [[ben.id], [cy.id]])):
                result = GameResult(game_id=game_id, game_type="testcards",
                                    finished_at=start + timedelta(hours=n),
                                    ranking_json=json.dumps(ranking))
                s.add(result)
                s.flush()
                ratings.apply(s, result)
        s.commit()
        rows = {r.player_id: r for r in s.exec(select(Rating).order_by(col(Rating.player_id)))}
        farmed, earned, beaten = rows[ann.id or 0], rows[ben.id or 0], rows[bot.id or 0]
        assert (farmed.games, farmed.wins) == (rounds, rounds)
        assert ratings.ordinal(farmed) <= max(0.0, ratings.ordinal(beaten))
        assert ratings.ordinal(earned) > 10  # the same wins against a person count
        incremental = {p: (r.mu, r.sigma) for p, r in rows.items()}
        ratings.rebuild_type(s, "testcards")
        assert {r.player_id: (r.mu, r.sigma) for r in s.exec(select(Rating))} == incremental
