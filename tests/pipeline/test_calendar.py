"""Deadlines in the calendar: each "your move" mail with a deadline carries an iCalendar event,
read back from the outbox after real mails, by icalendar and by vobject (another parser)."""

from __future__ import annotations

import email
from datetime import datetime, timedelta
from email import policy
from email.message import EmailMessage
from typing import Any
from zoneinfo import ZoneInfo

import icalendar
import vobject
from sqlmodel import select

from pbem.i18n import translator
from pbem.ops import api
from pbem.pipeline.handlers.help import help_lines
from pbem.pipeline.one_mail import process_raw
from pbem.settings.host import Host
from pbem.store import SessionFactory
from pbem.store.tables import Player, Seat
from tests.pipeline.clocked import (
    START,
    FakeClock,
    Sent,
    clocked_host,
    flat,
    last_id,
    new_game,
    outbound,
    send,
)
from tests.pipeline.conftest import ALICE, BOB, Table, hand
from tests.support.playermail import mail

PARIS = ZoneInfo("Europe/Paris")
DUE = START + timedelta(hours=72)  # 2026-11-26 12:00 UTC, 13:00 in Paris


def calendar_parts(msg: EmailMessage) -> list[EmailMessage]:
    return [p for p in msg.walk() if p.get_content_type() == "text/calendar"]


def events(sent: Sent) -> list[Any]:
    """The VEVENTs of the mail's one calendar part, as icalendar reads them."""
    [part] = calendar_parts(sent.msg)
    assert part.get_param("method") == "PUBLISH"
    cal = icalendar.Calendar.from_ical(part.get_content())
    assert cal["METHOD"] == "PUBLISH"
    return list(cal.walk("VEVENT"))


def second_parser(sent: Sent) -> Any:
    """The same part read by vobject, which shares no code with icalendar."""
    [part] = calendar_parts(sent.msg)
    return vobject.readOne(part.get_content())


def to(who: str, since: int, factory: SessionFactory) -> list[Sent]:
    return [m for m in outbound(factory, since) if m.to == who]


def play(factory: SessionFactory, host: Host, table: Table, seat: int) -> None:
    result = send(factory, host, table, seat, f"play {hand(factory, table, seat)[0]}")
    assert result.status == "applied", result.reason


def paris_game(factory: SessionFactory) -> tuple[FakeClock, Host, Table]:
    clock = FakeClock()
    host = clocked_host(clock)
    table = new_game(factory, host, deadline_hours=72, reminder_hours=24)
    assert send(factory, host, table, 0, "timezone Europe/Paris").status == "applied"
    return clock, host, table


def test_a_move_mail_carries_the_deadline_in_the_seats_zone_and_updates_one_entry(
        factory: SessionFactory) -> None:
    clock, host, table = paris_game(factory)
    before = last_id(factory)
    play(factory, host, table, 1)  # Bob moves: Alice's "your move" mail
    [first] = to(ALICE, before, factory)
    assert "your move (due" in str(first.msg["Subject"])
    [event] = events(first)
    assert event.start == DUE.astimezone(PARIS)
    assert event.start.tzinfo is not None and str(event["DTSTART"].params["TZID"]) \
        == "Europe/Paris"
    assert event.start.utcoffset() == timedelta(hours=1)
    assert event["STATUS"] == "CONFIRMED" and int(event["SEQUENCE"]) == 0
    assert "[" + table.tag + "]" in str(event["SUMMARY"])
    assert "2026-11-26 13:00 CET" in str(event["DESCRIPTION"])
    [alarm] = event.walk("VALARM")
    assert alarm["TRIGGER"].dt == -timedelta(hours=24)  # the game's reminder time
    assert alarm["ACTION"] == "DISPLAY"
    # vobject: the same moment, the same zone, the same alarm
    other = second_parser(first)
    assert other.vevent.dtstart.value == datetime(2026, 11, 26, 13, 0, tzinfo=PARIS)
    assert other.vevent.dtstart.value.utcoffset() == timedelta(hours=1)
    assert other.vevent.uid.value == str(event["UID"])
    assert other.vevent.valarm.trigger.value == -timedelta(hours=24)
    assert other.vtimezone.tzid.value == "Europe/Paris"

    # The same turn, mailed again later: the same entry (same UID, newer DTSTAMP).
    clock.advance(hours=1)
    before = last_id(factory)
    assert send(factory, host, table, 0, "status").status == "ignored"
    [again] = to(ALICE, before, factory)
    [same] = events(again)
    assert same["UID"] == event["UID"]
    assert same["DTSTAMP"].dt > event["DTSTAMP"].dt
    assert same.start == event.start and int(same["SEQUENCE"]) == 0

    # Alice moves: the round ends, her next turn is a new entry; the played one is
    # published again, cancelled, with a higher SEQUENCE and no alarm.
    clock.advance(hours=1)
    before = last_id(factory)
    play(factory, host, table, 0)
    [reply] = to(ALICE, before, factory)
    cancelled, following = events(reply)
    assert cancelled["UID"] == event["UID"] and cancelled["STATUS"] == "CANCELLED"
    assert int(cancelled["SEQUENCE"]) == 1 and not cancelled.walk("VALARM")
    assert following["UID"] != event["UID"] and following["STATUS"] == "CONFIRMED"
    assert following.start == (START + timedelta(hours=2 + 72)).astimezone(PARIS)
    read = second_parser(reply)
    assert [v.uid.value for v in read.vevent_list] == [str(cancelled["UID"]),
                                                       str(following["UID"])]
    assert read.vevent_list[0].status.value == "CANCELLED"


def test_a_vacation_moves_the_entry_with_a_higher_sequence(factory: SessionFactory) -> None:
    _, host, table = paris_game(factory)
    before = last_id(factory)
    play(factory, host, table, 1)
    [first] = events(to(ALICE, before, factory)[0])
    assert send(factory, host, table, 0, "vacation until 2026-11-25").status == "applied"
    before = last_id(factory)
    send(factory, host, table, 0, "status")
    [moved] = events(to(ALICE, before, factory)[0])
    assert moved["UID"] == first["UID"] and int(moved["SEQUENCE"]) == 1
    # 36 hours away from midnight 2026-11-25 (Paris: one hour later) move the deadline
    assert moved.start == datetime(2026, 11, 28, 1, 0, tzinfo=PARIS)


def test_no_calendar_without_a_deadline(factory: SessionFactory) -> None:
    host = clocked_host(FakeClock())
    table = new_game(factory, host)
    before = last_id(factory)
    play(factory, host, table, 1)
    [mail_to_alice] = to(ALICE, before, factory)
    assert "your move" in str(mail_to_alice.msg["Subject"])
    assert calendar_parts(mail_to_alice.msg) == []
    assert mail_to_alice.msg.get_content_type() == "multipart/alternative"


def test_calendar_off_and_on_by_mail(factory: SessionFactory) -> None:
    _, host, table = paris_game(factory)
    before = last_id(factory)
    result = send(factory, host, table, 0, "calendar off")
    assert (result.status, result.reason) == ("applied", "calendar off")
    [reply] = to(ALICE, before, factory)
    assert "Calendar setting changed" in str(reply.msg["Subject"])
    assert ("Your \"your move\" mails no longer carry a calendar event, in every game. "
            "\"calendar on\" turns them on again." in flat(reply.text))
    before = last_id(factory)
    play(factory, host, table, 1)
    [status] = to(ALICE, before, factory)
    assert "your move (due" in str(status.msg["Subject"]) and calendar_parts(status.msg) == []
    before = last_id(factory)
    play(factory, host, table, 0)  # Bob's setting is his own: his next move has its event
    assert [e["STATUS"] for e in events(to(BOB, before, factory)[0])] == ["CONFIRMED"]
    before = last_id(factory)
    assert send(factory, host, table, 0, "calendar on").status == "applied"
    assert ("Your \"your move\" mails now carry the deadline as a calendar event, with an "
            "alarm at the reminder time" in flat(to(ALICE, before, factory)[0].text))
    before = last_id(factory)
    send(factory, host, table, 0, "status")
    [event] = events(to(ALICE, before, factory)[0])
    assert event.start == (START + timedelta(hours=72)).astimezone(PARIS)


def test_a_bad_calendar_setting_is_answered_and_changes_nothing(
        factory: SessionFactory) -> None:
    _, host, table = paris_game(factory)
    assert send(factory, host, table, 0, "calendar off").status == "applied"
    before = last_id(factory)
    result = send(factory, host, table, 0, "calendar sometimes")
    assert (result.status, result.reason) == ("rejected", "bad calendar setting")
    [reply] = to(ALICE, before, factory)
    assert "Your \"calendar\" was not done" in str(reply.msg["Subject"])
    assert ("\"calendar sometimes\" is not understood: write \"calendar off\" for no calendar "
            "event in your mails, or \"calendar on\" to have them again. Your setting stays "
            "\"calendar off\"." in flat(reply.text))
    before = last_id(factory)
    send(factory, host, table, 0, "calendar")
    assert "\"calendar\" is not understood" in flat(to(ALICE, before, factory)[0].text)
    with factory() as s:
        player = s.exec(select(Player).where(Player.address == ALICE)).one()
        assert player.calendar_off  # untouched


def test_calendar_in_french_and_to_the_host_itself(factory: SessionFactory) -> None:
    _, host, table = paris_game(factory)
    assert send(factory, host, table, 0, "langue fr").status == "applied"
    before = last_id(factory)
    result = send(factory, host, table, 0, "calendrier peut-être")
    assert result.status == "rejected"
    assert ("« calendrier peut-être » n'est pas compris : écrivez « calendrier non » pour ne "
            "plus recevoir d'événement d'agenda dans vos courriels, ou « calendrier oui » pour "
            "les recevoir à nouveau." in flat(to(ALICE, before, factory)[0].text))
    # To the host itself, without a game's tag, with a seat's secret: the same profile.
    before = last_id(factory)
    raw = mail(ALICE, "profile", f"calendrier non\nsecret {table.secrets[0]}")
    assert process_raw(factory, raw, host).reason == "calendar off"
    assert "« calendrier oui » les rétablit" in flat(to(ALICE, before, factory)[0].text)
    before = last_id(factory)
    play(factory, host, table, 1)
    [status] = to(ALICE, before, factory)
    assert "à vous de jouer (avant" in str(status.msg["Subject"])
    assert calendar_parts(status.msg) == []


def test_the_event_speaks_the_seats_language(factory: SessionFactory) -> None:
    _, host, table = paris_game(factory)
    assert send(factory, host, table, 0, "sprache de").status == "applied"
    before = last_id(factory)
    play(factory, host, table, 1)
    [event] = events(to(ALICE, before, factory)[0])
    assert str(event["SUMMARY"]) == f"[{table.tag}] Test Cards: dein Zug in Runde 2 ist fällig"
    assert "fällig" in str(event.walk("VALARM")[0]["DESCRIPTION"])


def test_the_calendar_part_is_small_and_leaves_the_mail_whole(factory: SessionFactory) -> None:
    _, host, table = paris_game(factory)
    before = last_id(factory)
    play(factory, host, table, 1)
    [sent] = to(ALICE, before, factory)
    [part] = calendar_parts(sent.msg)
    assert len(part.get_content().encode()) < 2500
    assert sent.msg.get_content_type() == "multipart/mixed"
    assert sent.msg.get_body(("html",)) is not None and sent.msg["Message-ID"]
    assert part.get_filename() == "deadline.ics"
    with factory() as s:  # the seat knows which entry its calendar holds
        seat = s.exec(select(Seat).where(Seat.game_id == table.game_id, Seat.index == 0)).one()
        assert seat.calendar_uid == str(events(sent)[0]["UID"])


def test_the_games_end_withdraws_the_last_entry(factory: SessionFactory) -> None:
    _, host, table = paris_game(factory)
    for _ in range(2):  # two rounds: the game ends
        play(factory, host, table, 1)
        play(factory, host, table, 0)
    with factory() as s:
        game = api.get_game(s, table.game_id)
        assert game.status == "finished"
        seat = s.exec(select(Seat).where(Seat.game_id == table.game_id, Seat.index == 0)).one()
        assert seat.calendar_uid is None  # the last entry was withdrawn with the game's end


def test_help_lists_the_calendar_setting_in_every_language() -> None:
    said = {lang: "\n".join(help_lines(translator(lang))) for lang in ("en", "fr", "de", "it",
                                                                      "nl")}
    assert "calendar off" in said["en"] and "(\"calendar on\": again)" in said["en"]
    assert "calendrier non" in said["fr"] and "kalender aus" in said["de"]
    assert "calendario no" in said["it"] and "agenda uit" in said["nl"]


def test_the_welcome_keeps_its_event_once_its_secret_is_blanked(factory: SessionFactory) -> None:
    from pbem.ops.api import ClockSettings
    from pbem.store import OutboundMessage

    host = clocked_host(FakeClock())
    with factory() as s:
        game, secrets = api.create_game(s, "testcards", [("Alice", ALICE), ("Bob", BOB)],
                                        host=host, clocks=ClockSettings(deadline_hours=48,
                                                             reminder_hours=12),
                                        now=host.clock())
        s.commit()
        rows = list(s.exec(select(OutboundMessage).where(OutboundMessage.game_id == game.id)))
    assert [r.kind for r in rows] == ["welcome", "welcome"]
    for row, secret in zip(rows, secrets, strict=True):
        assert secret.encode() in row.raw and row.raw_once_sent is not None
        assert secret.encode() not in row.raw_once_sent
        for raw in (row.raw, row.raw_once_sent):
            sent = Sent(row.to_addr, row.kind, "", email.message_from_bytes(
                raw, policy=policy.default))
            [event] = events(sent)
            assert event.start == START + timedelta(hours=48)
            assert event.walk("VALARM")[0]["TRIGGER"].dt == -timedelta(hours=12)
