"""What every command of the CLI shares: the options given before the command, the consoles,
the config and the database, how an operator's error is told, and the overview's tables.

Command modules import from here and never from each other's private names, nor from the
package that assembles them, so no import runs in a circle.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import Progress
from rich.table import Table

from pbem.ops import api
from pbem.pipeline.deadlines import aware
from pbem.settings.config import Config, load
from pbem.store.db import SessionFactory

# The options given before the command: "config_path" (Path | None) and "debug" (bool).
state: dict[str, Any] = {}

# Lines are not folded at the terminal's width: the paths, addresses and tags they hold stay
# whole for copying (the terminal wraps them for the eye). Tables still fit the width.
console = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)


def progress() -> Progress:
    """A spinner on stderr for a terminal only: piped or logged, a healthy run writes nothing
    there (rich would still end its transient display with a newline)."""
    return Progress(console=err, transient=True, disable=not err.is_terminal)


def load_config() -> Config:
    """The config; a bad one ends the command with the shared error and fix lines (exit 78)."""
    return load(state.get("config_path"))


def session_factory(cfg: Config, create: bool = False) -> SessionFactory:
    """The database; only ``create`` (init) may make a new SQLite file and its data folder."""
    if create:
        cfg.data_dir.mkdir(parents=True, exist_ok=True)
    elif cfg.database_url.startswith("sqlite:///"):
        file = Path(cfg.database_url.removeprefix("sqlite:///"))
        folder = file.parent
        if folder.exists() and not folder.is_dir():
            raise fail(f"the data folder {folder.absolute()} ({where_from()}) is a file, not "
                       "a folder", fix="point PBEM_HOME (or data_dir in the config) at a "
                       "folder: your data folder, or a new one for `pbem init`")
        if not file.exists():
            raise fail(f"no pbem database at {file.absolute()} ({where_from()})",
                       fix="run `pbem init` to make one there, or point PBEM_HOME or "
                       "--config at your data folder")
    return api.connect(cfg.database_url)


def where_from() -> str:
    """Why pbem looked where it did."""
    if state.get("config_path") is not None:
        return f"from the config {state['config_path']}"
    if os.environ.get("PBEM_HOME"):
        return "from PBEM_HOME"
    return "the default ./pbem-data in the current folder"


# What to do when a command names what is not there: each lists where to look.
GAME_FIX = "`pbem game list` shows the games; `pbem game show GAME` shows a game's seats"


def tell(message: str, fix: str) -> None:
    """An operator's error on stderr: its ``error:`` line, then its ``fix:`` line (every
    error has one: the operator reads what to do, not only what went wrong)."""
    err.print(f"[red]error:[/red] {escape(message)}", highlight=False, soft_wrap=True)
    err.print(f"fix: {escape(fix)}", highlight=False, soft_wrap=True)


def sending_note(cfg: Config) -> str:
    """How queued mail leaves: with a running `pbem serve`'s next pass, else by a pass the
    operator runs."""
    from pbem.ops.heartbeat import serving

    if serving(cfg.data_dir):
        return "the running `pbem serve` sends them with its next pass."
    return "run `pbem process` to send them (or keep `pbem serve` running)."


def fail(message: str, code: int = 1, *, fix: str) -> typer.Exit:
    """Tell the error; the command raises what this returns."""
    tell(message, fix)
    return typer.Exit(code)


def folding_table(*columns: str, title: str | None = None) -> Table:
    """Long words fold onto the next line instead of being cut: nothing is lost at 80 columns."""
    made = Table(title=title)
    for name in columns:
        made.add_column(name, overflow="fold")
    return made


def short_time(moment: datetime | None) -> str:
    return aware(moment).astimezone(UTC).strftime("%m-%d %H:%M") if moment else "—"
