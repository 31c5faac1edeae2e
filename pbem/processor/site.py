"""A static site of every game: an index and one archive page per game, public view only.

Any web server can serve the folder as it is; the operator rebuilds it after each pass
(``pbem process --site DIR``) or from a timer (``pbem site build DIR``). Each file is written
to a temporary name and renamed into place, so a visitor never reads half a page.
"""

from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from sqlmodel import Session

from pbem.processor import api, archive
from pbem.processor.render import environment
from pbem.store.tables import utcnow

GAMES = "games"


@dataclass
class IndexRow:
    href: str
    tag: str
    title: str
    status: str
    players: list[str]
    waiting: list[str]
    last_move: str
    verified: bool


@dataclass
class SiteReport:
    folder: Path
    pages: list[Path] = field(default_factory=list)
    unverified: list[str] = field(default_factory=list)  # tags whose replay failed


def page_name(tag: str, taken: set[str]) -> str:
    """A file name for a game's page: its tag with anything but [A-Za-z0-9._-] replaced."""
    base = re.sub(r"[^A-Za-z0-9._-]", "_", tag).strip(".") or "game"
    name, n = f"{base}.html", 2
    while name.lower() in taken:
        name, n = f"{base}-{n}.html", n + 1
    taken.add(name.lower())
    return name


def build_site(session: Session, folder: Path, *, addresses: bool = False,
               now: datetime | None = None) -> SiteReport:
    """Write ``folder/index.html`` and ``folder/games/<tag>.html`` for every game."""
    viewer = archive.Viewer(seat=None, addresses=addresses)
    (folder / GAMES).mkdir(parents=True, exist_ok=True)
    report = SiteReport(folder)
    rows: list[IndexRow] = []
    taken: set[str] = set()
    for game in api.list_games(session):
        a = archive.build(session, game, viewer)
        name = page_name(game.tag, taken)
        report.pages.append(_write(folder / GAMES / name,
                                   archive.render_page(a, index_href="../index.html")))
        if not a.verified:
            report.unverified.append(game.tag)
        last = a.last_move
        rows.append(IndexRow(
            href=f"{GAMES}/{name}", tag=a.tag, title=a.title, status=a.status,
            players=a.players, waiting=a.waiting if a.status == "active" else [],
            last_move=f"{last.when}: {last.who}" if last else "none yet",
            verified=a.verified))
    index = environment().get_template("site-index.html.j2").render(
        rows=rows, built=f"{now or utcnow():%Y-%m-%d %H:%M} UTC")
    report.pages.insert(0, _write(folder / "index.html", index))
    return report


def _write(path: Path, text: str) -> Path:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".html")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, 0o644)  # served by a web server running as another user
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path
