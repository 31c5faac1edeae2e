"""The calendar part and the mail it is attached to, without the pipeline."""

from __future__ import annotations

import email
from datetime import UTC, datetime, timedelta
from email import policy
from email.message import EmailMessage
from typing import Any
from zoneinfo import ZoneInfo

import icalendar
import vobject

from pbem.mail.calendar_part import DeadlineEvent, calendar_part, with_calendar
from pbem.mail.compose import compose

DUE = datetime(2026, 7, 1, 16, 0, tzinfo=UTC)


def event(**changed: object) -> DeadlineEvent:
    fields: dict[str, object] = dict(
        uid="abc@host.test", sequence=2, stamp=datetime(2026, 6, 28, 9, 0, tzinfo=UTC),
        due=DUE, zone="America/New_York", summary="[reef-1] Récif: ton coup",
        description="Réponds au dernier courriel.", alarm_before=timedelta(hours=6),
        alarm_text="Bientôt")
    fields.update(changed)
    return DeadlineEvent(**fields)  # type: ignore[arg-type]


def parsed(raw: bytes) -> EmailMessage:
    msg = email.message_from_bytes(raw, policy=policy.default)
    assert isinstance(msg, EmailMessage)
    return msg


def test_the_part_is_read_alike_by_two_parsers() -> None:
    head, body = calendar_part([event()])
    assert head.startswith('Content-Type: text/calendar; charset="utf-8"; method=PUBLISH\n')
    assert "Content-Transfer-Encoding: 8bit" in head  # accents: 8bit, lines within 78
    assert max(map(len, body.splitlines())) <= 78 and b"\r" not in body
    cal = icalendar.Calendar.from_ical(body.decode())
    vevent: Any
    [vevent] = cal.walk("VEVENT")
    assert vevent.start == DUE.astimezone(ZoneInfo("America/New_York"))
    assert str(vevent["SUMMARY"]) == "[reef-1] Récif: ton coup"
    assert int(vevent["SEQUENCE"]) == 2
    other = vobject.readOne(body.decode())
    assert other.vevent.dtstart.value == datetime(2026, 7, 1, 12, 0,
                                                  tzinfo=ZoneInfo("America/New_York"))
    assert other.vevent.valarm.trigger.value == -timedelta(hours=6)


def test_a_cancelled_event_has_no_alarm() -> None:
    _, body = calendar_part([event(cancelled=True)])
    [vevent] = icalendar.Calendar.from_ical(body.decode()).walk("VEVENT")
    assert vevent["STATUS"] == "CANCELLED" and not vevent.walk("VALARM")


def test_attaching_keeps_the_mail_and_its_headers() -> None:
    raw = compose(from_addr="games@host.test", to_addr="ann@players.test",
                  subject="[reef-1] Turn 3 — your move", text="Your move.\n",
                  html="<p>Your move.</p>", language="fr",
                  in_reply_to="<a@players.test>", list_id="reef-1 <reef-1.host.test>").raw
    before = parsed(raw)
    after = parsed(with_calendar(raw, calendar_part([event()])))
    for name in ("From", "To", "Subject", "Date", "Message-ID", "In-Reply-To", "References",
                 "List-Id", "Auto-Submitted", "Content-Language", "MIME-Version"):
        assert after[name] == before[name], name
    assert after.get_content_type() == "multipart/mixed"
    first, calendar = after.iter_parts()
    assert first.get_content_type() == "multipart/alternative"
    assert after.get_body(("plain",)).get_content() == "Your move.\n"  # type: ignore[union-attr]
    assert calendar.get_content_type() == "text/calendar"
    assert calendar.get_param("method") == "PUBLISH"
    assert "BEGIN:VEVENT" in calendar.get_content()


def test_attaching_to_a_single_text_part() -> None:
    raw = compose(from_addr="games@host.test", to_addr="ann@players.test",
                  subject="note", text="Ça va.\n").raw
    after = parsed(with_calendar(raw, calendar_part([event()])))
    first, _ = after.iter_parts()
    assert first.get_content_type() == "text/plain"
    assert first.get_content() == "Ça va.\n"
