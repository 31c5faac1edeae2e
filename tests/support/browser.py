"""Headless Chromium for tests, driven by Selenium through the Debian chromedriver.

Nothing is downloaded: the driver's path is given explicitly, so Selenium Manager (which would
fetch a browser and driver from the network) never runs. Tests using the ``browser`` fixture
are skipped where chromium or chromedriver is not installed.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = next((p for p in ("/usr/bin/chromium", shutil.which("chromium") or "",
                             shutil.which("chromium-browser") or "") if p and Path(p).exists()),
                None)
CHROMEDRIVER = next((p for p in ("/usr/bin/chromedriver", shutil.which("chromedriver") or "")
                     if p and Path(p).exists()), None)


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if CHROMIUM is None or CHROMEDRIVER is None:
        pytest.skip("chromium and chromium-driver are not installed (apt install chromium "
                    "chromium-driver)")
    webdriver = pytest.importorskip("selenium.webdriver")
    # Selenium Manager must never go to the network: the driver is given, and telemetry off.
    os.environ.setdefault("SE_AVOID_STATS", "true")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1200,900", "--no-first-run", "--disable-extensions",
                "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--disable-default-apps"):
        options.add_argument(arg)
    service = webdriver.ChromeService(executable_path=CHROMEDRIVER)
    driver = webdriver.Chrome(options=options, service=service)
    driver.set_page_load_timeout(120)
    try:
        yield driver
    finally:
        driver.quit()
