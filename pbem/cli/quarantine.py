"""`pbem quarantine`: messages that could not be processed (list, show, run again)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from pbem.cli.context import console, fail, load_config, session_factory
from pbem.ops import api
from pbem.ops.operator_errors import EX_TEMPFAIL

# Where the ids an error names are.
LIST_FIX = "`pbem quarantine list` shows the kept messages and their ids"

app = typer.Typer(help="Messages that could not be processed.", no_args_is_help=True)


@app.command("list")
def quarantine_list() -> None:
    """List quarantined messages with their reasons."""
    cfg = load_config()
    with session_factory(cfg)() as session:
        table = Table("id", "message-id", "from", "reason")
        for m in api.quarantine_list(session):
            table.add_row(str(m.id), m.message_id, m.from_addr or "", m.reason or "")
        console.print(table)


@app.command("show")
def quarantine_show(inbound_id: Annotated[int, typer.Argument(help="The message's id.")]) -> None:
    """Print a kept message (raw) and why it was quarantined."""
    cfg = load_config()
    with session_factory(cfg)() as session:
        try:
            m = api.inbound_show(session, inbound_id)
        except LookupError as exc:
            raise fail(str(exc), fix=LIST_FIX) from exc
        # The kept copy has any secret blanked; the digest is of the mail as it came in.
        console.print(f"status: {m.status}\nreason: {m.reason}\n"
                      f"sha256 as received: {m.raw_sha256 or '(not recorded)'}\n",
                      highlight=False, soft_wrap=True)
        print(m.raw.decode("utf-8", errors="replace"))


@app.command("reprocess")
def quarantine_reprocess(inbound_id: Annotated[int, typer.Argument(help="The message's id.")]
                         ) -> None:
    """Run a kept message through the pipeline again."""
    from pbem.ops.hostkey import mail_host
    from pbem.store.faults import TransientFault

    cfg = load_config()
    try:
        result = api.quarantine_reprocess(session_factory(cfg), inbound_id, mail_host(cfg))
    except TransientFault as exc:
        raise fail(f"database or disk fault, nothing changed: {exc}", EX_TEMPFAIL,
                   fix="try again when the database is back (`pbem doctor` checks it)") from exc
    except (LookupError, ValueError) as exc:
        raise fail(str(exc), fix=LIST_FIX) from exc
    console.print(f"{result.status}: {result.reason}")
    if result.status == "quarantined":
        raise typer.Exit(3)
