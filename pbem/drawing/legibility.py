"""Labels a reader can read in a board picture: ink that stands out from what it is written on
(WCAG 2.2's contrast ratio, 4.5:1 for text), and words measured in the font the pictures are
drawn with, so a label is wrapped to its room instead of running under the next shape.

The games draw with these; the tests measure every label of every picture with them too.
"""

from __future__ import annotations

import functools

from PIL import ImageFont

from pbem.drawing.pictures import font_files

# The least contrast for a label (WCAG 2.2 AA, 1.4.3: text smaller than 18 pt).
TEXT_CONTRAST = 4.5
BLACK, WHITE = "#000", "#fff"


def rgb(colour: str) -> tuple[int, int, int]:
    """``#rgb`` or ``#rrggbb`` as its channels (0-255)."""
    hexes = colour.lstrip("#")
    if len(hexes) == 3:
        hexes = "".join(c * 2 for c in hexes)
    return int(hexes[0:2], 16), int(hexes[2:4], 16), int(hexes[4:6], 16)


def luminance(colour: str) -> float:
    """The relative luminance of an sRGB colour (WCAG's definition)."""
    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(ink: str, ground: str) -> float:
    """The contrast ratio of two colours, 1 to 21."""
    light, dark = sorted((luminance(ink), luminance(ground)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@functools.cache
def ink_on(ground: str) -> str:
    """Black or white, whichever reads better on ``ground``."""
    return BLACK if contrast(BLACK, ground) >= contrast(WHITE, ground) else WHITE


@functools.cache
def _font(size: float, bold: bool) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    files = font_files()
    if not files:
        return ImageFont.load_default(size)
    return ImageFont.truetype(files[1] if bold else files[0], size)


@functools.lru_cache(maxsize=4096)
def text_width(words: str, size: float, bold: bool = False) -> float:
    """How wide ``words`` are drawn at ``size`` units (the pictures' DejaVu Sans)."""
    return float(_font(size, bold).getlength(words))


def ink_box(words: str, size: float, bold: bool = False) -> tuple[float, float, float, float]:
    """Where ``words``' glyphs fall (left, top, right, bottom) about the point they are written
    at, their baseline's start: what a picture shows of them."""
    left, top, right, bottom = _font(size, bold).getbbox(words, anchor="ls")
    return float(left), float(top), float(right), float(bottom)


def wrap(words: str, room: float, size: float, bold: bool = False) -> list[str]:
    """``words`` as lines no wider than ``room`` where breaking between words allows (a word
    wider than ``room`` stands alone on its line)."""
    lines: list[str] = []
    for word in words.split():
        if lines and text_width(f"{lines[-1]} {word}", size, bold) <= room:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines or [""]
