"""Sent mail kept small at rest and exact: each picture stored once however many mails carry
it, put back byte for byte wherever a mail is read, and let go with the last mail using it."""

from __future__ import annotations

import base64
import random
from datetime import timedelta
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import func, select
from sqlmodel import col

from pbem.mail.outbound import MaildirSender
from pbem.ops import retention
from pbem.ops.player_data import forget
from pbem.outbox.delivery import deliver_outbox
from pbem.store import OutboundMessage, SessionFactory, players
from pbem.store.packing import deflate, inflate, join, marks, split
from pbem.store.tables import MailPart, MailPartUse, OutboundBytes, utcnow
from tests.support.db import every_stored_byte


def picture(seed: int, size: int = 30_000) -> bytes:
    """A picture's part body as the MIME writers wrap it: base64 in lines of 76."""
    data = base64.b64encode(random.Random(seed).randbytes(size))
    return b"".join(data[i:i + 76] + b"\n" for i in range(0, len(data), 76))


def status_mail(to: str, *pictures: bytes) -> bytes:
    head = (f"From: games@host.test\nTo: {to}\nSubject: [reef-1] Turn 3\n"
            'Content-Type: multipart/related; boundary="b"\n\n').encode()
    parts = b"".join(b"--b\nContent-Type: image/png\nContent-Transfer-Encoding: base64\n\n"
                     + p + b"\n" for p in pictures)
    return head + b"--b\nContent-Type: text/plain\n\nYour move, " + to.encode() + b".\n" \
        + parts + b"--b--\n"


def queue(factory: SessionFactory, *mails: tuple[str, bytes]) -> list[int]:
    with factory() as s:
        rows = [OutboundMessage(to_addr=to, raw=raw) for to, raw in mails]
        s.add_all(rows)
        s.commit()
        assert [r.raw for r in rows] == [raw for _to, raw in mails]  # in memory: as composed
        return [r.id or 0 for r in rows]


def counts(factory: SessionFactory) -> tuple[int, int]:
    with factory() as s:
        return (s.execute(select(func.count()).select_from(MailPart)).scalar_one(),
                s.execute(select(func.count()).select_from(MailPartUse)).scalar_one())


@given(st.lists(st.one_of(st.binary(max_size=300), st.integers(0, 5).map(
    lambda n: picture(n, 4000))), max_size=6))
def test_split_and_join_give_back_any_bytes_exactly(pieces: list[bytes]) -> None:
    raw = b"".join(pieces)
    skeleton, runs = split(raw)
    assert join(skeleton, runs) == raw
    assert marks(skeleton) == set(runs)
    assert inflate(deflate(raw)) == raw


def test_only_long_base64_runs_are_cut_out() -> None:
    text = b"Your move.\n" + b"word " * 2000 + b"\n"
    assert split(text) == (text, {})
    small = picture(1, 600)  # under the size a row of its own is worth
    assert split(b"x\n" + small) == (b"x\n" + small, {})
    skeleton, runs = split(b"x\n" + picture(2))
    assert len(runs) == 1 and len(skeleton) < 100


def test_a_picture_in_every_seats_mail_is_stored_once_and_sent_exactly(
        factory: SessionFactory, tmp_path: Path) -> None:
    board, ann_hand, bob_hand = picture(1), picture(2), picture(3)
    mails = [("ann@players.test", status_mail("ann@players.test", board, ann_hand)),
             ("bob@players.test", status_mail("bob@players.test", board, bob_hand))]
    ids = queue(factory, *mails)
    assert counts(factory) == (3, 4)
    with factory() as s:
        stored = s.execute(select(func.sum(func.length(OutboundBytes.raw)))).scalar_one()
        assert stored < 1000  # the bytes column holds the text and the marks, compressed
        assert [s.get(OutboundMessage, i).raw for i in ids] == [m for _a, m in mails]  # type: ignore[union-attr]
    assert deliver_outbox(factory, MaildirSender(tmp_path / "out")).sent == 2
    sent = sorted(f.read_bytes() for f in (tmp_path / "out" / "new").iterdir())
    assert sent == sorted(m for _a, m in mails)
    stored_bytes = every_stored_byte(factory)  # a database copy still reads as it is
    assert all(run in stored_bytes for run in split(board)[1].values())


def test_a_picture_goes_with_the_last_mail_that_shows_it(factory: SessionFactory) -> None:
    board = picture(1)
    old = utcnow() - timedelta(days=40)
    ids = queue(factory, ("ann@players.test", status_mail("ann@players.test", board)),
                ("bob@players.test", status_mail("bob@players.test", board, picture(4))))
    with factory() as s:
        for mail_id in ids:
            row = s.get(OutboundMessage, mail_id)
            assert row is not None
            row.status, row.sent_at = "sent", old if mail_id == ids[0] else utcnow()
            s.add(row)
        s.commit()
    with factory() as s:  # as a mail took them long ago
        s.execute(MailPart.__table__.update().values(last_used=old))  # type: ignore[attr-defined]
        s.commit()
    first = retention.prune(factory, sent_days=30, received_days=30)
    assert first.sent.count == 1 and first.parts.count == 0  # bob's mail still shows both
    assert counts(factory) == (2, 2)
    later = retention.prune(factory, sent_days=30, received_days=30,
                            now=utcnow() + timedelta(days=31))
    assert later.sent.count == 1 and later.parts.count == 2
    assert later.parts.bytes > 2 * 20_000
    assert counts(factory) == (0, 0)
    with factory() as s:
        kept = [s.get(OutboundMessage, i) for i in ids]
        assert all(k is not None and k.raw.startswith(b"From: games@host.test\n") and
                   k.raw.endswith(b"\n\n") and k.raw_size and k.raw_size > 30_000
                   for k in kept)


def test_a_picture_taken_within_a_day_stays_for_the_mail_being_stored(
        factory: SessionFactory) -> None:
    board = picture(1)
    old = utcnow() - timedelta(days=40)
    with factory() as s:
        row = OutboundMessage(to_addr="ann@players.test", status="sent", sent_at=old,
                              raw=status_mail("ann@players.test", board))
        s.add(row)
        s.commit()
    assert retention.prune(factory, sent_days=30, received_days=30).parts.count == 0
    assert counts(factory) == (1, 0)  # unused now, but taken today: a new mail may need it
    queue(factory, ("bob@players.test", status_mail("bob@players.test", board)))
    assert counts(factory) == (1, 1)


def test_a_dry_run_tells_which_pictures_would_go(factory: SessionFactory) -> None:
    old = utcnow() - timedelta(days=40)
    with factory() as s:
        s.add(OutboundMessage(to_addr="ann@players.test", status="sent", sent_at=old,
                              raw=status_mail("ann@players.test", picture(1), picture(2))))
        s.add(OutboundMessage(to_addr="bob@players.test", status="sent", sent_at=utcnow(),
                              raw=status_mail("bob@players.test", picture(2))))
        s.commit()
    dry = retention.prune(factory, sent_days=30, received_days=30, dry_run=True)
    assert dry.parts.count == 1 and "pictures no kept mail shows: 1" in "\n".join(dry.lines())
    assert counts(factory) == (2, 3)


def test_forgetting_an_address_drops_the_pictures_only_its_mails_showed(
        factory: SessionFactory) -> None:
    shared, own = picture(1), picture(2)
    queue(factory, ("ann@players.test", status_mail("ann@players.test", shared, own)),
          ("bob@players.test", status_mail("bob@players.test", shared)))
    with factory() as s:
        s.execute(OutboundMessage.__table__.update().values(status="sent"))  # type: ignore[attr-defined]
        players.ensure(s, "ann@players.test")
        forget(s, "ann@players.test")
        s.commit()
    with factory() as s:
        left = set(s.execute(select(col(MailPart.digest))).scalars())
    assert left == set(split(shared)[1])
    stored_bytes = every_stored_byte(factory)
    assert not any(run in stored_bytes for run in split(own)[1].values())


def test_a_failed_flush_stores_the_mail_whole_when_tried_again(factory: SessionFactory) -> None:
    raw = status_mail("ann@players.test", picture(1))
    with factory() as s:
        row = OutboundMessage(to_addr="ann@players.test", raw=raw, game_id=999_999)
        s.add(row)
        try:
            s.commit()  # no such game: the foreign key refuses it (on SQLite, at flush)
        except Exception:
            s.rollback()
        else:
            return  # nothing refused it here: nothing to try again
        row.game_id = None
        s.add(row)
        s.commit()
    with factory() as s:
        again = s.get(OutboundMessage, row.id)
        assert again is not None and again.raw == raw


def test_going_back_before_0022_puts_every_mail_back_whole(db_url: str) -> None:
    from alembic import command
    from sqlalchemy import create_engine, inspect, text

    from pbem.store.db import init, make_engine, session_factory
    from tests.store.test_migrations import alembic_config

    engine = init(db_url)
    factory = session_factory(engine)
    board = picture(1)
    mails = [status_mail("ann@players.test", board, picture(2)),
             status_mail("bob@players.test", board)]
    queue(factory, *[(m.split(b"\n")[1][4:].decode(), m) for m in mails])
    engine.dispose()
    cfg = alembic_config(db_url)
    command.downgrade(cfg, "0021_calendar")
    plain = create_engine(db_url)
    with plain.connect() as conn:
        assert [bytes(r[0]) for r in conn.execute(text(
            "SELECT raw FROM outboundbytes ORDER BY id"))] == mails
        assert "mailpart" not in inspect(plain).get_table_names()
    plain.dispose()
    command.upgrade(cfg, "head")
    again = make_engine(db_url)
    with session_factory(again)() as s:
        rows = s.execute(select(OutboundMessage).order_by(col(OutboundMessage.id))).scalars()
        assert [r.raw for r in rows] == mails
    again.dispose()


def test_a_mail_blanked_once_sent_keeps_its_pictures_apart(factory: SessionFactory,
                                                            tmp_path: Path) -> None:
    raw = status_mail("ann@players.test", picture(1)).replace(b"Your move", b"secret S3CR3T")
    blanked = raw.replace(b"S3CR3T", b"[secret-removed]")
    with factory() as s:
        row = OutboundMessage(to_addr="ann@players.test", raw=raw, raw_once_sent=blanked)
        s.add(row)
        s.commit()
    assert deliver_outbox(factory, MaildirSender(tmp_path / "out")).sent == 1
    assert [f.read_bytes() for f in (tmp_path / "out" / "new").iterdir()] == [raw]
    with factory() as s:
        again = s.get(OutboundMessage, row.id)
        assert again is not None and (again.raw, again.raw_once_sent) == (blanked, None)
        held = s.execute(select(func.length(OutboundBytes.raw))).scalar_one()
        assert held < 1000  # the blanked copy as stored: its picture stays in mailpart
