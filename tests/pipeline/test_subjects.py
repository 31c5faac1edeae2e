"""Subjects say what each mail is for; replies keep the thread and never stack ``Re:``."""

from __future__ import annotations

import email
import re
from datetime import UTC, datetime
from email import policy
from email.message import EmailMessage

from sqlmodel import select

from pbem.ops import api
from pbem.pipeline.one_mail import Result, process_raw
from pbem.pipeline.outgoing import due_day
from pbem.settings.host import Host
from pbem.store import OutboundMessage, SessionFactory
from tests.pipeline.conftest import ALICE, BOB, Table, hand
from tests.support.playermail import mail
from tests.support.seated import seat_table


def sent(factory: SessionFactory, result: Result) -> dict[str, EmailMessage]:
    """Each queued mail of ``result`` by recipient, parsed."""
    out = {}
    with factory() as s:
        for q in result.queued:
            row = s.get(OutboundMessage, q)
            assert row is not None
            msg = email.message_from_bytes(row.raw, policy=policy.default)
            assert isinstance(msg, EmailMessage)
            out[row.to_addr] = msg
    return out


def test_welcome_subject_names_the_turn_and_the_move(factory: SessionFactory,
                                                     host: Host) -> None:
    with factory() as s:
        game, _ = api.create_game(s, "testcards", [("Alice", ALICE), ("Bob", BOB)],
                                  seed="subjects", host=host)
        s.commit()
        rows = s.exec(select(OutboundMessage)).all()
        subjects = {r.to_addr: str(email.message_from_bytes(r.raw, policy=policy.default)
                                   ["Subject"]) for r in rows}
    assert subjects == {ALICE: f"[{game.tag}] Welcome to Test Cards: Turn 1 — your move",
                        BOB: f"[{game.tag}] Welcome to Test Cards: Turn 1 — your move"}


def test_accepted_orders_and_the_others_status_are_told_apart(
        factory: SessionFactory, host: Host, table: Table) -> None:
    card = hand(factory, table, 0)[0]
    raw = mail(ALICE, f"Re: RE : AW: [{table.tag}] Turn 1 — your move",
               f"play {card}\nsecret {table.secrets[0]}", message_id="<m1@players.test>")
    result = process_raw(factory, raw, host)
    assert result.status == "applied"
    out = sent(factory, result)
    assert out[ALICE]["Subject"] == f"[{table.tag}] Orders accepted"
    assert out[ALICE]["In-Reply-To"] == "<m1@players.test>"
    assert "<m1@players.test>" in out[ALICE]["References"]
    # Bob still owes this (simultaneous) round's card: his mail says his move is due.
    assert out[BOB]["Subject"] == f"[{table.tag}] Turn 2 — your move"
    assert out[BOB]["In-Reply-To"] is None


def test_a_reply_whose_sender_moves_again_says_only_the_move(factory: SessionFactory) -> None:
    """Not "Orders accepted: Turn 3 — your move": the move owed is what the inbox must
    show; the body says the orders were accepted."""
    table = seat_table(factory, "testcards")
    for _ in range(2):
        state = table.state()
        seat = min(table.rules.waiting_for(state))
        result, text = table.send(seat, table.rules.default_order(state, seat))
        assert result.status == "applied"
    assert seat in table.rules.waiting_for(table.state())  # Bob leads the next round
    out = sent(factory, result)
    subject = str(out["ben@players.test"]["Subject"])
    assert re.fullmatch(rf"\[{table.tag}\] Turn \d+ — your move", subject), subject
    assert "Your orders were played" in text  # the body confirms them


def test_refused_order_subject_names_the_line_of_the_mail(
        factory: SessionFactory, host: Host, table: Table) -> None:
    raw = mail(ALICE, f"[{table.tag}]", f"secret {table.secrets[0]}\nplay seven",
               message_id="<bad@players.test>")
    result = process_raw(factory, raw, host)
    [reply] = sent(factory, result).values()
    assert reply["Subject"] == f"[{table.tag}] Order refused: line 2"
    assert reply["In-Reply-To"] == "<bad@players.test>"


def test_game_over_subject_names_the_winner(factory: SessionFactory, host: Host,
                                            table: Table) -> None:
    result = None
    for _ in range(2):  # two rounds, both seats play their highest card
        for seat, who in ((0, ALICE), (1, BOB)):
            raw = mail(who, f"[{table.tag}]",
                       f"play {max(hand(factory, table, seat))}\nsecret {table.secrets[seat]}")
            result = process_raw(factory, raw, host)
            assert result.status == "applied", result.reason
    assert result is not None
    subjects = {to: str(m["Subject"]) for to, m in sent(factory, result).items()}
    assert set(subjects.values()) in ({f"[{table.tag}] Game over — Alice wins"},
                                      {f"[{table.tag}] Game over — Bob wins"},
                                      {f"[{table.tag}] Game over — Alice and Bob share "
                                       "first place"})


def test_deadline_reads_short_in_a_subject() -> None:
    assert due_day(datetime(2026, 11, 26, 18, 0, tzinfo=UTC)) == "Thu 26 Nov 18:00 UTC"


def test_deadline_shows_in_the_movers_subject(factory: SessionFactory, host: Host) -> None:
    start = datetime(2026, 11, 23, 18, 0, tzinfo=UTC)
    with factory() as s:
        game, _ = api.create_game(s, "testcards", [("Alice", ALICE), ("Bob", BOB)],
                                  seed="due", host=host, now=start,
                                  clocks=api.ClockSettings(deadline_hours=72))
        s.commit()
        row = s.exec(select(OutboundMessage)).first()
        assert row is not None
        subject = str(email.message_from_bytes(row.raw, policy=policy.default)["Subject"])
    assert subject == (f"[{game.tag}] Welcome to Test Cards: Turn 1 — your move "
                       "(due Thu 26 Nov 18:00 UTC)")


def test_every_reply_says_what_it_is_and_keeps_the_thread(
        factory: SessionFactory, host: Host, table: Table) -> None:
    card = hand(factory, table, 0)[0]
    assert process_raw(factory, mail(ALICE, f"[{table.tag}]", f"play {card}\nsecret "
                                     f"{table.secrets[0]}"), host).status == "applied"
    tagless, tagged = "Re: my mail", f"Re: [{table.tag}] my mail"
    game = f"[{table.tag}] "
    # A mail naming no game is read for the sender's one game, but for the commands to the
    # host itself (name, language, timezone, mail): those set the profile unless it names one.
    cases = [
        (ALICE, tagless, f"play 1\nsecret {table.secrets[0]}",
         game + "Not your turn: nothing played"),
        (ALICE, tagless, "help", game + "Help for Test Cards"),
        (BOB, tagless, "play 1", game + "No secret line: nothing played"),
        (BOB, tagless, "play 1\nsecret not-it", game + "Wrong secret: nothing played"),
        (ALICE, tagless, f"log\nsecret {table.secrets[0]}", game + "Game log"),
        (ALICE, tagged, f"mail turn\nsecret {table.secrets[0]}", game + "Mail setting changed"),
        (ALICE, tagless, f"mail turn\nsecret {table.secrets[0]}", "Your profile"),
        (ALICE, tagged, f"language fr\nsecret {table.secrets[0]}", game + "Langue changée"),
        (ALICE, tagless, f"vacation until 2099-01-01\nsecret {table.secrets[0]}",
         game + "Votre « vacances » n'a pas été fait"),
    ]
    for n, (who, title, body, subject) in enumerate(cases):
        mid = f"<subject-{n}@players.test>"
        result = process_raw(factory, mail(who, title, body, message_id=mid), host)
        reply = sent(factory, result)[who]
        assert reply["Subject"] == subject, body
        assert reply["In-Reply-To"] == mid and mid in reply["References"]
