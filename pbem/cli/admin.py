"""The operator's commands on running games (takeover, drop, pause, undo, force, export...).

Thin typer commands over :mod:`pbem.ops.admin` and :mod:`pbem.ops.exchange`,
added to the ``game`` and ``seat`` groups of :mod:`pbem.cli.game` and :mod:`pbem.cli.seat`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from sqlmodel import Session

from pbem.cli.context import GAME_FIX, console, fail, load_config, session_factory
from pbem.cli.game import app as game_app
from pbem.cli.seat import HELP as SEAT_HELP
from pbem.cli.seat import app as seat_app
from pbem.cli.seat import index as seat_index
from pbem.engine.replay import ReplayMismatch
from pbem.ops import admin, api, exchange, hostkey
from pbem.pipeline.history import BadAdminEntry
from pbem.settings.config import Config
from pbem.settings.host import Host
from pbem.store.tables import Game

GameArg = Annotated[str, typer.Argument(help="Game id or tag.")]


SeatArg = Annotated[int, typer.Argument(help=SEAT_HELP)]


SENDING = "mails are queued — run `pbem process` to send them."


IMPORT_FIX = "give the JSON file `pbem game export GAME -o FILE` wrote, as it wrote it"
ADMIN_FIX = ("`pbem game show GAME` shows the game, its seats and whom it waits for; "
             "change what the error names and run the command again")
REPLAY_FIX = ("nothing was changed; restore the game from a backup or from its export "
              "(`pbem game import`), and report the log as a bug")


def _run(game: str, action: Callable[[Session, Host, Game], str]) -> None:
    """Do ``action`` on a game in one transaction and print what it says."""
    cfg = load_config()
    with session_factory(cfg)() as session:
        try:
            message = action(session, hostkey.mail_host(cfg), api.get_game(session, game))
        except (LookupError, admin.AdminError) as exc:
            raise fail(str(exc), fix=ADMIN_FIX) from exc
        except (ReplayMismatch, BadAdminEntry) as exc:
            raise fail(f"the game's log does not replay: {exc}", fix=REPLAY_FIX) from exc
        session.commit()
    console.print(message, highlight=False, soft_wrap=True)


@seat_app.command("takeover")
def seat_takeover(
    game: GameArg, seat: SeatArg,
    name: Annotated[str, typer.Option(help="The newcomer's name.")],
    address: Annotated[str, typer.Option(help="The newcomer's email address.")],
) -> None:
    """Give a seat to a new player: they are mailed a full status and a fresh secret."""
    def act(s: Session, host: Host, g: Game) -> str:
        admin.takeover(s, host, g, seat_index(s, g, seat), name, address)
        return f"{name} <{address}> now holds seat {seat} of {g.tag}; {SENDING}"
    _run(game, act)


@seat_app.command("drop")
def seat_drop(game: GameArg, seat: SeatArg) -> None:
    """Drop a seat: the game plays its default orders for it from now on."""
    def act(s: Session, host: Host, g: Game) -> str:
        admin.drop(s, host, g, seat_index(s, g, seat))
        return f"seat {seat} of {g.tag} dropped; {SENDING}"
    _run(game, act)


@game_app.command("pause")
def game_pause(game: GameArg, reason: Annotated[str, typer.Option(
        help="Told to the players.")] = "") -> None:
    """Pause a game: orders are refused politely until `game resume`."""
    def act(s: Session, host: Host, g: Game) -> str:
        admin.pause(s, host, g, reason)
        return f"{g.tag} paused; {SENDING}"
    _run(game, act)


@game_app.command("resume")
def game_resume(game: GameArg) -> None:
    """Resume a paused game: the clock restarts and everyone gets their status."""
    def act(s: Session, host: Host, g: Game) -> str:
        admin.resume(s, host, g)
        return f"{g.tag} resumed; {SENDING}"
    _run(game, act)


@game_app.command("archive")
def game_archive(game: GameArg) -> None:
    """Archive a finished game."""
    def act(s: Session, host: Host, g: Game) -> str:
        admin.archive(s, host, g)
        return f"{g.tag} archived"
    _run(game, act)


@game_app.command("abandon")
def game_abandon(game: GameArg) -> None:
    """End an unfinished game without a result (archived; everyone is told)."""
    def act(s: Session, host: Host, g: Game) -> str:
        admin.archive(s, host, g, abandon=True)
        return f"{g.tag} abandoned and archived; {SENDING}"
    _run(game, act)


@game_app.command("force")
def game_force(game: GameArg, seat: SeatArg,
               orders: Annotated[str, typer.Argument(help="The orders, as the player would "
                                                     "write them (newlines allowed).")]) -> None:
    """Enter orders for a seat whose turn it is (logged as forced by the host)."""
    def act(s: Session, host: Host, g: Game) -> str:
        index = admin.force(s, host, g, seat_index(s, g, seat), orders)
        return f"orders played for seat {seat} of {g.tag} as log entry {index}; {SENDING}"
    _run(game, act)


@game_app.command("undo")
def game_undo(game: GameArg) -> None:
    """Take back the last turn (an `undo` entry in the log; nothing is deleted)."""
    def act(s: Session, host: Host, g: Game) -> str:
        undone = admin.undo(s, host, g)
        return (f"undid log entr{'y' if len(undone) == 1 else 'ies'} "
                f"{', '.join(map(str, undone))} of {g.tag}; {SENDING}")
    _run(game, act)


@game_app.command("export")
def game_export(
    game: GameArg,
    fmt: Annotated[str, typer.Option("--format", help="json (for `game import`), text "
                                     "(a readable transcript) or html (a page that replays "
                                     "the game step by step).")] = "json",
    output: Annotated[Path | None, typer.Option("--output", "-o",
                      help="Write to this file instead of standard output.")] = None,
    as_seat: Annotated[int | None, typer.Option(
        "--as", help="html: show what this seat saw (1 = first); default: the spectators' "
        "view, nothing hidden from the table.", show_default=False)] = None,
    addresses: Annotated[bool, typer.Option(
        "--addresses", help="html: show players' addresses (off: names only).")] = False,
    lang: Annotated[str | None, typer.Option(
        "--lang", help="html: the page's language (en, fr, it, nl, de); default: the seat's "
        "with --as, else the game's.", show_default=False)] = None,
) -> None:
    """The game's full log (setup, every entry, draws, hashes) as JSON, a transcript or HTML."""
    if fmt not in ("json", "text", "html"):
        raise fail(f"--format must be json, text or html, not {fmt!r}",
                   fix="write --format json, --format text or --format html")
    if fmt != "html" and (as_seat is not None or addresses or lang is not None):
        raise fail("--as, --addresses and --lang go with --format html",
                   fix="add --format html, or leave out --as, --addresses and --lang")
    if fmt == "html":
        from pbem.cli.site import export_html

        text, tag = export_html(game, as_seat, addresses, lang)
        _write_export(text, output, tag)
        return
    cfg = load_config()
    with session_factory(cfg)() as session:
        try:
            row = api.get_game(session, game)
        except LookupError as exc:
            raise fail(str(exc), fix=GAME_FIX) from exc
        text = (json.dumps(exchange.export_json(session, row, key=_host_key(cfg)), indent=1,
                           ensure_ascii=False) + "\n"
                if fmt == "json" else exchange.export_text(session, row))
    _write_export(text, output, row.tag)


def _write_export(text: str, output: Path | None, tag: str) -> None:
    if output is None:
        print(text, end="")
    else:
        output.write_text(text, encoding="utf-8")
        console.print(f"{tag} exported to {output}", highlight=False, soft_wrap=True)


@game_app.command("import")
def game_import(
    file: Annotated[Path, typer.Argument(help="A JSON file from `pbem game export`.")],
    tag: Annotated[str | None, typer.Option(help="The new game's tag (default: the "
                                            "exported one if free here).")] = None,
    trust_foreign: Annotated[bool, typer.Option(
        "--trust-foreign", help="Import an export made by another host (not signed by this "
        "one) after you have reviewed it; its log is still replayed and verified.")] = False,
) -> None:
    """Create a game from an export, verified by replay first; players get fresh secrets."""
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except RecursionError as exc:  # e.g. 100,000 nested brackets: no export is that deep
        raise fail(f"cannot read {file}: its JSON is nested too deeply to be a game export",
                    fix=IMPORT_FIX) from exc
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise fail(f"cannot read {file}: {exc}", fix=IMPORT_FIX) from exc
    cfg = load_config()
    key = _host_key(cfg)
    with session_factory(cfg)() as session:
        try:
            row, _ = exchange.import_game(session, data, key=key, trust_foreign=trust_foreign,
                                          tag=tag, host=hostkey.mail_host(cfg))
        except exchange.ImportRefused as exc:
            raise fail(f"import refused: {exc}", fix=IMPORT_FIX) from exc
        session.commit()
        n = len(api.game_log(session, row))
        origin = ("signed by this host" if data.get("host") == key.id else
                  f"from another host (key {data.get('host') or 'none'}), trusted on your word")
        console.print(f"imported as {row.tag} ({origin}): {n} log entries replayed and "
                      f"verified; {SENDING}", highlight=False, soft_wrap=True)


def _host_key(cfg: Config) -> hostkey.HostKey:
    return hostkey.load(cfg.host_key_path)  # a broken one is explained like any other fault
