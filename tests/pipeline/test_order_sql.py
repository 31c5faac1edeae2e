"""What one order costs the database: the inbound row written once more after its insert (its
bytes once), the seats read once per move (not once per mail), and each sent mail claimed and
marked without its bytes read back or written again (they live in a table of their own, which
only sending reads). The SQL is counted as the engine runs it."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import event

from pbem.mail.outbound import MaildirSender
from pbem.ops.overview import outbox_lines
from pbem.outbox.delivery import deliver_outbox
from pbem.pipeline.outgoing import queue
from pbem.store import OutboundMessage, SessionFactory
from tests.support.seated import HOST, seat_table


@contextmanager
def statements(factory: SessionFactory) -> Iterator[list[str]]:
    engine = factory().get_bind()
    seen: list[str] = []

    def record(_conn: object, _cursor: object, sql: str, *_a: object) -> None:
        seen.append(" ".join(sql.split()))

    event.listen(engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", record)


def test_an_order_writes_its_inbound_row_twice_and_reads_the_seats_once(
        factory: SessionFactory) -> None:
    table = seat_table(factory, "reef-encounter", players=4)
    rng = random.Random(4)
    for _ in range(3):  # past the setup answers: orders that change the board
        state = table.state()
        for seat in sorted(table.rules.waiting_for(state)):
            with statements(factory) as sql:
                result, _ = table.send(seat, table.rules.random_order(state, seat, rng))
            assert result.status == "applied", result.reason
            assert len(result.queued) >= 1
            inbound = [s for s in sql if re.match(r"(INSERT INTO|UPDATE) inbound_?message",
                                                  s, re.I)]
            assert [s.split()[0] for s in inbound] == ["INSERT", "UPDATE"], inbound
            # the mail's bytes, blanked, written once: never with the row's updates
            assert not [s for s in inbound if re.search(r"\braw\b", s)], inbound
            assert [s.split()[0] for s in sql if re.match(
                r"(INSERT INTO|UPDATE|SELECT .* FROM) inboundbytes", s, re.I)] == ["INSERT"]
            # the mails it queued: their bytes written once, beside their rows
            assert len([s for s in sql if re.match(r"INSERT INTO outboundbytes", s)]) >= 1
            assert not [s for s in sql if re.match(r"INSERT INTO outboundmessage .*\braw\b",
                                                    s)]
            # a game's seats (not the sender's, looked up by address)
            seat_reads = [s for s in sql if re.match(r"SELECT .* FROM seat WHERE", s, re.I)
                          and "seat.address" not in s.partition(" WHERE ")[2]]
            assert len(seat_reads) <= 2, seat_reads  # the move's mails, and its clock
            state = table.state()


def test_a_sent_mail_is_marked_without_reading_or_rewriting_its_bytes(
        factory: SessionFactory, tmp_path: Path) -> None:
    table = seat_table(factory, "reef-encounter", players=4)
    out = MaildirSender(tmp_path / "out")
    for _ in range(12):  # past the setup answers, which mail the mover alone
        state = table.state()
        seat = min(table.rules.waiting_for(state))
        result, _ = table.send(seat, table.rules.default_order(state, seat))
        assert result.status == "applied", result.reason
        if len(result.queued) >= 2:
            break
        deliver_outbox(factory, out, HOST)
    assert len(result.queued) >= 2  # a move that mails several seats: a batch to claim
    with statements(factory) as sql:
        done = deliver_outbox(factory, out, HOST)
    assert done.sent == len(result.queued)
    marks = [s for s in sql if re.match(r"UPDATE outboundmessage SET .*\bsent_at\s*=", s, re.I)]
    assert len(marks) == done.sent  # one mark per mail, each in its own commit
    assert not [s for s in marks if re.search(r"[ ,]raw\s*=", s)]  # the small row alone
    claims = [s for s in sql if re.match(r"SELECT .* FROM outboundmessage", s, re.I)]
    assert len(claims) == 2  # one batch claimed, then an empty claim ends the pass
    # Only sending reads the bytes (once per batch); no claim or mark selects them. Each
    # seat's mail is written once more, as its copy without its reply address's token.
    touching = [s for s in sql if re.search(r"\braw(_once_sent)?\b", s)]
    assert [s.split()[0] for s in touching] == ["SELECT"] + ["UPDATE"] * done.sent, touching
    assert re.match(r"SELECT .* FROM outboundbytes WHERE outboundbytes.id IN", touching[0])
    assert all(re.match(r"UPDATE outboundbytes SET raw=.*, raw_once_sent=", s)
               for s in touching[1:]), touching
    # the batch claimed by one UPDATE (it was one per mail)
    assert len([s for s in sql if re.match(r"UPDATE outboundmessage SET next_attempt_at", s,
                                           re.I)]) == 1
    with factory() as s:
        for q in result.queued:
            row = s.get(OutboundMessage, q)
            assert row is not None and row.status == "sent" and row.attempts == 1
            assert row.sent_at is not None and row.raw_once_sent is None


def test_a_sent_mail_with_nothing_to_blank_keeps_its_bytes(factory: SessionFactory,
                                                           tmp_path: Path) -> None:
    """A mail holding no secret and no reply address (a note to someone with no seat): its
    mark updates the small row alone; its bytes are neither read back nor written again."""
    with factory() as s:
        row = queue(s, HOST, to="ann@example.org", to_name="Ann", subj="Standings",
                    text="board\n", kind="help", game_id=None)
        s.commit()
        assert row.raw_once_sent is None
    with statements(factory) as sql:
        assert deliver_outbox(factory, MaildirSender(tmp_path / "out"), HOST).sent == 1
    touching = [s for s in sql if re.search(r"\braw(_once_sent)?\b", s)]
    assert [s.split()[0] for s in touching] == ["SELECT"], touching


def test_a_sent_secret_is_blanked_in_the_bytes_table_alone(factory: SessionFactory,
                                                           tmp_path: Path) -> None:
    """A mail holding a secret: its mark updates the small row, and its bytes are written
    once more, as the blanked copy (no secret at rest); the row's UPDATE carries no bytes."""
    with factory() as s:
        row = queue(s, HOST, to="ann@example.org", to_name="Ann", subj="Welcome",
                    text="secret S3CR3TS3CR3T\n", kind="welcome", game_id=None,
                    secret="S3CR3TS3CR3T")
        s.commit()
        assert row.raw_once_sent is not None and b"S3CR3TS3CR3T" in row.raw
    with statements(factory) as sql:
        assert deliver_outbox(factory, MaildirSender(tmp_path / "out"), HOST).sent == 1
    assert not [s for s in sql if re.match(r"UPDATE outboundmessage .*\braw", s)]
    blanks = [s for s in sql if re.match(r"UPDATE outboundbytes", s)]
    assert len(blanks) == 1 and "raw_once_sent" in blanks[0]
    with factory() as s:
        kept = s.get(OutboundMessage, row.id)
        assert kept is not None and kept.status == "sent" and kept.raw_once_sent is None
        assert b"S3CR3TS3CR3T" not in kept.raw and b"[secret-removed]" in kept.raw


def test_listing_the_outbox_loads_no_mail_bytes(factory: SessionFactory) -> None:
    with factory() as s:
        queue(s, HOST, to="ann@example.org", to_name="Ann", subj="Turn 3 \u2014 your move",
              text="board\n", kind="status", game_id=None)
        s.commit()
    with statements(factory) as sql, factory() as s:
        lines = outbox_lines(s)
    assert [line.subject for line in lines] == ["Turn 3 \u2014 your move"]
    assert not [s for s in sql if "bytes" in s or re.search(r"\braw\b", s)], sql
