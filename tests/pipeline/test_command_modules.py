"""Each mail command alone: given the proved seat and its game (``commands.base.Context``) and
the rest of its line, what it changes and the reply it gives. Through the mail they are
tested in test_commands, test_vacation and test_mail_settings."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import timedelta

import pytest
from sqlmodel import Session, select

from pbem.engine import registry
from pbem.pipeline.commands import (
    language,
    log,
    mail_setting,
    resign,
    secret,
    timezone,
    vacation,
    waiting,
)
from pbem.pipeline.commands.base import Context, Reply
from pbem.pipeline.seat_secrets import check_secret
from pbem.settings.host import Host
from pbem.store import SessionFactory, queries
from pbem.store.tables import Game, LogEntry, Seat
from tests.pipeline.clocked import FakeClock, clocked_host, flat
from tests.pipeline.conftest import ALICE, Table


@pytest.fixture
def session(factory: SessionFactory) -> Iterator[Session]:
    with factory() as s:
        yield s


def context(s: Session, host: Host, table: Table, address: str = ALICE) -> Context:
    game = s.get(Game, table.game_id)
    assert game is not None
    seat = s.exec(select(Seat).where(Seat.address == address)).one()
    rules = registry.get(game.game_type)
    state = rules.from_json(json.loads(queries.latest_snapshot(s, table.game_id).state_json))
    return Context.for_seat(s, host, rules, game, state, seat)


def said(reply: Reply, ctx: Context) -> str:
    return flat(" ".join(line if isinstance(line, str) else ctx.tr(line)
                         for line in reply.lines))


def test_log_shows_nothing_before_any_move_and_refuses_a_bad_count(
        session: Session, host: Host, table: Table) -> None:
    ctx = context(session, host, table)
    reply = log.run(ctx, "")
    assert (reply.status, said(reply, ctx)) == (
        "ignored", f"Nothing has been played in [{table.tag}] yet.")
    assert log.run(ctx, str(log.LOG_MAX + 1)).reason == "bad log count"


def test_waiting_names_both_seats_at_the_start(session: Session, table: Table) -> None:
    ctx = context(session, clocked_host(FakeClock()), table)
    reply = waiting.run(ctx, "")
    assert reply.status == "ignored" and "Alice" in said(reply, ctx) and "Bob" in said(reply, ctx)
    assert "That includes you: send your orders." in said(reply, ctx)


def test_vacation_pauses_the_seat_and_tells_the_other(session: Session, table: Table) -> None:
    clock = FakeClock()
    ctx = context(session, clocked_host(clock), table)
    until = (clock.now.date() + timedelta(days=3)).isoformat()
    reply = vacation.run(ctx, f"until {until}")
    assert (reply.status, reply.reason, ctx.seat.vacation_days_used) == ("applied", "vacation", 3)
    assert [q.to_addr for q in reply.queued] == ["bob@players.test"]
    assert vacation.run(ctx, "until someday").reason == "bad vacation date"


def test_resign_leaves_the_seat_and_logs_it(session: Session, host: Host,
                                            table: Table) -> None:
    ctx = context(session, host, table)
    reply = resign.run(ctx, "")
    assert (reply.status, ctx.seat.status) == ("applied", "resigned")
    session.flush()
    texts = [e.text for e in session.exec(select(LogEntry)).all()]
    # Logged, then the seat's turn played for it by the host (it was due).
    assert texts[-2:] == ["resign seat 1: Alice", f"play {min(ctx.state.hands[0])}"]
    assert resign.run(ctx, "").reason == "seat resigned"


def test_secret_new_replaces_the_secret(session: Session, host: Host, table: Table) -> None:
    ctx = context(session, host, table)
    reply = secret.run(ctx, "new")
    assert reply.status == "applied" and reply.secret is not None
    assert check_secret(reply.secret, ctx.seat.secret_salt, ctx.seat.secret_hash)
    assert not check_secret(table.secrets[0], ctx.seat.secret_salt, ctx.seat.secret_hash)


def test_mail_setting_takes_the_known_modes_only(session: Session, host: Host,
                                                table: Table) -> None:
    ctx = context(session, host, table)
    assert mail_setting.run(ctx, "turn").reason == "mail turn" and ctx.seat.mail_mode == "turn"
    assert mail_setting.run(ctx, "sometimes").reason == "bad mail setting"
    assert ctx.seat.mail_mode == "turn"


def test_language_switches_the_seat_and_answers_in_the_new_language(
        session: Session, host: Host, table: Table) -> None:
    ctx = context(session, host, table)
    reply = language.run(ctx, "fr")
    assert (reply.reason, ctx.seat.language) == ("language fr", "fr")
    assert "français" in said(reply, ctx)
    assert language.run(ctx, "klingon").reason == "bad language" and ctx.seat.language == "fr"


def test_timezone_takes_an_iana_name(session: Session, host: Host, table: Table) -> None:
    ctx = context(session, host, table)
    assert timezone.run(ctx, "Europe/Paris").reason == "timezone Europe/Paris"
    assert ctx.seat.timezone == "Europe/Paris"
    assert timezone.run(ctx, "Mars/Olympus").reason == "bad time zone"
    assert ctx.seat.timezone == "Europe/Paris"
