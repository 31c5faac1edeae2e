"""Email commands besides orders: help, status, log, waiting, resign; each reply's text."""

from __future__ import annotations

import re

from pbem.ops import api
from pbem.pipeline.handlers.help import HELP_LINES
from pbem.pipeline.letter import read_letter
from pbem.store import SessionFactory
from tests.pipeline.clocked import (
    OPERATOR,
    FakeClock,
    clocked_host,
    flat,
    last_id,
    log_kinds,
    new_game,
    outbound,
    send,
)
from tests.pipeline.conftest import ALICE, BOB, hand


def replies(factory: SessionFactory, before: int, who: str) -> list[str]:
    return [flat(m.text) for m in outbound(factory, before) if m.to == who]


def test_read_letter_splits_commands_from_orders() -> None:
    letter = read_letter("game t-1\nvacation until 2026-12-24\nsecret abc")
    assert (letter.command, letter.argument, letter.secret) == ("vacation", "until 2026-12-24",
                                                                "abc")
    assert read_letter("log 20").argument == "20"
    assert read_letter("Waiting").command == "waiting"
    letter = read_letter("play 3\nresign")  # a command after an order is just an order line
    assert letter.command is None and letter.order_text == "play 3\nresign"


def test_help_needs_no_secret_and_lists_the_commands(factory: SessionFactory) -> None:
    host = clocked_host(FakeClock())
    table = new_game(factory, host)
    result = send(factory, host, table, 1, "help", secret=False)
    assert (result.status, result.reason) == ("ignored", "help")
    (text,) = replies(factory, 0, BOB)
    for line in HELP_LINES:
        assert flat(line) in text


def test_commands_are_authenticated_and_threaded(factory: SessionFactory) -> None:
    host = clocked_host(FakeClock())
    table = new_game(factory, host)
    result = send(factory, host, table, 0, "waiting\nsecret wrong-secret", secret=False)
    assert (result.status, result.reason) == ("rejected", "wrong secret")
    (note,) = outbound(factory)
    assert "The secret in your mail does not match your seat, so nothing was played." in flat(
        note.text)
    for n, command in enumerate(("status", "log", "waiting", "resign", "vacation off")):
        result = send(factory, host, table, 0, command, secret=False)
        # Three answers an hour to mail without a valid secret; the rest are only recorded.
        limited = "; no answer: reply limit reached" if n >= 2 else ""
        assert (result.status, result.reason) == ("rejected", "no secret" + limited), command
    before = last_id(factory)
    send(factory, host, table, 0, "waiting", message_id="<ask-1@players.test>")
    (reply,) = outbound(factory, before)
    assert reply.msg["In-Reply-To"] == "<ask-1@players.test>"
    assert "<ask-1@players.test>" in reply.msg["References"]
    assert reply.msg["Auto-Submitted"] == "auto-replied"
    assert reply.msg["Subject"] == f"[{table.tag}] Who the game waits for"


def test_status_resends_my_status(factory: SessionFactory) -> None:
    host = clocked_host(FakeClock())
    table = new_game(factory, host)
    result = send(factory, host, table, 1, "status")
    assert (result.status, result.reason) == ("ignored", "status")
    (text,) = replies(factory, 0, BOB)
    assert "Your status, as you asked." in text
    assert f"Your hand: {', '.join(map(str, hand(factory, table, 1)))}" in text


def test_waiting_names_the_seats_and_their_deadlines(factory: SessionFactory) -> None:
    host = clocked_host(FakeClock())
    table = new_game(factory, host, deadline_hours=72)
    send(factory, host, table, 1, "waiting")
    assert (f"[{table.tag}] is waiting for: Alice: until 2026-11-26 12:00 UTC Bob: until "
            "2026-11-26 12:00 UTC That includes you: send your orders."
            in replies(factory, 0, BOB)[0])
    assert send(factory, host, table, 0, f"play {hand(factory, table, 0)[0]}").status == "applied"
    before = last_id(factory)
    result = send(factory, host, table, 0, "waiting")
    assert (result.status, result.reason) == ("ignored", "waiting")
    (text,) = replies(factory, before, ALICE)
    assert f"[{table.tag}] is waiting for: Bob: until 2026-11-26 12:00 UTC" in text
    assert "That includes you" not in text
    untimed = new_game(factory, host)
    before = last_id(factory)
    send(factory, host, untimed, 0, "waiting")
    assert "Alice: no deadline Bob: no deadline" in replies(factory, before, ALICE)[0]


def test_log_shows_only_what_my_seat_may_see(factory: SessionFactory) -> None:
    host = clocked_host(FakeClock())
    table = new_game(factory, host)
    send(factory, host, table, 0, "log")
    assert f"Nothing has been played in [{table.tag}] yet." in replies(factory, 0, ALICE)[0]
    a, b = hand(factory, table, 0)[0], hand(factory, table, 1)[0]
    send(factory, host, table, 0, f"play {a}")
    send(factory, host, table, 1, f"play {b}")
    before = last_id(factory)
    result = send(factory, host, table, 0, "log")
    assert (result.status, result.reason) == ("ignored", "log")
    (text,) = replies(factory, before, ALICE)
    assert f"The last 2 of 2 moves in [{table.tag}], as you may see them:" in text
    assert re.search(r"#1 Alice \(\d{4}-\d\d-\d\d \d\d:\d\d UTC\): - Seat 1 played a card\. "
                     r"- You played", text)
    assert f"You played {a}." in text and f"You played {b}." not in text
    drawn_by_bob = set(hand(factory, table, 1)) - set(hand(factory, table, 0))
    assert not any(f"You drew {c}." in text for c in drawn_by_bob)
    before = last_id(factory)
    send(factory, host, table, 1, "log 1")
    (text,) = replies(factory, before, BOB)
    assert "The last 1 of 2 moves" in text and "#2 Bob" in text and "#1 Alice" not in text
    before = last_id(factory)
    result = send(factory, host, table, 1, "log lots")
    assert (result.status, result.reason) == ("rejected", "bad log count")
    assert ("\"log lots\" is not understood: write \"log\" alone for the last 10 moves, or "
            "\"log N\" with N from 1 to 50." in replies(factory, before, BOB)[0])


def test_resign_plays_defaults_for_the_seat_from_then_on(factory: SessionFactory) -> None:
    host = clocked_host(FakeClock())
    table = new_game(factory, host)
    bob_low = min(hand(factory, table, 1))
    result = send(factory, host, table, 1, "resign")
    assert (result.status, result.reason) == ("applied", "resigned")
    (reply,) = [m for m in outbound(factory) if m.to == BOB and m.kind == "reply"]
    assert (f"You have resigned from [{table.tag}]. The game plays its default orders for your "
            "seat from now on. You will still get its news until it ends. Thank you for "
            "playing." in flat(reply.text))
    alice = replies(factory, 0, ALICE)
    assert any(f"Bob has resigned from [{table.tag}]. From now on the game plays its default "
               "orders for them." in t for t in alice)
    # The resignation is logged like an operator's action; it was Bob's turn, so his default
    # order is played at once, and everyone hears of it.
    assert log_kinds(factory, table) == [("setup", None), ("admin", 1), ("timeout", 1)]
    with factory() as s:
        resigned = api.game_log(s, api.get_game(s, table.game_id))[1]
        assert resigned.text == "resign seat 2: Bob"
    (note,) = [m for m in outbound(factory) if m.to == OPERATOR]
    assert note.kind == "operator"
    assert note.msg["Subject"] == f"[{table.tag}] Test Cards: a seat resigned"
    assert (f"Bob (seat 2, {BOB}) resigned from [{table.tag}] (Test Cards) at 2026-11-23 12:00 "
            "UTC. The game plays the default orders for that seat from now on. To give it to a "
            f"new player: pbem seat takeover {table.tag} 2 --name NAME --address ADDRESS"
            in flat(note.text))
    assert bob_low not in hand(factory, table, 1)
    assert any("Bob has resigned; the game played its default order for them." in t
               for t in alice)
    # Alice ends the round; Bob's next default order is played in the same transaction.
    assert send(factory, host, table, 0, f"play {hand(factory, table, 0)[0]}").status == "applied"
    assert log_kinds(factory, table)[-2:] == [("order", 0), ("timeout", 1)]
    before = last_id(factory)
    result = send(factory, host, table, 1, f"play {hand(factory, table, 1)[0]}")
    assert (result.status, result.reason) == ("rejected", "seat resigned")
    assert (f"Your seat in [{table.tag}] is resigned, so your orders were not played."
            in replies(factory, before, BOB)[0])
    with factory() as s:
        assert api.replay_game(s, api.get_game(s, table.game_id)).entries == 4
    before = last_id(factory)
    result = send(factory, host, table, 1, "resign")
    assert (result.status, result.reason) == ("rejected", "seat resigned")
    assert (f"Your seat in [{table.tag}] is already resigned, so nothing changed."
            in replies(factory, before, BOB)[0])
    assert len(log_kinds(factory, table)) == 5


def test_log_marks_moves_taken_back_by_undo(factory: SessionFactory) -> None:
    from pbem.ops import admin

    host = clocked_host(FakeClock())
    table = new_game(factory, host)
    send(factory, host, table, 0, f"play {hand(factory, table, 0)[0]}")
    with factory() as s:
        assert admin.undo(s, host, api.get_game(s, table.game_id)) == [1]
        s.commit()
    send(factory, host, table, 0, f"play {hand(factory, table, 0)[0]}")
    before = last_id(factory)
    send(factory, host, table, 1, "log")
    (text,) = replies(factory, before, BOB)
    assert f"The last 3 of 3 moves in [{table.tag}]" in text
    assert re.search(r"#1 Alice \(\d{4}-\d\d-\d\d \d\d:\d\d UTC\) \(undone by #2\): - Seat 1 "
                     r"played a card\.", text)
    assert re.search(r"#2 the host, admin \([^)]*\): - The game's host undid the last turn", text)
    assert re.search(r"#3 Alice \([^)]*\): - Seat 1 played a card\.", text)


def test_a_command_with_orders_does_only_the_command(factory: SessionFactory) -> None:
    host = clocked_host(FakeClock())
    table = new_game(factory, host)
    result = send(factory, host, table, 0, f"waiting\nplay {hand(factory, table, 0)[0]}")
    assert result.reason == "waiting"
    assert ("The other lines of your mail were not read as orders; send orders in a mail of "
            "their own." in replies(factory, 0, ALICE)[0])
    assert log_kinds(factory, table) == [("setup", None)]


def test_waiting_in_a_paused_game_and_commands_in_a_finished_one(
        factory: SessionFactory) -> None:
    from pbem.pipeline.clock import run_clocks

    clock = FakeClock()
    host = clocked_host(clock)
    table = new_game(factory, host, deadline_hours=24, timeout_policy="pause")
    clock.at(hours=24)
    assert run_clocks(factory, host).paused == [table.tag]
    before = last_id(factory)
    send(factory, host, table, 0, "waiting")
    assert (f"Game [{table.tag}] is paused: no clock runs until its host resumes it. It then "
            "waits for: Alice, Bob." in replies(factory, before, ALICE)[0])
    ended = new_game(factory, host, deadline_hours=24)
    for _ in range(2):  # two rounds of default orders end the test game
        clock.advance(hours=24)
        run_clocks(factory, host)
    before = last_id(factory)
    for command in ("resign", "vacation until 2026-12-24"):
        result = send(factory, host, ended, 1, command)
        assert (result.status, result.reason) == ("rejected", "game finished")
    send(factory, host, ended, 1, "waiting")
    texts = replies(factory, before, BOB)
    assert texts[0].startswith(f"Game [{ended.tag}] is over.")
    assert f"Game [{ended.tag}] is finished; it waits for nobody." in texts[2]
