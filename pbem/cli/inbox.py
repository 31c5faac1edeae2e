"""`pbem inbox`: mail the host received that matched no game or player, and any one message."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape

from pbem.cli.context import console, fail, folding_table, load_config, session_factory, short_time
from pbem.ops import api, overview

# Where the ids an error names are.
LIST_FIX = "`pbem inbox list` shows the messages and their ids"

app = typer.Typer(help="Mail the host received.", no_args_is_help=True)


@app.command("unmatched")
def inbox_unmatched(limit: Annotated[int, typer.Option(min=1, help="How many, newest first.")]
                    = 50) -> None:
    """Mail that matched no game or player (no tag, strangers, wrong secret) or could not be
    read (quarantined), newest first; `pbem inbox show ID` prints one."""
    with session_factory(load_config())() as session:
        rows = overview.unmatched(session, limit)
        if not rows:
            console.print("no unmatched mail")
            return
        table = folding_table("id", "received", "from", "subject", "why")
        for m in rows:
            table.add_row(str(m.id), short_time(m.received_at), escape(m.from_addr) or "—",
                          escape(m.subject), escape(f"{m.status}: {m.reason}"))
        console.print(table)


@app.command("show")
def inbox_show(inbound_id: Annotated[int, typer.Argument(help="The message's id.")]) -> None:
    """Print a received message (raw) and what became of it."""
    with session_factory(load_config())() as session:
        try:
            m = api.inbound_show(session, inbound_id)
        except LookupError as exc:
            raise fail(str(exc), fix=LIST_FIX) from exc
        console.print(f"status: {m.status}\nreason: {m.reason}\n", highlight=False,
                      markup=False)
        print(m.raw.decode("utf-8", errors="replace"))
