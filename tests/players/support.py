"""Finished games for the standings tests: the test game with one card each, one round, so
the highest card wins everything and the others tie at nought."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlmodel import col, select

from pbem.engine import registry
from pbem.ops import admin, api
from pbem.settings.config import MailConfig
from pbem.settings.host import Host
from pbem.store import SessionFactory
from pbem.store.tables import Player, Rating
from tests.support.testgame import GAME

ANN, BEN, CY, DOT = ("ann@players.test", "ben@players.test", "cy@players.test",
                     "dot@players.test")
NAMES = {ANN: "Ann", BEN: "Ben", CY: "Cy", DOT: "Dot"}
ONE_ROUND = {"rounds": 1, "hand": 1}


@pytest.fixture(autouse=True)
def testcards() -> Iterator[None]:
    registry.register(GAME)
    yield
    registry.unregister(GAME.name)


def host() -> Host:
    return Host(mail=MailConfig(from_address="games@host.test", from_name="Test Host"))


def new_game(factory: SessionFactory, addresses: list[str], seed: str) -> int:
    with factory() as s:
        game, _ = api.create_game(s, "testcards", [(NAMES.get(a, a.split("@")[0]), a)
                                                   for a in addresses],
                                  options=ONE_ROUND, seed=seed)
        s.commit()
        assert game.id is not None
        return game.id


def finish(factory: SessionFactory, addresses: list[str], seed: str) -> int:
    """A game of ``addresses`` played to its end (each plays their one card)."""
    game_id = new_game(factory, addresses, seed)
    with factory() as s:
        game = api.get_game(s, game_id)
        for seat in range(len(addresses)):
            (card,) = api.current_state(s, game).hands[seat]
            admin.force(s, host(), game, seat, f"play {card}")
        s.commit()
    return game_id


def ratings(factory: SessionFactory, game_type: str = "testcards"
            ) -> dict[str, tuple[float, float, int, int]]:
    """address -> (mu, sigma, games, wins), exactly as stored."""
    with factory() as s:
        return {p.address: (r.mu, r.sigma, r.games, r.wins) for r, p in s.exec(
            select(Rating, Player).join(Player, col(Player.id) == col(Rating.player_id))
            .where(Rating.game_type == game_type))}
