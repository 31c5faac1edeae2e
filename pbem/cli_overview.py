"""The operator's overview from the command line: games with their turn, clock and problems;
the outbox (hold, drop); the inbox's unmatched mail. Tables fit an 80-column terminal.

Thin typer commands over :mod:`pbem.processor.overview`, registered on the app of
:mod:`pbem.cli` (which imports this module last).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from pbem.cli import _config, _factory, _fail, app, console, outbox_app
from pbem.processor import api, overview
from pbem.processor.deadlines import aware

inbox_app = typer.Typer(help="Mail the host received.", no_args_is_help=True)
app.add_typer(inbox_app, name="inbox")

IdArg = Annotated[int, typer.Argument(help="The email's id (see `pbem outbox list`).")]


def _table(*columns: str, title: str | None = None) -> Table:
    """Long words fold onto the next line instead of being cut: nothing is lost at 80 columns."""
    table = Table(title=title)
    for name in columns:
        table.add_column(name, overflow="fold")
    return table


def _short(moment: datetime | None) -> str:
    return aware(moment).astimezone(UTC).strftime("%m-%d %H:%M") if moment else "—"


def print_game_list(status: str | None) -> None:
    """Games: whose turn, since when, the deadline (UTC) and problems."""
    with _factory(_config())() as session:
        table = _table("game", "status", "whose turn", "since", "deadline", "problems",
                       title="Games (times UTC)")
        for line in overview.game_lines(session, status):
            table.add_row(escape(line.game.tag), line.game.status,
                          escape(", ".join(line.waiting)) or "—", _short(line.since),
                          _short(line.deadline),
                          escape("; ".join(line.problems)) or "[green]none[/green]")
        console.print(table)


def print_outbox_list(status: str | None) -> None:
    """Outgoing mail: subject, game and recipient; failed ones with their error."""
    with _factory(_config())() as session:
        table = _table("id", "status", "game", "to", "subject")
        for line in overview.outbox_lines(session, status):
            m = line.mail
            state = m.status + (f" ({m.attempts}×): {m.last_error}" if m.last_error else "")
            table.add_row(str(m.id), escape(state), escape(line.game) or "—",
                          escape(m.to_addr), escape(line.subject))
        console.print(table)


def _set_status(outbound_id: int, status: str, done: str) -> None:
    with _factory(_config())() as session:
        try:
            overview.set_outbox_status(session, outbound_id, status)
        except overview.OutboxError as exc:
            raise _fail(str(exc)) from exc
        session.commit()
    console.print(f"email {outbound_id} {done}", highlight=False)


@outbox_app.command("hold")
def outbox_hold(outbound_id: IdArg) -> None:
    """Keep a queued email from being sent, until `outbox retry ID`."""
    _set_status(outbound_id, "held", "held: it stays unsent until `pbem outbox retry "
                f"{outbound_id}`")


@outbox_app.command("drop")
def outbox_drop(outbound_id: IdArg) -> None:
    """Never send a queued email (it is kept, marked dropped)."""
    _set_status(outbound_id, "dropped", "dropped: it will not be sent (kept in the list)")


@inbox_app.command("unmatched")
def inbox_unmatched(limit: Annotated[int, typer.Option(min=1, help="How many, newest first.")]
                    = 50) -> None:
    """Mail that matched no game or player (no tag, strangers, wrong secret) or could not be
    read (quarantined), newest first; `pbem inbox show ID` prints one."""
    with _factory(_config())() as session:
        rows = overview.unmatched(session, limit)
        if not rows:
            console.print("no unmatched mail")
            return
        table = _table("id", "received", "from", "subject", "why")
        for m in rows:
            table.add_row(str(m.id), _short(m.received_at), escape(m.from_addr) or "—",
                          escape(m.subject), escape(f"{m.status}: {m.reason}"))
        console.print(table)


@inbox_app.command("show")
def inbox_show(inbound_id: Annotated[int, typer.Argument(help="The message's id.")]) -> None:
    """Print a received message (raw) and what became of it."""
    with _factory(_config())() as session:
        try:
            m = api.inbound_show(session, inbound_id)
        except LookupError as exc:
            raise _fail(str(exc)) from exc
        console.print(f"status: {m.status}\nreason: {m.reason}\n", highlight=False,
                      markup=False)
        print(m.raw.decode("utf-8", errors="replace"))
