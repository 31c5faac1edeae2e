"""The host's question to a game, "may this seat send orders now?" (contract.takes_orders)."""

from __future__ import annotations

from typing import Any

from pbem.engine.contract import takes_orders


class TurnOnly:
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
