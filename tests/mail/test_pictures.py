"""Status mails every client shows: the board as a PNG part of the HTML (multipart/related),
decoded and measured against the game's SVG, and the HTML in headless Chromium at a phone's
and a desktop's width: nothing wider than the window, the picture shown."""

from __future__ import annotations

import base64
import email
import re
import struct
from email import policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import col, select

from pbem.engine import registry
from pbem.mail.pictures import SCALE, svg_size
from pbem.processor.mails import status_mail
from pbem.processor.render import render_status
from pbem.store import OutboundMessage, SessionFactory, queries
from tests.support.browser import browser  # noqa: F401  (fixture)
from tests.support.seated import BEN, seat_table

GAMES = sorted(registry.games())  # every game; those that draw an SVG get it as a PNG
WIDTHS = (390, 1200)


def png_size(png: bytes) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR"
    width, height = struct.unpack(">II", png[16:24])
    return int(width), int(height)


def a_status_mail(factory: SessionFactory, game: str) -> tuple[EmailMessage, str]:
    """Ben's status mail after the first order, and the HTML the game drew (with its SVGs)."""
    table = seat_table(factory, game, players=max(2, min(3, registry.get(game).max_players)))
    state = table.state()
    seat = min(table.rules.waiting_for(state))
    result, _ = table.send(seat, table.rules.default_order(state, seat))
    assert result.status == "applied", result.reason
    with factory() as s:
        row = s.exec(select(OutboundMessage).where(OutboundMessage.to_addr == BEN)
                     .order_by(col(OutboundMessage.id).desc())).first()
        assert row is not None
        msg = email.message_from_bytes(row.raw, policy=policy.default)
        assert isinstance(msg, EmailMessage)
        game_row = queries.game_by_tag(s, table.tag)
        assert game_row is not None
        seats = queries.seats(s, game_row.id or 0)
        drawn = render_status(table.rules, status_mail(s, table.rules, game_row, table.state(),
                                                       seats[1]))[1]
    return msg, drawn


def parts(msg: EmailMessage) -> tuple[str, dict[str, bytes]]:
    html_part = msg.get_body(("html",))
    assert html_part is not None and html_part.get_content_type() == "text/html"
    images = {}
    for part in msg.walk():
        if part.get_content_type() == "image/png":
            payload = part.get_payload(decode=True)
            assert isinstance(payload, bytes)
            images[str(part["Content-ID"]).strip("<>")] = payload
    return str(html_part.get_content()), images


@pytest.mark.parametrize("game", GAMES)
def test_the_board_travels_as_a_png_of_the_svgs_size(factory: SessionFactory,
                                                      game: str) -> None:
    msg, drawn = a_status_mail(factory, game)
    assert msg.get_content_type() == "multipart/alternative"
    assert msg.get_body(("plain",)) is not None  # the text part stays first-class
    related = [p for p in msg.walk() if p.get_content_type() == "multipart/related"]
    assert len(related) == ("<svg" in drawn)
    html, images = parts(msg)
    svgs = re.findall(r"<svg\b.*?</svg>", drawn, flags=re.S)
    cids = re.findall(r'src="cid:([^"]+)"', html)
    if not svgs:  # a game without pictures: a plain HTML alternative, nothing attached
        assert not related and not images and not cids
        return
    assert "<svg" not in html and len(set(cids)) == len(images)
    for cid, svg in zip(cids, svgs, strict=False):
        w, h = svg_size(svg)
        assert png_size(images[cid]) == (w * SCALE, h * SCALE)
        assert f'src="cid:{cid}" width="{w}" height="{h}"' in html


@pytest.mark.parametrize("game", GAMES)
def test_the_status_html_fits_a_phone_and_a_desktop(factory: SessionFactory, game: str,
                                                     browser: Any,  # noqa: F811
                                                     tmp_path: Path) -> None:
    msg, _ = a_status_mail(factory, game)
    html, images = parts(msg)
    # What a mail client does with cid: the picture comes from the mail's own part.
    for cid, png in images.items():
        html = html.replace(f"cid:{cid}",
                            "data:image/png;base64," + base64.b64encode(png).decode())
    page = tmp_path / f"{game}-status.html"
    page.write_text(html, encoding="utf-8")
    for width in WIDTHS:
        browser.set_window_size(width, 900)
        browser.get(page.as_uri())
        inner = browser.execute_script("return window.innerWidth")
        scroll = browser.execute_script("return document.documentElement.scrollWidth")
        assert scroll <= inner, f"{game} at {width}px: page {scroll}px wide in {inner}px"
        shown = browser.execute_script(
            "return [...document.images].map(i => [i.complete, i.naturalWidth, "
            "i.getBoundingClientRect().width, i.getBoundingClientRect().right])")
        assert bool(shown) == bool(images), "a picture the mail carries is not in the page"
        for complete, natural, shown_width, right in shown:
            assert complete and natural > 0, "a picture did not load"
            assert shown_width > 0 and right <= inner, f"a picture does not fit at {width}px"
        font = browser.execute_script("return getComputedStyle(document.body).fontFamily")
        assert "Times" not in font
        browser.save_screenshot(str(tmp_path / f"{game}-status-{width}px.png"))
    registry.get(game)  # the game is registered (a renamed game fails here, not silently)
