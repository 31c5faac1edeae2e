"""Every .eml of the hostile/malformed corpus through the real pipeline (Maildir inbox, the
database, the outbox) to the outcome listed for it: status, reason, whether a reply is sent.

Before each fixture the game ``reef-12`` (the test game, so the corpus reads like real game
mail) has one applied order, ``<earlier-order@players.test>`` (Alice played 1), so replays,
"not your turn" and Bob's legal orders all have a history to meet. Whatever the outcome, the
raw message is kept in the database and moved out of the inbox, never dropped, and no reply
carries an injected header.
"""

from __future__ import annotations

import email
import hashlib
import mailbox
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import pytest
from sqlmodel import col, select

from pbem.mail.inbound import MaildirInbox
from pbem.mail.outbound import MaildirSender
from pbem.mail.redact import redact
from pbem.ops import api
from pbem.outbox.delivery import deliver_outbox
from pbem.pipeline.one_mail import process_raw
from pbem.pipeline.seat_secrets import hash_secret
from pbem.pipeline.stored import kept_bytes
from pbem.settings.host import Host
from pbem.store import InboundMessage, OutboundMessage, Seat, SessionFactory
from tests.pipeline.conftest import ALICE, BOB
from tests.support import corpus
from tests.support.playermail import mail

SECRETS = ("corpus-alice-secret", "corpus-bob-secret")


@dataclass(frozen=True)
class Expect:
    status: str  # applied | rejected | ignored | quarantined | duplicate
    reason: str  # a substring of the recorded reason
    replies: int  # emails queued because of this message
    reply_says: str = ""  # a phrase the first reply must hold
    never_says: str = ""  # words of the mail that no reply may carry (subject or body)


EXPECTED: dict[str, Expect] = {
    # machine-made mail: recorded, never answered (two robots must never loop)
    "bounce.eml": Expect("ignored", "sent by mailer-daemon@", 0),
    # delivery status reports: a failed recipient's seat is marked bouncing only when the
    # report names a mail we sent there (none of these does: the corpus sent nothing)
    "bounce-dsn-with-original.eml": Expect("ignored", "gone@players.test (5.1.1): no seat", 0),
    "dsn-report-from-person-address.eml": Expect(
        "ignored", "alice@players.test (5.1.1): unproven", 0),
    "dsn-seat-bounces.eml": Expect("ignored", "bob@players.test (5.1.1 smtp; 550 5.1.1 "
                                   "<bob@players.test>: mailbox unavailable): unproven", 0),
    "empty-return-path.eml": Expect("ignored", "empty Return-Path", 0),
    "list-unsubscribe-only.eml": Expect("ignored", "List-Unsubscribe header", 0),
    "mailing-list.eml": Expect("ignored", "Precedence: list", 0),
    "precedence-bulk.eml": Expect("ignored", "Precedence: bulk", 0),
    "vacation-autoreply.eml": Expect("ignored", "Auto-Submitted: auto-replied", 0),
    "vacation-precedence-junk.eml": Expect("ignored", "Precedence: junk", 0),
    "x-autoreply.eml": Expect("ignored", "X-Autoreply header", 0),
    # no game named: one polite note
    "attachment-only.eml": Expect("rejected", "no game identified", 1, "which game"),
    "latin1-qp-signature.eml": Expect("rejected", "no game identified", 1, "which game"),
    "no-message-id-unknown-charset.eml": Expect("rejected", "no game identified", 1,
                                                "which game"),
    "wrong-charset-latin1-declared-utf8.eml": Expect("rejected", "no game identified", 1,
                                                     "which game"),
    # people who have no seat in the game they name
    "auto-submitted-no.eml": Expect("rejected", "unknown sender", 1, "does not play in"),
    "gmail-html-reply-wrapped-attribution.eml": Expect("rejected", "unknown sender", 1,
                                                       "does not play in [reef-12]"),
    "outlook-reply.eml": Expect("rejected", "unknown sender", 1, "does not play in"),
    "plain-reply-wrapped-attribution.eml": Expect("rejected", "unknown sender", 1,
                                                  "does not play in"),
    "header-injection-subject.eml": Expect("rejected", "unknown sender", 1,
                                           "mallory@evil.test does not play"),
    "orders-for-another-game.eml": Expect("rejected", "unknown sender", 1,
                                          "does not play in [other-7]"),
    # a seat's address without the right secret: nothing moves (a player who forgot the
    # tag, of the one game they play in, is answered from that game)
    "html-only.eml": Expect("rejected", "wrong secret", 1, "so it was read for [reef-12]"),
    "nested-base64-attachment.eml": Expect("rejected", "no secret", 1,
                                           "so it was read for [other-7]"),
    "reply-with-quote.eml": Expect("rejected", "wrong secret", 1, "does not match your seat"),
    "forged-from-other-seats-secret.eml": Expect("rejected", "wrong secret", 1,
                                                 "does not match your seat"),
    "header-injection-display-name.eml": Expect("rejected", "wrong secret", 1,
                                                "does not match your seat"),
    "base64-garbage.eml": Expect("rejected", "no secret", 1, "had no \"secret\" line"),
    "empty-body.eml": Expect("rejected", "no secret", 1, "had no \"secret\" line"),
    "multipart-missing-boundary.eml": Expect("rejected", "no secret", 1,
                                             "had no \"secret\" line"),
    "huge-body.eml": Expect("rejected", "too large", 1, "larger than 1000000 bytes"),
    # hostile mail: each gets a clear outcome, none stops the host
    "huge-28mb.eml": Expect("rejected", "too large", 1, "larger than 1000000 bytes"),
    "long-local-part-from.eml": Expect(
        "rejected", "unknown sender; no answer: the sender's address is not deliverable", 0),
    "spam-subject-stranger.eml": Expect("rejected", "unknown sender", 1, "does not play in",
                                        never_says="CHEAP PILLS"),
    "help-forged-from-seat.eml": Expect("ignored", "help", 1, "Help for Test Cards",
                                        never_says="FREE MONEY"),
    "deep-mime-1500-levels.eml": Expect("rejected", "unreadable: its MIME parts are nested "
                                        "too deeply", 1, "nested too deeply"),
    "conflicting-duplicate.eml": Expect("quarantined", "conflicting duplicate: message 1 has "
                                        "this Message-ID with a different body", 0),
    "long-message-id.eml": Expect("ignored", "status", 1, "Your status, as you asked"),
    "utf7-lone-surrogate-subject.eml": Expect("ignored", "status", 1,
                                              "Your status, as you asked"),
    "five-thousand-parts.eml": Expect("ignored", "status", 1, "Your status, as you asked"),
    "long-order-line.eml": Expect("rejected", "", 1, "more characters not shown"),
    # authenticated players
    "replayed-old-message-id.eml": Expect("duplicate", "already applied", 0),
    "not-your-turn.eml": Expect("rejected", "not your turn", 1, "Waiting for: Bob"),
    "ten-thousand-lines.eml": Expect("rejected", "write exactly one order", 1,
                                     "(9960 more lines not shown)"),
    "deep-mime-nesting.eml": Expect("ignored", "status", 1, "Your status, as you asked"),
    "html-only-script.eml": Expect("ignored", "status", 1, "Your status, as you asked"),
    "unknown-charset-status.eml": Expect("ignored", "status", 1, "Your status, as you asked"),
    "missing-charset-8bit.eml": Expect("applied", "log entry 2", 2, "Done. Your orders"),
    "nul-bytes.eml": Expect("applied", "log entry 2", 2, "> play 9"),
    "nul-bytes-in-headers.eml": Expect("applied", "log entry 2", 2, "> play 12"),
    # secrets are blanked in the kept copy however the mail encodes them
    "secret-in-base64-body.eml": Expect("applied", "log entry 2", 2, "> play 9"),
    "secret-quoted-welcome-qp-html.eml": Expect("ignored", "status", 1,
                                                "Your status, as you asked"),
}


@pytest.fixture
def seeded(factory: SessionFactory, host: Host, tmp_path: Path) -> SessionFactory:
    with factory() as s:
        game, _ = api.create_game(s, "testcards", [("Alice", ALICE), ("Bob", BOB)],
                                  {"rounds": 2}, seed="corpus", tag="reef-12")
        api.create_game(s, "testcards", [("Carol", "carol@players.test"),
                                         ("Dave", "dave@players.test")], tag="other-7")
        for seat in s.exec(select(Seat).where(Seat.game_id == game.id)):
            seat.secret_hash = hash_secret(SECRETS[seat.index], seat.secret_salt)
            s.add(seat)
        s.commit()
    first = process_raw(factory, mail(ALICE, "Re: [reef-12] Test Cards",
                                      f"play 1\nsecret {SECRETS[0]}",
                                      message_id="<earlier-order@players.test>"), host)
    assert first.status == "applied"
    assert deliver_outbox(factory, MaildirSender(tmp_path / "earlier"), host).sent == 2
    return factory


@pytest.mark.parametrize("name", corpus.names())
def test_corpus(name: str, seeded: SessionFactory, host: Host, tmp_path: Path) -> None:
    raw = corpus.load(name)
    with seeded() as s:
        before = s.exec(select(col(OutboundMessage.id))).all()
    box = mailbox.Maildir(tmp_path / "inbox", create=True)
    box.add(raw)
    done = api.process_inbox(seeded, MaildirInbox(tmp_path / "inbox"),
                             MaildirSender(tmp_path / "out"), host)
    (result,) = done.results
    with seeded() as s:
        new = s.exec(select(OutboundMessage).where(col(OutboundMessage.id).not_in(before))
                     .order_by(col(OutboundMessage.id))).all()
        row = s.get(InboundMessage, result.inbound_id) if result.inbound_id else None
    expect = EXPECTED[name]
    assert (result.status, len(new)) == (expect.status, expect.replies), result.reason
    assert expect.reason in result.reason
    assert done.delivery.sent == len(new)
    # kept: the bytes are in the database (with any secret blanked, and the digest of the
    # bytes as received; of a mail too large to read, its headers and a bounded prefix) and
    # the file left the inbox for a folder
    assert row is not None
    if "too large" in result.reason:
        assert len(row.raw) < len(raw)
        assert row.raw == redact(kept_bytes(raw, host.limits.max_message_bytes))
        assert len(row.raw) <= 2 * host.limits.max_message_bytes
    elif result.status != "duplicate":
        assert row.raw == redact(raw)
    if result.status != "duplicate":
        assert row.raw_sha256 == hashlib.sha256(raw).hexdigest()
    assert not any(secret.encode() in row.raw for secret in SECRETS)
    assert len(box) == 0
    kept = box.get_folder("failed" if result.status == "quarantined" else "processed")
    assert [kept.get_bytes(k) for k in kept.iterkeys()] == [raw]  # byte-exact
    mid = BytesParser(policy=policy.compat32).parsebytes(raw, headersonly=True)["Message-ID"]
    for out in new:
        msg = email.message_from_bytes(out.raw, policy=policy.default)
        assert isinstance(msg, EmailMessage)
        assert not {"bcc", "cc", "x-injected"} & {k.lower() for k in msg}
        assert len(msg.get_all("To", [])) == 1
        assert msg["To"].addresses[0].addr_spec == out.to_addr
        assert "\n" not in str(msg["Subject"]) and "\r" not in str(msg["Subject"])
        if out.kind != "status":  # the answer to this mail itself
            assert msg["Auto-Submitted"] == "auto-replied"
            if mid and len(mid) <= 250:  # a longer id is not threaded (see compose)
                assert msg["In-Reply-To"] == mid.replace("\x00", "").strip()
        assert len(out.raw) < 64_000  # no reply repeats a huge mail
        if expect.never_says:
            assert expect.never_says not in out.raw.decode("utf-8", "replace")
    if expect.reply_says:
        answer = next(r for r in new if r.kind != "status")  # not the other seats' news
        first = email.message_from_bytes(answer.raw, policy=policy.default)
        assert isinstance(first, EmailMessage)
        body = first.get_body(("plain",))
        assert body is not None
        assert expect.reply_says in body.get_content()


def test_every_fixture_has_an_expected_outcome() -> None:
    assert len(list(corpus.EML.glob("*.eml"))) >= 30
    assert set(EXPECTED) == set(corpus.names())
