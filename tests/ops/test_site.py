"""`pbem site build`: a static site any web server can serve — valid HTML, every link resolving,
nothing fetched from elsewhere, no address or secret."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest
from sqlmodel import col, select

from pbem.engine import registry
from pbem.i18n import LANGUAGES
from pbem.store.tables import Player
from tests.ops.archive_support import Played, parse_strict, play, table_rows, text_of
from tests.support.browser import browser  # noqa: F401  (fixture)
from tests.support.phone import measure, phone
from tests.support.testgame import GAME


@pytest.fixture(autouse=True)
def testcards() -> Iterator[None]:
    registry.register(GAME)
    yield
    registry.unregister(GAME.name)


@pytest.fixture
def host(tmp_path: Path) -> Played:
    """A finished game, one waiting for its players, one paused."""
    played = play(tmp_path / "home", "testcards", 2, seed="site")
    played.pbem("game", "new", "testcards", "-s", "Zoe <zoe@example.org>",
                "-s", "Yann <yann@example.org>", "-s", "Xu <xu@example.org>")
    played.pbem("game", "new", "testcards", "-s", "Wim <wim@example.org>",
                "-s", "Vera <vera@example.org>")
    played.pbem("game", "pause", "testcards-3", "--reason", "holidays")
    return played


def check_site(folder: Path) -> dict[Path, str]:
    """Every page parses without an HTML error, links only inside the site, and each link
    (file and #fragment) resolves. Returns the pages' text by path."""
    pages = {p: p.read_text(encoding="utf-8") for p in folder.rglob("*.html")}
    ids: dict[Path, set[str]] = {}
    links: list[tuple[Path, str]] = []
    for path, html in pages.items():
        tree = parse_strict(html)
        ids[path] = {el.get("id") for el in tree.iter() if el.get("id")}
        for el in tree.iter():
            tag = el.tag if isinstance(el.tag, str) else ""
            assert tag not in ("link", "img", "iframe", "object", "embed"), f"{path}: <{tag}>"
            assert el.get("src") is None, f"{path}: <{tag} src> loads something"
            if el.get("href") is not None:
                links.append((path, el.get("href")))
        assert "url(" not in html and "@import" not in html
    for path, href in links:
        url = urlsplit(href)
        assert not url.scheme and not url.netloc, f"{path} links outside the site: {href}"
        target = (path.parent / unquote(url.path)).resolve() if url.path else path
        assert target in pages, f"{path}: link {href} goes nowhere"
        if url.fragment:
            assert url.fragment in ids[target], f"{path}: link {href} has no target"
    return {p: text_of(h) for p, h in pages.items()}


def test_site_build_writes_a_valid_self_contained_site_of_every_game(
        host: Played, tmp_path: Path) -> None:
    out = host.pbem("site", "build", str(tmp_path / "site"))
    # besides the games' pages: the players' guide of every installed game in every language
    guides = [f"guide/{game}/{lang}.html" for game in registry.games() for lang in LANGUAGES]
    assert (f"site written to {tmp_path / 'site'}: {5 + len(guides)} pages, 3 game page(s) "
            "rebuilt" in " ".join(out.split()))
    texts = check_site(tmp_path / "site")
    assert sorted(p.relative_to(tmp_path / "site").as_posix() for p in texts) == sorted([
        "games/testcards-1.html", "games/testcards-2.html", "games/testcards-3.html",
        "index.html", "standings/testcards.html",  # the one finished game rated its two
        *guides])
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert index.count('<a href="games/testcards-') == 3  # checked by check_site above
    rows = table_rows(index, "games")
    assert rows[0] == "Game | Status | Players | Whose turn | Last move | Replay"
    assert rows[1].startswith("Test Cards [testcards-1] | finished | Ann, Ben | — | 20")
    assert rows[1].endswith(": Ben | verified") or rows[1].endswith(": Ann | verified")
    assert rows[2] == ("Test Cards [testcards-2] | active | Zoe, Yann, Xu | Zoe, Yann, Xu | "
                       "none yet | verified")
    assert rows[3] == "Test Cards [testcards-3] | paused | Wim, Vera | — | none yet | verified"
    first = texts[tmp_path / "site" / "games" / "testcards-1.html"]
    assert "Replay verified" in first and "Final scores" in first and "All games" in first
    for path in texts:
        html = path.read_text(encoding="utf-8")
        assert "@" not in html, f"{path} holds an address"
        for secret in host.secrets():
            assert secret not in html
        assert "You drew" not in html and "You played" not in html  # one seat's events


def test_a_rebuild_rewrites_only_the_games_that_changed(host: Played, tmp_path: Path) -> None:
    site = tmp_path / "site"
    host.pbem("site", "build", str(site))
    pages = {p: p.stat().st_mtime_ns for p in (site / "games").iterdir()}
    before = {p: p.read_text(encoding="utf-8") for p in pages}
    assert "0 game page(s) rebuilt" in host.pbem("site", "build", str(site))
    assert {p: p.stat().st_mtime_ns for p in pages} == pages
    host.pbem("game", "resume", "testcards-3")
    assert "1 game page(s) rebuilt" in host.pbem("site", "build", str(site))
    after = {p: p.read_text(encoding="utf-8") for p in pages}
    changed = sorted(p.name for p in pages if after[p] != before[p])
    assert changed == ["testcards-3.html"]
    assert "the host (resume)" in text_of(after[site / "games" / "testcards-3.html"])
    rows = table_rows((site / "index.html").read_text(encoding="utf-8"), "games")
    assert rows[3].startswith("Test Cards [testcards-3] | active | Wim, Vera | Wim, Vera |")
    (site / "games" / "testcards-1.html").unlink()  # a lost page is written again
    assert "1 game page(s) rebuilt" in host.pbem("site", "build", str(site))
    check_site(site)


def test_site_shows_addresses_only_when_the_operator_opts_in(
        host: Played, tmp_path: Path) -> None:
    host.pbem("site", "build", str(tmp_path / "site"), "--addresses")
    rows = table_rows((tmp_path / "site" / "index.html").read_text(encoding="utf-8"), "games")
    assert "| Zoe <zoe@example.org>, Yann <yann@example.org>, Xu <xu@example.org> |" in rows[2]


def test_process_rebuilds_the_site_after_its_pass(host: Played, tmp_path: Path) -> None:
    out = " ".join(host.pbem("process", "--site", str(tmp_path / "site")).split())
    assert "processed:" in out
    assert f"site: 3 game page(s) rebuilt in {tmp_path / 'site'}" in out
    check_site(tmp_path / "site")
    assert (tmp_path / "site" / "games" / "testcards-2.html").is_file()


def test_site_of_a_host_without_games(tmp_path: Path) -> None:
    empty = Played(tmp_path / "empty", "", "testcards", 0)
    empty.pbem("init")
    empty.pbem("site", "build", str(tmp_path / "site"))
    texts = check_site(tmp_path / "site")
    assert "No games yet." in texts[tmp_path / "site" / "index.html"]


def test_a_standings_page_per_rated_game_names_players_never_addresses(
        host: Played, tmp_path: Path) -> None:
    with host.factory() as s:  # Ann chose a long name; Ben none: his seat's name shows
        ann = s.exec(select(Player).where(col(Player.address).startswith("ann"))).one()
        ann.name = "Annabelle Wilhelmina Example-Longname"
        s.add(ann)
        s.commit()
    host.pbem("site", "build", str(tmp_path / "site"), "--addresses")
    texts = check_site(tmp_path / "site")
    page = (tmp_path / "site" / "standings" / "testcards.html").read_text(encoding="utf-8")
    rows = table_rows(page, "standings")
    assert rows[0] == "Place | Player | Rating | Games | Won"
    players = sorted(r.split(" | ")[1] for r in rows[1:])
    assert players == ["Annabelle Wilhelmina Example-Longname", "Ben"]
    assert all(r.split(" | ")[3] == "1" for r in rows[1:])
    assert rows[1].split(" | ")[0] == "1" and rows[1].split(" | ")[4] == "1"  # the winner
    assert "@" not in page  # even with --addresses: no one game's players
    index = texts[tmp_path / "site" / "index.html"]
    assert "Standings Test Cards (2 rated)" in index


def test_the_standings_page_fits_a_phone_and_a_desktop(
        host: Played, browser: Any, tmp_path: Path) -> None:  # noqa: F811
    with host.factory() as s:
        ann = s.exec(select(Player).where(col(Player.address).startswith("ann"))).one()
        ann.name = "Annabelle Wilhelmina Example-Longname"
        s.add(ann)
        s.commit()
    host.pbem("site", "build", str(tmp_path / "site"))
    for page in ("standings/testcards.html", "index.html"):
        for width in (390, 1200):
            if width == 390:
                phone(browser, 390)
            else:
                browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
                browser.set_window_size(width, 900)
            browser.get((tmp_path / "site" / page).as_uri())
            assert measure(browser, f"{page} at {width}") is None
