"""Deadlines, reminders and timeouts, driven by a clock the test moves by hand."""

from __future__ import annotations

import mailbox
from email.message import Message
from pathlib import Path

import pytest

from pbem.ops import api
from pbem.pipeline.clock import run_clocks
from pbem.pipeline.one_mail import process_raw
from pbem.store import SessionFactory, queries
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
from tests.support.playermail import mail
from tests.support.testgame import GAME


def game_row(factory: SessionFactory, game_id: int) -> tuple[str, object]:
    with factory() as s:
        g = api.get_game(s, game_id)
        return g.status, g.turn_started_at


def test_no_timeout_before_the_deadline_then_default_orders_for_both(
        factory: SessionFactory) -> None:
    clock = FakeClock()
    host = clocked_host(clock)
    table = new_game(factory, host, deadline_hours=72, timeout_policy="default")
    alice, bob = hand(factory, table, 0), hand(factory, table, 1)
    clock.at(hours=71, minutes=59)
    assert run_clocks(factory, host).timeouts == 0
    assert log_kinds(factory, table) == [("setup", None)]
    before = last_id(factory)
    clock.at(hours=72)
    report = run_clocks(factory, host)
    assert report.timeouts == 2
    assert log_kinds(factory, table) == [("setup", None), ("timeout", 0), ("timeout", 1)]
    # The game's default order (its lowest card) was played for each seat.
    assert min(alice) not in hand(factory, table, 0) and min(bob) not in hand(factory, table, 1)
    sent = {m.to: flat(m.text) for m in outbound(factory, before)}
    assert set(sent) == {ALICE, BOB}
    assert (f"Your deadline passed, so the game played for you: play {min(alice)}"
            in sent[ALICE])
    assert ("Bob sent no orders by the deadline; the game played its default order for them."
            in sent[ALICE])
    assert f"play {min(bob)}" not in sent[ALICE]  # the order itself is Bob's to see
    # A new round: a new wait, whose clock starts now.
    status, started = game_row(factory, table.game_id)
    assert status == "active" and started is not None
    assert started.replace(tzinfo=None) == clock.now.replace(tzinfo=None)  # type: ignore[attr-defined]
    with factory() as s:
        assert api.replay_game(s, api.get_game(s, table.game_id)).entries == 2


def test_a_seat_that_played_does_not_restart_the_others_clock(factory: SessionFactory) -> None:
    clock = FakeClock()
    host = clocked_host(clock)
    table = new_game(factory, host, deadline_hours=72)
    clock.at(hours=10)
    assert send(factory, host, table, 0, f"play {hand(factory, table, 0)[0]}").status == "applied"
    clock.at(hours=72)
    assert run_clocks(factory, host).timeouts == 1
    assert log_kinds(factory, table)[-1] == ("timeout", 1)


def test_timeout_policy_pause_tells_the_operator_and_stops_the_game(
        factory: SessionFactory) -> None:
    clock = FakeClock()
    host = clocked_host(clock)
    table = new_game(factory, host, deadline_hours=48, timeout_policy="pause")
    assert send(factory, host, table, 0, f"play {hand(factory, table, 0)[0]}").status == "applied"
    before = last_id(factory)
    clock.at(hours=48)
    report = run_clocks(factory, host)
    assert report.paused == [table.tag] and report.timeouts == 0
    assert game_row(factory, table.game_id)[0] == "paused"
    sent = outbound(factory, before)
    op = [m for m in sent if m.to == OPERATOR]
    assert len(op) == 1 and op[0].kind == "operator"
    assert (f"Game [{table.tag}] (Test Cards) was paused at 2026-11-25 12:00 UTC: Bob sent no "
            "orders by the deadline." in flat(op[0].text))
    assert f"pbem game resume {table.tag}" in op[0].text
    for m in sent:
        if m.to != OPERATOR:
            assert (f"Game [{table.tag}] is paused: Bob sent no orders by the deadline."
                    in flat(m.text))
    assert {m.to for m in sent} == {OPERATOR, ALICE, BOB}
    # Paused: later passes do nothing, and orders are refused.
    clock.at(hours=500)
    assert run_clocks(factory, host).paused == []
    assert len(outbound(factory, before)) == 3
    result = send(factory, host, table, 1, f"play {hand(factory, table, 1)[0]}")
    assert (result.status, result.reason) == ("rejected", "game paused")
    assert (f"Game [{table.tag}] is paused by its host, so your orders were not played."
            in outbound(factory, before)[-1].text)


def test_reminder_once_per_wait_to_the_seats_waited_for(factory: SessionFactory) -> None:
    clock = FakeClock()
    host = clocked_host(clock)
    table = new_game(factory, host, deadline_hours=72, reminder_hours=24)
    clock.at(hours=47)
    assert run_clocks(factory, host).reminders == 0
    assert send(factory, host, table, 0, f"play {hand(factory, table, 0)[0]}").status == "applied"
    before = last_id(factory)
    clock.at(hours=48)
    assert run_clocks(factory, host).reminders == 1  # Alice has played: only Bob is waited for
    (reminder,) = outbound(factory, before)
    assert reminder.to == BOB and reminder.kind == "reminder"
    assert (f"Reminder: your orders for [{table.tag}] are due by 2026-11-26 12:00 UTC (in about "
            "24 hours). If none arrive by then, the game plays its default order for you."
            in flat(reminder.text))
    clock.at(hours=60)
    assert run_clocks(factory, host).reminders == 0  # once per wait
    # The round ends; the next wait gets its own reminder 48 hours after it began.
    assert send(factory, host, table, 1, f"play {hand(factory, table, 1)[0]}").status == "applied"
    clock.at(hours=60 + 47)
    assert run_clocks(factory, host).reminders == 0
    clock.at(hours=60 + 48)
    assert run_clocks(factory, host).reminders == 2


def test_no_deadline_no_clock(factory: SessionFactory) -> None:
    clock = FakeClock()
    host = clocked_host(clock)
    table = new_game(factory, host)
    clock.at(days=365)
    report = run_clocks(factory, host)
    assert (report.reminders, report.timeouts, report.paused) == (0, 0, [])
    assert log_kinds(factory, table) == [("setup", None)]


def test_status_mail_shows_deadlines(factory: SessionFactory) -> None:
    clock = FakeClock()
    host = clocked_host(clock)
    table = new_game(factory, host, deadline_hours=72)
    clock.at(hours=1)
    assert send(factory, host, table, 0, f"play {hand(factory, table, 0)[0]}").status == "applied"
    alice, bob = (flat(m.text) for m in outbound(factory))
    assert "Waiting for: Bob (until 2026-11-26 12:00 UTC)." in alice
    assert "It is your turn. Your orders are due by 2026-11-26 12:00 UTC." in bob


def test_a_default_order_the_game_rejects_pauses_the_game(
        factory: SessionFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FakeClock()
    host = clocked_host(clock)
    table = new_game(factory, host, deadline_hours=24)
    monkeypatch.setattr(GAME, "default_order", lambda state, seat: "play 99")
    clock.at(hours=24)
    report = run_clocks(factory, host)
    assert report.paused == [table.tag] and report.timeouts == 0
    assert game_row(factory, table.game_id)[0] == "paused"
    assert log_kinds(factory, table) == [("setup", None)]
    (op,) = [m for m in outbound(factory) if m.to == OPERATOR]
    assert "the game's default order failed: you have no card 99" in flat(op.text)


def test_timeout_end_to_end_through_maildir(factory: SessionFactory, tmp_path: Path) -> None:
    """Alice's order arrives by Maildir; a pass three days later plays for Bob and mails it."""
    from pbem.mail.inbound import MaildirInbox
    from pbem.mail.outbound import MaildirSender

    clock = FakeClock()
    host = clocked_host(clock)
    table = new_game(factory, host, deadline_hours=72, reminder_hours=24)
    box = mailbox.Maildir(tmp_path / "in", create=True)
    box.add(mail(ALICE, f"[{table.tag}]", f"play {hand(factory, table, 0)[0]}\n"
                                          f"secret {table.secrets[0]}"))
    bob_low = min(hand(factory, table, 1))
    outdir = tmp_path / "out"
    first = api.process_inbox(factory, MaildirInbox(tmp_path / "in"), MaildirSender(outdir), host)
    assert [r.status for r in first.results] == ["applied"]
    assert first.delivery.sent == 2
    clock.at(hours=50)
    second = api.process_inbox(factory, MaildirInbox(tmp_path / "in"), MaildirSender(outdir),
                               host)
    assert second.clocks.reminders == 1 and second.delivery.sent == 1
    clock.at(hours=72)
    third = api.process_inbox(factory, MaildirInbox(tmp_path / "in"), MaildirSender(outdir), host)
    assert third.clocks.timeouts == 1 and third.delivery.sent == 2
    texts: dict[str, list[str]] = {}
    for msg in mailbox.Maildir(outdir, create=False):
        # the plain text, wherever it stands (a "your move" mail also carries its deadline)
        part = next(p for p in msg.walk() if p.get_content_type() == "text/plain")
        assert isinstance(part, Message)
        body = part.get_payload(decode=True)
        assert isinstance(body, bytes)
        texts.setdefault(str(msg["To"]), []).append(flat(body.decode()))
    bob_mails = next(v for k, v in texts.items() if BOB in k)
    assert any(f"Your deadline passed, so the game played for you: play {bob_low}" in t
               for t in bob_mails)
    assert any("Reminder: your orders" in t for t in bob_mails)


def test_game_new_takes_clock_options_and_config_defaults(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from pbem.cli import app

    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    runner = CliRunner()
    assert runner.invoke(app, ["init"]).exit_code == 0
    seats = ["--seat", f"Alice <{ALICE}>", "--seat", f"Bob <{BOB}>"]
    made = runner.invoke(app, ["game", "new", "testcards", *seats, "--deadline-hours", "48",
                               "--reminder-hours", "12", "--timeout", "pause",
                               "--vacation-days", "3"])
    assert made.exit_code == 0, made.output
    made = runner.invoke(app, ["game", "new", "testcards", *seats])  # config defaults
    assert made.exit_code == 0, made.output
    made = runner.invoke(app, ["game", "new", "testcards", *seats, "--deadline-hours", "0"])
    assert made.exit_code == 0, made.output
    bad = runner.invoke(app, ["game", "new", "testcards", *seats, "--timeout", "later"])
    assert bad.exit_code == 1
    assert "timeout policy must be one of default, pause, bot, not 'later'" in bad.output
    bad = runner.invoke(app, ["game", "new", "testcards", *seats, "--deadline-hours", "10",
                              "--reminder-hours", "10"])
    assert bad.exit_code == 1
    assert "reminder hours must be positive and less than the deadline hours" in bad.output
    factory = api.connect(f"sqlite:///{tmp_path / 'data' / 'pbem.sqlite'}")
    with factory() as s:
        games = [(g.deadline_hours, g.reminder_hours, g.timeout_policy, g.vacation_days)
                 for g in api.list_games(s)]
    assert games == [(48, 12, "pause", 3), (72, 24, "default", 14), (None, None, "default", 14)]


def test_config_reads_the_operator_and_clock_defaults(tmp_path: Path) -> None:
    from pbem.settings.config import ConfigError, load

    path = tmp_path / "pbem.toml"
    path.write_text('[mail]\noperator_address = "op@example.org"\n'
                    '[deadlines]\nturn_hours = 24\nreminder_hours = 6\ntimeout = "pause"\n'
                    'vacation_days = 7\n')
    cfg = load(path)
    assert cfg.mail.operator_address == "op@example.org"
    assert (cfg.deadlines.turn_hours, cfg.deadlines.reminder_hours, cfg.deadlines.timeout,
            cfg.deadlines.vacation_days) == (24, 6, "pause", 7)
    path.write_text('[deadlines]\ntimeout = "never"\n')
    with pytest.raises(ConfigError, match=r"deadlines\.timeout must be one of default, "
                                          r"pause, bot, not 'never'"):
        load(path)


def test_one_broken_game_does_not_stop_the_other_clocks(factory: SessionFactory) -> None:
    from sqlmodel import select

    from pbem.store.tables import Snapshot

    clock = FakeClock()
    host = clocked_host(clock)
    broken = new_game(factory, host, deadline_hours=24)
    fine = new_game(factory, host, deadline_hours=24)
    with factory() as s:
        snap = s.exec(select(Snapshot).where(Snapshot.game_id == broken.game_id)).one()
        snap.state_json = "{}"  # a damaged snapshot: the game cannot be read
        s.add(snap)
        s.commit()
    clock.at(hours=24)
    report = run_clocks(factory, host)
    assert (report.errors, report.timeouts) == (1, 2)
    assert "1 failed (see the log)" in report.summary()
    assert log_kinds(factory, fine)[-2:] == [("timeout", 0), ("timeout", 1)]


def due_at(factory: SessionFactory, game_id: int) -> object:
    with factory() as s:
        return api.get_game(s, game_id).clock_due_at


def test_a_pass_looks_only_at_games_whose_clock_is_due_and_any_change_brings_it_back(
        factory: SessionFactory) -> None:
    """clock_due_at: after a pass, a game is left alone until its reminder or deadline, or
    until it changes (a vacation, a seat's setting), which makes the next pass look again;
    an order records the game's next event itself, in its own transaction."""
    from pbem.pipeline import clock as clock_module
    from pbem.pipeline.deadlines import aware
    from pbem.store.tables import CLOCK_CHECK_NOW

    clock = FakeClock()
    host = clocked_host(clock)
    table = new_game(factory, host, deadline_hours=72, reminder_hours=24)
    run_clocks(factory, host)
    due = due_at(factory, table.game_id)
    assert due is not None and due != CLOCK_CHECK_NOW  # the reminder, 48 hours in
    ticked: list[int] = []
    real_tick = clock_module.tick

    def counting(session, host_, game_id, now, report, budget=None):  # type: ignore[no-untyped-def]
        ticked.append(game_id)
        return real_tick(session, host_, game_id, now, report, budget)

    clock_module.tick = counting
    try:
        clock.at(hours=47)
        assert run_clocks(factory, host).reminders == 0 and ticked == []
        assert send(factory, host, table, 0, f"play {hand(factory, table, 0)[0]}").status \
            == "applied"
        # The move recorded the game's next clock event itself (Bob's reminder, still 48
        # hours in): the pass finds nothing to look at until then.
        assert aware(due_at(factory, table.game_id)) == aware(due)  # type: ignore[arg-type]
        run_clocks(factory, host)
        assert ticked == []
        clock.at(hours=48)
        assert run_clocks(factory, host).reminders == 1  # Bob's reminder, due on time
        assert ticked == [table.game_id]
        with factory() as s:  # any other change (here a seat's) has the next pass look again
            bob = queries.seats(s, table.game_id)[1]
            bob.mail_mode = "turn"
            s.add(bob)
            s.commit()
        assert aware(due_at(factory, table.game_id)) == CLOCK_CHECK_NOW  # type: ignore[arg-type]
        run_clocks(factory, host)
        assert ticked == [table.game_id, table.game_id]
    finally:
        clock_module.tick = real_tick


def test_an_order_reads_its_seats_after_the_lock_so_its_clock_sees_a_concurrent_drop(
        factory: SessionFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """One address holds both seats (as games from before addresses were distinct may). While
    its order waits for the game's lock, another worker (the operator) drops the other seat
    and commits. The order must see the drop: a seat read before the lock kept "active", so
    the move neither played for the dropped seat nor left its clock to the next pass (which
    the order's own clock_due_at now replaces; no deadline: the game waited forever)."""
    from sqlalchemy import update
    from sqlmodel import col

    from pbem.store.tables import CLOCK_CHECK_NOW, Game, Seat

    clock = FakeClock()
    host = clocked_host(clock)
    with factory() as s:
        game, secrets = api.create_game(s, "testcards", [("Alice", ALICE), ("Bob", BOB)],
                                        seed="fixed-seed", now=clock())
        s.commit()
        assert game.id is not None
        game_id, tag = game.id, game.tag
        bob = queries.seats(s, game_id)[1]
        bob.address = ALICE
        s.add(bob)
        s.commit()
    real_lock = queries.game_by_tag  # a tagged mail's game is found and locked at once
    dropped: list[int] = []

    def dropped_meanwhile(session, wanted, *, lock=False):  # type: ignore[no-untyped-def]
        if lock and not dropped:  # what the operator's transaction commits just before it
            dropped.append(game_id)
            conn = session.connection()
            conn.execute(update(Seat).where(col(Seat.game_id) == game_id, col(Seat.index) == 1)
                         .values(status="dropped"))
            conn.execute(update(Game).where(col(Game.id) == game_id)
                         .values(clock_due_at=CLOCK_CHECK_NOW))
        return real_lock(session, wanted, lock=lock)

    monkeypatch.setattr(queries, "game_by_tag", dropped_meanwhile)
    with factory() as s:
        card = sorted(api.current_state(s, api.get_game(s, game_id)).hands[0])[0]
    body = f"play {card}\nsecret {secrets[0]}"
    result = process_raw(factory, mail(ALICE, f"[{tag}]", body), host)
    assert result.status == "applied", result.reason
    assert dropped == [game_id]
    monkeypatch.setattr(queries, "game_by_tag", real_lock)
    run_clocks(factory, host)
    with factory() as s:
        kinds = [(e.kind, e.seat) for e in queries.log(s, game_id)]
    assert ("timeout", 1) in kinds, kinds  # the dropped seat was played for
