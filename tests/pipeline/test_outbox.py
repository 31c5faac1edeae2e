"""The outbound queue: sent once, marked at once; failures back off and are kept."""

from __future__ import annotations

from datetime import timedelta
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from pbem.mail.outbound import MaildirSender, SendError
from pbem.ops import api
from pbem.outbox.delivery import deliver_outbox
from pbem.settings.config import MailConfig
from pbem.settings.host import Host
from pbem.store import SessionFactory
from pbem.store.tables import utcnow
from tests.pipeline.conftest import ALICE, BOB
from tests.support.mailservers import SmtpTestServer


def welcome(factory: SessionFactory, host: Host) -> None:
    with factory() as s:
        api.create_game(s, "testcards", [("A", ALICE), ("B", BOB)], host=host)
        s.commit()


def sent_files(path: Path) -> list[Path]:
    return sorted((path / "new").glob("*")) + sorted((path / "cur").glob("*"))


def test_each_queued_mail_is_sent_once(factory: SessionFactory, host: Host,
                                       tmp_path: Path) -> None:
    welcome(factory, host)
    sender = MaildirSender(tmp_path / "out")
    assert deliver_outbox(factory, sender, host).sent == 2
    assert deliver_outbox(factory, sender, host).sent == 0
    assert len(sent_files(tmp_path / "out")) == 2
    with factory() as s:
        assert {r.status for r in api.outbox_list(s)} == {"sent"}


class FlakySender:
    """A real Maildir sender behind a link that is down for the first ``failures`` sends."""

    def __init__(self, target: MaildirSender, failures: int, transient: bool) -> None:
        self.target, self.failures, self.transient = target, failures, transient

    def send(self, msg: object) -> None:
        if self.failures > 0:
            self.failures -= 1
            raise SendError("451 try again later", transient=self.transient)
        self.target.send(msg)  # type: ignore[arg-type]


def test_transient_failure_backs_off_then_sends(factory: SessionFactory, host: Host,
                                                tmp_path: Path) -> None:
    welcome(factory, host)
    flaky = FlakySender(MaildirSender(tmp_path / "out"), failures=1, transient=True)
    first = deliver_outbox(factory, flaky, host)
    assert (first.sent, first.retrying) == (1, 1)
    with factory() as s:
        waiting = api.outbox_list(s, "queued")
        assert [r.last_error for r in waiting] == ["451 try again later"]
    assert deliver_outbox(factory, flaky, host).sent == 0  # not due yet
    later = utcnow() + timedelta(seconds=host.limits.retry_base_seconds + 1)
    assert deliver_outbox(factory, flaky, host, now=later).sent == 1
    assert len(sent_files(tmp_path / "out")) == 2


def test_permanent_failure_is_kept_and_can_be_retried(factory: SessionFactory, host: Host,
                                                      tmp_path: Path) -> None:
    welcome(factory, host)
    flaky = FlakySender(MaildirSender(tmp_path / "out"), failures=2, transient=False)
    assert deliver_outbox(factory, flaky, host).failed == 2
    with factory() as s:
        assert len(api.outbox_list(s, "failed")) == 2
        assert api.outbox_retry(s) == 2
        s.commit()
    assert deliver_outbox(factory, flaky, host).sent == 2


def test_one_pass_sends_over_one_smtp_connection_and_one_event_loop(
        factory: SessionFactory, host: Host, smtp_server: SmtpTestServer,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each mail of a pass goes out on the same connection, in the same event loop, as the
    stored bytes (never parsed and serialised again)."""
    import asyncio

    import aiosmtplib

    from pbem.mail.outbound import SmtpSender

    with factory() as s:
        for g in range(2):  # four welcome mails
            api.create_game(s, "testcards", [("A", f"a{g}@players.test"),
                                             ("B", f"b{g}@players.test")], host=host)
        s.commit()
        stored = {r.to_addr: r.raw for r in api.outbox_list(s)}
    connects: list[object] = []
    loops: set[int] = set()
    real_connect = aiosmtplib.SMTP.connect

    async def counted(self: aiosmtplib.SMTP, *a: Any, **k: Any) -> object:
        connects.append(self)
        loops.add(id(asyncio.get_running_loop()))
        return await real_connect(self, *a, **k)

    async def refuse(*_a: object, **_k: object) -> None:
        raise AssertionError("a stored mail was parsed and sent again as a message")

    monkeypatch.setattr(aiosmtplib.SMTP, "connect", counted)
    monkeypatch.setattr(aiosmtplib.SMTP, "send_message", refuse)
    sender = SmtpSender(smtp_server.settings)
    assert deliver_outbox(factory, sender, host).sent == 4
    assert len(connects) == 1 and len(loops) == 1
    # as stored, but for the line ends SMTP puts on the wire
    assert {r.rcpt_tos[0]: r.raw.replace(b"\r\n", b"\n") for r in smtp_server.received} == {
        to: raw.replace(b"\r\n", b"\n") for to, raw in stored.items()}


def test_an_sqlite_without_returning_claims_each_mail_once(
        factory: SessionFactory, host: Host, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A Python built against SQLite before 3.35 (no UPDATE ... RETURNING) claims with an
    UPDATE, then reads the rows its lease marked: a second claim meanwhile gets none of them,
    and each mail is sent once."""
    from pbem.outbox import delivery as outbox

    with factory() as s:
        if s.get_bind().dialect.name != "sqlite":
            pytest.skip("PostgreSQL always has RETURNING")
        for g in range(3):
            api.create_game(s, "testcards", [("A", f"a{g}@players.test"),
                                             ("B", f"b{g}@players.test")], host=host)
        s.commit()
    monkeypatch.setattr(outbox, "SQLITE_RETURNING", False)
    statements: list[str] = []
    engine = factory().get_bind()
    listen = partial(event.listen, engine, "before_cursor_execute")
    listen(lambda *a: statements.append(str(a[2])))
    first = outbox._claim_batch(factory, utcnow(), set(), timedelta(minutes=5), 4)
    second = outbox._claim_batch(factory, utcnow(), set(), timedelta(minutes=5), 10)
    assert statements and not any("RETURNING" in sql.upper() for sql in statements)
    assert len(first) == 4 and len(second) == 2
    assert not {c.id for c in first} & {c.id for c in second}
    assert all(c.raw and c.to_addr for c in first + second)
    # Their leases hold them: a pass now sends nothing; after the lease, each mail once.
    sender = MaildirSender(tmp_path / "out")
    assert deliver_outbox(factory, sender, host).sent == 0
    later = Host(mail=MailConfig(from_address=host.mail.from_address),
                 clock=lambda: utcnow() + timedelta(hours=1))
    monkeypatch.setattr(outbox, "utcnow", later.clock)
    assert deliver_outbox(factory, sender, host).sent == 6
    assert len(sent_files(tmp_path / "out")) == 6


def test_a_batch_whose_sends_eat_half_its_lease_leaves_the_rest_to_a_later_claim(
        factory: SessionFactory, host: Host, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A mail is sent once even when sends are slow: past half the lease, the rest of the
    batch is left leased (another worker would claim it when the lease ends) and sent by a
    later pass."""
    from pbem.outbox import delivery as outbox

    with factory() as s:
        for g in range(3):
            api.create_game(s, "testcards", [("A", f"a{g}@players.test"),
                                             ("B", f"b{g}@players.test")], host=host)
        s.commit()
    clock = [0.0]
    monkeypatch.setattr(outbox, "_clock", lambda: clock[0])
    target = MaildirSender(tmp_path / "out")

    class Slow:  # each send takes a third of the lease
        def send(self, msg: Any) -> None:
            clock[0] += host.limits.send_lease_seconds / 3
            target.send(msg)

    first = deliver_outbox(factory, Slow(), host)
    assert first.sent == 2  # the third would start past half the lease
    assert deliver_outbox(factory, Slow(), host).sent == 0  # still leased
    later = utcnow() + timedelta(seconds=host.limits.send_lease_seconds + 1)
    assert deliver_outbox(factory, target, host, now=later).sent == 4
    assert len(sent_files(tmp_path / "out")) == 6
