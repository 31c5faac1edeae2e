"""Whole demo games of every game, at its most players, read as a player reads them: the turn
a mail's subject names is the one its body shows, and every mail and archive page fits a phone
390 CSS pixels wide (no sideways scrolling, no text under 11 px, the pictures' words
included)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, cast

import pytest

from pbem.engine import registry
from tests.ops.archive_support import Played, play
from tests.support.browser import browser  # noqa: F401  (fixture)
from tests.support.phone import Trip, mails, measure, phone, walk_archive, write_mail_page

GAMES = sorted(registry.games())


# Each game at its most players: more seats make the widest scores and tables, so a game
# whose mails and pages fit a phone at its most fits it at fewer (a second game per game,
# at its fewest, cost minutes of the long runs).
TABLES = [(name, registry.get(name).max_players) for name in GAMES]
_played: dict[tuple[str, int], Played] = {}


@pytest.fixture
def played(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Played:
    """One whole game of a game at a number of players, played once for the module."""
    name, players = request.param
    if (name, players) not in _played:
        _played[name, players] = play(tmp_path_factory.mktemp(f"{name}-{players}"), name,
                                      players, "phone")
    return _played[name, players]


SUBJECT_TURN = re.compile(r"\bTurn (\d+)\b")
BODY_TURN = re.compile(r"^\s*Turn (\d+)\b", re.M)


@pytest.mark.slow
@pytest.mark.parametrize("played", TABLES, indirect=True, ids=[f"{g}-{n}p" for g, n in TABLES])
def test_subject_and_body_name_the_same_turn(played: Played) -> None:
    compared = 0
    for mail in mails(played.folder / "outbox"):
        subject = SUBJECT_TURN.search(str(mail["Subject"]))
        part = mail.get_body(("plain",))
        body = BODY_TURN.search(cast(str, part.get_content())) if part is not None else None
        if subject and body:
            assert subject.group(1) == body.group(1), (mail["Subject"], body.group(0))
            compared += 1
    assert compared >= 10, "a whole game's mails name their turn in subject and body"


@pytest.mark.slow
@pytest.mark.parametrize("played", TABLES, indirect=True, ids=[f"{g}-{n}p" for g, n in TABLES])
def test_every_mail_fits_a_phone(played: Played, browser: Any,  # noqa: F811
                                 tmp_path: Path) -> None:
    phone(browser)
    trips: list[Trip | None] = []
    try:
        for n, mail in enumerate(mails(played.folder / "outbox")):
            page = write_mail_page(mail, tmp_path, f"mail-{n}")
            if page is not None:
                browser.get(page.as_uri())
                trips.append(measure(browser, f"mail {n}: {mail['Subject']}"))
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    found = [t for t in trips if t is not None]
    assert not found, f"{len(found)} mails trip a phone reader, e.g. {found[:3]}"


@pytest.mark.slow
@pytest.mark.parametrize("played", TABLES, indirect=True, ids=[f"{g}-{n}p" for g, n in TABLES])
def test_every_archive_step_and_the_site_fit_a_phone(
        played: Played, browser: Any, tmp_path: Path) -> None:  # noqa: F811
    phone(browser)
    trips: list[Trip | None] = []
    try:
        played.export(tmp_path / "archive.html")
        browser.get((tmp_path / "archive.html").as_uri())
        trips += walk_archive(browser, "archive")
        played.pbem("site", "build", str(tmp_path / "site"))
        browser.get((tmp_path / "site" / "index.html").as_uri())
        trips.append(measure(browser, "site index"))
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    found = [t for t in trips if t is not None]
    assert not found, f"{len(found)} views trip a phone reader, e.g. {found[:3]}"
