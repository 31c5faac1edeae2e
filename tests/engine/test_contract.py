"""The host's questions to a game: "may this seat send orders now?" (contract.takes_orders),
"can your rules play with these options?" (contract.option_problems)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.engine import registry
from pbem.engine.contract import Game, option_problems, takes_orders
from pbem.i18n import Msg, msg
from tests.support.testgame import TestCards


class TurnOnly(TestCards):
    """The test game with only the turns of these tests, and no hook of its own."""

    def waiting_for(self, state: Any) -> frozenset[int]:
        return frozenset({state["to_move"]})


class StandingOrders(TurnOnly):
    def takes_orders_out_of_turn(self, state: Any, seat: int) -> bool:
        return not state.get("over", False)


def test_a_game_without_the_hook_takes_orders_only_from_the_seats_it_waits_for() -> None:
    assert takes_orders(TurnOnly(), {"to_move": 0}, 0)
    assert not takes_orders(TurnOnly(), {"to_move": 0}, 1)


def test_a_game_with_the_hook_decides_for_the_other_seats() -> None:
    assert takes_orders(StandingOrders(), {"to_move": 0}, 1)
    assert not takes_orders(StandingOrders(), {"to_move": 0, "over": True}, 1)


class ChecksOptions(TurnOnly):
    def check_options(self, options: Mapping[str, Any]) -> list[Msg]:
        if options["boats"] > 15:
            return [msg("the box holds {most} boats, not {count}", most=15,
                        count=options["boats"])]
        return []


def test_a_game_says_what_its_setup_would_refuse_if_it_checks_its_options() -> None:
    assert option_problems(TurnOnly(), {"boats": 99}) == []  # no check: nothing to say
    assert option_problems(ChecksOptions(), {"boats": 9}) == []
    assert [str(m) for m in option_problems(ChecksOptions(), {"boats": 99})] == [
        "the box holds 15 boats, not 99"]


def test_every_game_of_the_host_checks_its_options_and_takes_its_defaults() -> None:
    games = {name: rules for name, rules in registry.games().items()
             if type(rules).__module__.startswith("pbem.games.")}
    assert games
    for name, rules in games.items():
        assert type(rules).check_options is not Game.check_options, name  # its own check
        assert option_problems(rules, rules.default_options()) == [], name
        assert option_problems(rules, {**rules.default_options(), "no_such_option": 1}), name
