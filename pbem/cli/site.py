"""`pbem site`: the static web archive of every game; and one game's page, for
``pbem game export --format html``.

Thin typer commands over :mod:`pbem.ops.archive` and :mod:`pbem.ops.site`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pbem.cli.context import GAME_FIX, console, err, fail, load_config, session_factory
from pbem.cli.seat import index as seat_index
from pbem.ops import api, archive, site
from pbem.settings.config import Config
from pbem.settings.host import Host

app = typer.Typer(help="The static web archive of every game.", no_args_is_help=True)

AddressesOpt = Annotated[bool, typer.Option(
    "--addresses", help="Show players' email addresses beside their names (off: names only).")]


@app.command("build")
def site_build(
    folder: Annotated[Path, typer.Argument(help="Where to write the site (created if needed).")],
    addresses: AddressesOpt = False,
) -> None:
    """Write an index of all games, one page per game (public view) and the players' guide of
    every game in every language, for any web server."""
    report = build(load_config(), folder, addresses)
    console.print(f"site written to {folder}: {len(report.pages)} pages, "
                  f"{len(report.rebuilt)} game page(s) rebuilt (open {folder / 'index.html'})",
                  highlight=False, soft_wrap=True)


def build(cfg: Config, folder: Path, addresses: bool = False) -> site.SiteReport:
    """Build the site; warns about games whose replay failed (their pages say so too)."""
    with session_factory(cfg)() as session:
        report = site.build_site(session, folder, addresses=addresses,
                                 host=Host.from_config(cfg))
    if report.unverified:
        err.print(f"[yellow]warning:[/yellow] replay failed for {', '.join(report.unverified)}"
                  " (see `pbem game replay`)", highlight=False)
    return report


def export_html(game: str, as_seat: int | None, addresses: bool,
                lang: str | None = None) -> tuple[str, str]:
    """One game's archive page (spectators' view, or ``as_seat``'s) and the game's tag, in
    ``lang`` (default: the seat's language, else the game's)."""
    cfg = load_config()
    with session_factory(cfg)() as session:
        try:
            row = api.get_game(session, game)
            seat = None if as_seat is None else seat_index(session, row, as_seat)
            page = archive.render_page(archive.build(
                session, row, archive.Viewer(seat=seat, addresses=addresses), lang))
        except LookupError as exc:
            raise fail(str(exc), fix=GAME_FIX) from exc
        return page, row.tag
