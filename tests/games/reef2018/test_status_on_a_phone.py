"""Reef's status mail on a phone (headless Chromium, 390 CSS pixels): each reef is drawn once,
its picture's text (``alt``) the reef in words for a reader who cannot see it, and no word of
the table breaks in the middle ("Playe r", "P oi nt s")."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path
from typing import Any

from pbem.games.reef2018.render import reef_words
from pbem.store import SessionFactory
from tests.support.browser import browser  # noqa: F401  (fixture)
from tests.support.phone import measure, phone, write_mail_page
from tests.support.seated import ANN, seat_table

# Each word of each table cell: the tops of the lines it is drawn on (more than one: the
# word was broken in the middle).
BROKEN_WORDS = """
const broken = [];
for (const cell of document.querySelectorAll('th, td')) {
  const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const words = /\\S+/g;
    for (let m = words.exec(node.textContent); m; m = words.exec(node.textContent)) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
      if (tops.size > 1) broken.push(m[0]);
    }
  }
}
return broken;
"""

PICTURES = """
return [...document.querySelectorAll('img')].map(i => i.alt);
"""


def a_status_mid_game(factory: SessionFactory) -> tuple[EmailMessage, Any]:
    """Ann's latest status of a four-player game some moves in, and the view it shows."""
    table = seat_table(factory, "reef2018", players=4)
    rules = table.rules
    mail = None
    for _ in range(8):  # the setup, then a few turns
        state = table.state()
        seat = min(rules.waiting_for(state))
        result, _ = table.send(seat, rules.default_order(state, seat))
        assert result.status == "applied", result.reason
        mail = next((m for to, m in table._parsed(result) if to == ANN), mail)
    assert mail is not None
    return mail, rules.view(table.state(), 0)


def test_a_phone_reader_gets_each_reef_once_and_whole_words(
        factory: SessionFactory, browser: Any, tmp_path: Path) -> None:  # noqa: F811
    mail, view = a_status_mid_game(factory)
    page = write_mail_page(mail, tmp_path, "status")
    assert page is not None
    html = page.read_text()
    assert "<pre>" not in html  # no second drawing of the reefs, as text grids
    phone(browser)
    try:
        browser.get(page.as_uri())
        assert browser.execute_script(BROKEN_WORDS) == []
        alts = browser.execute_script(PICTURES)
        assert measure(browser, "Reef status at 390 px") is None
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    reefs = [alt for alt in alts if "'s reef: A1 " in alt]
    assert len(reefs) == 4  # one picture per reef, its words the reef square by square
    for player, alt in zip(view["players"], reefs, strict=True):
        assert alt.endswith(reef_words(player))
    assert any(", height " in alt for alt in reefs)  # a coral placed, by colour and height


def test_reef_words_name_each_square_as_orders_do() -> None:
    player = {"reef": [[{"top": "red", "height": 2}, {}], [{}, {"top": "purple", "height": 1}]]}
    assert reef_words(player) == ("A1 red, height 2; B1 empty; "
                                  "A2 empty; B2 purple, height 1")
