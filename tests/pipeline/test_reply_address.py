"""A reply to a seat's own mail proves the seat: every mail to a seat has a reply address
(``games+<token>@host.test``) whose token the host derives from the seat, so a reply to it
plays without a ``secret`` line. Real mail: the host's mail is sent to aiosmtpd, the replies
come in by IMAP (pymap), on SQLite and PostgreSQL."""

from __future__ import annotations

import email
import re
import secrets
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from email import policy
from email.message import EmailMessage
from email.utils import make_msgid

import pytest
from sqlmodel import select

from pbem.mail.inbound import ImapInbox
from pbem.mail.outbound import SmtpSender
from pbem.ops import api
from pbem.pipeline.one_mail import process_raw
from pbem.settings.host import Host
from pbem.settings.sections import MailConfig
from pbem.store import InboundMessage, OutboundMessage, SessionFactory
from pbem.store.tables import Snapshot
from pbem_testkit.imap import PymapServer
from pbem_testkit.smtp import SmtpTestServer
from tests.pipeline.conftest import ALICE, BOB

CAROL = "carol@elsewhere.test"
WRONG = "does not prove your seat"


@dataclass
class Now:
    """The host's clock, which a test moves on."""

    at: datetime

    def __call__(self) -> datetime:
        return self.at


@dataclass
class Table:
    factory: SessionFactory
    imap: PymapServer
    smtp: SmtpTestServer
    host: Host
    now: Now
    tag: str
    secrets: dict[str, str]

    def send(self) -> None:
        api.deliver_outbox(self.factory, SmtpSender(self.smtp.settings), self.host)

    def latest(self, to: str) -> EmailMessage:
        for item in reversed(list(self.smtp.messages)):
            msg = email.message_from_bytes(item.raw if hasattr(item, "raw") else item,
                                           policy=policy.default)
            assert isinstance(msg, EmailMessage)
            if to in str(msg["To"]):
                return msg
        raise AssertionError(f"no mail to {to}")

    def text(self, to: str) -> str:
        body = self.latest(to).get_body(("plain",))
        assert body is not None
        return str(body.get_content())

    def reply_to(self, to: str) -> str:
        return str(self.latest(to)["Reply-To"])

    def card(self, to: str) -> str:
        found = re.search(r"Your hand: ([\d, ]+)", self.text(to))
        assert found is not None, self.text(to)
        return found.group(1).split(",")[0].strip()

    def written(self, frm: str, to: str, body: str, **headers: str) -> bytes:
        """A reply from ``frm`` sent to ``to`` (a reply address), as a mail client writes
        it."""
        msg = EmailMessage()
        msg["From"], msg["To"] = frm, to
        msg["Subject"] = f"Re: [{self.tag}] Test Cards"
        msg["Message-ID"] = make_msgid(domain="players.test")
        for name, value in headers.items():
            msg[name.replace("_", "-")] = value
        msg.set_content(body)
        return bytes(msg)

    def reply(self, frm: str, to: str, body: str, **headers: str) -> list[str]:
        """:meth:`written`, sent; the statuses of the pass that reads it."""
        self.imap.deliver(self.written(frm, to, body, **headers))
        done = api.process_inbox(self.factory, ImapInbox(self.imap.settings),
                                 SmtpSender(self.smtp.settings), self.host)
        return [r.status for r in done.results]

    def moves(self) -> int:
        with self.factory() as s:
            return len(api.game_log(s, api.get_game(s, self.tag)))


@pytest.fixture
def table(factory: SessionFactory, imap_server: PymapServer,
          smtp_server: SmtpTestServer) -> Table:
    now = Now(datetime.now(UTC))
    host = Host(mail=MailConfig(from_address="games@host.test", from_name="Test Host"), clock=now)
    with factory() as s:
        game, made = api.create_game(s, "testcards", [("Alice", ALICE), ("Bob", BOB)],
                                     seed="fixed-seed", host=host, now=now())
        s.commit()
        tag = game.tag
    t = Table(factory, imap_server, smtp_server, host, now, tag, dict(zip((ALICE, BOB), made,
                                                                          strict=True)))
    t.send()
    return t


def test_a_reply_without_a_secret_plays(table: Table) -> None:
    address = table.reply_to(ALICE)
    assert re.fullmatch(r"games\+[a-z2-7]{31}@host\.test", address)
    assert address != table.reply_to(BOB)
    card = table.card(ALICE)
    assert table.reply(ALICE, address, f"play {card}") == ["applied"]
    assert f"Done. Your orders were played:\n> play {card}" in table.text(ALICE)
    # The next mail's reply address plays too, and its mail client may fold the case.
    card = table.card(BOB)
    assert table.reply(BOB, table.reply_to(BOB).upper(), f"play {card}") == ["applied"]
    assert table.moves() == 3  # the game's start, then both moves


def test_the_token_is_kept_nowhere(table: Table) -> None:
    address = table.reply_to(ALICE)
    token = address.split("+")[1].split("@")[0]
    assert table.reply(ALICE, address, f"play {table.card(ALICE)}") == ["applied"]
    with table.factory() as s:
        kept = [r.raw for r in s.exec(select(InboundMessage))]
        sent = [r.raw_once_sent or r.raw for r in s.exec(select(OutboundMessage))
                if r.sent_at is not None]
    assert kept and sent
    assert all(token.encode() not in raw for raw in kept)
    assert all(b"+[secret-removed]@host.test" in raw for raw in kept)
    assert all(token.encode() not in raw for raw in sent)


@pytest.mark.parametrize("whose", ["guessed", "the other seat's"])
def test_a_reply_to_an_address_not_the_seats_plays_nothing(table: Table, whose: str) -> None:
    guessed = "".join(secrets.choice("abcdefghijklmnopqrstuvwxyz234567") for _ in range(31))
    address = f"games+{guessed}@host.test" if whose == "guessed" else table.reply_to(BOB)
    assert table.reply(ALICE, address, f"play {table.card(ALICE)}") == ["rejected"]
    answer = " ".join(table.text(ALICE).split())
    assert ("Your mail was sent to a reply address that does not prove your seat (it is "
            "another seat's or another game's, or \"secret new\" replaced it), so nothing was "
            "played.") in answer
    assert "add a line \"secret <your secret>\"" in answer
    assert table.moves() == 1


def test_a_fresh_mail_still_needs_the_secret(table: Table) -> None:
    card = table.card(ALICE)
    assert table.reply(ALICE, "games@host.test", f"play {card}") == ["rejected"]
    assert "Your mail had no \"secret\" line, so nothing was played." in table.text(ALICE)
    assert table.reply(ALICE, "games@host.test",
                       f"play {card}\nsecret {table.secrets[ALICE]}") == ["applied"]


def test_secret_new_ends_the_old_reply_addresses(table: Table) -> None:
    old, card = table.reply_to(ALICE), table.card(ALICE)
    assert table.reply(ALICE, old, "secret new") == ["applied"]
    assert "Your new secret for" in table.text(ALICE)
    new = table.reply_to(ALICE)  # the mail that told the new secret has a new one
    assert table.reply(ALICE, old, f"play {card}") == ["rejected"]
    assert WRONG in " ".join(table.text(ALICE).split())
    assert table.moves() == 1
    assert new != old
    assert table.reply(ALICE, new, f"play {card}") == ["applied"]


def test_a_reply_to_a_mail_older_than_the_validity_asks_for_the_secret(table: Table) -> None:
    address = table.reply_to(ALICE)
    card = table.card(ALICE)
    table.now.at += timedelta(days=31)
    assert table.reply(ALICE, address, f"play {card}") == ["rejected"]
    answer = " ".join(table.text(ALICE).split())
    assert ("Your mail was sent to a reply address more than 30 days old, so nothing was "
            "played.") in answer
    assert "add a line \"secret <your secret>\"" in answer
    assert table.moves() == 1
    # Thirty days are still good.
    table.now.at -= timedelta(days=1)
    assert table.reply(ALICE, address, f"play {card}") == ["applied"]


def test_a_forwarded_mail_replied_to_from_another_address_plays_nothing(table: Table) -> None:
    address = table.reply_to(ALICE)
    card = table.card(ALICE)
    # Bob holds a seat in the game, but Alice's reply address does not prove his.
    assert table.reply(BOB, address, f"play {card}") == ["rejected"]
    assert WRONG in " ".join(table.text(BOB).split())
    # An address with no seat in the game is told so.
    assert table.reply(CAROL, address, f"play {card}") == ["rejected"]
    assert f"The address {CAROL} does not play in [{table.tag}]" in " ".join(
        table.text(CAROL).split())
    assert table.moves() == 1


def test_the_token_is_read_where_the_receiving_server_writes_it(table: Table) -> None:
    """A client that sent the reply by Bcc, or a server that rewrote To: the receiving
    server's Delivered-To still names the reply address."""
    assert table.reply(ALICE, "games@host.test", f"play {table.card(ALICE)}",
                       Delivered_To=table.reply_to(ALICE)) == ["applied"]


def test_with_a_trusted_authserv_id_the_verdict_still_applies(table: Table) -> None:
    table.host = replace(table.host, mail=replace(table.host.mail,
                                                   trusted_authserv_id="mx.host.test"))
    address, card = table.reply_to(ALICE), table.card(ALICE)
    assert table.reply(ALICE, address, f"play {card}") == ["rejected"]
    assert "could not be verified as sent from" in " ".join(table.text(ALICE).split())
    assert table.reply(ALICE, address, f"play {card}", Authentication_Results=(
        "mx.host.test; dkim=pass header.d=players.test; spf=pass "
        "smtp.mailfrom=alice@players.test")) == ["applied"]


def test_a_quarantined_reply_is_kept_blanked_and_reprocessed_by_its_receipt_check(
        table: Table) -> None:
    """A reply the host failed on is kept without its token, with the seat it proved; the
    operator's reprocess trusts that check (the token is no longer there to check)."""
    address, card = table.reply_to(ALICE), table.card(ALICE)
    token = address.split("+")[1].split("@")[0]
    with table.factory() as s:
        game = api.get_game(s, table.tag)
        snap = s.exec(select(Snapshot).where(Snapshot.game_id == game.id)).one()
        good, snap.state_json = snap.state_json, "{}"
        s.add(snap)
        s.commit()
    bad = process_raw(table.factory, table.written(ALICE, address, f"play {card}"), table.host)
    assert bad.status == "quarantined"
    with table.factory() as s:
        row = s.get(InboundMessage, bad.inbound_id)
        assert row is not None and token.encode() not in row.raw and row.secret_seat == 0
        snap = s.exec(select(Snapshot).where(Snapshot.game_id == game.id)).one()
        snap.state_json = good
        s.add(snap)
        s.commit()
    again = api.quarantine_reprocess(table.factory, bad.inbound_id or 0, table.host)
    assert again.status == "applied", again.reason
