"""Every Das Riff error a player can get, sent by email through the processor: the reply says
nothing was played, quotes the line and says why; the game does not change. Also: the seat not
to move may send its worm preference, and only that; ``check`` turns no real card.

Ann (seat 0, player 1) is to move; the area is drawn as she sees it (positions.py).
"""

from __future__ import annotations

import pytest

from pbem.games.riff.state import State
from pbem.store import SessionFactory
from tests.games.riff.mailtable import Table, seat_table, state_json
from tests.games.riff.positions import build

AREA = """
pinM  purF  ~~~~  coral greF  bluM  yelF  redM
[greF] [pinF] [coral] [~~~~] [redF] [purM] [bluF] [yelM]
[bluM] [redM] [purF] [shark] [greM] [pinM] [coral] [yelF]
redF  .     ~~~~  pearl yelM  bluF  purM  pinF
"""
CROSSES = ["red+yellow", "blue+green", "pink", "purple"]


def position(**ann: object) -> State:
    spec = {"boats": 4, "worms": {"red": 1, "blue": 2}, "fish": ["red:m", "yellow:f"],
            "corals": [(None, None, None), (None, "pink", None), (None, None, "yellow")],
            "sharks": 1, **ann}
    return build(AREA, breeding=CROSSES, players=[spec, {"prefer": ["green"]}])


@pytest.fixture
def table(factory: SessionFactory) -> Table:
    return seat_table(factory, position)


def refused(table: Table, body: str, seat: int = 0) -> str:
    before = state_json(table.state())
    result, reply = table.send(seat, body)
    assert result.status == "rejected", (result, reply)
    assert state_json(table.state()) == before
    return reply


def reason(reply: str) -> str:
    lines = reply.splitlines()
    return next(ln for ln in lines[lines.index(""):] if ln)


def line(n: int, text: str, why: str) -> str:
    return f'Line {n} of your mail ("{text}"): {why}'


CASES = [
    ("no boat in the column", "buy 6 near",
     line(1, "buy 6 near", "6 near: you have no boat in column 6 (your boats lie under "
                           "columns 1-4).")),
    ("a gap", "buy 2 near", line(1, "buy 2 near", "2 near: there is no card there.")),
    ("water", "buy 3 near", line(1, "buy 3 near", "3 near: a water card shows nothing to "
                                                  "fish.")),
    ("cannot pay a fish in its colour", "buy 1 near\nbuy 1 far",
     line(2, "buy 1 far", "the pink male fish on 1 far costs 3 pink worm(s) (a pearl "
                          "replaces any worm); you have 0 pink and 0 pearl(s) to play.")),
    ("cannot pay at all", "buy 1 near\nboat",
     line(2, "boat", "a boat costs 3 worm(s) (a pearl replaces any worm); you have 2 and 0 "
                     "pearl(s) to play.")),
    ("naming more worms than the cost", "buy 4 near paying red blue",
     line(1, "buy 4 near paying red blue", "the pearl on 4 near costs 1 worm(s), but you "
                                           "named 2.")),
    ("paying a fish in another colour", "buy 1 near paying blue",
     line(1, "buy 1 near paying blue", "the red female fish on 1 near must be paid in red "
                                       "worms (or pearls), not blue.")),
    ("naming worms one does not hold", "buy 4 near paying pink",
     line(1, "buy 4 near paying pink", "the pearl on 4 near: you named 1 pink worm(s) but "
                                       "have 0.")),
    ("flipping a near card", "flip 1 near",
     line(1, "flip 1 near", "1 near: only cards of the two middle rows are face down.")),
    ("a coral one does not have", "attach red male to coral 4",
     line(1, "attach red male to coral 4", "you have no coral 4 (you have 3).")),
    ("a used-up coral", "attach red male to coral 3",
     line(1, "attach red male to coral 3", "coral 3 is used up: it holds a completed "
                                           "cross.")),
    ("a fish one does not have", "attach blue male to coral 1",
     line(1, "attach blue male to coral 1", "you have no blue male fish that is not on a "
                                            "coral.")),
    ("a second female", "attach yellow female to coral 2",
     line(1, "attach yellow female to coral 2", "coral 2 already has a female.")),
    ("parents of no open cross", "attach red male to coral 2",
     line(1, "attach red male to coral 2", "these parents on coral 2 make none of the open "
                                           "crosses (red+yellow, blue+green, pink, "
                                           "purple).")),
    ("a shark on a face-down card", "shark 2 middle",
     line(1, "shark 2 middle", "2 middle: a shark chases only face-up cards.")),
    ("a shark on an own fish that fits a cross", "shark my red male",
     line(1, "shark my red male", "your red male fish still fits an open cross; a shark "
                                  "chases only your fish whose colour fits none.")),
    ("a second shark", "shark 1 far\nshark 2 far",
     line(2, "shark 2 far", "you have no shark to play.")),
]


@pytest.mark.parametrize(("what", "orders", "why"),
                         CASES, ids=[c[0] for c in CASES])
def test_a_bad_order_is_refused_with_the_reason(table: Table, what: str, orders: str,
                                                why: str) -> None:
    reply = refused(table, orders)
    assert reply.startswith("Your orders were NOT played; nothing changed.")
    for text in orders.splitlines():
        assert f"> {text}" in reply
    assert reason(reply) == why, reply
    assert "A legal order now would be, for example: pass" in reply
    assert 'Send "help" for the full list of orders.' in reply


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
    assert "  - Ann turned 1 middle: a " in reply  # events name the players (issue 16)
    assert "  - Ann's line 2 could not be played after the turned card, so it was " \
           "skipped." in reply
    assert "  - Why: the red female fish on 1 near costs 1 red worm(s)" in reply


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


def test_help_says_the_mix_is_a_reconstruction_and_lists_every_order(table: Table) -> None:
    result, reply = table.send(0, "help")
    assert result.status == "ignored"
    assert "The card mix is a reconstruction" in reply
    for example in ("buy 3 near", "flip 5 middle", "boat", "attach red male to coral 2",
                    "shark 4 far", "shark my blue female", "prefer red blue green", "pass"):
        assert example in reply


def test_turning_a_card_already_face_up(factory: SessionFactory) -> None:
    table = seat_table(factory, lambda: build(AREA.replace("[bluM]", "bluM  "),
                                              players=[{"worms": {"red": 1}}, {}]))
    assert reason(refused(table, "flip 1 middle")) == line(
        1, "flip 1 middle", "1 middle: the card is already face up (blue male fish).")
