"""Board pictures every mail client shows: each inline SVG of an HTML mail becomes a PNG part.

Gmail and Outlook drop inline SVG, so a status mail carries its pictures as PNG images in a
multipart/related part, referenced by ``cid:``; every client that shows HTML shows those. The
PNG is drawn from the very SVG the game made (resvg: a maintained, dependency-free Rust
renderer, as a wheel), at 1.5 times its size so it stays sharp on phone screens, and scaled to
the width of the window by the ``<img>``'s style.

Rendering is the dearest step of an order (bench/pipeline.py): each distinct picture is drawn
once (the public board is the same in every seat's mail) and base64-encoded once. Where its
time goes: filling the canvas and encoding the PNG, whatever is drawn (about 1.6 ms for a
333x294-pixel board); text, about 0.1 ms a glyph (resvg shapes and fills each on every call);
anti-aliased shapes. So the games draw grid cells and lines crisp (whole pixels), keep long
prose out of pictures, and cut a picture into bands (:func:`band`: SVGs stacked with nothing
between, each cut on a whole pixel) so that the words that never change are drawn once and a
move redraws only the band it changed. The mail still carries one PNG per picture, its bands'
pixels pasted together (:func:`stacked_png`): a client shows one image, never seams or gaps
between thirty, and lists no thirty parts. resvg_py holds the GIL while it renders: a thread
would not help. Past resvg, a board of bands costs about 2.8 ms (2026, Reef): counting its
colours 0.6, mapping them to the palette 1.0 (Pillow builds a colour cache per palette), zlib
1.0; each is pinned by the pixels a mail shows (the palette's order is Pillow's count order,
which decides ties), and level 6 keeps the mails' size (5 gives 12% more bytes).
"""

from __future__ import annotations

import binascii
import functools
import hashlib
import html as htmllib
import io
import re
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import cast

import resvg_py
from markupsafe import escape
from PIL import Image, ImageChops

SVG = re.compile(r"<svg\b[^>]*>.*?</svg>", re.S | re.I)
# One picture: the bands of one (a run of band() SVGs with nothing between them), or an SVG.
PICTURE = re.compile(r"(?:<svg\b[^>]*\bdata-band\b[^>]*>.*?</svg>)+|<svg\b[^>]*>.*?</svg>",
                     re.S | re.I)
_ROOT = re.compile(r"<svg\b[^>]*>", re.I)
# PNG pixels per SVG unit: sharp enough on high-density (phone) screens, where the picture is
# shown at most ~400 CSS pixels wide; 2 cost ~1.5x the time and 1.3x the bytes for no visible gain.
SCALE = 1.5
# resvg maps "sans-serif" to Arial, absent on Debian: its labels would vanish. .ci/run installs
# fonts-dejavu-core.
FONT = "DejaVu Sans"
# Where fontconfig is missing, Debian's fonts-dejavu-core puts them here.
_DEJAVU = ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
           "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
# A character outside what DejaVu Sans draws (Latin, Greek, Cyrillic; punctuation, arrows,
# shapes, dingbats), say a player's name in Chinese: that picture gets every system font, so
# resvg can fall back to one that has it.
_BEYOND_DEJAVU = re.compile("[^\u0000-\u052f\u2000-\u27ff]")


@dataclass(frozen=True)
class Picture:
    """One PNG part: its Content-ID (without <>), its bytes, and its size in CSS pixels."""

    cid: str
    png: bytes
    width: int
    height: int


def svg_size(svg: str) -> tuple[int, int]:
    """The root element's width and height (what the picture measures in the page)."""
    root = _ROOT.search(svg)
    attrs = dict(re.findall(r'(\w[\w-]*)="([^"]*)"', root.group(0) if root else ""))
    try:
        return int(float(attrs["width"])), int(float(attrs["height"]))
    except (KeyError, ValueError):
        box = attrs.get("viewBox", "0 0 600 400").split()
        return int(float(box[2])), int(float(box[3]))


@functools.cache
def font_files() -> tuple[str, ...]:
    """FONT's regular and bold files, or () to let resvg load every system font: resvg reads
    the fonts it is given on every call, so two files beat a machine's whole collection."""
    found = []
    for style, fallback in zip(("", ":bold"), _DEJAVU, strict=True):
        try:
            path = subprocess.run(["fc-match", "--format=%{file}", FONT + style],
                                  capture_output=True, text=True, timeout=10).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            path = ""
        path = path if "dejavusans" in Path(path).name.lower() else fallback
        if Path(path).is_file():
            found.append(path)
    return tuple(found) if len(found) == 2 else ()


# Pictures kept: a game may draw its board as several pictures (one per part), so that a move
# redraws only the parts it changed; a few hundred cover the parts of the games in play at
# once (a few MB: a part's PNG is some 10-60 kB).
KEPT = 256


def png_of(svg: str) -> bytes:
    """The PNG a mail carries of ``svg``: a picture of one band (:func:`stacked_png`)."""
    return stacked_png((svg,))


def drawn(svg: str) -> bytes:
    """The PNG resvg draws of ``svg`` (8-bit RGBA)."""
    fonts = () if _BEYOND_DEJAVU.search(svg) else font_files()
    return bytes(resvg_py.svg_to_bytes(svg_string=svg, zoom=SCALE, background="#ffffff",
                                       font_family=FONT, sans_serif_family=FONT,
                                       skip_system_fonts=bool(fonts),
                                       font_files=list(fonts) or None))


# A palette PNG holds at most this many colours.
PALETTE = 256
RGB = tuple[int, int, int]


@functools.lru_cache(maxsize=KEPT)
def base64_lines(png: bytes, line_length: int = 78) -> str:
    """``png`` as a base64 body, exactly as email's content manager writes it (lines of
    ``line_length // 4 * 3`` bytes), encoded once for every mail that carries it."""
    step = line_length // 4 * 3
    return "".join(binascii.b2a_base64(png[i:i + step]).decode("ascii")
                   for i in range(0, len(png), step))


def band(width: int, top: int, bottom: int, label: str, body: list[str]) -> str:
    """The band ``top``..``bottom`` (SVG units) of a picture ``width`` wide, as an SVG of its
    own. A picture's bands are written one after the other with nothing between: a browser
    stacks them (``display:block``), a mail gets them pasted into one PNG. Cut where ``top``
    and ``bottom`` fall on a whole PNG pixel (even numbers at SCALE 1.5), stacked bands show
    exactly the picture drawn whole. Only the first band is named (``label``)."""
    height = bottom - top
    # The bands after the first are the rest of the same picture: a reader hears its name once.
    named = f'role="img" aria-label="{escape(label)}"' if label else 'aria-hidden="true"'
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 {top} {width} {height}" font-family="sans-serif" {named} '
            f'data-band="" style="display:block">\n' + "\n".join(body) + "\n</svg>")


def grid_bands(width: int, height: int, label: str, header: list[str], rows: list[list[str]],
               top: int, oy: int, cell: int) -> str:
    """A picture of a grid as bands: ``header`` (its title, its column letters) from 0 to
    ``top``, then each row's elements in a band of its own (the grid's rows are ``cell``
    high from ``oy``; the first band starts at ``top``, the last ends at ``height``), so a
    move that changes one row redraws that band only."""
    bands = [band(width, 0, top, label, header)]
    for r, body in enumerate(rows):
        start = top if r == 0 else oy + r * cell
        end = height if r == len(rows) - 1 else oy + (r + 1) * cell
        bands.append(band(width, start, end, "", body))
    return "".join(bands)


# Bands kept as pixels, to paste: a move redraws one band of a picture and pastes the others
# as they were (a board's band is some 40 kB of pixels; the sea's, 170 kB).
KEPT_BANDS = 512


@functools.lru_cache(maxsize=KEPT_BANDS)
def band_png(svg: str) -> bytes:
    """``svg`` as resvg draws it, kept."""
    return drawn(svg)


@functools.lru_cache(maxsize=KEPT_BANDS)
def band_pixels(svg: str) -> Image.Image:
    """``svg`` drawn, as RGB pixels on white."""
    with Image.open(io.BytesIO(band_png(svg))) as image:
        return image.convert("RGB")


# How far (0-255, in any channel) the palette may move a pixel of a picture. A game's pictures
# are flat colours, antialiased: the 256 commonest colours (every flat one) stay exact, and the
# few rarer edge shades take the nearest of them, a step nobody sees on one pixel of an edge.
PALETTE_TOLERANCE = 32


def pasted(images: list[Image.Image]) -> Image.Image:
    """``images`` (a picture's bands) pasted top to bottom on white, as one RGB canvas."""
    canvas = Image.new("RGB", (max(i.width for i in images), sum(i.height for i in images)),
                       "white")
    top = 0
    for image in images:
        canvas.paste(image, (0, top))
        top += image.height
    return canvas


@functools.lru_cache(maxsize=KEPT)
def stacked_png(bands: tuple[str, ...]) -> bytes:
    """One PNG of a picture cut into ``bands`` (or of one SVG), kept: every seat's mail of one
    move shows the same board, and the next move's mails show again every picture it did not
    change. Each band is drawn (or kept) on its own, the pixels pasted top to bottom, then
    written as a palette PNG of its 256 commonest colours: a third of the bytes of resvg's
    RGBA one, and faster to write than an RGB one (about 1 ms for a board's 333x294 pixels).
    A picture the palette would change by more than PALETTE_TOLERANCE (a gradient, a photo)
    is written as drawn, and so is a tiny one where the palette itself costs more bytes."""
    canvas = pasted([band_pixels(svg) for svg in bands])
    out = io.BytesIO()
    shades = _palette_of(canvas)
    if shades is not None:
        shades.save(out, "PNG")
    else:
        canvas.save(out, "PNG", compress_level=3)
    if len(bands) == 1 and len(band_png(bands[0])) <= out.tell():
        return band_png(bands[0])
    return out.getvalue()


def _palette_of(canvas: Image.Image) -> Image.Image | None:
    """``canvas`` in its PALETTE commonest colours, or None if that moves a pixel too far.

    Without dithering the palette maps each colour alone, the same wherever it stands: how
    far it moves a pixel is checked on one pixel per distinct colour (a few hundred) instead
    of on every pixel of the picture (some 100,000), and a picture that fails is never
    mapped whole."""
    counted = canvas.getcolors(canvas.width * canvas.height)
    assert counted is not None  # at most one colour per pixel
    # Ties stay in getcolors' order: the palette's order decides which of two colours equally
    # near a shade it takes (ties broken by colour changed 187 of 265 Reef pictures).
    counted.sort(key=lambda pair: pair[0], reverse=True)
    # Every colour's channels, commonest first: the palette's first 256, the check's all.
    every = b"".join([bytes(cast(RGB, rgb)) for _, rgb in counted])
    palette = Image.new("P", (1, 1))
    palette.putpalette(every[:3 * PALETTE].ljust(3 * PALETTE, b"\0"))
    distinct = Image.frombytes("RGB", (len(counted), 1), every)
    mapped = distinct.quantize(palette=palette, dither=Image.Dither.NONE).convert("RGB")
    # An RGB image's extrema: a (low, high) pair per channel.
    moved = cast(tuple[tuple[int, int], ...],
                 ImageChops.difference(distinct, mapped).getextrema())
    if max(high for _, high in moved) > PALETTE_TOLERANCE:
        return None
    return canvas.quantize(palette=palette, dither=Image.Dither.NONE)


_CLOSE = re.compile(r"</svg>", re.I)
_BAND = re.compile(r"\bdata-band\b", re.I)


def _svg_at(body: str, at: int) -> tuple[int, bool] | None:
    """Where the SVG that opens at ``at`` ends (after its ``</svg>``), and whether it is a
    band; None if ``at`` opens none."""
    tag = _ROOT.match(body, at)
    if tag is None:
        return None
    close = _CLOSE.search(body, tag.end())
    if close is None:
        return None
    return close.end(), _BAND.search(tag.group(0)) is not None


def picture_spans(body: str) -> list[tuple[int, int]]:
    """Where :data:`PICTURE` matches in ``body``: what ``PICTURE.finditer`` finds, found by
    searching for the tags rather than trying the lazy pattern at every character (a mail's
    HTML is some 60 kB, a third of a millisecond)."""
    spans: list[tuple[int, int]] = []
    at = 0
    while (tag := _ROOT.search(body, at)) is not None:
        first = _svg_at(body, tag.start())
        if first is None:  # no picture opens here: the pattern goes on after the "<"
            at = tag.start() + 1
            continue
        end, is_band = first
        while is_band and (following := _svg_at(body, end)) is not None and following[1]:
            end = following[0]
        spans.append((tag.start(), end))
        at = end
    return spans


@dataclass(frozen=True)
class _Inlined:
    """What a picture's SVG makes in a mail, besides its domain: its PNG and its tag."""

    digest: str
    png: bytes
    width: int
    height: int
    alt: str


@functools.lru_cache(maxsize=KEPT)
def _inlined(svg: str) -> _Inlined:
    """The PNG and the ``<img>`` of ``svg`` (one SVG, or the bands of one), kept: every
    seat's mail of a move shows the same board, found again by its SVG."""
    bands = tuple(SVG.findall(svg))
    width, height = svg_size(bands[0])[0], sum(svg_size(b)[1] for b in bands)
    label = re.search(r'aria-label="([^"]*)"', bands[0])
    alt = htmllib.escape(htmllib.unescape(label.group(1)) if label else "the board")
    # Named by its SVG: the same board gets the same part, and mails stay reproducible
    # whatever the renderer, its version or the scale.
    return _Inlined(hashlib.sha256(svg.encode()).hexdigest()[:20], stacked_png(bands), width,
                    height, alt)


def swap_pictures(body: str, swap: Callable[[str], str]) -> str:
    """``body`` with each picture in it (an SVG, or the bands of one) replaced by
    ``swap(picture)``."""
    pieces: list[str] = []
    at = 0
    for start, end in picture_spans(body):
        pieces += [body[at:start], swap(body[start:end])]
        at = end
    pieces.append(body[at:])
    return "".join(pieces)


def inline_pictures(body: str, domain: str) -> tuple[str, list[Picture]]:
    """``body`` with every inline picture (an SVG, or the bands of one) replaced by an
    ``<img src="cid:...">`` of its PNG."""
    pictures: list[Picture] = []

    def swap(svg: str) -> str:
        made = _inlined(svg)
        cid = f"board.{made.digest}@{domain}"
        if all(p.cid != cid for p in pictures):
            pictures.append(Picture(cid, made.png, made.width, made.height))
        return (f'<img src="cid:{cid}" width="{made.width}" height="{made.height}" '
                f'alt="{made.alt}" style="display:block;width:100%;max-width:{made.width}px;'
                'height:auto;border:0">')

    return swap_pictures(body, swap), pictures
