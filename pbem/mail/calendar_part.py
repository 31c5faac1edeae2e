"""A deadline as an iCalendar part (RFC 5545, ``METHOD:PUBLISH``) and the mail that carries it.

:func:`calendar_part` writes the events; :func:`with_calendar` adds that part to a mail
already written, as the last part of a ``multipart/mixed`` around the mail's own body, so
the writer of the mail itself needs to know nothing of calendars.

An event's UID stays the same for one seat's wait in one turn: a later mail with the same
UID and a higher SEQUENCE (a vacation moved the deadline) updates the entry in the reader's
calendar instead of adding one. An event published ``cancelled`` replaces the entry of a
turn that moved on, its alarm with it.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from icalendar import Alarm, Calendar, Event

PRODID = "-//pbem//play-by-email deadlines//EN"
FILENAME = "deadline.ics"
ZONE_MARGIN = timedelta(days=7)  # the time zone's rules from this long before the events
ZONE_SPAN = timedelta(days=366)  # to this long after them (a deadline moved much later)

Part = tuple[str, bytes]  # a MIME part's header lines and its body


@dataclass(frozen=True)
class DeadlineEvent:
    """One seat's deadline in one turn, as its reader's calendar shows it."""

    uid: str
    sequence: int  # higher in each mail that changes the entry
    stamp: datetime  # when this version was written (DTSTAMP)
    due: datetime  # the deadline (aware)
    zone: str  # the reader's IANA time zone: the event is shown in it
    summary: str
    description: str
    alarm_before: timedelta | None = None  # when the reminder comes, before ``due``
    alarm_text: str = ""
    cancelled: bool = False  # the turn moved on: the entry is withdrawn, its alarm too


def _event(deadline: DeadlineEvent) -> Event:
    event = Event()
    event.add("uid", deadline.uid)
    event.add("sequence", deadline.sequence)
    event.add("dtstamp", deadline.stamp.astimezone(UTC))
    # A moment, not a stretch of time: no DTEND, and it never makes the reader busy.
    event.add("dtstart", deadline.due.astimezone(ZoneInfo(deadline.zone)))
    event.add("summary", deadline.summary)
    event.add("description", deadline.description)
    event.add("transp", "TRANSPARENT")
    event.add("status", "CANCELLED" if deadline.cancelled else "CONFIRMED")
    if deadline.alarm_before is not None and not deadline.cancelled:
        alarm = Alarm()
        alarm.add("action", "DISPLAY")
        alarm.add("description", deadline.alarm_text or deadline.summary)
        alarm.add("trigger", -deadline.alarm_before)
        event.add_component(alarm)
    return event


def calendar_text(events: Sequence[DeadlineEvent]) -> bytes:
    """The iCalendar object holding ``events``, with the VTIMEZONE of each zone they use."""
    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("method", "PUBLISH")
    for deadline in events:
        cal.add_component(_event(deadline))
    if events:
        # The zone's rules around the events only: its whole history since 1970 would be
        # most of the mail's calendar part (Europe/Paris: 3 kB of past changes).
        first = min(min(e.stamp, e.due) for e in events) - ZONE_MARGIN
        last = max(e.due for e in events) + ZONE_SPAN
        cal.add_missing_timezones(first_date=first.date(), last_date=last.date())
    return cal.to_ical()


def calendar_part(events: Sequence[DeadlineEvent]) -> Part:
    """The ``text/calendar; method=PUBLISH`` part: its lines (folded at 75 octets by the
    iCalendar writer, so within a mail line) end as the mail's do; the transport's CRLF
    brings back the line ends RFC 5545 asks for."""
    body = calendar_text(events).replace(b"\r\n", b"\n")
    cte = "7bit" if body.isascii() else "8bit"
    return (f'Content-Type: text/calendar; charset="utf-8"; method=PUBLISH\n'
            f"Content-Transfer-Encoding: {cte}\n"
            f'Content-Disposition: attachment; filename="{FILENAME}"\n'), body


def _fields(head: bytes) -> list[bytes]:
    """A header block's fields, each with its continuation lines."""
    fields: list[bytes] = []
    for line in head.splitlines(keepends=True):
        if fields and line[:1] in (b" ", b"\t"):
            fields[-1] += line
        else:
            fields.append(line)
    return fields


def _is_content(field: bytes) -> bool:
    """A field that describes the body (it moves to the body's own part)."""
    name = field.split(b":", 1)[0].strip().lower()
    return name.startswith(b"content-") and name != b"content-language"


def with_calendar(raw: bytes, part: Part) -> bytes:
    """``raw`` (a mail written with ``\\n`` line ends) with ``part`` attached: its body
    becomes the first part of a ``multipart/mixed``, every other header kept as it was."""
    end = raw.find(b"\n\n")
    if end < 0:
        raise ValueError("a mail without a body")
    fields = _fields(raw[:end + 1])
    own = b"".join(f for f in fields if _is_content(f))
    body = raw[end + 2:]
    head, calendar = part
    boundary = _boundary([body, calendar])
    mark = f"--{boundary}\n".encode("ascii")
    mixed = (mark + own + b"\n" + body + (b"" if body.endswith(b"\n") else b"\n") + b"\n"
             + mark + head.encode("ascii") + b"\n" + calendar + b"\n"
             + f"--{boundary}--\n".encode("ascii"))
    top = b"".join(f for f in fields if not _is_content(f))
    return (top + f'Content-Type: multipart/mixed;\n boundary="{boundary}"\n\n'.encode("ascii")
            + mixed)


def _boundary(bodies: Sequence[bytes]) -> str:
    while True:
        boundary = "=" * 15 + f"{random.randrange(sys.maxsize):019d}" + "=="
        if not any(f"--{boundary}".encode("ascii") in body for body in bodies):
            return boundary
