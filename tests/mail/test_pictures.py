"""Status mails every client shows: the board as a PNG part of the HTML (multipart/related),
decoded and measured against the game's SVG, and the HTML in headless Chromium at a phone's
and a desktop's width: nothing wider than the window, the picture shown."""

from __future__ import annotations

import base64
import email
import io
import random
import re
import struct
from email import policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any, cast

import pytest
from PIL import Image, ImageChops

from pbem.drawing import pictures
from pbem.drawing.pictures import PICTURE, SCALE, band, font_files, png_of, svg_size
from pbem.engine import registry
from pbem.pipeline.move_mails import MoveMails
from pbem.rendering import render_status
from pbem.store import OutboundMessage, SessionFactory, queries
from tests.support.bands import banded_pictures, origin, worst_difference
from tests.support.browser import browser  # noqa: F401  (fixture)
from tests.support.png import decode
from tests.support.seated import BEN, seat_table

GAMES = sorted(registry.games())  # every game; those that draw an SVG get it as a PNG
WIDTHS = (390, 1200)


def png_size(png: bytes) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR"
    width, height = struct.unpack(">II", png[16:24])
    return int(width), int(height)


def a_status_mail(factory: SessionFactory, game: str) -> tuple[EmailMessage, str]:
    """Ben's status mail after another seat's first order that mails him, and the HTML the
    game drew (with its SVGs). A shared setup step mails only its sender until every seat has
    answered, so the waiting seats play their default orders until the step mails Ben."""
    players = max(2, min(3, registry.get(game).max_players))
    table = seat_table(factory, game, players=players)
    raw = None
    for _ in range(players):
        state = table.state()
        seat = min(table.rules.waiting_for(state))
        result, _ = table.send(seat, table.rules.default_order(state, seat))
        assert result.status == "applied", result.reason
        with factory() as s:
            raw = next((row.raw for row in (s.get(OutboundMessage, q) for q in result.queued)
                        if row is not None and row.to_addr == BEN and seat != 1), None)
        if raw is not None:
            break
    assert raw is not None, f"{game}: no order of the first step mailed Ben his status"
    with factory() as s:
        msg = email.message_from_bytes(raw, policy=policy.default)
        assert isinstance(msg, EmailMessage)
        game_row = queries.game_by_tag(s, table.tag)
        assert game_row is not None
        seats = queries.seats(s, game_row.id or 0)
        drawn = render_status(table.rules, MoveMails.read(
            s, table.rules, game_row, table.state(), mailed=[1]).status_mail(seats[1]))[1]
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
    # A picture is an SVG or the bands of one, stacked: one PNG part either way.
    drawings = [re.findall(r"<svg\b.*?</svg>", picture, flags=re.S)
                for picture in PICTURE.findall(drawn)]
    cids = re.findall(r'src="cid:([^"]+)"', html)
    if not drawings:  # a game without pictures: a plain HTML alternative, nothing attached
        assert not related and not images and not cids
        return
    assert "<svg" not in html and len(set(cids)) == len(images)
    assert len(cids) == len(drawings)
    for cid, bands in zip(cids, drawings, strict=True):
        w, h = svg_size(bands[0])[0], sum(svg_size(band)[1] for band in bands)
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


TEXT = re.compile(r'<text x="([\d.]+)" y="([\d.]+)" font-size="([\d.]+)"([^>]*)>([^<]+)</text>')
PIECE = re.compile(r'<circle cx="([\d.]+)" cy="([\d.]+)" r="([\d.]+)"')
GRID = re.compile(r'<path d="M([\d.]+) ([\d.]+)v([\d.]+)[^"]*" fill="none" '
                  r'stroke="(#[0-9a-f]{3,6})"')
BARE = re.compile(r"<text\b[^>]*>.*?</text>|<circle\b.*?</circle>|<circle\b[^>]*/>", re.S)


def _rgb(colour: str) -> tuple[int, int, int]:
    digits = colour.lstrip("#")
    digits = "".join(d * 2 for d in digits) if len(digits) == 3 else digits
    return int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16)


@pytest.mark.parametrize("game", GAMES)
def test_the_png_shows_every_label_piece_and_grid_line(factory: SessionFactory,
                                                        game: str) -> None:
    """Each label leaves ink where the SVG puts it (against the same picture drawn without
    labels or pieces), each piece is drawn at its place, and each board's grid line shows in
    its colour: a font resvg cannot find, or a line too thin for crisp edges, fails here."""
    _, drawn = a_status_mail(factory, game)
    svgs = re.findall(r"<svg\b.*?</svg>", drawn, flags=re.S)
    labels = pieces = lines = 0
    for svg in svgs:
        full, bare = decode(png_of(svg)), decode(png_of(BARE.sub("", svg)))
        left0, top0 = origin(svg)  # a band of a picture shows the picture from here

        def area(x0: float, y0: float, x1: float, y1: float, left0: float = left0,
                 top0: float = top0) -> tuple[int, int, int, int]:
            x0, x1, y0, y1 = x0 - left0, x1 - left0, y0 - top0, y1 - top0
            return (int(x0 * SCALE), int(y0 * SCALE), int(x1 * SCALE) + 1, int(y1 * SCALE) + 1)

        for x, y, size, attrs, label in TEXT.findall(svg):
            fx, fy, fs = float(x), float(y), float(size)
            left = fx - 0.3 * fs if 'text-anchor="middle"' in attrs else fx
            box = area(left, fy - 0.7 * fs, left + 0.6 * fs, fy)
            assert full.box(*box) != bare.box(*box), f"{game}: label {label!r} is not drawn"
            labels += 1
        for cx, cy, r in PIECE.findall(svg):
            box = area(float(cx) - float(r) / 2, float(cy) - float(r) / 2,
                       float(cx) + float(r) / 2, float(cy) + float(r) / 2)
            assert full.box(*box) != bare.box(*box), f"{game}: a piece at {cx},{cy} is missing"
            pieces += 1
        for x, y, length, colour in GRID.findall(svg):
            # the middle of the part of the line this band shows
            shown_from = max(float(y), top0)
            shown_to = min(float(y) + float(length), top0 + svg_size(svg)[1])
            mid = int(((shown_from + shown_to) / 2 - top0) * SCALE)
            column = int((float(x) - left0) * SCALE)
            shown = {p[:3] for p in full.box(column - 1, mid, column + 1, mid + 1)}
            assert _rgb(colour) in shown, f"{game}: a grid line at x={x} is not drawn"
            lines += 1
    if svgs:  # the pictures of this game: their labels, pieces and grids were all looked at
        assert labels >= 10 and lines >= 1, (game, labels, pieces, lines)


@pytest.mark.parametrize(("label", "own_fonts"), [("Ann ✶ ▲ Zoë Жанна", True), ("李娜", False)])
def test_a_picture_gets_the_system_fonts_when_dejavu_lacks_its_characters(
        monkeypatch: pytest.MonkeyPatch, label: str, own_fonts: bool) -> None:
    """resvg is given DejaVu's two files (fast), unless a label needs a character DejaVu does
    not draw: then every system font, so that a fallback font can draw it."""
    if not font_files():
        pytest.skip("DejaVu Sans is not installed: every picture gets the system fonts")
    seen: dict[str, Any] = {}
    draw = pictures.resvg_py.svg_to_bytes

    def spy(**kwargs: Any) -> bytes:
        seen.update(kwargs)
        return bytes(draw(**kwargs))

    monkeypatch.setattr(pictures.resvg_py, "svg_to_bytes", spy)
    pictures.drawn(f'<svg xmlns="http://www.w3.org/2000/svg" width="90" height="20">'
                   f'<text x="2" y="15">{label}</text></svg>')
    assert seen["skip_system_fonts"] is own_fonts
    assert (seen["font_files"] is not None) is own_fonts


@pytest.mark.parametrize("game", GAMES)
def test_a_pictures_bands_stacked_show_the_picture_drawn_whole(factory: SessionFactory,
                                                               game: str) -> None:
    """A game may cut a picture into bands so that a move redraws only the band it changed
    (tests/support/bands.py): stacked, they show the picture drawn whole."""
    _, drawn = a_status_mail(factory, game)
    pictures_in_bands = banded_pictures(drawn)
    for bands in pictures_in_bands:
        assert worst_difference(bands) <= 16, f"{game}: {bands[0][:120]} differs from the whole"
    if game == "reef-encounter":
        assert len(pictures_in_bands) >= 3, "the boards and the sea are cut into bands"


def _worst_and_exact(sent: bytes, bands: list[str]) -> tuple[int, float]:
    """How far the sent PNG's pixels are from resvg's own pixels of the bands stacked: the
    largest difference in any channel, and the share of channel values that are exact."""
    drawn_rows = [row for band in bands for row in decode(pictures.drawn(band)).rows]
    got = decode(sent)
    assert got.height == len(drawn_rows)
    diffs = [abs(a - b) for mine, theirs in zip(got.rows, drawn_rows, strict=True)
             for a, b in zip(mine, theirs, strict=True)]
    return max(diffs), sum(d == 0 for d in diffs) / len(diffs)


@pytest.mark.parametrize("game", GAMES)
def test_a_picture_travels_as_one_palette_png_of_its_bands_pixels(
        factory: SessionFactory, game: str) -> None:
    """Every picture of a mail (an SVG, or the bands of one) travels as one palette PNG, a
    third of the bytes of resvg's: its flat colours exact, a few antialiased edge shades moved
    to the nearest of its 256 commonest colours (at most PALETTE_TOLERANCE); the bands pasted
    with no seam."""
    msg, drawn = a_status_mail(factory, game)
    _, images = parts(msg)
    found = [re.findall(r"<svg\b.*?</svg>", picture, flags=re.S)
             for picture in PICTURE.findall(drawn)]
    for bands in found:
        sent = pictures.stacked_png(tuple(bands))
        assert sent in images.values()
        worst, exact = _worst_and_exact(sent, bands)
        if len(bands) > 1 or sent != pictures.drawn(bands[0]):  # a tiny one may stay as drawn
            assert sent[25] == 3, "a palette PNG (IHDR colour type 3)"
            assert len(sent) < sum(len(pictures.drawn(band)) for band in bands)
            assert worst <= pictures.PALETTE_TOLERANCE and exact >= 0.95, (worst, exact)
    if game == "reef-encounter":
        assert sum(len(bands) > 1 for bands in found) >= 3  # the boards and the sea


def test_a_picture_the_palette_would_change_travels_as_resvg_drew_it() -> None:
    # Two gradients across each other: thousands of colours, far from any 256 of them.
    gradient = ['<linearGradient id="g"><stop offset="0" stop-color="#000"/>'
                '<stop offset="1" stop-color="#f0a"/></linearGradient>'
                '<linearGradient id="h" x2="0" y2="1"><stop offset="0" stop-color="#0f0"/>'
                '<stop offset="1" stop-color="#00f"/></linearGradient>',
                '<rect width="300" height="80" fill="url(#g)"/>',
                '<rect width="300" height="80" fill="url(#h)" opacity="0.5"/>']
    bands = [band(300, 0, 40, "a gradient", gradient), band(300, 40, 80, "", gradient)]
    sent = pictures.stacked_png(tuple(bands))
    assert sent[25] == 2, "an RGB PNG (IHDR colour type 2)"
    assert _worst_and_exact(sent, bands) == (0, 1.0)



def _palette_checked_on_every_pixel(canvas: Image.Image) -> Image.Image | None:
    """What pictures._palette_of answered before it checked one pixel per colour: the
    canvas mapped whole, then compared pixel by pixel."""
    counted = canvas.getcolors(canvas.width * canvas.height)
    assert counted is not None
    counted.sort(key=lambda pair: pair[0], reverse=True)
    colours = [channel for _, rgb in counted[:pictures.PALETTE]
               for channel in cast(tuple[int, ...], rgb)]
    palette = Image.new("P", (1, 1))
    palette.putpalette(colours + [0] * (3 * pictures.PALETTE - len(colours)))
    shades = canvas.quantize(palette=palette, dither=Image.Dither.NONE)
    moved = cast(tuple[tuple[int, int], ...],
                 ImageChops.difference(canvas, shades.convert("RGB")).getextrema())
    return shades if max(high for _, high in moved) <= pictures.PALETTE_TOLERANCE else None


@pytest.mark.parametrize("colours", [40, 300, 2000, 20000])
def test_the_palette_check_on_each_colour_once_answers_as_on_every_pixel(colours: int) -> None:
    """Few colours (exact), a few more than a palette holds (edge shades moved a little),
    many (a gradient: moved too far): the same answer, the same pixels."""
    rng = random.Random(colours)
    flat = [(rng.randrange(256), rng.randrange(256), rng.randrange(256)) for _ in range(40)]
    spread = 6 if colours < 20000 else 128  # edge shades, or colours of every kind
    shades = [(r + rng.randrange(-spread, spread), g + rng.randrange(-spread, spread),
               b + rng.randrange(-spread, spread))
              for r, g, b in (rng.choice(flat) for _ in range(colours - len(flat)))]
    pool = [tuple(min(255, max(0, c)) for c in rgb) for rgb in flat + shades]
    canvas = Image.new("RGB", (200, 150))
    canvas.putdata([pool[i] if i < len(pool) else rng.choice(flat[:8])
                    for i in range(200 * 150)])
    expected, got = _palette_checked_on_every_pixel(canvas), pictures._palette_of(canvas)
    assert (got is None) == (expected is None)
    if colours == 20000:
        assert got is None  # this test reaches both answers
    if colours == 40:
        assert got is not None
    if got is not None and expected is not None:
        assert got.tobytes() == expected.tobytes()
        assert got.getpalette() == expected.getpalette()


def statuses_drawn(factory: SessionFactory, game: str, moves: int) -> list[str]:
    """The HTML of Ben's status (with its SVGs) after each of ``moves`` default orders."""
    table = seat_table(factory, game, players=max(2, min(3, registry.get(game).max_players)))
    drawn = []
    for _ in range(moves):
        state = table.state()
        waiting = table.rules.waiting_for(state)
        if not waiting:
            break
        seat = min(waiting)
        result, _ = table.send(seat, table.rules.default_order(state, seat))
        assert result.status == "applied", result.reason
        with factory() as s:
            game_row = queries.game_by_tag(s, table.tag)
            assert game_row is not None
            seats = queries.seats(s, game_row.id or 0)
            drawn.append(render_status(table.rules, MoveMails.read(
                s, table.rules, game_row, table.state(), mailed=[1]).status_mail(seats[1]))[1])
    return drawn


def _pixels_mapped_whole(bands: tuple[str, ...]) -> bytes:
    """The RGB pixels of the picture of ``bands`` as first written: resvg's pixels of each
    band pasted on white, the canvas mapped whole to its 256 commonest colours (in the order
    Pillow counts them) if that moves no pixel too far, else (or where that PNG is larger than
    resvg's of a lone SVG) as drawn."""
    canvas = pictures.pasted([Image.open(io.BytesIO(pictures.drawn(svg))).convert("RGB")
                              for svg in bands])
    shades = _palette_checked_on_every_pixel(canvas)
    if shades is None:
        return canvas.tobytes()
    out = io.BytesIO()
    shades.save(out, "PNG")
    if len(bands) == 1 and len(pictures.drawn(bands[0])) <= out.tell():
        return canvas.tobytes()  # a tiny one, as drawn
    return shades.convert("RGB").tobytes()


@pytest.mark.parametrize("game", GAMES)
def test_a_picture_shows_exactly_the_pixels_of_its_canvas_mapped_whole(
        factory: SessionFactory, game: str) -> None:
    """However the PNG is made faster, a mail shows the very pixels it always showed: every
    picture of a few moves of every game, decoded, pixel by pixel."""
    seen: set[tuple[str, ...]] = set()
    for html in statuses_drawn(factory, game, moves=4):
        for picture in PICTURE.findall(html):
            bands = tuple(re.findall(r"<svg\b.*?</svg>", picture, flags=re.S))
            if bands in seen:
                continue
            seen.add(bands)
            sent = Image.open(io.BytesIO(pictures.stacked_png(bands))).convert("RGB")
            assert sent.tobytes() == _pixels_mapped_whole(bands), f"{game}: {bands[0][:120]}"
    if game == "reef-encounter":
        assert len(seen) >= 6


def _fragments(rng: random.Random) -> str:
    pieces = ['<svg width="1" data-band="">a</svg>', '<SVG data-band="" x="1">b</SVG>',
              '<svg width="2">c</svg>', '<svg data-banded="">d</svg>', "<svg", "</svg>",
              '<svg data-band="">', "<svgx>e</svgx>", " text ", "<p>", "\n",
              '<svg\ndata-band=""\n>f\n</svg>', '<svg role="img" data-band>g</svg>']
    return "".join(rng.choice(pieces) for _ in range(rng.randrange(1, 14)))


def test_picture_spans_are_where_the_picture_pattern_matches() -> None:
    """The tag search finds what PICTURE finds: runs of bands, lone SVGs, any case, tags
    left open, text between."""
    rng = random.Random(15)
    for _ in range(3000):
        body = _fragments(rng)
        assert pictures.picture_spans(body) == [m.span() for m in PICTURE.finditer(body)], body
