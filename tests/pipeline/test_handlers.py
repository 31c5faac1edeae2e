"""Each handler of the mail pipeline alone: given a mail (real bytes, a real database), it
decides the mail or hands it on, as ``pbem.pipeline.chain`` lists them."""

from __future__ import annotations

import email
from collections.abc import Iterator
from email import policy
from email.message import EmailMessage, Message
from pathlib import Path

import pytest
from sqlmodel import Session, col, select

from pbem.mail.reading import read_message
from pbem.pipeline import chain, command_registry
from pbem.pipeline.commands.base import Scope
from pbem.pipeline.context import MailContext, Result
from pbem.pipeline.handlers import (
    authenticate,
    automatic,
    body,
    bounce,
    command,
    game,
    help,
    orders,
    ready,
    say,
    sender,
    status,
    unreadable,
    verified,
)
from pbem.pipeline.letter import read_letter
from pbem.pipeline.one_mail import process_raw
from pbem.settings.config import Limits, MailConfig
from pbem.settings.host import Host
from pbem.store import InboundMessage, OutboundMessage, Seat, SessionFactory
from pbem.store.tables import LogEntry
from tests.pipeline.clocked import flat
from tests.pipeline.conftest import ALICE, BOB, Table
from tests.support.playermail import mail

EML = Path(__file__).resolve().parent.parent / "fixtures" / "eml"
# The handlers before each one, in the chain's order: what they note, the next one reads.
BEFORE_GAME = (bounce.handle, automatic.handle, unreadable.handle, body.handle)
BEFORE_SENDER = (*BEFORE_GAME, game.handle)
BEFORE_AUTH = (*BEFORE_SENDER, sender.handle)
BEFORE_PLAY = (*BEFORE_AUTH, authenticate.handle)


@pytest.fixture
def session(factory: SessionFactory) -> Iterator[Session]:
    with factory() as s:
        yield s


def context(s: Session, host: Host, raw: bytes) -> MailContext:
    read = read_message(raw, max_bytes=host.limits.max_message_bytes)
    row = InboundMessage(message_id=read.message_id, from_addr=read.from_addr)
    s.add(row)
    s.flush()
    return MailContext(s, host, read, row, read.message_id, raw=raw)


def after(ctx: MailContext, *steps: chain.Handler) -> MailContext:
    """``ctx`` once ``steps`` handed it on (each must)."""
    for step in steps:
        assert step(ctx) is None, step.__module__
    return ctx


def order(table: Table, seat: int, text: str, frm: str | None = None) -> bytes:
    return mail(frm or (ALICE, BOB)[seat], f"Re: [{table.tag}] move",
                f"{text}\nsecret {table.secrets[seat]}")


def sent(s: Session) -> list[tuple[str, str]]:
    """(to, text with its wrapping undone) of every mail queued so far."""
    s.flush()
    out = []
    for row in s.exec(select(OutboundMessage).order_by(col(OutboundMessage.id))).all():
        parsed = email.message_from_bytes(row.raw, policy=policy.default)
        assert isinstance(parsed, EmailMessage)
        text = parsed.get_body(("plain",))
        assert text is not None
        out.append((row.to_addr, flat(str(text.get_content()))))
    return out


def test_the_chain_lists_every_handler_once_and_ends_with_the_orders() -> None:
    modules = [h.__module__.rsplit(".", 1)[1] for h in chain.CHAIN]
    assert len(set(modules)) == len(modules) == 19
    # what is set aside is known once the seat is proved, and before talk or orders are read
    assert modules.index("aside") == modules.index("authenticate") + 1 < modules.index("say")
    # a banned sender is never answered: not even a note on an unreadable mail
    assert modules[:4] == ["bounce", "banned", "automatic", "unreadable"]
    assert modules[-1] == "orders"


def test_bounce_decides_a_delivery_report_only(session: Session, host: Host,
                                               table: Table) -> None:
    report = (EML / "dsn-seat-bounces.eml").read_bytes()
    result = bounce.handle(context(session, host, report))
    assert result is not None and result.status == "ignored" and "bob@players.test" in \
        result.reason
    assert bounce.handle(context(session, host, order(table, 0, "play 1"))) is None


def test_automatic_mail_is_kept_and_never_answered(session: Session, host: Host) -> None:
    raw = mail(ALICE, "Out of office", "back monday", headers={"Auto-Submitted": "auto-replied"})
    result = automatic.handle(context(session, host, raw))
    assert result is not None and (result.status, result.reason, result.rows) == (
        "ignored", "automatic mail (Auto-Submitted: auto-replied); never answered", [])
    assert automatic.handle(context(session, host, mail(ALICE, "hi", "play 1"))) is None


def test_unreadable_answers_a_mail_too_large(session: Session, table: Table) -> None:
    small = Host(mail=MailConfig(from_address="games@host.test"),
                 limits=Limits(max_message_bytes=2000))
    result = unreadable.handle(context(session, small, order(table, 0, "x" * 3000)))
    assert result is not None and (result.status, result.reason) == ("rejected", "too large")
    ((to, text),) = sent(session)
    assert to == ALICE and "larger than 2000 bytes" in text
    assert unreadable.handle(context(session, small, order(table, 0, "play 1"))) is None


def test_body_reads_the_letter_and_its_secret(session: Session, host: Host,
                                              table: Table) -> None:
    ctx = after(context(session, host, order(table, 0, "waiting")), body.handle)
    assert ctx.letter == read_letter(f"waiting\nsecret {table.secrets[0]}")
    assert (ctx.letter.command, ctx.secret) == ("waiting", table.secrets[0])


def test_game_names_the_game_or_answers_that_it_cannot(session: Session, host: Host,
                                                       table: Table) -> None:
    ctx = after(context(session, host, order(table, 0, "play 1")), *BEFORE_GAME, game.handle)
    assert ctx.game is not None and (ctx.game.tag, ctx.game_id) == (table.tag, table.game_id)
    lost = after(context(session, host, mail("nobody@players.test", "hello", "play 1")),
                 *BEFORE_GAME)
    result = game.handle(lost)
    assert result is not None and result.reason == "no game identified" and lost.game is None
    # A player who forgot the tag: the one game they play in, and a reminder of its tag.
    tagless = after(context(session, host, mail(ALICE, "hello", "play 1")), *BEFORE_GAME,
                    game.handle)
    assert tagless.game is not None and tagless.game.tag == table.tag
    assert [str(r) for r in tagless.reminders] == [
        f"Your mail's subject named no game, so it was read for [{table.tag}], the one game "
        f"you play in. Next time reply to the game's mails, or keep [{table.tag}] in the "
        "subject."]


def test_sender_needs_a_seat_in_the_game(session: Session, host: Host, table: Table) -> None:
    ctx = after(context(session, host, order(table, 0, "play 1")), *BEFORE_SENDER,
                sender.handle)
    assert [s.address for s in ctx.candidates] == [ALICE] and ctx.known_rules.name == "testcards"
    stranger = after(context(session, host, order(table, 0, "play 1", frm="eve@x.test")),
                     *BEFORE_SENDER)
    result = sender.handle(stranger)
    assert result is not None and (result.status, result.reason) == ("rejected",
                                                                      "unknown sender")


def test_help_is_answered_without_a_secret(session: Session, host: Host, table: Table) -> None:
    raw = mail(ALICE, f"[{table.tag}]", "help")
    result = help.handle(after(context(session, host, raw), *BEFORE_AUTH))
    assert result is not None and (result.status, result.reason) == ("ignored", "help")
    ((to, text),) = sent(session)
    assert to == ALICE and "Help for Test Cards" in text and "play N" in text
    assert help.handle(after(context(session, host, order(table, 0, "play 1")),
                             *BEFORE_AUTH)) is None


def test_verified_refuses_a_sender_the_trusted_server_does_not_vouch_for(
        session: Session, table: Table) -> None:
    strict = Host(mail=MailConfig(from_address="games@host.test",
                                  trusted_authserv_id="mx.host.test"))
    result = verified.handle(after(context(session, strict, order(table, 0, "play 1")),
                                   *BEFORE_AUTH))
    assert result is not None and result.status == "rejected"
    assert result.reason.startswith("sender not verified: ")
    lax = Host(mail=MailConfig(from_address="games@host.test"))
    assert verified.handle(after(context(session, lax, order(table, 0, "play 1")),
                                 *BEFORE_AUTH)) is None


def test_authenticate_proves_the_seat_by_its_secret(session: Session, host: Host,
                                                    table: Table) -> None:
    ctx = after(context(session, host, order(table, 1, "play 1")), *BEFORE_AUTH,
                authenticate.handle)
    assert ctx.seat is not None and (ctx.seat.index, ctx.verified, ctx.seat_index) == (1, 1, 1)
    assert ctx.state is not None and len(ctx.state.hands) == 2
    wrong = mail(ALICE, f"Re: [{table.tag}]", f"play 1\nsecret {table.secrets[1]}")
    bad = after(context(session, host, wrong), *BEFORE_AUTH)
    result = authenticate.handle(bad)
    assert result is not None and result.reason == "wrong secret" and bad.verified is None
    bare = after(context(session, host, mail(ALICE, f"[{table.tag}]", "play 1")),
                 *BEFORE_AUTH)
    result = authenticate.handle(bare)
    assert result is not None and result.reason == "no secret"


def test_say_alone_is_answered_and_beside_orders_hands_on(session: Session, host: Host,
                                                          table: Table) -> None:
    talk = after(context(session, host, order(table, 0, "say good luck")), *BEFORE_PLAY)
    result = say.handle(talk)
    assert result is not None and (result.status, result.reason) == ("applied", "talk")
    assert talk.said.sent and [m.text for m in talk.said.messages] == ["good luck"]
    both = after(context(session, host, order(table, 0, "say hi\nplay 1")), *BEFORE_PLAY)
    assert say.handle(both) is None and both.said.sent


def test_status_sends_the_status_again(session: Session, host: Host, table: Table) -> None:
    result = status.handle(after(context(session, host, order(table, 0, "status")),
                                 *BEFORE_PLAY))
    assert result is not None and (result.status, result.reason) == ("ignored", "status")
    ((to, text),) = sent(session)
    assert to == ALICE and "Your status, as you asked." in text
    assert status.handle(after(context(session, host, order(table, 0, "play 1")),
                               *BEFORE_PLAY)) is None


def test_command_runs_each_command_the_letter_reads(session: Session, host: Host,
                                                   table: Table) -> None:
    # Every command the letter reader yields has a handler: the chain's, or the registry's.
    read = {read_letter(line).command for line in (
        "help", "check", "status", "log", "waiting", "resign", "back", "vacation off",
        "mail turn", "language fr", "timezone UTC", "secret new", "name Ann", "standings x",
        "forget", "history", "calendar off")}
    assert read == {"help", "check", "status"} | {
        c.word for c in command_registry.in_scope(Scope.SEAT)}
    result = command.handle(after(context(session, host, order(table, 0, "timezone UTC")),
                                  *BEFORE_PLAY))
    assert result is not None and (result.status, result.reason) == ("applied", "timezone UTC")
    ((to, text),) = sent(session)
    assert to == ALICE and "now in the time zone UTC" in text
    long = after(context(session, host, order(table, 0, "timezone " + "x" * 65)),
                 *BEFORE_PLAY)
    result = command.handle(long)
    assert result is not None and result.reason == "timezone: argument too long"
    assert command.handle(after(context(session, host, order(table, 0, "play 1")),
                                *BEFORE_PLAY)) is None


def test_ready_refuses_orders_out_of_turn_or_from_a_resigned_seat(
        session: Session, host: Host, table: Table) -> None:
    assert ready.handle(after(context(session, host, order(table, 0, "play 1")),
                              *BEFORE_PLAY)) is None
    empty = after(context(session, host, order(table, 0, "")), *BEFORE_PLAY)
    result = ready.handle(empty)
    assert result is not None and result.reason == "no orders"
    seat = session.exec(select(Seat).where(Seat.address == BOB)).one()
    seat.status = "resigned"
    session.add(seat)
    result = ready.handle(after(context(session, host, order(table, 1, "play 1")),
                                *BEFORE_PLAY))
    assert result is not None and result.reason == "seat resigned"


def test_orders_plays_a_legal_order_and_explains_a_refused_one(
        session: Session, host: Host, table: Table) -> None:
    ctx = after(context(session, host, order(table, 0, "play 99")), *BEFORE_PLAY, ready.handle)
    result = orders.handle(ctx)
    assert result is not None and result.status == "rejected"
    assert "Your orders were NOT played; nothing changed." in sent(session)[-1][1]
    card = after(context(session, host, order(table, 0, "status")), *BEFORE_PLAY).state.hands[0][0]
    ctx = after(context(session, host, order(table, 0, f"play {card}")), *BEFORE_PLAY,
                ready.handle)
    result = orders.handle(ctx)
    assert result is not None and result.status == "applied"
    entries = session.exec(select(LogEntry).where(LogEntry.kind == "order")).all()
    assert [(e.seat, e.text) for e in entries] == [(0, f"play {card}")]


def test_a_mail_is_parsed_once_on_its_way(factory: SessionFactory, host: Host, table: Table,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    parse = email.message_from_bytes

    def counted(raw: bytes, *a: object, **k: object) -> Message:
        calls.append(len(raw))
        return parse(raw, *a, **k)

    monkeypatch.setattr("pbem.mail.reading.message_from_bytes", counted)
    monkeypatch.setattr("pbem.mail.redact.message_from_bytes", counted)
    raw = order(table, 0, "say hello")  # its secret line is blanked when it is stored
    result: Result = process_raw(factory, raw, host)
    assert result.status == "applied" and calls == [len(raw)]
    with factory() as s:
        row = s.get(InboundMessage, result.inbound_id)
        assert row is not None and table.secrets[0].encode() not in row.raw
        assert b"secret [secret-removed]" in row.raw
