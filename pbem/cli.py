"""The operator's command line: thin typer commands over pbem.processor.api."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import Progress
from rich.table import Table
from typer.core import TyperGroup

from pbem import cli_seats
from pbem.cli_seats import number as seat_number
from pbem.config import Config, ConfigError, load
from pbem.engine import registry
from pbem.engine.replay import ReplayMismatch
from pbem.processor import api
from pbem.processor.history import BadAdminEntry, revoked
from pbem.processor.host import Host
from pbem.store.db import SessionFactory

_state: dict[str, Any] = {}


class _Commands(TyperGroup):
    """Runs every command: an operator's mistake or a broken environment (see
    :mod:`pbem.operator_errors`) ends in one line and a fix, not a traceback."""

    def invoke(self, ctx: Any) -> Any:  # click's Context (typer may vendor click)
        try:
            return super().invoke(ctx)
        except Exception as exc:
            from pbem.operator_errors import explain

            told = explain(exc)
            if told is None or _state.get("debug"):
                raise
            err.print(f"[red]error:[/red] {escape(told.message)}", highlight=False,
                      soft_wrap=True)
            err.print(f"fix: {escape(told.fix)} (`pbem --debug ...` shows the traceback)",
                      highlight=False, soft_wrap=True)
            raise typer.Exit(1) from exc


app = typer.Typer(help="pbem: a play-by-email game host.", no_args_is_help=True,
                  cls=_Commands)
game_app = typer.Typer(help="Create, inspect and verify games.", no_args_is_help=True)
seat_app = typer.Typer(help="Manage the seats of a game.", no_args_is_help=True)
outbox_app = typer.Typer(help="The queue of outgoing emails.", no_args_is_help=True)
quarantine_app = typer.Typer(help="Messages that could not be processed.", no_args_is_help=True)
app.add_typer(game_app, name="game")
app.add_typer(seat_app, name="seat")
app.add_typer(outbox_app, name="outbox")
app.add_typer(quarantine_app, name="quarantine")

# Lines are not folded at the terminal's width: the paths, addresses and tags they hold stay
# whole for copying (the terminal wraps them for the eye). Tables still fit the width.
console = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)

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
    _state["config_path"] = path
    _state["debug"] = debug


def _config() -> Config:
    try:
        return load(_state.get("config_path"))
    except ConfigError as exc:
        err.print(f"[red]config error:[/red] {escape(str(exc))}", highlight=False, soft_wrap=True)
        raise typer.Exit(2) from exc


def _factory(cfg: Config, create: bool = False) -> SessionFactory:
    """The database; only ``create`` (init) may make a new SQLite file and its data folder."""
    if create:
        cfg.data_dir.mkdir(parents=True, exist_ok=True)
    elif cfg.database_url.startswith("sqlite:///"):
        file = Path(cfg.database_url.removeprefix("sqlite:///"))
        if not file.exists():
            raise _fail(f"no pbem database at {file.absolute()} ({_where_from()}); run "
                        "`pbem init` to make one there, or point PBEM_HOME or --config at "
                        "your data folder")
    return api.connect(cfg.database_url)


def _where_from() -> str:
    """Why pbem looked where it did."""
    if _state.get("config_path") is not None:
        return f"from the config {_state['config_path']}"
    if os.environ.get("PBEM_HOME"):
        return "from PBEM_HOME"
    return "the default ./pbem-data in the current folder"


def _fail(message: str, code: int = 1) -> typer.Exit:
    err.print(f"[red]error:[/red] {escape(message)}", highlight=False, soft_wrap=True)
    return typer.Exit(code)


@app.command()
def init() -> None:
    """Create (or migrate) the database and the local mail folders."""
    cfg = _config()
    _factory(cfg, create=True)
    from pbem.transports import open_inbox, open_sender

    if cfg.inbound.imap is None:
        open_inbox(cfg).close()
    if cfg.outbound.smtp is None:
        open_sender(cfg)
    from pbem.processor import hostkey

    try:
        key = hostkey.load(cfg.host_key_path)
    except hostkey.HostKeyError as exc:
        raise _fail(str(exc)) from exc
    console.print(f"database ready: {cfg.database_url}")
    console.print(f"host key (signs game exports): {cfg.host_key_path} (id {key.id})",
                  highlight=False, soft_wrap=True)
    if cfg.inbound.imap is None:
        console.print(f"inbox (Maildir): {cfg.inbound.maildir}")
    if cfg.outbound.smtp is None:
        console.print(f"outbox (Maildir): {cfg.outbound.maildir}")


@app.command()
def doctor() -> None:
    """Check the config, database, mailboxes and mail servers; say what is wrong and the fix."""
    from pbem import doctor as checks

    results = checks.run_file(_state.get("config_path"), debug=bool(_state.get("debug")))
    for c in results:
        mark = "[green]ok[/green]  " if c.ok else "[red]FAIL[/red]"
        console.print(f"{mark} {c.name}: {escape(c.message)}", highlight=False)
        if not c.ok and c.fix:
            console.print(f"       fix: {escape(c.fix)}", highlight=False)
    if not all(c.ok for c in results):
        raise typer.Exit(1)


@game_app.command("new")
def game_new(
    game_type: Annotated[str, typer.Argument(help="The game, e.g. one listed by `pbem games`.")],
    seat: Annotated[list[str], typer.Option("--seat", "-s",
                    help='A player as "Name <address>", in turn order; repeat per seat. '
                    'Add " lang=fr" for a seat whose language differs from --lang.')],
    lang: Annotated[str, typer.Option(
        "--lang", help="The game's language (en, fr, it, nl, de): every seat's mail is in it "
        "unless the seat says otherwise (lang=.. in --seat, or the player's 'language' "
        "command).")] = "en",
    option: Annotated[list[str] | None, typer.Option("--option", "-o",
                      help="A game option as name=value, e.g. advanced=yes; repeatable. "
                      "A wrong name lists the game's options.")] = None,
    seed: Annotated[str | None, typer.Option(help="Seed for the game's random draws.")] = None,
    deadline_hours: Annotated[int | None, typer.Option(
        min=0, help="Hours each seat has for its orders; 0 = no deadline. "
        "(Default: deadlines.turn_hours in the config, else 72.)", show_default=False)] = None,
    reminder_hours: Annotated[int | None, typer.Option(
        min=0, help="Remind a seat this many hours before its deadline; 0 = never. "
        "(Default: deadlines.reminder_hours, else 24.)", show_default=False)] = None,
    timeout: Annotated[str | None, typer.Option(
        help="At a deadline: 'default' plays the game's safe default order for the seat; "
        "'pause' pauses the game and mails the operator. (Default: deadlines.timeout, "
        "else default.)",
        show_default=False)] = None,
    vacation_days: Annotated[int | None, typer.Option(
        min=0, help="Vacation days each seat may take ('vacation until <date>' by mail). "
        "(Default: deadlines.vacation_days, else 14.)", show_default=False)] = None,
) -> None:
    """Set up a new game; each player is mailed a welcome with their secret."""
    from pbem.processor import operator_input

    cfg = _config()
    try:
        split = [operator_input.seat_language(text) for text in seat]
        seats = [operator_input.seat(text) for text, _ in split]
    except operator_input.InputError as exc:
        raise _fail(str(exc)) from exc
    languages = [own for _, own in split]
    from pbem.processor import game_options

    try:
        rules = registry.get(game_type)
        options = game_options.from_text(rules.title, rules.default_options(), option or [])
    except registry.UnknownGame:
        raise  # told with its fix (pbem.operator_errors)
    except (KeyError, ValueError) as exc:
        raise _fail(str(exc).strip('"')) from exc
    factory = _factory(cfg)
    with factory() as session:
        try:
            game, secrets = api.create_game(session, rules.name, seats, options, seed,
                                            host=Host.from_config(cfg),
                                            clocks=_clock_settings(cfg, deadline_hours,
                                                                   reminder_hours, timeout,
                                                                   vacation_days),
                                            language=lang, languages=languages)
        except (KeyError, ValueError) as exc:
            raise _fail(str(exc).strip('"')) from exc
        session.commit()
        console.print(f"game [bold]{game.tag}[/bold] created ({rules.name}); "
                      "welcome emails are queued — run `pbem process` to send them.")
        table = Table("seat", "name", "address", "language")
        for i, (name, address) in enumerate(seats):
            table.add_row(str(seat_number(i)), name, address, languages[i] or lang)
        console.print(table)
        del secrets  # mailed to each player; never printed


def _clock_settings(cfg: Config, deadline: int | None, reminder: int | None,
                    timeout: str | None, vacation: int | None) -> api.ClockSettings:
    """The game's clock: the options given, else the config's [deadlines] defaults."""
    d = cfg.deadlines
    hours = d.turn_hours if deadline is None else deadline
    remind = reminder
    if remind is None:  # the config's default lead time, if it fits this game's deadline
        remind = d.reminder_hours if d.reminder_hours < hours else 0
    return api.ClockSettings(
        deadline_hours=hours or None,
        reminder_hours=(remind or None) if hours else None,
        timeout_policy=timeout or d.timeout,
        vacation_days=d.vacation_days if vacation is None else vacation)


@app.command("games")
def games() -> None:
    """List the game types this host can run."""
    for name, rules in sorted(registry.games().items()):
        console.print(f"{name}: {rules.title} ({rules.min_players}–{rules.max_players} players)",
                      highlight=False)
        if getattr(rules, "about", ""):
            console.print(f"    {rules.about}", highlight=False, soft_wrap=True)


def _player_ranges() -> str:
    """Each installed game's player range, for help texts (read when the CLI loads)."""
    try:
        known = registry.games()
    except Exception:  # a broken game package must not take every command down with it
        return "see `pbem games`"
    return "; ".join(f"{name} {rules.min_players}–{rules.max_players}"
                     for name, rules in sorted(known.items()))


@app.command()
def demo(
    game: Annotated[str | None, typer.Option(help="The game type (default: the showcase "
                                             "game, one of `pbem games`).")] = None,
    players: Annotated[int | None, typer.Option(
        min=1, help="How many bot players, within the game's range "
        f"({_player_ranges()}); default 3, or the nearest count the game takes.",
        show_default=False)] = None,
    seed: Annotated[str | None, typer.Option(help="Seed for the game and the bots.")] = None,
    folder: Annotated[Path | None, typer.Option("--dir", help="Where to keep the demo "
                      "(default: ./pbem-demo, or <data dir>/demo with a config).")] = None,
    fresh: Annotated[bool, typer.Option(help="Empty an earlier demo's folder first "
                                        "(otherwise the new game is added beside its games).")]
    = False,
) -> None:
    """Play a whole game by email between bots (SQLite + Maildirs) and show where the mail is.

    The demo keeps everything in its own folder, never in your database or mail servers.
    """
    from pbem.demo import DemoFolderError, prepare_folder, run_demo

    configured = _state.get("config_path") is not None or "PBEM_HOME" in os.environ
    where = folder or (_config().data_dir / "demo" if configured else Path("pbem-demo"))
    known = sorted(registry.games())
    if not known:
        raise _fail("no game is installed")
    # An unknown or shared name is told with its fix (pbem.operator_errors).
    rules = registry.get(game) if game else registry.showcase()
    game_type = rules.name
    if players is None:  # 3 where the game allows it, else the nearest count it takes
        players = max(rules.min_players, min(3, rules.max_players))
    try:
        earlier = prepare_folder(where, fresh)
    except DemoFolderError as exc:
        raise _fail(str(exc)) from exc
    if earlier:
        console.print(f"{where} holds an earlier demo: this game is added beside its "
                      f"{earlier} game(s) (--fresh starts afresh).", highlight=False,
                      soft_wrap=True)
    else:
        console.print(f"a fresh demo in {where}", highlight=False, soft_wrap=True)
    with Progress(console=err, transient=True) as progress:
        task = progress.add_task(f"bots playing {game_type} by email", total=None)
        try:
            report = run_demo(where, game_type, players, seed,
                              lambda n: progress.update(task, completed=n))
        except (KeyError, ValueError) as exc:
            raise _fail(str(exc).strip('"')) from exc
    console.print(f"[bold]{report.tag}[/bold]: {report.turns} turns played by email, "
                  f"{report.mails} emails sent; replay verified ({report.replay_entries} "
                  "log entries).", highlight=False, soft_wrap=True)
    console.print("Final scores:")
    for line in report.scores:
        console.print(f"  {line}", highlight=False, soft_wrap=True)
    console.print(f"\nEvery email is in the Maildir {report.outbox} (e.g. `mutt -f "
                  f"{report.outbox}`). A few worth opening:", highlight=False, soft_wrap=True)
    for label, mail in report.interesting:
        console.print(f"  {label}:\n    {mail.ref}", highlight=False, soft_wrap=True)
    console.print(f"\nInspect the game: PBEM_HOME={report.folder} pbem game log {report.tag}",
                  highlight=False, soft_wrap=True)


@game_app.command("list")
def game_list(status: Annotated[str | None, typer.Option(help="Only games in this status.")]
              = None) -> None:
    """List games: whose turn, since when, the deadline and problems."""
    from pbem.cli_overview import print_game_list

    print_game_list(status)


@game_app.command("show")
def game_show(
    game: Annotated[str, typer.Argument(help="Game id or tag.")],
    as_seat: Annotated[int, typer.Option("--as", help=cli_seats.HELP)] = 1,
    html: Annotated[bool, typer.Option(help="Print the HTML part instead.")] = False,
) -> None:
    """Print exactly the status email a seat would be sent now (and, on stderr, any seat
    whose address bounces)."""
    cfg = _config()
    with _factory(cfg)() as session:
        try:
            row = api.get_game(session, game)
            text, html_part = api.show_game(session, row, cli_seats.index(session, row, as_seat))
        except LookupError as exc:
            raise _fail(str(exc)) from exc
        bouncing = api.bouncing_seats(session, row)
    print(html_part if html else text)
    for seat in bouncing:
        err.print(f"[yellow]bouncing:[/yellow] seat {seat_number(seat.index)} {escape(seat.name)} "
                  f"<{escape(seat.address)}> since {seat.bounced_at:%Y-%m-%d %H:%M} UTC: "
                  f"{escape(seat.bounce_reason)}")


@game_app.command("log")
def game_log(game: Annotated[str, typer.Argument(help="Game id or tag.")]) -> None:
    """Print the move log: every order, its draws and the resulting state hash."""
    cfg = _config()
    with _factory(cfg)() as session:
        try:
            row = api.get_game(session, game)
        except LookupError as exc:
            raise _fail(str(exc)) from exc
        table = Table("#", "kind", "seat", "order", "draws", "hash")
        entries = api.game_log(session, row)
        undone = revoked(entries)
        for e in entries:
            draws = json.loads(e.draws_json or "[]")
            text = escape(e.text.strip()) + (f" (undone by #{undone[e.index]})"
                                             if e.index in undone else "")
            table.add_row(str(e.index), e.kind, "" if e.seat is None else str(seat_number(e.seat)),
                          text, str(len(draws)), e.state_hash[:12])
        console.print(table)


@game_app.command("replay")
def game_replay(game: Annotated[str, typer.Argument(help="Game id or tag.")]) -> None:
    """Re-run the whole log with its recorded draws and verify every state hash."""
    cfg = _config()
    with _factory(cfg)() as session, Progress(console=err, transient=True) as progress:
        task = progress.add_task("replaying", total=None)
        try:
            row = api.get_game(session, game)
            report = api.replay_game(
                session, row, lambda i, n: progress.update(task, completed=i, total=n))
        except LookupError as exc:
            raise _fail(str(exc)) from exc
        except (ReplayMismatch, BadAdminEntry) as exc:
            raise _fail(f"replay FAILED at {exc}") from exc
    console.print(f"replay ok: {report.entries} entries, final hash {report.final_hash[:16]}")


@seat_app.command("secret")
def seat_secret(game: Annotated[str, typer.Argument(help="Game id or tag.")],
                seat: Annotated[int, typer.Argument(help=cli_seats.HELP)]) -> None:
    """Issue a new secret for a seat and print it (give it to the player privately)."""
    cfg = _config()
    with _factory(cfg)() as session:
        try:
            row = api.get_game(session, game)
            secret = api.reissue_secret(session, row, cli_seats.index(session, row, seat))
        except LookupError as exc:
            raise _fail(str(exc)) from exc
        session.commit()
    console.print(f"new secret for seat {seat}: {secret}")


EX_TEMPFAIL = 75  # sysexits.h: try again later


def _one_pass(cfg: Config, factory: SessionFactory) -> api.Pass:
    from pbem.processor.alerts import FaultWatch
    from pbem.transports import open_inbox, open_sender

    inbox = open_inbox(cfg)
    host = Host.from_config(cfg)
    sender = open_sender(cfg)
    try:
        done = api.process_inbox(factory, inbox, sender, host)
    finally:
        inbox.close()
    watch = FaultWatch(cfg.data_dir / "faults.json", host)
    if done.fault:
        watch.failed(done.fault, sender)
    else:
        watch.clean()
    return done


@app.command()
def process(site: Annotated[Path | None, typer.Option(
        help="Then rebuild the static web archive in this folder (see `pbem site build`).")]
        = None) -> None:
    """One pass: fetch new mail, apply the orders, send the queued emails."""
    cfg = _config()
    result = _one_pass(cfg, _factory(cfg))
    from pbem.processor.overview import summary

    d = result.delivery
    console.print(f"processed: {summary(result.results)}; clocks: {result.clocks.summary()}; "
                  f"sent {d.sent}, retrying {d.retrying}, failed {d.failed}")
    if site is not None:
        from pbem.cli_site import build

        report = build(cfg, site)
        console.print(f"site: {len(report.rebuilt)} game page(s) rebuilt in {site}",
                      highlight=False, soft_wrap=True)
    if any(r.status == "quarantined" for r in result.results):  # kept; the pass went on
        console.print("quarantined mail is kept: see `pbem quarantine list`")
    if result.fault:
        err.print(f"[yellow]database or disk fault:[/yellow] {escape(result.fault)}\n"
                  "The mail it hit stays in the inbox and is tried again by the next pass.")
        raise typer.Exit(EX_TEMPFAIL)


@app.command()
def serve(interval: Annotated[float, typer.Option(help="Seconds between passes without IDLE.")]
          = 60.0) -> None:
    """Run continuously: process, then wait for new mail (IMAP IDLE where available)."""
    from pbem.processor.warmup import warm_up
    from pbem.transports import open_inbox

    cfg = _config()
    factory = _factory(cfg)
    signal.signal(signal.SIGTERM, _stop)
    warm_up()  # the first player's mail should not pay for loading catalogues and templates
    console.print("serving; Ctrl-C stops")
    faults = 0
    while True:
        try:
            done = _one_pass(cfg, factory)
            if done.fault:  # back off: the database needs a moment, not a hammering
                faults += 1
                err.print(f"[yellow]database or disk fault, mail left in the inbox:"
                          f"[/yellow] {escape(done.fault)}")
                time.sleep(min(interval * 2 ** (faults - 1), 900.0))
                continue
            faults = 0
            inbox = open_inbox(cfg)
            try:
                inbox.wait(interval)
            finally:
                inbox.close()
        except KeyboardInterrupt:
            return
        except Exception as exc:  # an outage must not end the service; retry after a pause
            err.print(f"[yellow]pass failed, retrying:[/yellow] {exc}")
            time.sleep(min(interval, 30.0))


def _stop(signum: int, frame: object) -> None:
    """SIGTERM (systemd, podman stop) ends serve at once, and with 0. A container's PID 1 gets
    no default action for it, so without this handler `podman stop` waits, then kills."""
    console.print("stopped (SIGTERM)")
    raise SystemExit(0)


@outbox_app.command("list")
def outbox_list(status: Annotated[str | None, typer.Option(
        help="queued, sent, failed, held or dropped")] = None) -> None:
    """List outgoing emails: subject, game, recipient."""
    from pbem.cli_overview import print_outbox_list

    print_outbox_list(status)


@outbox_app.command("retry")
def outbox_retry(outbound_id: Annotated[int | None, typer.Argument(help="One email's id.")]
                 = None) -> None:
    """Queue failed emails again (all, or one), due now."""
    cfg = _config()
    with _factory(cfg)() as session:
        n = api.outbox_retry(session, outbound_id)
        session.commit()
    console.print(f"{n} email(s) queued again")


@quarantine_app.command("list")
def quarantine_list() -> None:
    """List quarantined messages with their reasons."""
    cfg = _config()
    with _factory(cfg)() as session:
        table = Table("id", "message-id", "from", "reason")
        for m in api.quarantine_list(session):
            table.add_row(str(m.id), m.message_id, m.from_addr or "", m.reason or "")
        console.print(table)


@quarantine_app.command("show")
def quarantine_show(inbound_id: Annotated[int, typer.Argument(help="The message's id.")]) -> None:
    """Print a kept message (raw) and why it was quarantined."""
    cfg = _config()
    with _factory(cfg)() as session:
        try:
            m = api.inbound_show(session, inbound_id)
        except LookupError as exc:
            raise _fail(str(exc)) from exc
        # The kept copy has any secret blanked; the digest is of the mail as it came in.
        console.print(f"status: {m.status}\nreason: {m.reason}\n"
                      f"sha256 as received: {m.raw_sha256 or '(not recorded)'}\n",
                      highlight=False, soft_wrap=True)
        print(m.raw.decode("utf-8", errors="replace"))


@quarantine_app.command("reprocess")
def quarantine_reprocess(inbound_id: Annotated[int, typer.Argument(help="The message's id.")]
                         ) -> None:
    """Run a kept message through the pipeline again."""
    from pbem.store.faults import TransientFault

    cfg = _config()
    try:
        result = api.quarantine_reprocess(_factory(cfg), inbound_id, Host.from_config(cfg))
    except TransientFault as exc:
        err.print(f"[yellow]database or disk fault, nothing changed:[/yellow] {escape(str(exc))}"
                  "\nTry again when the database is back.")
        raise typer.Exit(EX_TEMPFAIL) from exc
    except (LookupError, ValueError) as exc:
        raise _fail(str(exc)) from exc
    console.print(f"{result.status}: {result.reason}")
    if result.status == "quarantined":
        raise typer.Exit(3)


def main() -> None:
    app()


# The operator's commands on running games live in their own module; it adds them to the
# `game` and `seat` groups above, so it is imported last.
import pbem.cli_admin  # noqa: E402, F401
from pbem import cli_overview, cli_site  # noqa: E402, F401  (site, archive, overview)
