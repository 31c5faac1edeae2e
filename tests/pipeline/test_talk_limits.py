"""Table talk cannot be turned against the host or the table: one mail in makes at most one
mail per listener, bounded in size and in the work it costs; a secret typed in talk is never
stored or passed on; what a command quotes back is cut. Each through the real pipeline: mail
in by IMAP (pymap), out by SMTP (aiosmtpd), on every database backend."""

from __future__ import annotations

import dataclasses
import email
import time
from email import policy
from email.message import EmailMessage

import pytest
from sqlmodel import col, select

from pbem.mail.inbound import ImapInbox
from pbem.mail.outbound import SmtpSender
from pbem.ops import api, archive
from pbem.settings.config import Limits, MailConfig
from pbem.settings.host import Host
from pbem.store import InboundMessage, LogEntry, OutboundMessage, SessionFactory
from tests.pipeline.conftest import ALICE, BOB
from tests.support.mailservers import PymapServer, SmtpTestServer
from tests.support.playermail import mail

pytestmark = pytest.mark.slow

CAROL = "carol@players.test"


@dataclasses.dataclass
class Trio:
    tag: str
    secrets: list[str]
    factory: SessionFactory
    imap: PymapServer
    smtp: SmtpTestServer
    host: Host

    def send(self, who: str, body: str, subject: str = "") -> api.Pass:
        """One mail in by IMAP, one pass, its mail out by SMTP."""
        self.imap.deliver(mail(who, subject or f"Re: [{self.tag}] Test Cards", body))
        return api.process_inbox(self.factory, ImapInbox(self.imap.settings),
                                 SmtpSender(self.smtp.settings), self.host)

    def received(self, address: str) -> list[EmailMessage]:
        out = []
        for raw in self.smtp.messages:
            msg = email.message_from_bytes(raw, policy=policy.default)
            assert isinstance(msg, EmailMessage)
            if address in str(msg["To"]):
                out.append(msg)
        return out


def text_of(msg: EmailMessage) -> str:
    part = msg.get_body(("plain",))
    assert part is not None
    return str(part.get_content())


@pytest.fixture
def trio(factory: SessionFactory, imap_server: PymapServer,
         smtp_server: SmtpTestServer) -> Trio:
    host = Host(mail=MailConfig(from_address="games@host.test"),
                limits=Limits(talk_mails_per_day=3))
    with factory() as s:
        game, secrets = api.create_game(
            s, "testcards", [("Alice", ALICE), ("Bob", BOB), ("Carol", CAROL)], seed="talk")
        s.commit()
        return Trio(game.tag, secrets, factory, imap_server, smtp_server, host)


def test_a_10000_line_say_mail_makes_one_mail_per_listener_in_a_short_pass(
        trio: Trio) -> None:
    said = [f"line {n} of a flood" for n in range(10_000)]
    body = "\n".join(f"say {t}" for t in said)
    # Where 4000 characters of text run out, and what is left from there.
    ends = [sum(len(t) for t in said[:n + 1]) for n in range(300)]
    cut = next(n for n, end in enumerate(ends) if end > 4000)
    left = sum(len(t) for t in said) - 4000
    started = time.process_time()
    done = trio.send(ALICE, f"{body}\nsecret {trio.secrets[0]}")
    spent = time.process_time() - started
    assert [r.status for r in done.results] == ["applied"]
    assert spent < 2, f"the pass took {spent:.1f} s of CPU"
    assert done.delivery.sent == 3  # the reply, one mail to Bob, one to Carol
    [reply] = trio.received(ALICE)
    assert reply["Subject"] == f"[{trio.tag}] Message sent"
    assert (f"Table talk is limited to 4000 characters a mail: yours was cut in its line "
            f"{cut + 1}, and the {left} characters after that were not sent.") \
        in " ".join(text_of(reply).split())
    for who in (BOB, CAROL):
        [note] = trio.received(who)
        text = text_of(note)
        assert "line 0 of a flood" in text and f"line {cut - 1} of a flood" in text
        assert f"line {cut + 1} of a flood" not in text and len(text) < 6000
    with trio.factory() as s:
        [talk] = s.exec(select(LogEntry).where(LogEntry.kind == "talk")).all()
        assert len(talk.text) < 4500  # 4000 characters, and a line end between lines


def test_a_900_kB_say_line_is_cut_before_it_is_stored_rendered_or_exported(
        trio: Trio) -> None:
    line = "blah " * 180_000
    done = trio.send(ALICE, f"say {line}\nsecret {trio.secrets[0]}")
    assert [r.status for r in done.results] == ["applied"]
    assert (f"yours was cut in its line 1, and the {len(line.strip()) - 4000} characters after "
            "that were not sent") in " ".join(text_of(trio.received(ALICE)[0]).split())
    [note] = trio.received(BOB)
    assert len(note.as_bytes()) < 12_000
    # Bob's next status mail carries the talk among its events, cut as stored.
    trio.send(BOB, f"status\nsecret {trio.secrets[1]}")
    assert len(trio.received(BOB)[-1].as_bytes()) < 40_000
    with trio.factory() as s:
        # The event holds the text and its sentence: twice 4000 characters, not 900 kB.
        assert max(len(e.events_json) for e in s.exec(select(LogEntry))) < 10_000
        game = api.get_game(s, trio.tag)
        started = time.process_time()
        page = archive.render_page(archive.build(s, game, archive.Viewer(seat=1)))
        assert time.process_time() - started < 1
    assert "blah blah" in page


def test_talk_beside_orders_rides_in_the_status_mail_each_listener_gets_anyway(
        trio: Trio) -> None:
    with trio.factory() as s:
        card = sorted(api.current_state(s, api.get_game(s, trio.tag)).hands[0])[0]
    done = trio.send(ALICE, f"play {card}\nsay Your move, Bob.\nsay to Carol: psst\n"
                            f"secret {trio.secrets[0]}")
    assert [r.status for r in done.results] == ["applied"]
    [bob] = trio.received(BOB)
    [carol] = trio.received(CAROL)
    assert "Alice (to everyone)" in text_of(bob) and "Your move, Bob." in text_of(bob)
    assert "psst" not in bob.as_string()
    assert "Alice (to you only)" in text_of(carol) and "psst" in text_of(carol)


def test_a_seat_sends_talk_in_so_many_mails_a_day(trio: Trio) -> None:
    for n in range(3):
        trio.send(ALICE, f"say hello {n}\nsecret {trio.secrets[0]}")
    done = trio.send(ALICE, f"say one too many\nsecret {trio.secrets[0]}")
    assert [(r.status, r.reason) for r in done.results] == [("rejected", "talk not sent")]
    reply = trio.received(ALICE)[-1]
    assert reply["Subject"] == f"[{trio.tag}] Message not sent"
    assert ("Your table talk was not sent: a seat may send talk in 3 mails a day, and you "
            "have. Try again tomorrow.") in " ".join(text_of(reply).split())
    assert len(trio.received(BOB)) == 3
    assert "one too many" not in " ".join(m.as_string() for m in trio.received(BOB))


def test_a_secret_typed_in_talk_is_blanked_everywhere_and_its_sender_told(
        trio: Trio) -> None:
    mine, bobs = trio.secrets[0], trio.secrets[1]
    done = trio.send(ALICE, f"say my secret is {mine}, and Bob's is ({bobs})!\n"
                            f"secret {mine}")
    assert [r.status for r in done.results] == ["applied"]
    reply = text_of(trio.received(ALICE)[0])
    assert ("Your table talk held a player's secret: it was replaced by [secret-removed] before "
            "anyone read it. If it was yours, send a mail with the line \"secret new\" to get a "
            "new one.") in " ".join(reply.split())
    seen = [raw.decode("utf-8", "replace") for raw in trio.smtp.messages]
    with trio.factory() as s:
        stored = [r.raw.decode("utf-8", "replace") for r in s.exec(select(InboundMessage))]
        stored += [f"{e.text} {e.events_json}" for e in s.exec(select(LogEntry))]
        stored += [r.raw.decode("utf-8", "replace")
                   for r in s.exec(select(OutboundMessage).order_by(col(OutboundMessage.id)))]
        game = api.get_game(s, trio.tag)
        stored += [archive.render_page(archive.build(s, game, archive.Viewer(seat=seat)))
                   for seat in (None, 0, 1, 2)]
    for text in [*seen, *stored]:
        assert mine not in text and bobs not in text
    [note] = trio.received(BOB)
    assert "my secret is [secret-removed], and Bob's is ([secret-removed])!" in text_of(note)


def test_a_5000_character_language_argument_is_not_echoed_whole(trio: Trio) -> None:
    junk = "x" * 5000
    trio.send(ALICE, f"language {junk}\nsecret {trio.secrets[0]}")
    reply = text_of(trio.received(ALICE)[0])
    # Refused for its length before anything reads it, and not quoted back at all.
    assert 'The text after "language" is too long (5000 characters; at most 64)' in reply
    assert "x" * 65 not in reply
    assert len(reply) < 3000


def test_each_talk_mail_adds_its_text_to_the_archive_page_not_a_board(trio: Trio) -> None:
    limits = dataclasses.replace(trio.host.limits, talk_mails_per_day=50)
    trio.host = dataclasses.replace(trio.host, limits=limits)

    def page() -> str:
        with trio.factory() as s:
            game = api.get_game(s, trio.tag)
            return archive.render_page(archive.build(s, game, archive.Viewer(seat=1)))

    before = len(page())
    for n in range(8):
        trio.send(ALICE, f"say hello number {n}\nsecret {trio.secrets[0]}")
    after = page()
    assert "hello number 7" in after
    # A step's heading, events and table row: a few hundred bytes, not a board each.
    assert (len(after) - before) / 8 < 1200, (len(after) - before) / 8
    # Talk leaves the board as it was: no talk step keeps a board of its own (a real game's
    # board is ~40 kB; this test game's is tiny, so look at the steps' boards).
    with trio.factory() as s:
        built = archive.build(s, api.get_game(s, trio.tag), archive.Viewer(seat=1))
    talk = [step for step in built.steps if step.kind == "talk"]
    assert len(talk) == 8 and all(step.boards == [] for step in talk)
    assert after.count("Unchanged: as after step 0.") == 8
