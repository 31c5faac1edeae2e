"""Every class of bad order of every game, sent by email through the processor: the reply says
nothing was played, echoes the mail, quotes the line and says why, in the sender's language;
the game does not change. Also: check, a good order, help, not your turn, a wrong secret.

Each game's hooks name its position (seat 0, Ann, to move), its cases and its good orders.
"""

from __future__ import annotations

from typing import Any

import pytest

from pbem.engine.contract import takes_orders
from pbem.store import SessionFactory
from tests.games.suite.games import every_game
from tests.games.suite.hooks import ErrorCase, Errors
from tests.games.suite.replies import NOT_PLAYED, reason, refused
from tests.support.seated import Table, seat_table

WITH_ERRORS = [(name, game, hooks.errors) for name, game, hooks in every_game()
               if hooks.errors is not None]
GAMES = [pytest.param(name, game, errors, id=name) for name, game, errors in WITH_ERRORS]
CASES = [pytest.param(name, errors, case, id=f"{name}-{case.lang}-{case.what}")
         for name, _, errors in WITH_ERRORS for case in errors.cases]


def table_for(factory: SessionFactory, name: str, errors: Errors, lang: str = "en") -> Table:
    return seat_table(factory, name, errors.position, languages=[None if lang == "en" else lang])


@pytest.mark.parametrize(("name", "errors", "case"), CASES)
def test_a_bad_order_is_refused_with_the_reason(factory: SessionFactory, name: str,
                                                errors: Errors, case: ErrorCase) -> None:
    reply = refused(table_for(factory, name, errors, case.lang), case.orders)
    assert reply.startswith(NOT_PLAYED[case.lang])
    for line in case.orders.splitlines():  # the mail's orders are echoed back
        assert f"> {line}" in reply
    if errors.exact:
        assert reason(reply) == case.why, reply
    else:
        assert f"{reason(reply)}\n".startswith(case.why), reply
    if case.hint is not None:
        assert case.hint in reply.splitlines(), reply
    if case.lang == "en":
        for line in errors.always:
            assert line in reply, reply
        assert 'Send "help" for the full list of orders.' in reply


@pytest.mark.parametrize(("name", "game", "errors"), GAMES)
def test_not_your_turn(factory: SessionFactory, name: str, game: Any, errors: Errors) -> None:
    table = table_for(factory, name, errors)
    if takes_orders(game, table.state(), 1):
        pytest.skip("Ben may send orders now too (standing orders out of turn)")
    reply = refused(table, errors.play[0], seat=1)
    assert reply.splitlines()[:2] == ["It is not your turn, so nothing was played.",
                                      "Waiting for: Ann."]


@pytest.mark.parametrize(("name", "game", "errors"), GAMES)
def test_a_wrong_secret_changes_nothing(factory: SessionFactory, name: str, game: Any,
                                        errors: Errors) -> None:
    table = table_for(factory, name, errors)
    before = table.state_json()
    result, _ = table.send(0, errors.play[0], secret="not-my-secret")
    assert result.status == "rejected" and result.reason == "wrong secret"
    assert table.state_json() == before


def checked(table: Table, body: str) -> str:
    """Send a ``check`` mail: nothing is played and nothing changes. Returns the reply."""
    before = table.state_json()
    result, reply = table.send(0, body)
    assert result.status == "ignored"
    assert table.state_json() == before
    return reply


@pytest.mark.parametrize(("name", "game", "errors"), GAMES)
def test_check_shows_what_would_happen_and_changes_nothing(
        factory: SessionFactory, name: str, game: Any, errors: Errors) -> None:
    orders, shows = errors.check
    reply = checked(table_for(factory, name, errors), f"check\n{orders}")
    assert reply.startswith("check: these orders are legal. Nothing was played."), reply
    for line in shows:
        assert line in reply, reply


@pytest.mark.parametrize(("name", "game", "errors"), GAMES)
def test_check_of_a_bad_order_says_it_would_be_refused(
        factory: SessionFactory, name: str, game: Any, errors: Errors) -> None:
    body, shows = errors.check_bad
    reply = checked(table_for(factory, name, errors), body)
    assert reply.startswith("check: these orders would NOT be accepted."), reply
    for line in shows:
        assert line in reply, reply


@pytest.mark.parametrize(("name", "game", "errors"), GAMES)
def test_a_good_order_is_played(factory: SessionFactory, name: str, game: Any,
                                errors: Errors) -> None:
    table = table_for(factory, name, errors)
    orders, shows = errors.play
    result, reply = table.send(0, orders)
    assert result.status == "applied", reply
    assert reply.startswith(f"{game.title} ["), reply
    echoed = "\n".join(f"> {line}" for line in orders.splitlines())
    assert f"Done. Your orders were played:\n{echoed}" in reply
    for line in shows:
        assert line in reply, reply
    errors.played(table.state())


@pytest.mark.parametrize(("name", "game", "errors"), GAMES)
def test_help_answers_with_the_whole_order_language(factory: SessionFactory, name: str,
                                                   game: Any, errors: Errors) -> None:
    result, reply = table_for(factory, name, errors).send(0, "help")
    assert result.status == "ignored"
    for example in errors.help:
        assert example in reply, reply
