"""Pictures cut into bands: a game may draw one picture as several SVGs stacked with nothing
between (the markup's runs of ``<svg>...</svg><svg>``), so that a move redraws only the band
it changed. Stacked, the bands' PNGs must show what the picture drawn whole shows."""

from __future__ import annotations

import re
from graphlib import TopologicalSorter

from pbem.drawing.pictures import drawn, svg_size
from tests.support.png import decode

RUNS = re.compile(r"<svg\b.*?</svg>(?:<svg\b.*?</svg>)+", re.S)
ROOT = re.compile(r"<svg\b[^>]*>", re.S)


def origin(svg: str) -> tuple[float, float]:
    """The SVG point at the picture's top left corner: its viewBox's min-x and min-y."""
    box = re.search(r'<svg\b[^>]*viewBox="([^"]*)"', svg)
    x, y = box.group(1).split()[:2] if box else ("0", "0")
    return float(x), float(y)


def banded_pictures(html: str) -> list[list[str]]:
    """Each picture of ``html`` that is cut into bands: its bands' SVGs, top to bottom."""
    return [re.findall(r"<svg\b.*?</svg>", run, flags=re.S) for run in RUNS.findall(html)]


def whole(bands: list[str]) -> str:
    """The picture the bands cut, drawn in one piece: each element once (a shape that crosses
    a cut is in both bands), in an order every band keeps, so it is drawn over what each band
    draws before it."""
    top, bottom = origin(bands[0])[1], origin(bands[-1])[1] + svg_size(bands[-1])[1]
    width = svg_size(bands[0])[0]
    order: TopologicalSorter[str] = TopologicalSorter()
    for band in bands:
        lines = [line for line in ROOT.sub("", band, count=1)[:-len("</svg>")].splitlines()
                 if line]
        for before, after in zip([None, *lines], lines, strict=False):
            order.add(after, *([before] if before else []))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" '
            f'height="{bottom - top:g}" viewBox="0 {top:g} {width} {bottom - top:g}" '
            'font-family="sans-serif">' + "\n".join(order.static_order()) + "</svg>")


def worst_difference(bands: list[str]) -> int:
    """The largest difference, in any channel of any pixel, between the bands' pixels as resvg
    draws them, stacked, and the picture drawn whole (a cut off a whole pixel, or a shape that
    crosses a cut but is drawn in one band only, shows here; antialiasing at a cut may differ
    by a few levels)."""
    pixels = [decode(drawn(band)) for band in bands]
    one = decode(drawn(whole(bands)))
    rows = [row for band in pixels for row in band.rows]
    assert {band.width for band in pixels} == {one.width} and len(rows) == one.height
    return max(max(abs(a - b) for a, b in zip(mine, theirs, strict=True))
               for mine, theirs in zip(rows, one.rows, strict=True))
