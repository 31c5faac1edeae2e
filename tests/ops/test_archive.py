"""The game archive page (`pbem game export --format html`): whole games played by bots over the
real mail path, each page opened in headless Chromium and walked with its own controls; what a
page shows, and what it must never show."""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pbem.engine import registry
from pbem.engine.contract import Event, draw_audience
from pbem.engine.hashing import state_hash
from pbem.engine.replay import draws_from_json
from pbem.i18n.translate import ENGLISH
from tests.ops.archive_support import (
    Played,
    board_html,
    cases,
    hide_for_good,
    parse_strict,
    play,
    readable,
    replayed_states,
    step_boards,
    text_of,
)
from tests.support.browser import browser  # noqa: F401  (fixture)
from tests.support.phone import archive_ready
from tests.support.testgame import GAME

CASES = cases()


@pytest.fixture(scope="module", autouse=True)
def testcards() -> Iterator[None]:
    registry.register(GAME)
    yield
    registry.unregister(GAME.name)


_played: dict[tuple[str, int], Played] = {}


@pytest.fixture
def played(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Played:
    """One finished game per (type, players), played once for the whole module."""
    key: tuple[str, int] = request.param
    if key not in _played:
        folder = tmp_path_factory.mktemp(f"{key[0]}-{key[1]}")
        _played[key] = play(folder, *key)
    return _played[key]


def _click(driver: Any, element_id: str, times: int = 1) -> None:
    from selenium.webdriver.common.by import By

    button = driver.find_element(By.ID, element_id)
    for _ in range(times):
        button.click()


def _visible_step(driver: Any) -> Any:
    """The one step on show. A link's jump is handled on 'hashchange', which the browser
    fires after the click returns: wait (on the condition, up to 10 s) for the page to settle."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    def shown_steps(d: Any) -> list[Any]:
        return [s for s in d.find_elements(By.CSS_SELECTOR, "section.step") if s.is_displayed()]

    with contextlib.suppress(TimeoutException):  # the assertion below says what is wrong
        WebDriverWait(driver, 10, poll_frequency=0.05).until(lambda d: len(shown_steps(d)) == 1)
    shown = shown_steps(driver)
    assert len(shown) == 1, "the page shows one step at a time"
    return shown[0]


@pytest.mark.slow
@pytest.mark.parametrize("played", CASES, indirect=True, ids=[f"{g}-{n}p" for g, n in CASES])
def test_walking_the_page_in_chromium_shows_each_replayed_board(
        played: Played, browser: Any, tmp_path: Path) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By

    page = played.export(tmp_path / "game.html")
    export = played.exported_json()
    states = replayed_states(export)
    names = [s["name"] for s in export["seats"]]
    last, middle = len(states) - 1, (len(states) - 1) // 2
    assert last >= 4 and 0 < middle < last

    browser.get((tmp_path / "game.html").as_uri())
    archive_ready(browser)
    assert browser.find_element(By.ID, "verification").get_attribute("data-verified") == "yes"
    assert browser.find_element(By.ID, "position").text == f"Step {last} of {last}"
    assert _visible_step(browser).get_attribute("id") == f"step-{last}"
    # Walk with the page's own buttons: to the start, forward past the middle, one back.
    _click(browser, "first")
    assert _visible_step(browser).get_attribute("id") == "step-0"
    _click(browser, "prev")  # stays at the start
    _click(browser, "next", middle + 1)
    _click(browser, "prev")
    step = _visible_step(browser)
    assert step.get_attribute("id") == f"step-{middle}"
    assert browser.find_element(By.ID, "position").text == f"Step {middle} of {last}"
    assert browser.find_element(By.ID, "slider").get_attribute("value") == str(middle)
    browser.save_screenshot(str(tmp_path / f"{played.game_type}-{played.players}p-middle.png"))

    # The board read back from the DOM is the replayed state's, and no other step's.
    expected = state_hash(registry.get(played.game_type).to_json(states[middle]))
    assert step.get_attribute("data-hash") == expected
    assert step.find_element(By.CSS_SELECTOR, ".meta code.hash").text == expected
    board = step.find_element(By.CSS_SELECTOR, ".board")
    dom_text = " ".join(browser.execute_script("return arguments[0].textContent", board).split())
    assert dom_text == text_of(board_html(played.game_type, states[middle], names))
    assert dom_text != text_of(board_html(played.game_type, states[last], names))
    assert dom_text != text_of(board_html(played.game_type, states[0], names))
    # The step's events are the logged public ones, rendered from their data with the names.
    logged = [Event.from_json(ev).render(ENGLISH, names)
              for ev in export["log"][middle]["events"] if ev["visible_to"] is None]
    shown = [li.text for li in step.find_elements(By.CSS_SELECTOR, "ul.events li")]
    assert shown == logged

    # The slider walks too, and a link of the step table jumps to its step.
    browser.execute_script("const s = document.getElementById('slider'); s.value = '1';"
                           "s.dispatchEvent(new Event('input'));")
    assert _visible_step(browser).get_attribute("id") == "step-1"
    browser.find_element(By.CSS_SELECTOR, f"#history a[href='#step-{last}']").click()
    assert _visible_step(browser).get_attribute("id") == f"step-{last}"
    browser.save_screenshot(str(tmp_path / f"{played.game_type}-{played.players}p-last.png"))
    assert "Final scores" in page


def _fragments(html: str) -> set[str]:
    """The text pieces between tags, whitespace collapsed, leaving out bare punctuation."""
    pieces = {" ".join(t.split()) for t in re.split(r"<[^>]+>", html)}
    return {p for p in pieces if len(p) >= 3 and any(c.isalnum() for c in p)}


@pytest.mark.slow
@pytest.mark.parametrize("played", CASES, indirect=True, ids=[f"{g}-{n}p" for g, n in CASES])
def test_the_public_page_holds_no_hidden_holding_secret_or_address(
        played: Played, tmp_path: Path) -> None:
    """What play hides, hidden for good (the host option): not even the end reveals it."""
    _name_one_seat_by_address(played)
    hide_for_good(played)
    try:
        page = played.export(tmp_path / "public.html")
        export = played.exported_json()
    finally:
        _name_one_seat_by_address(played, undo=True)
        hide_for_good(played, False)
    parse_strict(page)
    text = text_of(page)
    rules = registry.get(played.game_type)
    for seat in export["seats"]:
        assert seat["address"] not in page
    assert "@" not in page
    assert "Seat 1" in text  # the address-named seat is shown by its number
    for secret in played.secrets():
        assert secret not in page
    public = {ev["text"] for e in export["log"] for ev in e["events"] if ev["visible_to"] is None}
    private = {ev["text"] for e in export["log"] for ev in e["events"]
               if ev["visible_to"] is not None} - public
    assert private, "every game here has something only one seat may read"
    for line in private:
        assert line not in text
    # Draws whose outcome the game keeps from the table are labelled, never shown.
    hidden = [d for e in export["log"] for d in draws_from_json(e["draws"])
              if draw_audience(rules, d, len(export["seats"])) is not None]
    assert page.count('class="hidden-draw"') == len(hidden)
    for d in hidden:
        if len(d.shown) > 12:  # long enough not to occur by chance (a dealt deck's order)
            assert d.shown not in page
    # What a seat's own view adds to the board (its hand, its screen) never shows.
    names = [s["name"] for s in export["seats"]]
    # Within its step nothing of it; anywhere on the page none of its longer lines (short
    # ones such as "1 pink, 1 white" may be another step's public counts).
    boards = step_boards(page)
    assert all(len(b) <= 1 for b in boards.values()), "one board a step: the viewer's"
    page_fragments = _fragments(page).union(*(_fragments(b[0]) for b in boards.values() if b))
    sections = [section + "".join(boards[step]) for step, section in
                re.findall(r'<section class="step" id="(step-\d+)"(.*?)</section>', page, re.S)]
    states = replayed_states(export)
    assert len(sections) == len(states)
    public_boards = [_fragments(board_html(played.game_type, state, names)) for state in states]
    # A hidden thing may become public later (a hand card played, a sealed setup revealed):
    # only what no public board of the game ever shows must be absent from the whole page.
    ever_public = set().union(*public_boards)
    for state, section, public_board in zip(states, sections, public_boards, strict=True):
        for seat in range(len(names)):
            own = _fragments(board_html(played.game_type, state, names, seat)) - public_board
            assert own, "each seat's view shows something the table does not see"
            assert not own & _fragments(section), f"seat {seat}'s hidden view leaked: {own}"
            assert not {f for f in own - ever_public if len(f) >= 20} & page_fragments


@pytest.mark.parametrize("played", [("testcards", 3)], indirect=True, ids=["testcards-3p"])
def test_once_over_the_page_shows_every_seats_board_and_every_draw(
        played: Played, browser: Any, tmp_path: Path) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    export = played.exported_json()
    page = played.export(tmp_path / "public.html")
    parse_strict(page)
    text = text_of(page)
    rules = registry.get(played.game_type)
    names = [s["name"] for s in export["seats"]]
    assert "The game is over: every draw is shown" in text
    hidden = [d for e in export["log"] for d in draws_from_json(e["draws"])
              if draw_audience(rules, d, len(names)) is not None]
    assert hidden and 'class="hidden-draw"' not in page
    assert all(f"{d.label}: {d.shown}" in text for d in hidden)
    # Each step: the spectators' board, then each seat's (its hand); events keep their audience.
    states = replayed_states(export)
    boards = step_boards(page)
    assert len(boards) == len(states)
    drawn = 0
    for shown, state in zip(boards.values(), states, strict=True):
        if shown:
            expected = [board_html(played.game_type, state, names)] + [
                board_html(played.game_type, state, names, seat) for seat in range(len(names))]
            assert [text_of(b) for b in shown] == [text_of(b) for b in expected]
            drawn += 1
    assert drawn > len(states) // 2
    private = {ev["text"] for e in export["log"] for ev in e["events"]
               if ev["visible_to"] is not None}
    assert private and not any(line in text for line in private)

    # In the browser: the board as the second player saw it, kept while walking the steps.
    browser.get((tmp_path / "public.html").as_uri())
    archive_ready(browser)
    chooser = Select(browser.find_element(By.ID, "seen-by"))
    assert [o.text for o in chooser.options] == ["spectators", *names]
    chooser.select_by_visible_text(names[1])
    board = _visible_step(browser).find_element(By.CSS_SELECTOR, ".board")
    assert " ".join(board.text.split()) == text_of(
        board_html(played.game_type, states[-1], names, 1))
    assert re.search(r"Your hand: \d", board.text)
    _click(browser, "first")
    board = _visible_step(browser).find_element(By.CSS_SELECTOR, ".board")
    assert " ".join(board.text.split()) == text_of(board_html(played.game_type, states[0],
                                                               names, 1))


@pytest.mark.slow
def test_pbem_demos_reef_encounter_archive_is_small_and_shows_the_screens_after_the_end(
        tmp_path: Path) -> None:
    """A whole game of three, every seat's board at every step: no more than 300 kB."""
    played = play(tmp_path / "demo", "reef-encounter", 3, seed="demo-size")
    page = played.export(tmp_path / "game.html")
    size = len(page.encode("utf-8"))
    boards = step_boards(page)
    assert len(boards) >= 40, "a whole game"
    assert size <= 300_000, f"{size} bytes for {len(boards)} steps"
    assert 'class="hidden-draw"' not in page
    last = list(boards.values())[-1]
    assert len(last) == 4  # the spectators' board, then each seat's
    assert all("Polyps behind your screen" not in text_of(b) for b in last[:1])
    assert all("Polyps behind your screen" in text_of(b) for b in last[1:])


def _name_one_seat_by_address(played: Played, undo: bool = False) -> None:
    """Seat 0 named by its address, as `pbem game new` does for "ann@example.org" alone."""
    import sqlite3

    with sqlite3.connect(played.folder / "pbem.sqlite") as db:
        address = db.execute("select address from seat where \"index\" = 0").fetchone()[0]
        db.execute("update seat set name = ? where \"index\" = 0",
                   ("Ann" if undo else address,))


@pytest.mark.parametrize("played", [("testcards", 3)], indirect=True, ids=["testcards-3p"])
def test_as_seat_shows_that_seats_view_and_its_own_orders_only(
        played: Played, tmp_path: Path) -> None:
    export = played.exported_json()
    hide_for_good(played)  # over, but nothing revealed: each page as during play
    try:
        public = readable(played.export(tmp_path / "public.html"))
        mine = readable(played.export(tmp_path / "seat2.html", "--as", "2"))
    finally:
        hide_for_good(played, False)
    assert "Shown as seen by spectators" in public
    assert f"Shown as seen by {export['seats'][1]['name']} (seat 2)" in mine
    for e in export["log"]:
        for ev in e["events"]:
            if ev["visible_to"] == [1]:
                assert ev["text"] in mine
            elif ev["visible_to"] is not None and 1 not in ev["visible_to"]:
                assert ev["text"] not in mine
        for d in e["draws"]:  # a card drawn for seat 2 is shown to seat 2 only
            if d["label"] == "draw for seat 2":
                assert f"draw for seat 2: {d['shown']}" in mine
                assert f"draw for seat 2: hidden from {export['seats'][1]['name']}" not in mine
    own = [e["text"] for e in export["log"] if e["seat"] == 1 and e["kind"] == "order"]
    others = [e["text"] for e in export["log"] if e["seat"] == 0 and e["kind"] == "order"]
    assert own and all(f"Orders {t}" in mine for t in own)
    assert not any(f"Orders {t}" in mine for t in set(others) - set(own))
    assert "Orders" not in public
    assert "Your hand: none" in public and re.search(r"Your hand: \d", mine)
    out = played.pbem("game", "export", played.tag, "--format", "html", "--as", "7", code=1)
    assert f"game {played.tag} has no seat 7" in out
    out = " ".join(played.pbem("game", "export", played.tag, "--format", "html", "--as", "0",
                               code=1).split())
    names = [s["name"] for s in export["seats"]]
    assert (f"has no seat 0 (seats count from 1); its seats are: 1 ({names[0]}), "
            f"2 ({names[1]}), 3 ({names[2]})") in out


def test_a_tampered_log_is_shown_as_failed_with_the_steps_that_replay(tmp_path: Path) -> None:
    played = play(tmp_path / "g", "testcards", 2, seed="tamper")
    import sqlite3

    with sqlite3.connect(played.folder / "pbem.sqlite") as db:
        db.execute("update logentry set state_hash = ? where \"index\" = 3", ("0" * 64,))
    page = played.export(tmp_path / "bad.html")
    text = text_of(page)
    assert 'data-verified="no"' in page
    assert "Replay FAILED: entry 3: recorded hash 000000000000…" in text
    assert 'id="step-2"' in page and 'id="step-3"' not in page
    data = json.loads(played.pbem("game", "export", played.tag))
    assert data["log"][3]["state_hash"] == "0" * 64


def test_the_hosts_entries_are_steps_too_and_an_undone_move_is_marked(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.cli.test_cli import pbem as cli
    from tests.cli.test_cli_admin import lowest, new_game

    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    tag = new_game()
    cli("game", "force", tag, "1", f"play {lowest(tag, 1)}")
    cli("game", "undo", tag)
    cli("seat", "takeover", tag, "2", "--name", "Carl", "--address", "carl@players.test")
    cli("game", "pause", tag, "--reason", "mail to carl@players.test bounced")
    cli("game", "export", tag, "--format", "html", "-o", str(tmp_path / "g.html"))
    page = (tmp_path / "g.html").read_text(encoding="utf-8")
    parse_strict(page)
    text = text_of(page)
    assert 'data-verified="yes"' in page
    assert "Step 1: Alice (orders entered by the host)" in text
    assert "Undone by the host at log entry #2" in text
    assert "Step 2: the host (undo)" in text and "Step 3: the host (takeover)" in text
    assert "Carl takes over from Bob." in text
    assert "Players: Alice, Carl. Status: paused" in text
    assert "The game's host paused the game: mail to (address hidden) bounced." in text
    assert "@" not in page
    # Not over: nothing revealed.
    assert 'id="seen-by"' not in page and "The game is over" not in text
    assert all(len(b) <= 1 for b in step_boards(page).values())



@pytest.mark.slow
@pytest.mark.parametrize("played", [("reef-encounter", 4), ("reef-2018", 4)], indirect=True,
                         ids=["reef-4p", "reef2018-4p"])
def test_every_board_picture_fits_a_phone_and_a_desktop(
        played: Played, browser: Any, tmp_path: Path) -> None:  # noqa: F811
    """A step's pictures (the sea, the tiles, a reef; some drawn in bands) shrink to a narrow
    window's width instead of running off the page (drawn for a phone, hardly at all), and
    keep their size on a desktop."""
    played.export(tmp_path / "game.html")
    for width in (390, 1200):
        browser.set_window_size(width, 900)
        browser.get((tmp_path / "game.html").as_uri())
        archive_ready(browser)
        boxes = browser.execute_script(
            "const s = document.querySelector('section.step:not([hidden])');"
            "return [...s.querySelectorAll('.board svg')].map(g => {"
            "  const r = g.getBoundingClientRect();"
            "  return [r.left, r.right, r.width, g.width.baseVal.value]; });")
        inner = browser.execute_script("return document.documentElement.clientWidth")
        assert boxes
        for left, right, shown, drawn in boxes:
            assert left >= 0 and right <= inner + 0.5, (width, left, right, inner)
            assert shown == pytest.approx(min(drawn, shown), abs=0.5)
        if width == 1200:  # room enough: every picture at its own size
            assert all(shown == pytest.approx(drawn, abs=0.5) for _, _, shown, drawn in boxes)
        else:  # drawn for a phone: a window this narrow (its scroll bar too) shrinks none much
            assert all(shown >= 0.95 * drawn for _, _, shown, drawn in boxes)
