"""`pbem lobby`: the tables players opened by mail (list, close)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape

from pbem.cli.context import console, fail, load_config, session_factory, short_time
from pbem.ops import lobby
from pbem.settings.host import Host

# Help texts are rich markup: "\\[" keeps the config's section name from being read as a tag.
app = typer.Typer(help="Tables opened by mail (\\[lobby] in the config).", no_args_is_help=True)


@app.command("list")
def lobby_list(every: Annotated[bool, typer.Option(
        "--all", help="Started and closed tables too.")] = False) -> None:
    """List the open tables: game, seats confirmed and waiting, opener, since when."""
    cfg = load_config()
    with session_factory(cfg)() as session:
        lines = lobby.table_lines(session, Host.from_config(cfg), every)
        session.commit()  # expired seats given back
        if not lines:
            console.print("no open table" if not every else "no table")
        for line in lines:  # one line each: a table of eight columns folds at 80
            t = line.table
            console.print(
                f"{escape(t.tag)}  {t.game_type}  {t.status}  {t.players} seats"
                f"{f' ({t.bots} bots, {t.bot_level})' if t.bots else ''}: "
                f"confirmed {escape(', '.join(line.confirmed)) or '—'}; waiting "
                f"{line.waiting}; opened by {escape(line.opener)} {short_time(t.created)} UTC",
                highlight=False)
        if not cfg.lobby.enabled:
            console.print("the lobby is off: set enabled = true under [lobby] in the config "
                          "to let players open tables by mail", markup=False)


@app.command("close")
def lobby_close(tag: Annotated[str, typer.Argument(help="The table's tag.")]) -> None:
    """Close an open table; its confirmed players are mailed that it will not start."""
    cfg = load_config()
    with session_factory(cfg)() as session:
        try:
            told = lobby.close(session, Host.from_config(cfg), tag)
        except lobby.LobbyError as exc:
            raise fail(str(exc), fix="see the open tables with `pbem lobby list`") from exc
        session.commit()
    console.print(f"table {escape(tag)} closed; {told} players told — run `pbem process` to "
                  "send the mail.")
