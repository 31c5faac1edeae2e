"""The operator's overview: `game list` (turn, clock, problems), `outbox list/hold/drop`, the
inbox's unmatched mail, and the `process` summary — on SQLite + Maildirs, at 80 columns."""

from __future__ import annotations

import re
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

from pbem import cli
from tests.cli.test_cli import home, outbox, pbem, post  # noqa: F401  (fixture)


def lines_fit(out: str) -> str:
    assert out.strip()
    for line in out.splitlines():
        assert len(line) <= 80, f"wider than 80 columns: {line!r}"
    return out


def cells(out: str) -> str:
    """A table's text with the box drawing gone, so a row reads as words."""
    return " ".join(re.sub(r"[│┃┏┓┗┛┡┩└┘├┤┬┴┼━─╇╈┳┻╋]", " ", out).split())


def wide(*args: str) -> str:
    """The command's table on a 200-column terminal, one line per row, as words; the same
    command is checked to fit 80 columns (folding long cells) too."""
    lines_fit(pbem(*args))
    cli.console.width = 200
    try:
        return cells(pbem(*args))
    finally:
        cli.console._width = None  # back to the terminal's (80 under the test runner)


def new_game(*seats: str, extra: tuple[str, ...] = ()) -> str:
    args = [a for s in seats for a in ("-s", s)]
    out = pbem("game", "new", "testcards", *args, *extra)
    found = re.search(r"game (testcards-\d+) created", out)
    assert found
    return found.group(1)


def sql(home: Path, query: str, *args: object) -> list[tuple[object, ...]]:  # noqa: F811
    with sqlite3.connect(home / "pbem.sqlite") as db:
        return list(db.execute(query, args))


def test_game_list_shows_whose_turn_since_when_the_deadline_and_problems(
        home: Path) -> None:  # noqa: F811
    pbem("init")
    calm = new_game("Alice <alice@players.test>", "Bob <bob@players.test>",
                    extra=("--deadline-hours", "48"))
    late = new_game("Cleo <cleo@players.test>", "Dan <dan@players.test>",
                    extra=("--deadline-hours", "2"))
    held = new_game("Eve <eve@players.test>", "Finn <finn@players.test>")
    clocked = new_game("Gus <gus@players.test>", "Hal <hal@players.test>",
                       extra=("--deadline-hours", "1", "--timeout", "pause"))
    pbem("game", "pause", held, "--reason", "holidays")
    three_hours_ago = (datetime.now(UTC) - timedelta(hours=3)).strftime("%Y-%m-%d %H:%M:%S")
    sql(home, "update game set turn_started_at = ? where tag = ?", three_hours_ago, clocked)
    sql(home, "update outboundmessage set status = 'failed', last_error = '550 no such user' "
        "where to_addr = 'dan@players.test'")
    assert "paused " + clocked in pbem("process")  # the clock pauses it: the operator's turn
    # Overdue until the next pass plays the default orders.
    sql(home, "update game set turn_started_at = ? where tag = ?", three_hours_ago, late)
    started = sql(home, "select turn_started_at from game where tag = ?", calm)[0][0]
    since = datetime.fromisoformat(str(started))

    text = wide("game", "list")
    assert "game status whose turn since deadline problems" in text
    assert (f"{calm} active Alice, Bob {since:%m-%d %H:%M} "
            f"{since + timedelta(hours=48):%m-%d %H:%M} none") in text
    assert re.search(rf"{late} active Cleo, Dan .* deadline passed: Cleo, Dan; 1 mail failed "
                     r"\(bad address\?\)", text)
    assert re.search(rf"{held} paused Eve, Finn .* paused by the operator", text)
    assert re.search(rf"{clocked} paused Gus, Hal .* paused by the clock: waiting on the "
                     "operator", text)
    only = wide("game", "list", "--status", "paused")
    assert held in only and clocked in only and calm not in only


def test_outbox_list_hold_and_drop(home: Path) -> None:  # noqa: F811
    pbem("init")
    tag = new_game("Alice <alice@players.test>", "Bob <bob@players.test>")
    out = wide("outbox", "list")
    assert "id status game to subject" in out
    assert f"1 queued {tag} alice@players.test [{tag}] Welcome to Test Cards: Turn 1" in out
    assert f"2 queued {tag} bob@players.test [{tag}] Welcome to Test Cards: Turn 1" in out

    assert "email 1 held: it stays unsent until `pbem outbox retry 1`" in pbem(
        "outbox", "hold", "1")
    assert "email 2 dropped: it will not be sent" in pbem("outbox", "drop", "2")
    assert "sent 0" in pbem("process")
    assert outbox(home) == []
    assert f"1 held {tag} alice@players.test" in wide("outbox", "list")
    assert "1 email(s) queued again" not in pbem("outbox", "retry")  # all: failed mail only
    assert "sent 0" in pbem("process")
    assert "1 email(s) queued again" in pbem("outbox", "retry", "1")
    assert "sent 1" in pbem("process")
    assert [str(m["To"]) for m in outbox(home)] == ["Alice <alice@players.test>"]
    assert f"2 dropped {tag} bob@players.test" in wide("outbox", "list")
    assert "email 1 is sent; only queued, failed or held mail can be held or dropped" in pbem(
        "outbox", "hold", "1", code=1)
    assert "no outgoing email 99" in pbem("outbox", "drop", "99", code=1)


def test_unmatched_mail_is_listed_and_shown(home: Path) -> None:  # noqa: F811
    pbem("init")
    tag = new_game("Alice <alice@players.test>", "Bob <bob@players.test>")
    post(home, "stranger@else.test", "hello there", "is this the chess club?")
    post(home, "mallory@else.test", f"Re: [{tag}] Test Cards", "play 3")
    post(home, "alice@players.test", f"Re: [{tag}] Test Cards", "secret wrong\nplay 3")
    post(home, "alice@players.test", f"Re: [{tag}] Test Cards", "help")
    out = pbem("process")
    assert "processed: 1 answered, 3 rejected" in out  # help is answered, not "ignored"
    text = wide("inbox", "unmatched")
    assert "id received from subject why" in text
    assert "stranger@else.test hello there rejected: no game identified" in text
    assert f"mallory@else.test Re: [{tag}] Test Cards rejected: unknown sender" in text
    assert f"alice@players.test Re: [{tag}] Test Cards rejected: wrong secret" in text
    assert "help" not in text  # answered mail is matched mail
    shown = pbem("inbox", "show", "1")
    assert "status: rejected\nreason: no game identified" in shown
    assert "is this the chess club?" in shown and "From: stranger@else.test" in shown
    assert "no inbound message 42" in pbem("inbox", "show", "42", code=1)


def test_nothing_unmatched_says_so(home: Path) -> None:  # noqa: F811
    pbem("init")
    assert "no unmatched mail" in pbem("inbox", "unmatched")
