"""The operator's command line: thin typer commands over pbem.ops.api.

One module per command group (:mod:`~pbem.cli.game`, :mod:`~pbem.cli.seat`, ...), the
host's own commands at the top (:mod:`~pbem.cli.host`), and one shared module,
:mod:`~pbem.cli.context`, for what they all use. This package only assembles them and runs
every command through :class:`_Commands`, so an error becomes one line and a fix.
"""

from __future__ import annotations

import os
import select
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from pbem.cli import admin, game, host, inbox, lobby, outbox, player, quarantine, seat, site
from pbem.cli.context import console, state, tell
from pbem.ops.operator_errors import explain
from pbem.ops.services import start

# admin has no group of its own: importing it adds its commands to the game and seat groups.
__all__ = ["admin", "app", "console", "main"]


class _Commands(TyperGroup):
    """Runs every command: an operator's mistake or a broken environment (see
    :mod:`pbem.ops.operator_errors`) ends in one line and a fix, not a traceback."""

    def make_context(self, *args: Any, **kwargs: Any) -> Any:  # `pbem --help` prints here
        with _quiet_when_the_reader_is_gone():
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx: Any) -> Any:  # click's Context (typer may vendor click)
        with _quiet_when_the_reader_is_gone():
            try:
                return super().invoke(ctx)
            except Exception as exc:
                if isinstance(exc, BrokenPipeError) and _stdout_closed():
                    raise
                told = explain(exc)
                if told is None or state.get("debug"):
                    raise
                tell(told.message, f"{told.fix} (`pbem --debug ...` shows the traceback)")
                raise typer.Exit(told.code) from exc


# What a shell reports for a tool that SIGPIPE ended (`yes | head -1`): 128 + 13. Python
# ignores SIGPIPE, so pbem exits with that status itself: under `set -o pipefail` a script sees
# pbem as it sees any other tool whose reader stopped early; without pipefail the pipeline's
# status is the reader's own.
EXIT_READER_GONE = 128 + signal.SIGPIPE


@contextmanager
def _quiet_when_the_reader_is_gone() -> Iterator[None]:
    """`pbem ... | head -1`: once the reader has its line and has gone, stop without a word
    (a closed standard output is no server fault). rich, which prints the help and the
    tables, mutes standard output itself and exits 1; that exit becomes ours too."""
    try:
        yield
    except BrokenPipeError:
        if not _stdout_closed():
            raise
        # The recipe of the Python docs (signal module): what is still buffered goes to
        # /dev/null, so the interpreter's last flush cannot complain about the pipe either.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise SystemExit(EXIT_READER_GONE) from None
    except SystemExit as exc:
        if exc.code != 1 or not isinstance(exc.__context__, BrokenPipeError):
            raise
        raise SystemExit(EXIT_READER_GONE) from None


def _stdout_closed() -> bool:
    """True when whoever read our standard output has gone: a pipe without its reader polls
    as an error. A server's broken connection leaves standard output as it was."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a real file (e.g. captured in tests)
        return False
    poller = select.poll()
    poller.register(fd, select.POLLOUT)
    return any(events & (select.POLLERR | select.POLLHUP) for _, events in poller.poll(0))


app = typer.Typer(help="pbem: a play-by-email game host.", no_args_is_help=True,
                  cls=_Commands)
app.add_typer(host.app)  # init, doctor, games, demo, process, serve: listed first
app.add_typer(game.app, name="game")  # with admin's commands on running games
app.add_typer(seat.app, name="seat")
app.add_typer(outbox.app, name="outbox")
app.add_typer(quarantine.app, name="quarantine")
app.add_typer(inbox.app, name="inbox")
app.add_typer(site.app, name="site")
app.add_typer(lobby.app, name="lobby")
app.add_typer(player.app, name="player")

ConfigOpt = Annotated[
    Path | None,
    typer.Option("--config", "-c", help="Config file (default: $PBEM_CONFIG or embedded "
                 "defaults: SQLite and Maildirs under ./pbem-data).", show_default=False),
]


@app.callback()
def _main(config: ConfigOpt = None,
          debug: Annotated[bool, typer.Option("--debug", help="Show the Python traceback of "
                                              "an error instead of one line.")] = False
          ) -> None:
    path = config or (Path(os.environ["PBEM_CONFIG"]) if os.environ.get("PBEM_CONFIG") else None)
    state["config_path"] = path
    state["debug"] = debug
    state["services"] = start()


def main() -> None:
    app()
