"""The documentation site and the players' guide pages as people read them: built, every
internal link (file and #fragment) resolving, and each page in headless Chromium at a phone's
390 px and a desktop's 1200 px with nothing scrolling sideways and no text too small."""

from __future__ import annotations

import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest

from pbem.ops.guide import write_guides
from pbem.ops.site import _write
from tests.support.browser import browser  # noqa: F401  (fixture)
from tests.support.phone import measure, phone

ROOT = Path(__file__).parents[2]


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id"):
            self.ids.add(str(found["id"]))
        for name in ("href", "src"):
            if found.get(name) and not (tag == "link" and found.get("rel") == "canonical"):
                self.links.append(str(found[name]))


def broken_links(folder: Path) -> list[str]:
    """Every link inside ``folder``'s pages that goes nowhere: a missing file, or a #fragment
    the target page lacks. Links to other sites are left alone."""
    parsed: dict[Path, Links] = {}
    # MkDocs' 404 page is served at any missing address, so it links from the site's root
    for page in (p for p in folder.rglob("*.html") if p.relative_to(folder).as_posix() !=
                 "404.html"):
        links = Links()
        links.feed(page.read_text(encoding="utf-8"))
        parsed[page.resolve()] = links
    broken = []
    for page, links in parsed.items():
        for href in links.links:
            url = urlsplit(href)
            if url.scheme or url.netloc or href.startswith(("mailto:", "javascript:")):
                continue
            target = (page.parent / unquote(url.path)).resolve() if url.path else page
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                broken.append(f"{page.relative_to(folder.resolve())}: {href} goes nowhere")
            elif url.fragment and target.suffix == ".html" and \
                    url.fragment not in parsed[target].ids:
                broken.append(f"{page.relative_to(folder.resolve())}: {href} has no target")
    return broken


@pytest.fixture(scope="module")
def docs_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("mkdocs", reason="the docs extra is not installed (pip install "
                        "-e '.[docs]')")
    out = tmp_path_factory.mktemp("docs") / "site"
    mkdocs = shutil.which("mkdocs", path=str(Path(sys.executable).parent)) or "mkdocs"
    done = subprocess.run([mkdocs, "build", "--strict", "--site-dir", str(out)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300,
                          env={"NO_MKDOCS_2_WARNING": "1", "PATH": str(Path(
                              sys.executable).parent)})
    assert done.returncode == 0, done.stderr
    return out


@pytest.fixture(scope="module")
def guides(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("guides")
    (folder / "index.html").write_text("<!DOCTYPE html><title>index</title>", encoding="utf-8")
    write_guides(folder, _write)
    return folder


def test_the_docs_site_builds_with_every_page_and_no_broken_link(docs_site: Path) -> None:
    pages = {p.relative_to(docs_site).as_posix() for p in docs_site.rglob("index.html")}
    assert {"index.html", "players/index.html", "operators/configuration/index.html",
            "developers/adding-a-game/index.html", "games/reef-2018/index.html"} <= pages
    assert broken_links(docs_site) == []


def test_a_broken_link_is_found(tmp_path: Path) -> None:
    (tmp_path / "a.html").write_text('<a href="b.html">b</a><a href="#x">x</a>',
                                     encoding="utf-8")
    assert broken_links(tmp_path) == ["a.html: b.html goes nowhere", "a.html: #x has no target"]


def test_the_guide_pages_have_no_broken_link(guides: Path) -> None:
    assert broken_links(guides) == []


def _walk(driver: Any, folder: Path, pages: list[Path]) -> list[Any]:
    trips = []
    for width in (390, 1200):
        if width == 390:
            phone(driver, 390)
        else:
            driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
            driver.set_window_size(width, 900)
        for page in pages:
            driver.get(page.as_uri())
            trip = measure(driver, f"{page.relative_to(folder)} at {width}")
            if trip is not None:
                trips.append(trip)
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    return trips


def test_the_docs_site_fits_a_phone_and_a_desktop(
        docs_site: Path, browser: Any) -> None:  # noqa: F811
    trips = _walk(browser, docs_site, sorted(docs_site.rglob("index.html")))
    assert trips == []


def test_the_guide_pages_fit_a_phone_and_a_desktop(
        guides: Path, browser: Any) -> None:  # noqa: F811
    trips = _walk(browser, guides, sorted((guides / "guide").rglob("*.html")))
    assert trips == []
