"""`pbem player`: players across games — their profiles, bans, and the ratings."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Annotated

import typer

from pbem.cli.context import console, fail, folding_table, load_config, session_factory
from pbem.ops import player_data, players
from pbem.pipeline.operator_input import InputError

# What to do when an address given on the command line is not one address alone.
ADDRESS_FIX = "give the address alone, e.g. ann@example.org"

app = typer.Typer(help="Players across games: profiles, bans, ratings.", no_args_is_help=True)
ratings_app = typer.Typer(help="The players' ratings per game.", no_args_is_help=True)
app.add_typer(ratings_app, name="ratings")

Address = Annotated[str, typer.Argument(help="The player's email address.")]


@app.command("list")
def player_list(banned: Annotated[bool, typer.Option(
        "--banned", help="Only the banned players.")] = False) -> None:
    """List the players: address, public name, seats held, ban."""
    cfg = load_config()
    with session_factory(cfg)() as session:
        table = folding_table("address", "shown as", "seats", "banned")
        for row in players.list_players(session, banned_only=banned):
            p = row.player
            ban = (f"{p.banned_at:%Y-%m-%d} {p.ban_reason}".strip() if p.banned_at else "")
            table.add_row(p.address, row.public_name, str(row.seats), ban)
        console.print(table)


@app.command("show")
def player_show(address: Address) -> None:
    """A player's profile, seats, ratings and "never" mark."""
    cfg = load_config()
    with session_factory(cfg)() as session:
        try:
            card = players.show(session, address)
        except LookupError as exc:
            raise fail(str(exc), fix="`pbem player list` lists the players") from exc
        p = card.row.player
        banned = (f"{p.banned_at:%Y-%m-%d %H:%M} UTC: {p.ban_reason}" if p.banned_at
                  else "no")
        console.print(
            f"address:   {p.address}\nshown as:  {card.row.public_name}\n"
            f"name:      {p.name or '(not set)'}\nlanguage:  {p.language or '(not set)'}\n"
            f"time zone: {p.timezone or '(not set)'}\n"
            f"mail:      {p.mail_mode or '(not set)'}\n"
            f"since:     {p.created:%Y-%m-%d}\n"
            f"banned:    {banned}\n"
            f"never:     {_never(card.never)}"
            + (f"\nasked by mail to be forgotten: {p.forget_asked_at:%Y-%m-%d %H:%M} UTC "
               f"(`pbem player forget {p.address}` does it)" if p.forget_asked_at else ""),
            highlight=False)
        seats = folding_table("game", "game status", "seat", "name", "status", title="seats")
        for s in card.seats:
            seats.add_row(s.tag, s.game_status, str(s.seat), s.name, s.status)
        console.print(seats)
        rated = folding_table("game", "rating", "mu", "sigma", "games", "wins", title="ratings")
        for r in card.ratings:
            rated.add_row(r.game_type, f"{r.rating:.1f}", f"{r.mu:.3f}", f"{r.sigma:.3f}",
                          str(r.games), str(r.wins))
        console.print(rated)


@app.command("ban")
def player_ban(address: Address,
               reason: Annotated[str, typer.Option("--reason", "-r",
                                                   help="Why (kept for the operators).")] = ""
               ) -> None:
    """Ban an address: its mail is kept and never answered; it cannot take seats."""
    cfg = load_config()
    with session_factory(cfg)() as session:
        try:
            player = players.ban(session, address, reason)
        except InputError as exc:
            raise fail(str(exc), fix=ADDRESS_FIX) from exc
        except ValueError as exc:
            raise fail(str(exc), fix=f"`pbem player show {address}` shows the player") from exc
        session.commit()
        console.print(f"banned {player.address}", highlight=False)


@app.command("unban")
def player_unban(address: Address) -> None:
    """Lift a ban: the address's mail is answered again."""
    cfg = load_config()
    with session_factory(cfg)() as session:
        try:
            player = players.unban(session, address)
        except (LookupError, ValueError) as exc:
            raise fail(str(exc), fix="`pbem player list --banned` lists the banned") from exc
        session.commit()
        console.print(f"unbanned {player.address}", highlight=False)


def _never(since: datetime | None) -> str:
    if since is None:
        return "no"
    return (f"since {since:%Y-%m-%d %H:%M} UTC: the host sends this address no mail but its "
            "games' (`pbem player mail-again` lifts it)")


@app.command("mail-again")
def player_mail_again(address: Address) -> None:
    """Lift the "never" mark: the host mails the address again."""
    cfg = load_config()
    with session_factory(cfg)() as session:
        try:
            lifted = players.mail_again(session, address)
        except InputError as exc:
            raise fail(str(exc), fix=ADDRESS_FIX) from exc
        except ValueError as exc:
            raise fail(str(exc), fix=f"`pbem player show {address}` shows the mark") from exc
        session.commit()
        console.print(f"{lifted} gets mail again", highlight=False)


@app.command("export")
def player_export(address: Address,
                  output: Annotated[Path | None, typer.Option(
                      "--output", "-o", help="Write to this file instead of standard output.")]
                  = None) -> None:
    """Everything this host holds about an address (profile, seats, its mails, its log
    entries, ratings), as one JSON file: what to send a player who asks."""
    cfg = load_config()
    with session_factory(cfg)() as session:
        try:
            data = player_data.export(session, address)
        except InputError as exc:
            raise fail(str(exc), fix=ADDRESS_FIX) from exc
    text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    if output is None:
        print(text, end="")
        return
    output.write_text(text, encoding="utf-8")
    console.print(f"what this host holds about {data['address']} is in {output}",
                  highlight=False, soft_wrap=True)


@app.command("forget")
def player_forget(address: Address,
                  yes: Annotated[bool, typer.Option(
                      "--yes", help="Do not ask to confirm (for scripts).")] = False) -> None:
    """Forget an address: its address and name leave every table and stored mail; its games
    stay playable and verifiable under "a former player"; the host never mails it again."""
    if not yes and not typer.confirm(
            f"Forget {address} for good? Its mails lose their bytes, its seats and ratings "
            f"go to \"{player_data.FORMER_NAME}\"; this cannot be undone"):
        raise fail("nothing was forgotten", fix="answer y, or pass --yes")
    cfg = load_config()
    with session_factory(cfg)() as session:
        try:
            done = player_data.forget(session, address)
        except InputError as exc:
            raise fail(str(exc), fix=ADDRESS_FIX) from exc
        except LookupError as exc:
            raise fail(str(exc), fix="`pbem player list` lists the players") from exc
        session.commit()
    console.print(f"forgot {done.address}: {done.seats} seat(s) and its ratings now belong to "
                  f"\"{player_data.FORMER_NAME}\" ({done.pseudonym}); {done.mails_in} mail(s) "
                  f"received and {done.mails_out} sent lost their bytes; the host will not "
                  "mail the address again", highlight=False, soft_wrap=True)


@ratings_app.command("rebuild")
def ratings_rebuild() -> None:
    """Compute every rating again from the finished games (the same numbers as stored)."""
    cfg = load_config()
    with session_factory(cfg)() as session:
        report = players.rebuild_ratings(session, cfg.bots.rated)
        session.commit()
    for game_type, count in sorted(report.results.items()):
        console.print(f"{game_type}: {count} rated game{'' if count == 1 else 's'}",
                      highlight=False)
    if not report.results:
        console.print("no finished game rates anyone yet", highlight=False)
    for tag in report.unknown:
        console.print(f"skipped {tag}: its game is not installed", highlight=False)
