"""`pbem game`: create games and look at them (list, show, log, replay); the operator's actions
on running games are added to this group by :mod:`pbem.cli.admin`."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from pbem.cli.context import (
    GAME_FIX,
    console,
    err,
    fail,
    folding_table,
    load_config,
    progress,
    sending_note,
    session_factory,
    short_time,
)
from pbem.cli.seat import HELP as SEAT_HELP
from pbem.cli.seat import index as seat_index
from pbem.cli.seat import number as seat_number
from pbem.engine import registry
from pbem.engine.contract import option_alternatives
from pbem.engine.replay import ReplayMismatch
from pbem.ops import api, overview
from pbem.ops.hostkey import mail_host
from pbem.pipeline.history import BadAdminEntry, revoked
from pbem.pipeline.new_game import default_clocks
from pbem.settings.config import Config

# A game's seats, options or clocks the command could not take.
NEW_FIX = ("`pbem game new --help` shows how seats, options and clocks are written; "
           "`pbem games` lists each game's options")

app = typer.Typer(help="Create, inspect and verify games.", no_args_is_help=True)

@app.command("new")
def game_new(
    game_type: Annotated[str, typer.Argument(help="The game, e.g. one listed by `pbem games`.")],
    seat: Annotated[list[str], typer.Option("--seat", "-s",
                    help='A player as "Name <address>", in turn order; repeat per seat. '
                    'Add " lang=fr" for a seat whose language differs from --lang. '
                    '"bot" (or "bot:random", "bot:strong") seats the computer, which plays '
                    'as soon as it is to move.')],
    lang: Annotated[str, typer.Option(
        "--lang", help="The game's language (en, fr, it, nl, de): every seat's mail is in it "
        "unless the seat says otherwise (lang=.. in --seat, or the player's 'language' "
        "command).")] = "en",
    option: Annotated[list[str] | None, typer.Option("--option", "-o",
                      help="A game option as name=value, e.g. advanced=yes; repeatable. "
                      "A wrong name lists the game's options. Every game also takes "
                      "hidden_for_good=yes: its archive never shows the holdings and draws "
                      "it hides during play, not even after the end.")] = None,
    seed: Annotated[str | None, typer.Option(help="Seed for the game's random draws.")] = None,
    deadline_hours: Annotated[int | None, typer.Option(
        min=0, help="Hours each seat has for its orders; 0 = no deadline. "
        "(Default: deadlines.turn_hours in the config, else 72.)", show_default=False)] = None,
    reminder_hours: Annotated[int | None, typer.Option(
        min=0, help="Remind a seat this many hours before its deadline; 0 = never. "
        "(Default: deadlines.reminder_hours, else 24.)", show_default=False)] = None,
    timeout: Annotated[str | None, typer.Option(
        help="At a deadline: 'default' plays the game's safe default order for the seat; "
        "'pause' pauses the game and mails the operator; 'bot' lets a bot play the seat "
        "until its player mails 'back' (also after 'resign'). (Default: deadlines.timeout, "
        "else default.)",
        show_default=False)] = None,
    vacation_days: Annotated[int | None, typer.Option(
        min=0, help="Vacation days each seat may take ('vacation until <date>' by mail). "
        "(Default: deadlines.vacation_days, else 14.)", show_default=False)] = None,
) -> None:
    """Set up a new game; each player is mailed a welcome with their secret."""
    from pbem.pipeline import controllers, operator_input

    cfg = load_config()
    bots: dict[int, str] = {}
    seats: list[tuple[str, str]] = []
    try:
        split = [operator_input.seat_language(text) for text in seat]
        for i, (text, _) in enumerate(split):
            level = controllers.bot_seat_level(text)
            if level is None:
                seats.append(operator_input.seat(text))
            else:  # the computer: named by its seat and level, no address
                bots[i] = level
                seats.append((controllers.bot_name(i, level), ""))
    except (operator_input.InputError, ValueError) as exc:
        raise fail(str(exc), fix=NEW_FIX) from exc
    languages = [own for _, own in split]
    from pbem.pipeline import game_options

    try:
        rules = registry.get(game_type)
        options, host_options = game_options.split(rules.title, rules.default_options(),
                                                   option or [], option_alternatives(rules))
    except registry.UnknownGame:
        raise  # told with its fix (pbem.ops.operator_errors)
    except (KeyError, ValueError) as exc:
        raise fail(str(exc).strip('"'), fix=NEW_FIX) from exc
    factory = session_factory(cfg)
    with factory() as session:
        try:
            game, secrets = api.create_game(session, rules.name, seats, options, seed,
                                            host=mail_host(cfg),
                                            clocks=_clock_settings(cfg, deadline_hours,
                                                                   reminder_hours, timeout,
                                                                   vacation_days),
                                            language=lang, languages=languages,
                                            bots=bots,
                                            hidden_for_good=bool(host_options.get(
                                                "hidden_for_good", False)))
        except (KeyError, ValueError) as exc:
            raise fail(str(exc).strip('"'), fix=NEW_FIX) from exc
        session.commit()
        console.print(f"game [bold]{game.tag}[/bold] created ({rules.name}); welcome "
                      f"emails are queued — {sending_note(cfg)}")
        table = Table("seat", "name", "address", "language")
        for i, (name, address) in enumerate(seats):
            table.add_row(str(seat_number(i)), name,
                          f"(a bot, {bots[i]})" if i in bots else address,
                          languages[i] or lang)
        console.print(table)
        del secrets  # mailed to each player; never printed


def _clock_settings(cfg: Config, deadline: int | None, reminder: int | None,
                    timeout: str | None, vacation: int | None) -> api.ClockSettings:
    """The game's clock: the options given, else the config's [deadlines] defaults."""
    d = cfg.deadlines
    hours = d.turn_hours if deadline is None else deadline
    if reminder is not None:  # given: kept as given (ClockSettings.check refuses a bad one)
        return api.ClockSettings(
            deadline_hours=hours or None, reminder_hours=(reminder or None) if hours else None,
            timeout_policy=timeout or d.timeout,
            vacation_days=d.vacation_days if vacation is None else vacation)
    return default_clocks(hours, d.reminder_hours, timeout or d.timeout,
                          d.vacation_days if vacation is None else vacation)


@app.command("list")
def game_list(status: Annotated[str | None, typer.Option(help="Only games in this status.")]
              = None) -> None:
    """List games: whose turn, since when, the deadline and problems."""
    with session_factory(load_config())() as session:
        games = folding_table("game", "status", "whose turn", "since", "deadline", "problems",
                              title="Games (times UTC)")
        for line in overview.game_lines(session, status):
            games.add_row(escape(line.game.tag), line.game.status,
                          escape(", ".join(line.waiting)) or "—", short_time(line.since),
                          short_time(line.deadline),
                          escape("; ".join(line.problems)) or "[green]none[/green]")
        console.print(games)


@app.command("show")
def game_show(
    game: Annotated[str, typer.Argument(help="Game id or tag.")],
    as_seat: Annotated[int | None, typer.Option(
        "--as", help=f"{SEAT_HELP} Default: what a spectator sees, no seat's hidden holdings.")
    ] = None,
    html: Annotated[bool, typer.Option(help="Print the HTML part instead.")] = False,
) -> None:
    """Print exactly the status email a seat (--as) would be sent now, or without --as what a
    spectator sees (and, on stderr, any seat whose address bounces)."""
    cfg = load_config()
    with session_factory(cfg)() as session:
        try:
            row = api.get_game(session, game)
            shown = None if as_seat is None else seat_index(session, row, as_seat)
            text, html_part = api.show_game(session, row, shown)
        except LookupError as exc:
            raise fail(str(exc), fix=GAME_FIX) from exc
        bouncing = api.bouncing_seats(session, row)
    print(html_part if html else text)
    for seat in bouncing:
        err.print(f"[yellow]bouncing:[/yellow] seat {seat_number(seat.index)} {escape(seat.name)} "
                  f"<{escape(seat.address)}> since {seat.bounced_at:%Y-%m-%d %H:%M} UTC: "
                  f"{escape(seat.bounce_reason)}")


@app.command("log")
def game_log(game: Annotated[str, typer.Argument(help="Game id or tag.")]) -> None:
    """Print the move log: every order, its draws and the resulting state hash."""
    cfg = load_config()
    with session_factory(cfg)() as session:
        try:
            row = api.get_game(session, game)
        except LookupError as exc:
            raise fail(str(exc), fix=GAME_FIX) from exc
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


@app.command("replay")
def game_replay(game: Annotated[str, typer.Argument(help="Game id or tag.")]) -> None:
    """Re-run the whole log with its recorded draws and verify every state hash."""
    cfg = load_config()
    with session_factory(cfg)() as session, progress() as bar:
        task = bar.add_task("replaying", total=None)
        try:
            row = api.get_game(session, game)
            report = api.replay_game(
                session, row, lambda i, n: bar.update(task, completed=i, total=n))
        except LookupError as exc:
            raise fail(str(exc), fix=GAME_FIX) from exc
        except (ReplayMismatch, BadAdminEntry) as exc:
            raise fail(f"replay FAILED at {exc}", fix="nothing was changed; restore the game "
                       "from a backup or from its export (`pbem game import`), and report "
                       "the log as a bug") from exc
    console.print(f"replay ok: {report.entries} entries, final hash {report.final_hash[:16]}")
