"""`vacation until <date>` by email: the seat's clock pauses, within the game's limit."""

from __future__ import annotations

from pbem.ops import api
from pbem.pipeline.clock import run_clocks
from pbem.store import SessionFactory, queries
from tests.pipeline.clocked import (
    FakeClock,
    clocked_host,
    flat,
    last_id,
    log_kinds,
    new_game,
    outbound,
    send,
)
from tests.pipeline.conftest import ALICE, BOB


def reply_to(factory: SessionFactory, before: int, who: str) -> str:
    return "\n".join(flat(m.text) for m in outbound(factory, before) if m.to == who)


def used_days(factory: SessionFactory, game_id: int, seat: int) -> int:
    with factory() as s:
        game = api.get_game(s, game_id)
        return queries.seats(s, game.id or 0)[seat].vacation_days_used


def test_vacation_extends_the_deadline_and_tells_the_others(factory: SessionFactory) -> None:
    clock = FakeClock()  # 2026-11-23 12:00 UTC
    host = clocked_host(clock)
    table = new_game(factory, host, deadline_hours=72, vacation_days=14)
    before = last_id(factory)
    result = send(factory, host, table, 0, "vacation until 2026-11-26")
    assert (result.status, result.reason) == ("applied", "vacation")
    reply = reply_to(factory, before, ALICE)
    assert ("Your vacation until 2026-11-26 is noted: your clock is paused until "
            "2026-11-26 00:00 UTC. It uses 3 days; 11 of your 14 vacation days are left. "
            "The other players have been told. Your orders are now due by 2026-11-29 00:00 UTC."
            in reply)
    assert ("Alice is on vacation until 2026-11-26; the game's clock for them is paused until "
            "then, so the game may wait longer for them." in reply_to(factory, before, BOB))
    assert used_days(factory, table.game_id, 0) == 3
    before = last_id(factory)
    send(factory, host, table, 1, "waiting")
    assert ("is waiting for: Alice: until 2026-11-29 00:00 UTC (on vacation until "
            "2026-11-26 00:00 UTC) Bob: until 2026-11-26 12:00 UTC"
            in reply_to(factory, before, BOB))
    # Bob's deadline is unchanged; Alice's moved by the vacation's overlap with the wait.
    clock.at(hours=72)
    assert run_clocks(factory, host).timeouts == 1
    assert log_kinds(factory, table)[-1] == ("timeout", 1)
    before = last_id(factory)
    send(factory, host, table, 1, "waiting")  # the vacation is over; the later deadline stays
    assert ("is waiting for: Alice: until 2026-11-29 00:00 UTC (Keep"
            in reply_to(factory, before, BOB))
    clock.at(days=5, hours=11, minutes=59)  # 2026-11-28 23:59
    assert run_clocks(factory, host).timeouts == 0
    clock.at(days=5, hours=12)
    assert run_clocks(factory, host).timeouts == 1
    assert log_kinds(factory, table)[-1] == ("timeout", 0)


def test_vacation_beyond_the_limit_says_how_many_days_remain(factory: SessionFactory) -> None:
    clock = FakeClock()
    host = clocked_host(clock)
    table = new_game(factory, host, deadline_hours=72, vacation_days=5)
    before = last_id(factory)
    result = send(factory, host, table, 1, "vacation until 2026-11-30")
    assert (result.status, result.reason) == ("rejected", "vacation over limit")
    assert ("A vacation until 2026-11-30 takes 7 days, but you have only 5 vacation days left "
            "in this game (5 per game), so nothing changed. The latest you can ask for is "
            "\"vacation until 2026-11-28\"." in reply_to(factory, before, BOB))
    assert reply_to(factory, before, ALICE) == ""  # nobody else hears of a refused request
    assert used_days(factory, table.game_id, 1) == 0
    # Days taken count: after 4 days, one remains.
    assert send(factory, host, table, 1, "vacation until 2026-11-27").status == "applied"
    clock.at(days=5)  # back, on 2026-11-28
    before = last_id(factory)
    result = send(factory, host, table, 1, "vacation until 2026-11-30")
    assert result.reason == "vacation over limit"
    assert "you have only 1 vacation day left in this game" in reply_to(factory, before, BOB)


def test_vacation_off_and_changing_dates_give_back_unused_days(factory: SessionFactory) -> None:
    clock = FakeClock()
    host = clocked_host(clock)
    table = new_game(factory, host, deadline_hours=72, vacation_days=14)
    assert send(factory, host, table, 0, "vacation until 2026-11-30").status == "applied"
    assert used_days(factory, table.game_id, 0) == 7
    assert send(factory, host, table, 0, "vacation until 2026-11-25").status == "applied"
    assert used_days(factory, table.game_id, 0) == 2
    clock.at(days=1)  # 2026-11-24: one day taken, one given back
    before = last_id(factory)
    assert send(factory, host, table, 0, "vacation off").reason == "vacation off"
    assert ("Welcome back: your vacation is over and your clock runs again. 13 of your 14 "
            "vacation days are left. Your orders are due by 2026-11-27 12:00 UTC."
            in reply_to(factory, before, ALICE))
    assert "Alice is back from vacation." in reply_to(factory, before, BOB)
    assert used_days(factory, table.game_id, 0) == 1
    before = last_id(factory)
    assert send(factory, host, table, 0, "vacation off").reason == "no vacation"
    assert "You are not on vacation, so nothing changed." in reply_to(factory, before, ALICE)


def test_vacation_mistakes_are_explained(factory: SessionFactory) -> None:
    clock = FakeClock()
    host = clocked_host(clock)
    table = new_game(factory, host, deadline_hours=72)
    cases = {
        "vacation": ("bad vacation", "\"vacation\" needs a date: write \"vacation until "
                     "2026-12-24\" (year-month-day; your clock runs again from the start of "
                     "that day, UTC), or \"vacation off\" to come back early."),
        "vacation until christmas": ("bad vacation date", "\"christmas\" is not a date: write "
                                     "it as year-month-day, e.g. \"vacation until "
                                     "2026-11-30\"."),
        "vacation until 2026-11-23": ("vacation date not in future", "2026-11-23 is not after "
                                      "today (2026-11-23, UTC): a vacation must end on a "
                                      "later day."),
    }
    for body, (reason, text) in cases.items():
        before = last_id(factory)
        result = send(factory, host, table, 0, body)
        assert (result.status, result.reason) == ("rejected", reason)
        assert text in reply_to(factory, before, ALICE)
    assert used_days(factory, table.game_id, 0) == 0


def test_vacation_needs_the_secret(factory: SessionFactory) -> None:
    clock = FakeClock()
    host = clocked_host(clock)
    table = new_game(factory, host, deadline_hours=72)
    result = send(factory, host, table, 0, "vacation until 2026-11-30", secret=False)
    assert (result.status, result.reason) == ("rejected", "no secret")
    assert used_days(factory, table.game_id, 0) == 0


def test_a_vacation_mid_turn_pauses_the_clock_and_keeps_the_time_left(
        factory: SessionFactory) -> None:
    clock = FakeClock()  # the wait starts 2026-11-23 12:00 UTC; orders due 2026-11-26 12:00
    host = clocked_host(clock)
    table = new_game(factory, host, deadline_hours=72, vacation_days=14)
    clock.at(hours=60)  # 2026-11-26 00:00: 12 hours left when Alice goes away for 2 days
    before = last_id(factory)
    assert send(factory, host, table, 0, "vacation until 2026-11-28").status == "applied"
    assert ("It uses 2 days; 12 of your 14 vacation days are left. The other players have "
            "been told. Your orders are now due by 2026-11-28 12:00 UTC."
            in reply_to(factory, before, ALICE))
    clock.at(hours=72)  # Bob's deadline, unchanged
    assert run_clocks(factory, host).timeouts == 1
    assert log_kinds(factory, table)[-1] == ("timeout", 1)
    clock.at(days=3, hours=12)  # 2026-11-27 00:00, still away: one more day, same start
    before = last_id(factory)
    assert send(factory, host, table, 0, "vacation until 2026-11-29").status == "applied"
    assert "Your orders are now due by 2026-11-29 12:00 UTC." in reply_to(factory, before, ALICE)
    # Back on 2026-11-29 00:00 with the 12 hours she had left, not a fresh 72.
    clock.at(days=5, hours=23, minutes=59)  # 2026-11-29 11:59
    assert run_clocks(factory, host).timeouts == 0
    clock.at(days=6)  # 2026-11-29 12:00
    assert run_clocks(factory, host).timeouts == 1
    assert log_kinds(factory, table)[-1] == ("timeout", 0)


def test_coming_back_early_from_a_mid_turn_vacation(factory: SessionFactory) -> None:
    clock = FakeClock()
    host = clocked_host(clock)
    table = new_game(factory, host, deadline_hours=72)
    clock.at(hours=48)  # 2026-11-25 12:00, 24 hours left
    assert send(factory, host, table, 1, "vacation until 2026-11-30").status == "applied"
    clock.at(hours=54)  # back after 6 hours: due 6 hours later than at first
    before = last_id(factory)
    assert send(factory, host, table, 1, "vacation off").reason == "vacation off"
    assert "Your orders are due by 2026-11-26 18:00 UTC." in reply_to(factory, before, BOB)


def test_deadline_counts_only_the_vacation_inside_the_wait() -> None:
    from datetime import timedelta

    from pbem.pipeline.deadlines import deadline_of
    from pbem.store.tables import Game, Seat
    from tests.pipeline.clocked import START

    game = Game(game_type="t", tag="t-1", options_json="{}", seed="s", deadline_hours=72,
                turn_started_at=START)
    seat = Seat(game_id=1, index=0, name="A", address="a@x", secret_salt="", secret_hash="")
    due = START + timedelta(hours=72)
    assert deadline_of(game, seat) == due
    seat.vacation_from, seat.vacation_until = START - timedelta(days=9), START - timedelta(days=2)
    assert deadline_of(game, seat) == due  # over before this wait began
    seat.vacation_until = START + timedelta(days=1)  # began before the wait: only its end counts
    assert deadline_of(game, seat) == due + timedelta(days=1)
    seat.vacation_from = None  # set before starts were kept: counted from the wait's start
    assert deadline_of(game, seat) == due + timedelta(days=1)
    seat.vacation_from = START + timedelta(hours=80)  # began after the time ran out
    seat.vacation_until = START + timedelta(hours=90)
    assert deadline_of(game, seat) == START + timedelta(hours=90)  # due on return, not before


def test_vacation_dates_in_the_players_own_form(factory: SessionFactory) -> None:
    clock = FakeClock()  # 2026-11-23 12:00 UTC
    host = clocked_host(clock)
    table = new_game(factory, host, deadline_hours=72, vacation_days=14)
    for typed in ("30/11/2026", "11/30/2026", "30.11.2026"):
        before = last_id(factory)
        result = send(factory, host, table, 0, f"vacation until {typed}")
        assert (result.status, result.reason) == ("applied", "vacation"), typed
        assert "Your vacation until 2026-11-30 is noted" in reply_to(factory, before, ALICE)
        assert used_days(factory, table.game_id, 0) == 7
        subjects = {m.to: m.msg["Subject"] for m in outbound(factory, before)}
        assert subjects == {ALICE: f"[{table.tag}] Vacation noted",
                            BOB: f"[{table.tag}] Alice is on vacation until 2026-11-30"}
    before = last_id(factory)
    result = send(factory, host, table, 0, "vacation until 31/31/2026")
    assert (result.status, result.reason) == ("rejected", "bad vacation date")
    assert "\"31/31/2026\" is not a date" in reply_to(factory, before, ALICE)
