"""A mail is read once on its way through the pipeline, on the failure path too: the duplicate
check, the quarantine record (its key and what it shows of itself) and the note to its sender
all take the mail as read, not its bytes to read again."""

from __future__ import annotations

from collections.abc import Iterator
from email.message import Message

import pytest
from sqlmodel import select

from pbem.mail import reading
from pbem.ops import api
from pbem.pipeline.one_mail import process_raw, reprocess
from pbem.settings.host import Host
from pbem.store import Seat, SessionFactory, Snapshot
from tests.pipeline.conftest import ALICE, BOB, Table, queued_mails
from tests.support.playermail import mail


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[bytes]]:
    """Every mail the reader takes apart, as it is handed over (the real reader reads it)."""
    seen: list[bytes] = []
    real = reading._parse

    def counted(raw: bytes) -> tuple[Message, str]:
        seen.append(raw)
        return real(raw)

    monkeypatch.setattr(reading, "_parse", counted)
    yield seen


def break_the_game(factory: SessionFactory, table: Table) -> None:
    """A state the game cannot read: a bug, as the pipeline sees it."""
    with factory() as s:
        snap = s.exec(select(Snapshot).where(Snapshot.game_id == table.game_id)).one()
        snap.state_json = "{}"
        s.add(snap)
        s.commit()


def test_a_mail_the_host_fails_on_is_read_once_then_kept_and_answered(
        factory: SessionFactory, host: Host, table: Table, reads: list[bytes]) -> None:
    break_the_game(factory, table)
    welcomed = [to for to, _ in queued_mails(factory)].count(ALICE)
    raw = mail(ALICE, f"Re: [{table.tag}] my move", f"play 1\nsecret {table.secrets[0]}")
    result = process_raw(factory, raw, host)
    assert result.status == "quarantined"
    assert reads == [raw]  # the pipeline's one reading; none on the way to the quarantine
    with factory() as s:
        (row,) = api.quarantine_list(s)
        seat = s.exec(select(Seat).where(Seat.address == ALICE)).one()
    # What the one reading gave reached the record and the note to the sender.
    assert (row.from_addr, row.game_id, row.secret_seat) == (ALICE, table.game_id, seat.index)
    assert row.subject == f"Re: [{table.tag}] my move"
    assert [to for to, _ in queued_mails(factory)].count(ALICE) == welcomed + 1


def test_a_reprocessed_mail_is_read_once_too(factory: SessionFactory, host: Host, table: Table,
                                             reads: list[bytes]) -> None:
    break_the_game(factory, table)
    raw = mail(BOB, f"Re: [{table.tag}] my move", f"play 1\nsecret {table.secrets[1]}")
    first = process_raw(factory, raw, host)
    assert first.status == "quarantined" and first.inbound_id is not None
    reads.clear()
    again = reprocess(factory, first.inbound_id, host)
    assert again.status == "quarantined"
    assert len(reads) == 1  # the stored copy, read once
