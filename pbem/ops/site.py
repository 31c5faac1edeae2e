"""A static site of every game: an index, one archive page per game, public view only, one
standings page per game with rated players, and the players' guide of every game in every
language (pbem.ops.guide).

Any web server can serve the folder as it is; the operator rebuilds it after each pass
(``pbem process --site DIR``) or from a timer (``pbem site build DIR``). Each file is written
to a temporary name and renamed into place, so a visitor never reads half a page. A game's
page is rebuilt only when the game changed (its log, status, seats) or the templates did:
``DIR/.pbem-site.json`` keeps each page's fingerprint and index row, so a pass that moved one
game replays one game.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path

from sqlmodel import Session

import pbem
from pbem.engine import registry
from pbem.ops import api, archive, guide
from pbem.rendering import environment, templates_dir
from pbem.settings.host import Host
from pbem.store import queries, ratings
from pbem.store.tables import Game, utcnow

GAMES = "games"
STANDINGS = "standings"
CACHE = ".pbem-site.json"


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
class StandingsLink:
    href: str
    title: str
    players: int


@dataclass
class SiteReport:
    folder: Path
    pages: list[Path] = field(default_factory=list)
    unverified: list[str] = field(default_factory=list)  # tags whose replay failed
    rebuilt: list[str] = field(default_factory=list)  # tags whose page was (re)written


def page_name(tag: str, taken: set[str]) -> str:
    """A file name for a game's page: its tag with anything but [A-Za-z0-9._-] replaced."""
    base = re.sub(r"[^A-Za-z0-9._-]", "_", tag).strip(".") or "game"
    name, n = f"{base}.html", 2
    while name.lower() in taken:
        name, n = f"{base}-{n}.html", n + 1
    taken.add(name.lower())
    return name


def build_site(session: Session, folder: Path, *, addresses: bool = False,
               now: datetime | None = None, host: Host | None = None) -> SiteReport:
    """Write ``folder/index.html``, ``folder/games/<tag>.html`` for every game and the players'
    guide, ``folder/guide/<game-id>/<lang>.html`` (with ``host``'s limits on table talk)."""
    viewer = archive.Viewer(seat=None, addresses=addresses)
    (folder / GAMES).mkdir(parents=True, exist_ok=True)
    report = SiteReport(folder)
    rows: list[IndexRow] = []
    taken: set[str] = set()
    cache = _read_cache(folder)
    fresh: dict[str, dict[str, object]] = {}
    templates = _templates_digest()
    for game in api.list_games(session):
        name = page_name(game.tag, taken)
        path = folder / GAMES / name
        mark = _fingerprint(session, game, name, templates, addresses)
        kept = cache.get(str(game.id))
        if kept is not None and kept.get("fingerprint") == mark and path.is_file():
            row = IndexRow(**kept["row"])  # type: ignore[arg-type]
        else:
            a = archive.build(session, game, viewer)
            _write(path, archive.render_page(a, index_href="../index.html"))
            report.rebuilt.append(game.tag)
            last = a.last_move
            row = IndexRow(
                href=f"{GAMES}/{name}", tag=a.tag, title=a.title, status=a.status,
                players=a.players, waiting=a.waiting if a.status == "active" else [],
                last_move=f"{last.when}: {last.who}" if last else "none yet",
                verified=a.verified)
        fresh[str(game.id)] = {"fingerprint": mark, "row": asdict(row)}
        report.pages.append(path)
        if not row.verified:
            report.unverified.append(game.tag)
        rows.append(row)
    built = f"{now or utcnow():%Y-%m-%d %H:%M} UTC"
    boards = _standings_pages(session, folder, report, built)
    guides, written = guide.write_guides(folder, _write, host)
    report.pages.extend(written)
    index = environment().get_template("site-index.html.j2").render(
        rows=rows, standings=boards, guides=guides, built=built)
    report.pages.insert(0, _write(folder / "index.html", index))
    _write(folder / CACHE, json.dumps(fresh, indent=1, sort_keys=True))
    return report


def _standings_pages(session: Session, folder: Path, report: SiteReport,
                     built: str) -> list[StandingsLink]:
    """``folder/standings/<game>.html`` for every game with ratings: players by the name they
    chose (never their address, whatever ``--addresses`` says: these are not one game's
    players). Written on every build: a rating changes with any finished game."""
    links: list[StandingsLink] = []
    taken: set[str] = set()
    (folder / STANDINGS).mkdir(parents=True, exist_ok=True)
    for game_type in ratings.rated_types(session):
        table = ratings.standings(session, game_type)
        if not table:
            continue
        try:
            title = registry.get(game_type).title
        except KeyError:  # a game no longer installed keeps its standings
            title = game_type
        name = page_name(game_type, taken)
        page = environment().get_template("site-standings.html.j2").render(
            title=title, rows=table, built=built)
        report.pages.append(_write(folder / STANDINGS / name, page))
        links.append(StandingsLink(f"{STANDINGS}/{name}", title, len(table)))
    return links


def _read_cache(folder: Path) -> dict[str, dict[str, object]]:
    try:
        data = json.loads((folder / CACHE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _templates_digest() -> str:
    """Every template a page may use: a changed one rebuilds every page."""
    h = hashlib.sha256(pbem.__version__.encode())
    folders = [templates_dir()] + [Path(d) for g in registry.games().values()
                                   for d in g.template_dirs()]
    folders += [d for g in registry.games().values() if (d := registry.templates_dir(g))]
    for folder in folders:
        for path in sorted(folder.rglob("*.j2")):
            h.update(str(path).encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def _fingerprint(session: Session, game: Game, name: str, templates: str,
                 addresses: bool) -> str:
    """What a game's page and index row are made of; equal fingerprints, equal pages."""
    last = queries.log(session, game.id or 0)[-1]
    snap = queries.latest_snapshot(session, game.id or 0)
    seats = [(s.index, s.name, s.address if addresses else "", s.status)
             for s in queries.seats(session, game.id or 0)]
    parts = [templates, name, game.tag, game.status, game.language, game.options_json,
             str(addresses),
             str(last.index), last.state_hash, str(snap.log_index), json.dumps(seats)]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


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
