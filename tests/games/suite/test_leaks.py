"""No seat's email shows another seat's secrets, in any game: two games differing only in
hidden information (one seat's holdings, or a face-down card) send every other seat
byte-identical emails, turn after turn, through the whole processor; so do a status on
request, a mail sent back for bad lines, help, and a watcher's mail (the spectators' view).

Each game's hooks make the twins and name what to send (in each language they test).
"""

from __future__ import annotations

import email
from collections.abc import Iterator
from email import policy
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlmodel import col, select

from pbem.pipeline.watch.mail import send_watch_mail
from pbem.settings.config import MailConfig
from pbem.settings.host import Host
from pbem.store import SessionFactory, init, queries, session_factory
from pbem.store.tables import OutboundMessage, Watch
from tests.games.suite.games import every_game
from tests.games.suite.hooks import Script, Twins
from tests.support.seated import PLAYERS, Table, seat_table

WATCHED_HOST = Host(mail=MailConfig(from_address="games@host.test"), key=bytes(range(32)))
WITH_TWINS = [(name, hooks.twins) for name, _, hooks in every_game() if hooks.twins is not None]
SCRIPTS = [pytest.param(name, twins, script, id=f"{name}-{script}")
           for name, twins in WITH_TWINS for script in twins.scripts]


@pytest.fixture
def factories(tmp_path: Path) -> Iterator[tuple[SessionFactory, SessionFactory]]:
    engines = [init(f"sqlite:///{tmp_path / name}.sqlite") for name in ("a", "b")]
    yield session_factory(engines[0]), session_factory(engines[1])
    for e in engines:
        e.dispose()


def seat_twins(factories: tuple[SessionFactory, SessionFactory], name: str, twins: Twins,
               script: Script) -> tuple[Table, Table]:
    a, b = (seat_table(f, name, position, players=twins.players, languages=script.languages)
            for f, position in zip(factories, twins.positions, strict=True))
    return a, b


def others(twins: Twins) -> list[int]:
    """The seats that must not learn what differs."""
    return [s for s in range(twins.players) if s != twins.holder]


@pytest.mark.parametrize(("name", "twins", "script"), SCRIPTS)
def test_the_twins_differ(factories: tuple[SessionFactory, SessionFactory], name: str,
                          twins: Twins, script: str) -> None:
    a, b = seat_twins(factories, name, twins, twins.scripts[script])
    assert a.state_json() != b.state_json()
    twins.check_twins(a.state(), b.state())


@pytest.mark.parametrize(("name", "twins", "script"), SCRIPTS)
def test_only_the_holders_own_mail_differs(factories: tuple[SessionFactory, SessionFactory],
                                           name: str, twins: Twins, script: str) -> None:
    a, b = seat_twins(factories, name, twins, twins.scripts[script])
    everyone = {PLAYERS[s][1] for s in range(twins.players)}
    for turn, (seat, orders) in enumerate(twins.scripts[script].turns):
        ra, text_a = a.send(seat, orders)
        rb, text_b = b.send(seat, orders)
        assert ra.status == rb.status == "applied", (text_a, text_b)
        mails_a, mails_b = a.bodies(ra), b.bodies(rb)
        assert set(mails_a) == set(mails_b) == everyone
        for other in others(twins):
            who = PLAYERS[other][1]
            assert mails_a[who] == mails_b[who], f"{who}'s mail differs after {orders!r}"
        if twins.holder is not None:  # the test can tell: the holder's own mail shows it
            holder = PLAYERS[twins.holder][1]
            assert mails_a[holder] != mails_b[holder]
        twins.check_turn(script, turn, mails_a, mails_b)
    for seat in others(twins):  # and a status on request, after the turns
        assert a.bodies(a.send(seat, "status")[0]) == b.bodies(b.send(seat, "status")[0])


@pytest.mark.parametrize(("name", "twins", "script"), SCRIPTS)
def test_a_status_on_request_to_another_seat_is_identical(
        factories: tuple[SessionFactory, SessionFactory], name: str, twins: Twins,
        script: str) -> None:
    a, b = seat_twins(factories, name, twins, twins.scripts[script])
    for seat in others(twins):
        ra, _ = a.send(seat, "status")
        rb, _ = b.send(seat, "status")
        assert a.bodies(ra) == b.bodies(rb)


@pytest.mark.parametrize(("name", "twins", "script"), SCRIPTS)
def test_bad_lines_suggestions_and_help_show_nothing_hidden(
        factories: tuple[SessionFactory, SessionFactory], name: str, twins: Twins,
        script: str) -> None:
    """A refused mail (every bad line, the nearest legal places) and help are the same whatever
    is hidden: both are computed from the table and the sender's own holdings only."""
    a, b = seat_twins(factories, name, twins, twins.scripts[script])
    for seat, orders in twins.scripts[script].refused:
        ra, text_a = a.send(seat, orders)
        rb, text_b = b.send(seat, orders)
        assert ra.status == rb.status == "rejected"
        assert text_a == text_b
        assert a.state_json() != b.state_json()  # the games still differ
        twins.check_refused(script, a, b, text_a)
    seat, command = twins.scripts[script].help
    help_a, help_b = a.send(seat, command)[1], b.send(seat, command)[1]
    assert help_a == help_b
    twins.check_help(script, help_a)


WATCHER = "zoe@watchers.test"


def _watch(table: Table) -> None:
    """A watcher of the table's game, as a confirmed watch leaves it (nothing told yet)."""
    with table.factory() as s:
        last = queries.next_log_index(s, table.game_id) - 1
        s.add(Watch(game_id=table.game_id, address=WATCHER, told_index=last))
        s.commit()


def _watcher_mail(table: Table) -> list[tuple[str, ...]]:
    """The watcher's mail that the watchers' pass queues now (plain text, HTML)."""
    with table.factory() as s:
        before = max((i for i in s.exec(select(OutboundMessage.id)).all() if i is not None),
                     default=0)
    send_watch_mail(table.factory, WATCHED_HOST)
    with table.factory() as s:
        rows = s.exec(select(OutboundMessage).where(
            col(OutboundMessage.id) > before, OutboundMessage.to_addr == WATCHER)
            .order_by(col(OutboundMessage.id))).all()
        found = []
        for row in rows:
            mail = email.message_from_bytes(row.raw, policy=policy.default)
            assert isinstance(mail, EmailMessage)
            found.append(tuple("" if p is None else str(p.get_content())
                               for p in (mail.get_body(("plain",)), mail.get_body(("html",)))))
        return found


@pytest.mark.parametrize(("name", "twins", "script"), SCRIPTS)
def test_a_watchers_mail_does_not_change_with_hidden_holdings(
        factories: tuple[SessionFactory, SessionFactory], name: str, twins: Twins,
        script: str) -> None:
    """A watcher (the spectators' view) gets byte-identical mail from the twins, turn after
    turn: no seat's holdings, no face-down card reaches it."""
    a, b = seat_twins(factories, name, twins, twins.scripts[script])
    _watch(a)
    _watch(b)
    told = 0
    for seat, orders in twins.scripts[script].turns:
        ra, _ = a.send(seat, orders)
        rb, _ = b.send(seat, orders)
        assert ra.status == rb.status == "applied"
        mails_a, mails_b = _watcher_mail(a), _watcher_mail(b)
        assert mails_a == mails_b, f"the watcher's mail differs after {orders!r}"
        told += len(mails_a)
    assert told >= 1  # the test can fail: the watcher was mailed
