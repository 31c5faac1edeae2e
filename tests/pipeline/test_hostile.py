"""Hostile mail, case by case: one hostile mail never stops the host, and no valid order is
lost to a fault. Each test reproduces a finding through the real pipeline (real SMTP server,
real database on each backend)."""

from __future__ import annotations

import dataclasses
import email
import mailbox
import random
import string
import time
from collections.abc import Callable
from email import policy
from pathlib import Path

import pytest
from sqlmodel import col, select
from typer.testing import CliRunner

from pbem.mail.compose import compose
from pbem.mail.inbound import MaildirInbox
from pbem.mail.outbound import MaildirSender, SmtpSender
from pbem.mail.redact import redact
from pbem.ops import api, overview
from pbem.outbox.delivery import deliver_outbox
from pbem.pipeline import outgoing as mails
from pbem.pipeline.one_mail import process_raw, reprocess
from pbem.pipeline.quarantine import quarantine
from pbem.pipeline.stored import message_key
from pbem.settings.config import Limits, MailConfig
from pbem.settings.host import Host
from pbem.store import (
    InboundMessage,
    LogEntry,
    OutboundMessage,
    Seat,
    SessionFactory,
    init,
    session_factory,
)
from tests.pipeline.conftest import ALICE, BOB, Table, hand
from tests.support import corpus
from tests.support.dbfaults import KINDS, DbFaults
from tests.support.mailservers import SmtpTestServer
from tests.support.playermail import mail

LONG_LOCAL = "x" * 250 + "@evil.test"
# 3,000 characters that do not compress: PostgreSQL compresses index entries, so a run of one
# letter would fit its ~2,700-byte btree row limit
LONG_ID = "".join(random.Random(10).choice(string.ascii_letters + string.digits)
                  for _ in range(3000))


def outbound(factory: SessionFactory) -> list[OutboundMessage]:
    with factory() as s:
        return list(s.exec(select(OutboundMessage).order_by(col(OutboundMessage.id))))


def inbound(factory: SessionFactory) -> list[InboundMessage]:
    with factory() as s:
        return list(s.exec(select(InboundMessage).order_by(col(InboundMessage.id))))


def orders(factory: SessionFactory) -> list[LogEntry]:
    with factory() as s:
        return list(s.exec(select(LogEntry).where(LogEntry.kind == "order")))


def text_of(row: OutboundMessage) -> str:
    msg = email.message_from_bytes(row.raw, policy=policy.default)
    return row.raw.decode("utf-8", "replace") + str(msg["Subject"])


# -- 1. a stranger wedges all outgoing mail ----------------------------------------------------

def test_a_mail_the_sender_cannot_send_fails_alone_and_the_queue_goes_on(
        factory: SessionFactory, host: Host,
        make_smtp_server: Callable[..., SmtpTestServer]) -> None:
    smtp = make_smtp_server(auth=False)
    with factory() as s:  # a note queued before addresses were checked, then two welcomes
        s.add(OutboundMessage(to_addr=LONG_LOCAL, kind="stranger", raw=compose(
            from_addr=host.mail.from_address, to_addr=LONG_LOCAL, subject="note",
            text="hello").raw))
        api.create_game(s, "testcards", [("Alice", ALICE), ("Bob", BOB)], host=host)
        s.commit()
    done = deliver_outbox(factory, SmtpSender(smtp.settings), host)
    assert (done.sent, done.retrying, done.failed) == (2, 0, 1)
    bad, *good = outbound(factory)
    assert bad.status == "failed" and bad.last_error.startswith("cannot be sent: ")
    assert {r.status for r in good} == {"sent"}
    assert sorted(r.rcpt_tos for r in smtp.received) == [[ALICE], [BOB]]
    assert deliver_outbox(factory, SmtpSender(smtp.settings), host).failed == 0  # stays put


def test_a_note_to_an_address_we_cannot_parse_is_never_queued(
        factory: SessionFactory, host: Host, table: Table) -> None:
    result = process_raw(factory, mail(LONG_LOCAL, f"[{table.tag}]", "play 1"), host)
    assert (result.status, result.reason) == (
        "rejected", "unknown sender; no answer: the sender's address is not deliverable")
    assert outbound(factory) == []


# -- 2. a stranger wedges the inbox (a Message-ID too long for an index row) --------------------

def test_a_3000_character_message_id_is_kept_under_a_digest(
        factory: SessionFactory, host: Host, table: Table) -> None:
    card = hand(factory, table, 0)[0]
    raw = mail(ALICE, f"[{table.tag}]", f"play {card}\nsecret {table.secrets[0]}",
               message_id=f"<{LONG_ID}@players.test>")
    assert process_raw(factory, raw, host).status == "applied"
    assert process_raw(factory, raw, host).status == "duplicate"  # still exactly once
    (row,) = inbound(factory)
    assert row.message_id.startswith("<sha256-") and len(row.message_id) < 120
    assert row.raw == redact(raw) and len(orders(factory)) == 1  # kept, its secret blanked


def test_quarantine_cannot_fail_on_the_messages_content(
        factory: SessionFactory, host: Host) -> None:
    raw = corpus.load("long-message-id.eml")
    result = quarantine(factory, raw, "a reason with a NUL \x00 and a \udc80 surrogate", None)
    assert result.status == "quarantined"
    (row,) = inbound(factory)
    assert row.raw == redact(raw) and "\x00" not in row.reason


# -- 3. temporary faults quarantined valid orders -----------------------------------------------

@pytest.mark.parametrize("kind", KINDS)
def test_a_transient_fault_leaves_the_mail_in_the_inbox(
        kind: str, db_url: str, host: Host, tmp_path: Path) -> None:
    engine = init(db_url)
    factory = session_factory(engine)
    with factory() as s:
        game, secrets = api.create_game(s, "testcards", [("Alice", ALICE), ("Bob", BOB)],
                                        seed="fault")
        s.commit()
    card = hand(factory, Table(game.id or 0, game.tag, secrets), 0)[0]
    box = mailbox.Maildir(tmp_path / "inbox", create=True)
    box.add(mail(ALICE, f"[{game.tag}]", f"play {card}\nsecret {secrets[0]}"))
    host = dataclasses.replace(  # the count matters here
        host, limits=dataclasses.replace(host.limits, transient_backoff_ms=10))
    faults = DbFaults(engine)
    try:
        faults.next(4, kind)  # the first try and the three retries (Host default) all fail
        done = api.process_inbox(factory, MaildirInbox(tmp_path / "inbox"),
                                 MaildirSender(tmp_path / "out"), host)
        assert done.results == [] and done.fault
        assert len(box) == 1 and inbound(factory) == []  # untouched, nothing quarantined
        faults.next(2, kind)  # a passing fault: a retry gets through
        again = api.process_inbox(factory, MaildirInbox(tmp_path / "inbox"),
                                  MaildirSender(tmp_path / "out"), host)
    finally:
        faults.close()
    assert [r.status for r in again.results] == ["applied"] and not again.fault
    assert len(box) == 0 and again.delivery.sent == 2
    engine.dispose()


def test_a_persisting_fault_mails_the_operator_once(tmp_path: Path) -> None:
    from pbem.ops.alerts import FaultWatch

    host = Host(mail=MailConfig(from_address="games@host.test", operator_address="op@host.test"),
                limits=Limits(fault_alert_after=3))
    watch = FaultWatch(tmp_path / "faults.json", host)
    sender = MaildirSender(tmp_path / "out")
    sent = lambda: len(mailbox.Maildir(tmp_path / "out"))  # noqa: E731
    assert [watch.failed("OperationalError: database is locked", sender)
            for _ in range(2)] == [1, 2]
    assert sent() == 0  # two failed passes: normal life
    watch.failed("OperationalError: database is locked", sender)
    watch.failed("OperationalError: database is locked", sender)
    (alert,) = mailbox.Maildir(tmp_path / "out")
    assert alert["To"] == "op@host.test"
    assert "3 passes in a row" in alert.get_payload() and "database is locked" in str(
        alert.get_payload())
    watch.clean()
    for _ in range(3):
        watch.failed("DiskFull: could not extend file", sender)
    assert sent() == 2  # new trouble after a clean pass: told again


def test_no_database_lock_is_held_while_smtp_sends(
        factory: SessionFactory, host: Host, table: Table, tmp_path: Path) -> None:
    """A slow SMTP server: while a mail is with it, another worker applies an order."""
    with factory() as s:
        game = api.get_game(s, table.game_id)
        api.reissue_secret(s, game, 1)  # nothing to do with sending: just a queued mail below
        s.add(OutboundMessage(to_addr=BOB, kind="status", raw=compose(
            from_addr=host.mail.from_address, to_addr=BOB, subject="s", text="t").raw))
        s.commit()
    card = hand(factory, table, 0)[0]
    during: list[tuple[str, float]] = []

    class SlowSender:
        def send(self, msg: email.message.EmailMessage) -> None:
            if during:  # the mails the order itself queued
                return
            start = time.monotonic()
            raw = mail(ALICE, f"[{table.tag}]", f"play {card}\nsecret {table.secrets[0]}")
            during.append((process_raw(factory, raw, host).status, time.monotonic() - start))

    assert deliver_outbox(factory, SlowSender(), host).sent == 3  # its own, then the order's
    ((status, seconds),) = during
    assert status == "applied" and seconds < 10  # not the 30 s lock wait, not quarantined


# -- 4. a mail applied twice --------------------------------------------------------------------

def test_quarantine_never_touches_an_applied_row(
        factory: SessionFactory, host: Host, table: Table) -> None:
    card = hand(factory, table, 0)[0]
    raw = mail(ALICE, f"[{table.tag}]", f"play {card}\nsecret {table.secrets[0]}")
    applied = process_raw(factory, raw, host)
    result = quarantine(factory, raw, "a late failure elsewhere", None)
    assert (result.status, result.reason, result.inbound_id) == (
        "duplicate", "already applied", applied.inbound_id)
    (row,) = inbound(factory)
    assert (row.status, row.reason) == ("applied", "log entry 1")


def test_reprocess_goes_through_the_exactly_once_check(
        factory: SessionFactory, host: Host, table: Table) -> None:
    card = hand(factory, table, 0)[0]
    raw = mail(ALICE, f"[{table.tag}]", f"play {card}\nsecret {table.secrets[0]}",
               message_id="<once@players.test>")
    first = process_raw(factory, raw, host)
    assert first.status == "applied" and first.inbound_id is not None
    with factory() as s:  # what the old quarantine() did to an applied row
        row = s.get(InboundMessage, first.inbound_id)
        assert row is not None
        row.status = "quarantined"
        s.add(row)
        s.commit()
    again = reprocess(factory, first.inbound_id, host)
    assert (again.status, again.reason) == ("duplicate", "it is already log entry 1")
    assert len(orders(factory)) == 1
    # The same Message-ID with another body is kept apart, and reprocessing it is refused too.
    other = mail(ALICE, f"[{table.tag}]", f"play 99\nsecret {table.secrets[0]}",
                 message_id="<once@players.test>")
    conflict = process_raw(factory, other, host)
    assert (conflict.status, conflict.reason) == (
        "quarantined", f"conflicting duplicate: message {first.inbound_id} has this "
        "Message-ID with a different body")
    assert conflict.inbound_id is not None
    with factory() as s:
        kept = s.get(InboundMessage, conflict.inbound_id)
        assert kept is not None and kept.raw == redact(other)  # its secret blanked too
    refused = reprocess(factory, conflict.inbound_id, host)
    assert (refused.status, refused.reason) == (
        "duplicate", f"message {first.inbound_id} with the same Message-ID was applied")
    assert len(orders(factory)) == 1


# -- 6. the host as a spam cannon ---------------------------------------------------------------

def test_forged_help_gets_the_hourly_answers_only_and_never_its_subject(
        factory: SessionFactory, host: Host, table: Table) -> None:
    results = [process_raw(factory, mail(BOB, f"[{table.tag}] CHEAP PILLS", "help"), host)
               for _ in range(5)]
    assert [r.reason for r in results] == ["help"] * 3 + [
        "help; no answer: reply limit reached"] * 2
    notes = outbound(factory)
    assert len(notes) == 3 and {n.kind for n in notes} == {"help"}
    assert not any("CHEAP PILLS" in text_of(n) for n in notes)


def test_answers_to_unproven_mail_have_a_global_hourly_cap(
        factory: SessionFactory, table: Table) -> None:
    host = Host(mail=MailConfig(from_address="games@host.test"),
                limits=Limits(replies_per_hour_total=2))
    for n in range(5):
        process_raw(factory, mail(f"victim{n}@forged.test", f"Re: [{table.tag}] SPAM",
                                  "CHEAP PILLS"), host)
    notes = outbound(factory)
    assert [n.to_addr for n in notes] == ["victim0@forged.test", "victim1@forged.test"]
    with factory() as s:  # the unanswered ones are still listed as unmatched mail
        assert len(overview.unmatched(s)) == 5
    assert not any("CHEAP PILLS" in text_of(n) or "SPAM" in text_of(n) for n in notes)


def test_a_forger_cannot_use_up_a_players_error_replies(
        factory: SessionFactory, host: Host, table: Table) -> None:
    # A forger writes as Alice twice: naming no game, then with a wrong secret.
    process_raw(factory, mail(ALICE, "hi", "nothing"), host)
    process_raw(factory, mail(ALICE, f"[{table.tag}]", "play 1\nsecret guessed"), host)
    # Alice herself forgets her secret: she is still told.
    forgot = process_raw(factory, mail(ALICE, f"[{table.tag}]", "play 1"), host)
    assert (forgot.status, forgot.reason, len(forgot.queued)) == ("rejected", "no secret", 1)
    # Replies to her proven secret are never limited: five bad orders, five answers.
    for _ in range(5):
        bad = process_raw(factory, mail(ALICE, f"[{table.tag}]",
                                        f"play 99\nsecret {table.secrets[0]}"), host)
        assert bad.status == "rejected" and len(bad.queued) == 1


# -- 7. the smaller ones ------------------------------------------------------------------------

def test_a_bounce_marks_the_seat_tells_the_operator_and_shows_in_game_show(
        factory: SessionFactory, table: Table, db_url: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    host = Host(mail=MailConfig(from_address="games@host.test", operator_address="op@host.test"))
    with factory() as s:  # the corpus DSN names reef-12's Bob: give this table that tag
        game = api.get_game(s, table.game_id)
        game.tag = "reef-12"
        s.add(game)
        # The report must name a mail we sent to Bob: the one queued here.
        ours = mails.queue(s, host, to=BOB, to_name="", subj="[reef-12] Test Cards",
                           text="hello", kind="status", game_id=table.game_id).message_id
        s.commit()
    assert ours is not None
    report = corpus.load("dsn-seat-bounces.eml").replace(
        b"<179000000000.1.1@host.test>", ours.encode())
    result = process_raw(factory, report, host)
    assert result.status == "ignored"
    assert "bob@players.test (5.1.1 smtp; 550 5.1.1 <bob@players.test>: mailbox " \
        "unavailable): seat 2 of [reef-12]" in result.reason
    (told,) = [r for r in outbound(factory) if r.to_addr != BOB]
    assert told.to_addr == "op@host.test" and "Bob <bob@players.test>, seat 2" in text_of(told)
    process_raw(factory, report.replace(b"dsn-bob", b"dsn-b2"), host)
    assert len(outbound(factory)) == 2  # told once, not at every bounce

    from pbem.cli import app
    from pbem.engine import registry
    from tests.support.testgame import GAME

    (tmp_path / "pbem.toml").write_text(f'[database]\nurl = "{db_url}"\n')
    monkeypatch.setenv("PBEM_CONFIG", str(tmp_path / "pbem.toml"))
    registry.register(GAME)
    shown = CliRunner().invoke(app, ["game", "show", "reef-12"])
    assert shown.exit_code == 0, shown.output
    said = " ".join(shown.output.split())
    assert "bouncing: seat 2 Bob <bob@players.test> since" in said
    assert "UTC: 5.1.1 smtp; 550 5.1.1 <bob@players.test>: mailbox unavailable" in said
    listed = CliRunner().invoke(app, ["game", "list"])
    assert listed.exit_code == 0 and "mail bounces: Bob" in " ".join(listed.output.split())

    card = hand(factory, table, 1)[0]  # Bob proves his secret: he reads the game after all
    process_raw(factory, mail(BOB, "[reef-12]", f"play {card}\nsecret {table.secrets[1]}"),
                host)
    with factory() as s:
        bob = s.exec(select(Seat).where(Seat.address == BOB)).one()
        assert (bob.bounced_at, bob.bounce_reason) == (None, "")


def test_an_echoed_order_line_is_clipped(factory: SessionFactory, host: Host,
                                         table: Table) -> None:
    line = "play " + "seven" * 150_000
    result = process_raw(factory, mail(ALICE, f"[{table.tag}]",
                                       f"{line}\nsecret {table.secrets[0]}"), host)
    assert result.status == "rejected"
    (reply,) = outbound(factory)
    assert len(reply.raw) < 10_000 and "more characters not shown" in text_of(reply)


def test_unreadable_mail_gets_a_clear_outcome(factory: SessionFactory, host: Host,
                                              table: Table) -> None:
    raw = corpus.load("deep-mime-1500-levels.eml").replace(b"reef-12", table.tag.encode())
    result = process_raw(factory, raw, host)
    assert (result.status, result.reason) == (
        "rejected", "unreadable: its MIME parts are nested too deeply to read")
    surrogate = corpus.load("utf7-lone-surrogate-subject.eml").replace(
        b"game reef-12", f"game {table.tag}".encode()).replace(
        b"corpus-alice-secret", table.secrets[0].encode())
    assert process_raw(factory, surrogate, host).status == "ignored"  # a status, as asked
    assert message_key("<a\udc80b@x>").startswith("<sha256-")
