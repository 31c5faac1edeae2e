"""`pbem outbox`: the queue of outgoing emails (list, retry, hold, drop)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape

from pbem.cli.context import console, fail, folding_table, load_config, session_factory
from pbem.ops import api, overview

# Where the ids an error names are.
LIST_FIX = "`pbem outbox list` shows the emails, their ids and statuses"

app = typer.Typer(help="The queue of outgoing emails.", no_args_is_help=True)

IdArg = Annotated[int, typer.Argument(help="The email's id (see `pbem outbox list`).")]


@app.command("list")
def outbox_list(status: Annotated[str | None, typer.Option(
        help="queued, sent, failed, held or dropped")] = None) -> None:
    """List outgoing emails: subject, game, recipient."""
    with session_factory(load_config())() as session:
        mails = folding_table("id", "status", "game", "to", "subject")
        for line in overview.outbox_lines(session, status):
            m = line.mail
            state = m.status + (f" ({m.attempts}×): {m.last_error}" if m.last_error else "")
            mails.add_row(str(m.id), escape(state), escape(line.game) or "—",
                          escape(m.to_addr), escape(line.subject))
        console.print(mails)


@app.command("retry")
def outbox_retry(outbound_id: Annotated[int | None, typer.Argument(help="One email's id.")]
                 = None) -> None:
    """Queue failed emails again (all, or one), due now."""
    cfg = load_config()
    with session_factory(cfg)() as session:
        n = api.outbox_retry(session, outbound_id)
        session.commit()
    console.print(f"{n} email(s) queued again")


def _set_status(outbound_id: int, status: str, done: str) -> None:
    with session_factory(load_config())() as session:
        try:
            overview.set_outbox_status(session, outbound_id, status)
        except overview.OutboxError as exc:
            raise fail(str(exc), fix=LIST_FIX) from exc
        session.commit()
    console.print(f"email {outbound_id} {done}", highlight=False)


@app.command("hold")
def outbox_hold(outbound_id: IdArg) -> None:
    """Keep a queued email from being sent, until `outbox retry ID`."""
    _set_status(outbound_id, "held", "held: it stays unsent until `pbem outbox retry "
                f"{outbound_id}`")


@app.command("drop")
def outbox_drop(outbound_id: IdArg) -> None:
    """Never send a queued email (it is kept, marked dropped)."""
    _set_status(outbound_id, "dropped", "dropped: it will not be sent (kept in the list)")
