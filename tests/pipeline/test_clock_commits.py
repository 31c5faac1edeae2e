"""A clock pass that only looked at a game (nothing due) commits the game's next look without
waiting for the disk; one that did something (a reminder) keeps its commit synced."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import event

from pbem.pipeline.clock import run_clocks
from pbem.store import SessionFactory, queries
from tests.pipeline.clocked import FakeClock, clocked_host, new_game, send
from tests.pipeline.conftest import hand


@contextmanager
def relaxed(factory: SessionFactory) -> Iterator[list[str]]:
    """The statements that let a commit skip the disk wait, as the engine runs them."""
    engine = factory().get_bind()
    seen: list[str] = []

    def record(_conn: object, _cursor: object, sql: str, *_a: object) -> None:
        if "synchronous" in sql.lower():
            seen.append(sql)

    event.listen(engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", record)


def test_only_a_pass_that_changed_nothing_skips_the_disk_wait(factory: SessionFactory) -> None:
    clock = FakeClock()
    host = clocked_host(clock)
    table = new_game(factory, host, deadline_hours=72, reminder_hours=24)
    run_clocks(factory, host)
    postgres = factory().get_bind().dialect.name == "postgresql"

    assert send(factory, host, table, 0, f"play {hand(factory, table, 0)[0]}").status \
        == "applied"  # an order records the game's next look itself: nothing to commit
    with relaxed(factory) as seen:
        assert run_clocks(factory, host).reminders == 0
    assert seen == []
    with factory() as s:  # the game changed: the next pass looks at it, and finds nothing due
        bob = queries.seats(s, table.game_id)[1]
        bob.mail_mode = "turn"
        s.add(bob)
        s.commit()
    with relaxed(factory) as seen:
        report = run_clocks(factory, host)
    assert report.reminders == 0
    assert seen == (["SET LOCAL synchronous_commit = off"] if postgres
                    else ["PRAGMA synchronous=NORMAL"])

    clock.at(hours=48)  # Bob's reminder is due: that pass queues mail, its commit is synced
    with relaxed(factory) as seen:
        report = run_clocks(factory, host)
    assert report.reminders == 1
    assert seen == []
