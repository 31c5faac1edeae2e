"""Each finished game rates its players (openskill's Plackett-Luce model, ties kept); the
stored ratings equal a rebuild from the games, whatever order the results came in."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from openskill.models import PlackettLuce, PlackettLuceRating
from sqlmodel import Session, col, select

from pbem.ops import admin, api, exchange
from pbem.ops.hostkey import HostKey
from pbem.pipeline import standings
from pbem.store import SessionFactory, ratings
from pbem.store.tables import Game, GameResult, Player, Rating
from tests.players.support import (
    ANN,
    BEN,
    CY,
    DOT,
    finish,
    host,
    new_game,
    testcards,
)
from tests.players.support import ratings as stored

__all__ = ["testcards"]


def rankings(factory: SessionFactory) -> list[list[list[str]]]:
    """Each finished game's ranking in addresses, in finishing order, read from the games'
    own outcomes (not from the results the host stored)."""
    out = []
    with factory() as s:
        for game in s.exec(select(Game).order_by(col(Game.id))):
            state = api.current_state(s, game)
            outcome = api.registry.get(game.game_type).outcome(state)
            if outcome is None:
                continue
            seats = {x.index: x.address for x in api.queries.seats(s, game.id or 0)}
            out.append([[seats[i] for i in group] for group in outcome.ranking])
    return out


def test_a_finished_game_rates_its_players_as_openskill_does(factory: SessionFactory) -> None:
    finish(factory, [ANN, BEN], "r1")
    finish(factory, [ANN, BEN, CY], "r2")
    finish(factory, [CY, DOT, BEN, ANN], "r3")
    games = rankings(factory)
    assert len(games) == 3 and any(len(g) < sum(map(len, g)) for g in games)  # a tie
    model = PlackettLuce()
    mine: dict[str, PlackettLuceRating] = {}
    for ranking in games:  # the test's own run of the model over the same rankings
        ids = [a for group in ranking for a in group]
        ranks = [float(n) for n, group in enumerate(ranking, 1) for _ in group]
        teams = [[mine.get(a) or model.rating()] for a in ids]
        for a, (new,) in zip(ids, model.rate(teams, ranks=ranks), strict=True):
            mine[a] = new
    got = stored(factory)
    assert {a: (r.mu, r.sigma) for a, r in mine.items()} == {
        a: (mu, sigma) for a, (mu, sigma, _, _) in got.items()}
    assert got[DOT][2] == 1 and got[ANN][2] == 3
    winners = [g[0] for g in games]
    assert sum(got[a][3] for a in got) == sum(len(w) for w in winners)


def test_tied_players_move_alike(factory: SessionFactory) -> None:
    game_id = finish(factory, [ANN, BEN, CY], "tie")
    (ranking,) = rankings(factory)
    assert [len(g) for g in ranking] == [1, 2], "one card each: a winner, two at nought"
    got = stored(factory)
    first, (a, b) = ranking[0][0], ranking[1]
    assert got[a][:2] == got[b][:2] and got[first][0] > got[a][0]
    with factory() as s:
        result = s.exec(select(GameResult).where(GameResult.game_id == game_id)).one()
        ids = {p.address: p.id for p in s.exec(select(Player))}
        assert json.loads(result.ranking_json) == [[ids[first]], [ids[a], ids[b]]]


def test_rebuild_gives_the_same_numbers(factory: SessionFactory) -> None:
    for n, players in enumerate([[ANN, BEN], [BEN, CY, DOT], [DOT, ANN], [ANN, BEN, CY, DOT],
                                 [CY, ANN]]):
        finish(factory, players, f"g{n}")
    before = stored(factory)
    with factory() as s:
        for row in s.exec(select(Rating)):  # a damaged table: a rebuild makes it whole
            row.mu = 0.0
            s.add(row)
        report = standings.rebuild(s)
        s.commit()
    assert report.results == {"testcards": 5} and report.unknown == []
    assert stored(factory) == before  # exactly: every bit of every float


def test_a_result_arriving_late_is_rated_as_if_in_order(factory: SessionFactory) -> None:
    """Two games of one player finishing in two transactions may commit in the other order
    than they ended: the late one rebuilds its game type, so the numbers are the ordered
    ones."""
    t0 = datetime(2026, 11, 1, tzinfo=UTC)
    ids = [finish(factory, [ANN, BEN], "x"), finish(factory, [ANN, CY], "y")]
    with factory() as s:  # the stored results, their dates set: the first ended last
        for old in s.exec(select(Rating)):
            s.delete(old)
        rows = rows_of(s)
        rows[ids[0]].finished_at = t0 + timedelta(hours=2)
        rows[ids[1]].finished_at = t0 + timedelta(hours=1)
        for row in rows.values():
            s.add(row)
        s.flush()
        ratings.apply(s, rows[ids[0]])  # the later one first ...
        ratings.apply(s, rows[ids[1]])  # ... then the earlier one: a rebuild
        s.commit()
    late = stored(factory)
    with factory() as s:
        ratings.rebuild_type(s, "testcards")
        s.commit()
    assert stored(factory) == late and late[ANN][2] == 2
    in_order = late
    with factory() as s:  # and the same two applied in order from scratch
        for old in s.exec(select(Rating)):
            s.delete(old)
        s.flush()
        for game_id in reversed(ids):
            ratings.apply(s, rows_of(s)[game_id])
        s.commit()
    assert stored(factory) == in_order


def rows_of(s: Session) -> dict[int, GameResult]:
    return {r.game_id: r for r in s.exec(select(GameResult))}


def test_an_undo_that_reopens_a_game_takes_its_result_back(factory: SessionFactory) -> None:
    finish(factory, [ANN, BEN], "keep")
    kept = stored(factory)
    undone = finish(factory, [ANN, BEN, CY], "undo")
    assert stored(factory)[ANN][2] == 2
    with factory() as s:
        admin.undo(s, host(), api.get_game(s, undone))
        s.commit()
        assert api.get_game(s, undone).status == "active"
        assert s.exec(select(GameResult).where(GameResult.game_id == undone)).first() is None
    assert stored(factory) == kept


def test_a_game_with_one_address_in_two_seats_rates_no_one(factory: SessionFactory) -> None:
    game_id = new_game(factory, [ANN, BEN], "solo")
    with factory() as s:
        game = s.get(Game, game_id)
        assert game is not None
        seats = api.queries.seats(s, game_id)
        seats[1].address = ANN  # the operator seated one player twice (seat moved to Ann)
        s.add(seats[1])
        for seat in range(2):
            (card,) = api.current_state(s, game).hands[seat]
            admin.force(s, host(), game, seat, f"play {card}")
        s.commit()
        assert game.status == "finished"
        assert s.exec(select(GameResult)).first() is None
    assert stored(factory) == {}


def test_an_imported_finished_game_is_rated_as_a_rebuild_rates_it(
        factory: SessionFactory) -> None:
    game_id = finish(factory, [ANN, BEN], "export")
    key = HostKey(b"k" * 32)
    with factory() as s:
        data = exchange.export_json(s, api.get_game(s, game_id), key=key)
        imported, _ = exchange.import_game(s, json.loads(json.dumps(data)), key=key)
        s.commit()
        assert imported.status == "finished"
    assert stored(factory)[ANN][2] == 2  # the copy is a game of its own
    incremental = stored(factory)
    with factory() as s:
        standings.rebuild(s)
        s.commit()
    assert stored(factory) == incremental


def test_a_banned_address_takes_no_seat_by_import_or_takeover(factory: SessionFactory) -> None:
    from pbem.ops import players
    from pbem.ops.admin import AdminError

    game_id = finish(factory, [ANN, BEN], "banned")
    key = HostKey(b"k" * 32)
    with factory() as s:
        players.ban(s, BEN, "")
        data = exchange.export_json(s, api.get_game(s, game_id), key=key)
        with pytest.raises(exchange.ImportRefused,
                           match=r"ben@players\.test is banned from this host"):
            exchange.import_game(s, data, key=key)
    open_game = new_game(factory, [ANN, CY], "takeover")
    with factory() as s:
        players.ban(s, DOT, "")
        with pytest.raises(AdminError, match=r"dot@players\.test is banned from this host"):
            admin.takeover(s, host(), api.get_game(s, open_game), 1, "Dot", DOT)
