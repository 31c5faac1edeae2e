"""The lobby against abuse, through the real pipeline: forged From lines taking seats, a flood
of tables, a flood of invitations, an address that said "never" — each bounded as configured,
the bound in the test."""

from __future__ import annotations

import re
import time

import pytest
from sqlmodel import col, func, select

from pbem.mail.outbound import SmtpSender
from pbem.outbox.delivery import deliver_outbox
from pbem.store import Game, OutboundMessage, SessionFactory
from pbem.store.tables import LobbyInvite, LobbySeat, LobbyTable, NeverMail
from tests.lobby.conftest import ANN, BEN, CY, Clock, Post, text
from tests.support.mailservers import SmtpTestServer


def mails_to(factory: SessionFactory, address: str) -> int:
    with factory() as s:
        return int(s.exec(select(func.count()).select_from(OutboundMessage).where(
            OutboundMessage.to_addr == address)).one())


def test_forged_seats_keep_nobody_out_and_expire(post: Post, clock: Clock,
                                                  factory: SessionFactory) -> None:
    ann, _ = post.seat(ANN, "new testcards players 3")
    post.send(ANN, f"confirm {ann}")
    # Someone forges Ben's and Cy's From lines: the seats are held, the codes go to Ben and
    # Cy (who never asked), and nobody can confirm them without reading their mail.
    for victim in (BEN, CY):
        assert post.send(victim, "join testcards-t1").status == "applied"
        post.send(victim, "confirm ZZZZ-ZZZZ")  # a guess: refused
    with factory() as s:
        assert s.exec(select(Game)).all() == []
    # The held seats keep no one out: the first confirmations take the seats.
    dora, _ = post.seat("dora@players.test", "join testcards-t1")
    eve, _ = post.seat("eve@players.test", "join testcards-t1")
    post.send("dora@players.test", f"confirm {dora}")
    started = post.send("eve@players.test", f"confirm {eve}")
    assert sorted(to for to, _ in post.answers(started)) == [
        ANN, "dora@players.test", "eve@players.test"]
    with factory() as s:
        assert s.exec(select(Game)).one().tag == "testcards-t1"
        assert s.exec(select(LobbySeat).where(col(LobbySeat.confirmed_at).is_(None))).all() == []
    clock.advance(hours=12, seconds=1)  # the default confirm_hours
    _, body = post.answer(post.send(BEN, "games"))
    assert "[testcards-t1]" not in body.split("Your games:")[0]


@pytest.mark.slow  # a thousand mails, each in its own transaction: about 90 s on 2 cores
def test_a_thousand_new_mails_from_one_address(post: Post, factory: SessionFactory,
                                               db_url: str) -> None:
    if db_url.startswith("postgresql"):  # the caps are counted by the same queries on both
        pytest.skip("a thousand mails once, on SQLite; the caps' queries are the same")
    started = time.monotonic()
    for _ in range(1000):
        post.send(BEN, "new testcards players 2")
    took = time.monotonic() - started
    with factory() as s:
        assert len(s.exec(select(LobbyTable)).all()) == 3  # [lobby] open_tables_per_address
    assert mails_to(factory, BEN) == 3  # [limits] unverified_replies_per_hour
    assert took < 600  # bounded work: far under the host's pass time, not a benchmark


def test_a_thousand_invite_lines_in_one_mail(post: Post, factory: SessionFactory) -> None:
    ann, _ = post.seat(ANN, "new testcards players 4")
    post.send(ANN, f"confirm {ann}")
    lines = "\n".join(f"invite testcards-t1 friend{i}@elsewhere.test" for i in range(1000))
    result = post.send(ANN, lines, subject=f"Re: [testcards-t1] code {ann}")
    got = post.answers(result)
    invitations = [m for to, m in got if to != ANN]
    assert len(invitations) == 5  # [lobby] invites_per_day
    (answer,) = [m for to, m in got if to == ANN]
    assert answer["Subject"] == "[testcards-t1] Your invitations"
    body = " ".join(text(answer).split())
    assert "Invitations to [testcards-t1] sent to: friend0@elsewhere.test," in body
    assert "Not sent: friend5@elsewhere.test," in body and "(+985)" in body
    assert "each player sends at most 5 invitations a day" in body
    # The next day's five, but never the same address twice for the table.
    again = post.send(ANN, f"invite testcards-t1 friend0@elsewhere.test {ann}")
    assert [to for to, _ in post.answers(again)] == [ANN]
    with factory() as s:
        rows = s.exec(select(LobbyInvite)).all()
        assert len(rows) == 5 and all("@" not in r.address_hash for r in rows)


def test_an_invitation_says_who_invites_and_how_to_join_or_refuse(post: Post) -> None:
    ann, _ = post.seat(ANN, "new testcards players 3", name="Ann")
    post.send(ANN, f"confirm {ann}")
    result = post.send(ANN, "invite dora@players.test", subject=f"Re: [testcards-t1] code {ann}")
    invitation = next(m for to, m in post.answers(result) if to == "dora@players.test")
    assert invitation["Subject"] == "[testcards-t1] An invitation to play Test Cards"
    body = " ".join(text(invitation).split())
    assert ("Ann invites you to play Test Cards by mail at this game host, at table "
            "[testcards-t1] (2 of 3 seats free).") in body
    assert "send a mail to this address with the line: join testcards-t1" in body
    never = re.search(r'answer with the line "never ([A-Z2-9]{4}-[A-Z2-9]{4})": it will not '
                      r"write to you again\.", body)
    assert never is not None, body
    # A mail client's unsubscribe sends the same proven never (no web endpoint to post to).
    assert invitation["List-Unsubscribe"] == (
        f"<mailto:games@host.test?subject=never%20{never.group(1)}>")
    assert invitation["List-Unsubscribe-Post"] is None


def test_invitations_need_a_confirmed_seat(post: Post) -> None:
    ann, _ = post.seat(ANN, "new testcards players 3")
    result = post.send(ANN, f"invite testcards-t1 dora@players.test {ann}")
    assert result.status == "rejected"
    subject, body = post.answer(result)
    assert subject == "[testcards-t1] No invitation was sent"
    assert "Only a player with a confirmed seat at [testcards-t1] invites others to it." in body
    _, body = post.answer(post.send(BEN, "invite testcards-t1"))
    assert "Write the table and the address: invite TAG name@example.org" in body


def test_an_address_that_said_never_gets_no_mail(post: Post, factory: SessionFactory) -> None:
    assert post.never(CY).queued == []
    asked = mails_to(factory, CY)
    ann, _ = post.seat(ANN, "new testcards players 3")
    post.send(ANN, f"confirm {ann}")
    answer = post.send(ANN, f"invite testcards-t1 {CY} {ann}")
    assert [to for to, _ in post.answers(answer)] == [ANN]
    for body in ("join testcards-t1", "games", "new testcards", "help", "confirm ABCD-EFGH"):
        post.send(CY, body)
    assert mails_to(factory, CY) == asked == 1  # the mail that asked first
    with factory() as s:
        kept = s.exec(select(NeverMail)).one()
        assert CY not in kept.address_hash and "cy" not in kept.address_hash


def test_a_forged_join_mails_its_victim_within_the_unproven_limits(
        post: Post, factory: SessionFactory) -> None:
    post.seat(ANN, "new testcards players 4")
    for _ in range(50):  # someone joins and leaves as Ben, again and again
        post.send(BEN, "join testcards-t1")
        post.send(BEN, "leave testcards-t1")
    assert mails_to(factory, BEN) == 3  # [limits] unverified_replies_per_hour
    with factory() as s:
        kinds = s.exec(select(OutboundMessage.kind).where(
            OutboundMessage.to_addr == BEN).order_by(col(OutboundMessage.id))).all()
    assert set(kinds) == {"lobby"}


def test_never_drops_the_mail_waiting_but_not_a_game_the_address_plays(
        post: Post, factory: SessionFactory, smtp_server: SmtpTestServer) -> None:
    """The answer holds from the moment it is read: mail to that address already waiting in
    the outbox is dropped, not sent. A game the operator then sets up with that address is
    mailed: a mark never silences a player of a game still played."""
    from pbem.ops import api

    post.send(CY, "games")  # its answer waits in the outbox
    post.never(CY)
    smtp = SmtpSender(smtp_server.settings)
    assert deliver_outbox(factory, smtp, post.host).sent == 0
    with factory() as s:
        api.create_game(s, "testcards", [("Ann", ANN), ("Cy", CY)], host=post.host)
        s.commit()
    done = deliver_outbox(factory, smtp, post.host)
    assert (done.sent, done.failed) == (2, 0)
    assert sorted(r.rcpt_tos[0] for r in smtp_server.received) == [ANN, CY]
    with factory() as s:
        rows = s.exec(select(OutboundMessage).order_by(col(OutboundMessage.id))).all()
        assert [(r.to_addr, r.kind, r.status) for r in rows] == [
            (CY, "lobby", "dropped"), (CY, "lobby-never", "dropped"), (ANN, "welcome", "sent"),
            (CY, "welcome", "sent")]
        assert rows[0].last_error == "the address answered never: no mail to it"


def test_a_forged_leave_start_or_invite_changes_nothing_and_mails_within_the_unproven_limits(
        post: Post, factory: SessionFactory) -> None:
    """Ann holds a confirmed seat and opened the table: someone writing her From line, without
    her seat's code, can neither give it back, start the table nor invite anyone, and the
    answers to her count as answers to an unproven sender."""
    ann, _ = post.seat(ANN, "new testcards players 3")
    post.send(ANN, f"confirm {ann}")
    ben, _ = post.seat(BEN, "join testcards-t1")
    post.send(BEN, f"confirm {ben}")
    for _ in range(10):
        for line in ("leave testcards-t1", "start testcards-t1",
                     "invite testcards-t1 dora@players.test", "leave testcards-t1 ABCD-EFGH"):
            assert post.send(ANN, line).status == "rejected"
    assert mails_to(factory, "dora@players.test") == 0
    with factory() as s:
        assert s.exec(select(Game)).all() == []
        assert s.exec(select(LobbyTable)).one().status == "open"
        assert len(s.exec(select(LobbySeat)).all()) == 2
        assert len(s.exec(select(LobbyInvite)).all()) == 0
        kinds = s.exec(select(OutboundMessage.kind).where(
            OutboundMessage.to_addr == ANN).order_by(col(OutboundMessage.id))).all()
    # Her "new" answer, her confirmation (proven), then the forged mails' answers until the
    # unproven ones make [limits] unverified_replies_per_hour (3) in the hour.
    assert kinds == ["lobby", "lobby-known", "lobby", "lobby"]
    # With the code (a reply to her seat's mail), the same address is answered as proven.
    result = post.send(ANN, "start", subject=f"Re: [testcards-t1] code {ann}")
    assert result.status == "applied" and len(post.answers(result)) == 2
