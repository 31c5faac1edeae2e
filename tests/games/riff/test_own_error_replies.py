"""Das Riff's own error replies, beyond the shared suite's (tests/games/suite, with the cases in
suite.py): limits, options and positions of their own; the seat not to move may send its worm
preference, and only that; lines after a turned card; ``check`` turns no real card.
"""

from __future__ import annotations

import pytest

from pbem.games.riff.state import State
from pbem.store import SessionFactory
from tests.games.riff.mailtable import Table, seat_table, state_json
from tests.games.riff.positions import build
from tests.games.riff.suite import AREA, line, position
from tests.games.suite.replies import reason, refused


@pytest.fixture
def table(factory: SessionFactory) -> Table:
    return seat_table(factory, position)


def test_the_limits_of_corals_and_boats(factory: SessionFactory) -> None:
    five = [(None, None, None)] * 5
    table = seat_table(factory, lambda: position(corals=five, boats=8, worms={"red": 3}))
    assert reason(refused(table, "buy 4 far")) == line(
        1, "buy 4 far", "4 far: you hold 5 corals already, the most allowed.")
    assert reason(refused(table, "boat")) == line(
        1, "boat", "you have a boat under every one of the 8 columns.")


def test_a_shark_on_an_own_fish_one_does_not_have(factory: SessionFactory) -> None:
    def no_purple_cross() -> State:
        state = position()
        state.breeding_open[3] = "yellow+blue"
        state.breeding_pile[state.breeding_pile.index("yellow+blue")] = "purple"
        return state
    table = seat_table(factory, no_purple_cross)
    assert reason(refused(table, "shark my purple male")) == line(
        1, "shark my purple male", "you have no purple male fish.")


def test_fish_need_a_free_coral_under_that_option(factory: SessionFactory) -> None:
    def spent() -> State:
        return build(AREA, players=[{"worms": {"red": 1}, "corals": [(None, None, "pink")]},
                                    {}],
                     options={"may_buy_fish_without_a_free_coral": False})
    table = seat_table(factory, spent, options={"may_buy_fish_without_a_free_coral": False})
    assert reason(refused(table, "buy 1 near")) == line(
        1, "buy 1 near", "1 near: you need a coral without a completed cross before you buy "
                         "fish (option may_buy_fish_without_a_free_coral).")


def test_every_boat_in_play(factory: SessionFactory) -> None:
    table = seat_table(factory, lambda: build(AREA, players=[{"boats": 8, "worms": {"red": 3}},
                                                             {"boats": 7}]))
    assert reason(refused(table, "boat")) == line(1, "boat", "all 15 boats are in play.")


def test_a_syntax_error_comes_with_the_nearest_valid_form(table: Table) -> None:
    reply = refused(table, "bye 3 near")
    assert reason(reply) == 'Line 1 of your mail ("bye 3 near"): unknown order \'bye\''
    assert "Hint: did you mean: buy 3 near" in reply


def test_the_seat_not_to_move_may_send_its_preference(table: Table) -> None:
    result, reply = table.send(1, "prefer pink purple")
    assert result.status == "applied", reply
    assert "Done. Your orders were played:\n> prefer pink purple" in reply
    assert "worm preference: pink purple" in reply
    state = table.state()
    assert state.to_move == 0 and state.players[1].prefer == ["pink", "purple"]


def test_the_seat_not_to_move_may_send_nothing_else(table: Table) -> None:
    reply = refused(table, "prefer pink\nbuy 1 far", seat=1)
    assert reason(reply) == line(2, "buy 1 far", "It is not your turn: only \"prefer\" lines "
                                                 "(your worm colours, most wanted first) are "
                                                 "read from you now.")
    assert "A legal order now would be, for example: prefer green" in reply


def test_after_a_turned_card_lines_are_skipped_and_the_reply_says_why(table: Table) -> None:
    result, reply = table.send(0, "buy 1 middle paying red blue\nbuy 1 near")
    assert result.status == "applied", reply
    assert "  - Ann turned 1 middle: a " in reply  # events name the players
    assert "  - Ann's line 2 could not be played after the turned card, so it was " \
           "skipped." in reply
    assert "  - Why: the red female fish on 1 near costs 1 red worm (a pearl" in reply


def test_check_turns_no_real_card(table: Table) -> None:
    """A dry run draws the turned card with its own seed: its example says nothing of the
    card the real turn gets, and nothing changes."""
    before = state_json(table.state())
    shown = set()
    for _ in range(8):
        result, reply = table.send(0, "check\nflip 1 middle")
        assert result.status == "ignored"
        assert reply.startswith("check: these orders are legal. Nothing was played.")
        shown.add(reply.split("  - Ann turned 1 middle: a ")[1].split(".")[0])
    assert state_json(table.state()) == before
    assert len(shown) > 1


def test_turning_a_card_already_face_up(factory: SessionFactory) -> None:
    table = seat_table(factory, lambda: build(AREA.replace("[bluM]", "bluM  "),
                                              players=[{"worms": {"red": 1}}, {}]))
    assert reason(refused(table, "flip 1 middle")) == line(
        1, "flip 1 middle", "1 middle: the card is already face up (blue male fish).")
