"""The home page's picture of a status mail: Ben's Reef status after Ann's sixth turn (the game
the status-mail test shows as text), its HTML part as headless Chromium shows it at a phone's
width. ``python -m tests.docs.status_picture`` writes ``docs/images/status-mail.png`` again."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path
from typing import Any

from pbem.engine import registry
from pbem.store import init, session_factory
from tests.support.phone import write_mail_page
from tests.support.seated import BEN, seat_table

ROOT = Path(__file__).parents[2]
PICTURE = ROOT / "docs" / "images" / "status-mail.png"
WIDTH = 390


def ben_status_page(folder: Path) -> Path:
    rules = registry.get("reef2018")
    engine = init(f"sqlite:///{folder / 'picture.sqlite'}")
    try:
        table = seat_table(session_factory(engine), "reef2018")
        rng = random.Random(2026)
        turn = 0
        while rules.waiting_for(state := table.state()):
            seat = min(rules.waiting_for(state))
            result, _ = table.send(seat, rules.random_order(state, seat, rng))
            turn += state.phase == "play"
            if turn == 6 and seat == 0:
                mail = dict(table._parsed(result))[BEN]
                page = write_mail_page(mail, folder, "status")
                assert page is not None
                return page
        raise AssertionError("the game ended before Ann's sixth turn")
    finally:
        engine.dispose()


def screenshot(driver: Any, page: Path, out: Path) -> None:
    driver.set_window_size(WIDTH, 900)
    driver.get(page.as_uri())
    height = int(driver.execute_script("return document.documentElement.scrollHeight"))
    driver.set_window_size(WIDTH, min(height, 1400) + 140)
    driver.get(page.as_uri())
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(driver.get_screenshot_as_png())


def main() -> None:
    from selenium import webdriver

    from tests.support.browser import CHROMEDRIVER, CHROMIUM

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM or "chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"):
        options.add_argument(arg)
    driver = webdriver.Chrome(options=options,
                              service=webdriver.ChromeService(executable_path=CHROMEDRIVER))
    try:
        with tempfile.TemporaryDirectory() as tmp:
            screenshot(driver, ben_status_page(Path(tmp)), PICTURE)
    finally:
        driver.quit()
    print(f"wrote {PICTURE}")


if __name__ == "__main__":
    main()
