"""No usable secret at rest: stored mail in and out has its secret blanked, yet every path
that reads stored mail again (reprocess, resend) still works; ``secret new`` rotates a seat's
secret by mail."""

from __future__ import annotations

import email
import hashlib
from dataclasses import replace
from email import policy
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlmodel import col, select

from pbem.mail.outbound import MaildirSender, SendError
from pbem.mail.redact import MARK, redact
from pbem.ops import api
from pbem.outbox.delivery import deliver_outbox
from pbem.pipeline.one_mail import process_raw
from pbem.pipeline.quarantine import quarantine
from pbem.pipeline.seat_secrets import check_secret
from pbem.settings.host import Host
from pbem.store import InboundMessage, OutboundMessage, Seat, SessionFactory, Snapshot
from tests.pipeline.conftest import ALICE, BOB, Table, hand, queued
from tests.support.db import every_stored_byte
from tests.support.playermail import mail


def sent_texts(path: Path) -> list[str]:
    return [str(f.read_bytes(), "utf-8", "replace") for f in sorted((path / "new").glob("*"))]


def plain(raw: bytes) -> str:
    msg = email.message_from_bytes(raw, policy=policy.default)
    assert isinstance(msg, EmailMessage)
    body = msg.get_body(("plain",))
    assert body is not None
    return str(body.get_content())


def test_a_database_copy_holds_no_secret_after_a_game_is_played(
        factory: SessionFactory, host: Host, tmp_path: Path) -> None:
    with factory() as s:
        game, secrets = api.create_game(s, "testcards", [("Alice", ALICE), ("Bob", BOB)],
                                        seed="rest", host=host)
        s.commit()
        table = Table(game.id or 0, game.tag, secrets)
    # Queued welcome mails still carry the secret: they must, until they are sent.
    assert all(secret.encode() in every_stored_byte(factory) for secret in secrets)
    out = MaildirSender(tmp_path / "out")
    assert deliver_outbox(factory, out, host).sent == 2
    assert [secrets[0] in t for t in sent_texts(tmp_path / "out")].count(True) == 1
    card = hand(factory, table, 0)[0]
    order = mail(ALICE, f"Re: [{table.tag}] Test Cards", f"play {card}\nsecret {secrets[0]}\n\n"
                 f"> Welcome to Test Cards! Your secret is: {secrets[0]}")
    assert process_raw(factory, order, host).status == "applied"
    assert process_raw(factory, mail(BOB, f"[{table.tag}]", f"status\nsecret {secrets[1]}"),
                       host).status == "ignored"
    assert deliver_outbox(factory, out, host).sent == 3
    stored = every_stored_byte(factory)
    for secret in secrets:
        assert secret.encode() not in stored
    assert stored.count(MARK.encode()) >= 2 + 2 * 2  # two orders; two welcomes (text + HTML)
    with factory() as s:
        kept = s.exec(select(InboundMessage).order_by(col(InboundMessage.id))).all()
        assert kept[0].raw_sha256 == hashlib.sha256(order).hexdigest()
        assert [k.secret_seat for k in kept] == [0, 1]
        assert f"play {card}\nsecret {MARK}" in plain(kept[0].raw)  # still reads as sent


def test_a_queued_mail_keeps_its_secret_until_a_send_succeeds(
        factory: SessionFactory, host: Host, tmp_path: Path) -> None:
    class Down:
        def send(self, msg: object) -> None:
            raise SendError("451 try again later", transient=True)

    with factory() as s:
        _, secrets = api.create_game(s, "testcards", [("Alice", ALICE), ("Bob", BOB)],
                                     host=host)
        s.commit()
    assert deliver_outbox(factory, Down(), host).retrying == 2
    with factory() as s:
        rows = api.outbox_list(s)
        assert [secrets[r.to_addr == BOB].encode() in r.raw for r in rows] == [True, True]
        api.outbox_retry(s)
        s.commit()
    assert deliver_outbox(factory, MaildirSender(tmp_path / "out"), host).sent == 2
    texts = sent_texts(tmp_path / "out")
    assert sorted(secret in t for t in texts for secret in secrets).count(True) == 2
    with factory() as s:
        rows = api.outbox_list(s)
        assert {r.status for r in rows} == {"sent"}
        assert all(r.raw_once_sent is None and secrets[0].encode() not in r.raw
                   and secrets[1].encode() not in r.raw for r in rows)
        welcome = plain(rows[0].raw)
        assert f"Your secret is: {MARK}" in welcome and f"secret {MARK}" in welcome


def test_a_quarantined_order_is_kept_blanked_and_reprocessed_by_its_receipt_check(
        factory: SessionFactory, host: Host, table: Table) -> None:
    with factory() as s:
        snap = s.exec(select(Snapshot).where(Snapshot.game_id == table.game_id)).one()
        good, snap.state_json = snap.state_json, "{}"
        s.add(snap)
        s.commit()
    raw = mail(BOB, f"[{table.tag}]", f"secret {table.secrets[1]}\nstatus")
    bad = process_raw(factory, raw, host)
    assert bad.status == "quarantined"
    with factory() as s:
        row = s.get(InboundMessage, bad.inbound_id)
        assert row is not None and table.secrets[1].encode() not in row.raw
        assert (row.secret_seat, row.raw_sha256) == (1, hashlib.sha256(raw).hexdigest())
        snap = s.exec(select(Snapshot).where(Snapshot.game_id == table.game_id)).one()
        snap.state_json = good
        s.add(snap)
        s.commit()
    again = api.quarantine_reprocess(factory, bad.inbound_id or 0, host)
    assert (again.status, again.reason) == ("ignored", "status")
    assert "Your status, as you asked." in queued(factory)[-1][1]


def test_the_receipt_check_is_for_the_seat_that_passed_it(
        factory: SessionFactory, host: Host, table: Table) -> None:
    """A wrong secret is remembered as such; a seat given away since is not played for."""
    # As a crash anywhere in the pass would keep them (the quarantine has its own check).
    wrong = quarantine(factory, mail(ALICE, f"[{table.tag}]",
                                     "status\nsecret not-the-secret-at-all"), "crash", None)
    right = quarantine(factory, mail(BOB, f"[{table.tag}]", f"status\nsecret {table.secrets[1]}"),
                       "crash", None)
    with factory() as s:
        rows = [s.get(InboundMessage, r.inbound_id) for r in (wrong, right)]
        assert [(r.secret_seat, b"not-the-secret" in r.raw) for r in rows if r] == [
            (None, False), (1, False)]
        bob = s.exec(select(Seat).where(Seat.game_id == table.game_id, Seat.index == 1)).one()
        bob.address = "carol@players.test"  # the seat changed hands meanwhile
        s.add(bob)
        s.commit()
    assert api.quarantine_reprocess(factory, wrong.inbound_id or 0, host).reason == "wrong secret"
    assert api.quarantine_reprocess(factory, right.inbound_id or 0, host).reason == \
        "unknown sender"


def test_the_blank_mark_is_no_secret_in_a_new_mail(factory: SessionFactory, host: Host,
                                                   table: Table) -> None:
    result = process_raw(factory, mail(ALICE, f"[{table.tag}]", f"status\nsecret {MARK}"), host)
    assert (result.status, result.reason) == ("rejected", "wrong secret")
    assert "does not match your seat" in queued(factory)[-1][1]


def test_secret_new_rotates_the_secret_and_mails_it_to_the_registered_address(
        factory: SessionFactory, host: Host, table: Table, tmp_path: Path) -> None:
    old = table.secrets[0]
    forged_reply_to = {"Reply-To": "thief@evil.test"}
    result = process_raw(factory, mail(ALICE, f"[{table.tag}]", f"secret new\nsecret {old}",
                                       headers=forged_reply_to), host)
    assert (result.status, result.reason) == ("applied", "new secret")
    [(to, reply)] = queued(factory)
    assert to == ALICE
    assert f"It was sent only to your registered address, {ALICE}." in reply
    new = reply.split(f"Your new secret for [{table.tag}] is: ")[1].split()[0]
    assert len(new) == 22 and new != old
    card = hand(factory, table, 0)[0]
    stale = process_raw(factory, mail(ALICE, f"[{table.tag}]", f"play {card}\nsecret {old}"),
                        host)
    assert (stale.status, stale.reason) == ("rejected", "wrong secret")
    fresh = process_raw(factory, mail(ALICE, f"[{table.tag}]", f"play {card}\nsecret {new}"),
                        host)
    assert fresh.status == "applied", fresh.reason
    # The reply carried the new secret until sent; then only the mailbox holds it.
    assert new.encode() in every_stored_byte(factory)
    deliver_outbox(factory, MaildirSender(tmp_path / "out"), host)
    assert new.encode() not in every_stored_byte(factory)
    assert any(new in t for t in sent_texts(tmp_path / "out"))


def test_secret_new_needs_the_current_secret(factory: SessionFactory, host: Host,
                                             table: Table) -> None:
    result = process_raw(factory, mail(ALICE, f"[{table.tag}]", "secret new"), host)
    assert (result.status, result.reason) == ("rejected", "no secret")
    with factory() as s:
        seat = s.exec(select(Seat).where(Seat.game_id == table.game_id, Seat.index == 0)).one()
        assert check_secret(table.secrets[0], seat.secret_salt, seat.secret_hash)


def test_help_lists_secret_new(factory: SessionFactory, host: Host, table: Table) -> None:
    process_raw(factory, mail(ALICE, f"[{table.tag}]", "help"), host)
    assert "secret new              a new secret, mailed to your registered address" in \
        queued(factory)[-1][1]


def test_redaction_keeps_a_mail_without_secret_byte_for_byte() -> None:
    raw = mail(ALICE, "[x-1]", "play 3\nthe secret in your mail is safe\nsecret new")
    assert redact(raw) == raw


def test_redaction_blanks_a_secret_split_by_quoted_printable() -> None:
    msg = EmailMessage()
    msg["From"] = ALICE
    msg.set_content("secret " + "A" * 30 + "b3" * 30 + "\nplay 3\n", cte="quoted-printable")
    raw = bytes(msg)
    assert b"=\n" in raw  # the long line is folded by a soft break
    out = redact(raw)
    assert b"AAAA" not in out and f"secret {MARK}\nplay 3\n" == plain(out)


def test_redaction_never_raises_on_garbage() -> None:
    raw = b"\xff\xfe\x00secret gArbAge-secret-9\n--b\nContent-Type: text/plain; charset=\x00\n"
    out = redact(raw)
    assert b"gArbAge-secret-9" not in out and MARK.encode() in out


def test_a_secret_echoed_back_in_a_reply_is_blanked_once_sent(
        factory: SessionFactory, host: Host, table: Table, tmp_path: Path) -> None:
    """Written inside an order line ("my secret X") it is quoted back."""
    secret = table.secrets[0]
    result = process_raw(factory, mail(ALICE, f"[{table.tag}]",
                                       f"check\nsecret {secret}\nmy secret {secret}"), host)
    assert result.status == "ignored"
    assert f"> my secret {secret}" in queued(factory)[-1][1]  # the player sees what they wrote
    deliver_outbox(factory, MaildirSender(tmp_path / "out"), host)
    assert secret.encode() not in every_stored_byte(factory)
    assert any(f"> my secret {secret}" in t for t in sent_texts(tmp_path / "out"))


@pytest.mark.slow
def test_over_real_imap_and_smtp_no_secret_stays_in_the_database(
        request: pytest.FixtureRequest, factory: SessionFactory, host: Host) -> None:
    """Welcome, 'secret new' and an order with the new secret, through pymap and aiosmtpd,
    with the receiving server's verdict required: the players' mailboxes hold the secrets,
    the database none."""
    from pbem.mail.inbound import ImapInbox
    from pbem.mail.outbound import SmtpSender
    from tests.mail.test_authresults import RSPAMD_PASS
    from tests.pipeline.test_end_to_end import latest_to, servers

    imap, smtp = servers(request)
    strict = replace(host, mail=replace(host.mail, trusted_authserv_id="mx.host.test"))
    with factory() as s:
        game, secrets = api.create_game(s, "testcards", [("Alice", ALICE), ("Bob", BOB)],
                                        host=strict)
        s.commit()
    assert api.deliver_outbox(factory, SmtpSender(smtp.settings), strict).sent == 2
    assert f"Your secret is: {secrets[0]}" in latest_to(smtp, ALICE)

    def send(body: str) -> str:
        raw = RSPAMD_PASS.encode() + mail(ALICE, f"Re: [{game.tag}] Test Cards", body)
        imap.deliver(raw)
        done = api.process_inbox(factory, ImapInbox(imap.settings), SmtpSender(smtp.settings),
                                 strict)
        [result] = done.results
        assert done.delivery.failed == 0
        return result.status

    assert send(f"secret new\nsecret {secrets[0]}") == "applied"
    new = latest_to(smtp, ALICE).split(f"Your new secret for [{game.tag}] is: ")[1].split()[0]
    assert send(f"play {hand(factory, Table(game.id or 0, game.tag, []), 0)[0]}\n"
                f"secret {new}") == "applied"
    stored = every_stored_byte(factory)
    assert not [s for s in (*secrets, new) if s.encode() in stored]


def test_upgrading_blanks_the_mail_an_older_pbem_stored(db_url: str, host: Host) -> None:
    """Migration 0005 on a database of 0003, which kept mail with its secrets."""
    from alembic import command
    from alembic.config import Config as AlembicConfig
    from sqlmodel import Session

    from pbem.store.db import MIGRATIONS, init, session_factory

    engine = init(db_url)
    with Session(engine) as s:
        game, secrets = api.create_game(s, "testcards", [("Alice", ALICE), ("Bob", BOB)],
                                        host=host)
        s.commit()
        tag = game.tag
    cfg = AlembicConfig()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", db_url.replace("%", "%%"))
    command.downgrade(cfg, "0003")
    kept = mail(BOB, f"[{tag}]", f"status\nsecret {secrets[1]}")
    order = mail(ALICE, f"[{tag}]", f"play 1\nsecret {secrets[0]}")
    with engine.begin() as conn:  # as 0003 kept them: whole
        conn.execute(text("UPDATE outboundmessage SET status = 'sent' WHERE to_addr = :a"),
                     {"a": ALICE})
        for raw, status in ((kept, "quarantined"), (order, "applied")):
            conn.execute(text(
                "INSERT INTO inboundmessage (message_id, raw, from_addr, subject, status, "
                "reason, received_at) VALUES (:m, :r, '', '', :s, :why, :t)"),
                {"m": f"<{status}@x>", "r": raw, "s": status, "t": "2026-11-01 00:00:00",
                 "why": f"crash at line \"secret: {secrets[1]}\""})
    engine.dispose()
    engine = init(db_url)  # upgrades to the newest
    with Session(engine) as s:
        rows = {r.status: r for r in s.exec(select(InboundMessage))}
        assert rows["quarantined"].raw == redact(kept)
        assert rows["quarantined"].raw_sha256 == hashlib.sha256(kept).hexdigest()
        assert rows["quarantined"].secret_seat == 1  # reprocess trusts the check made now
        assert (rows["applied"].secret_seat, rows["applied"].raw) == (None, redact(order))
        out = {r.to_addr: r for r in s.exec(select(OutboundMessage))}
        assert secrets[0].encode() not in out[ALICE].raw and out[ALICE].raw_once_sent is None
        waiting = out[BOB]  # still queued: it keeps the secret until it is sent
        assert secrets[1].encode() in waiting.raw
        assert waiting.raw_once_sent is not None and secrets[1].encode() not in \
            waiting.raw_once_sent
    factory = session_factory(engine)
    stored = every_stored_byte(factory).replace(waiting.raw, b"")
    assert not [x for x in secrets if x.encode() in stored]
    again = api.quarantine_reprocess(factory, rows["quarantined"].id or 0, host)
    assert (again.status, again.reason) == ("ignored", "status")
    engine.dispose()
