"""Every label of every board picture, measured: its ink against what it is written on (4.5:1
or more, WCAG 2.2 AA for text), and its words inside their room (within the picture or band
that shows them, inside the shape they are written on, never under a shape drawn later).

The pictures are the games' own, from a whole seeded game of each at its most players, as each
seat and a spectator see them, in every language (labels are words, and words differ). The
colours are read from the SVG the mail's PNG is drawn from; the widths are the font's own
(pbem.drawing.legibility measures DejaVu Sans, the font the pictures are drawn with).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from xml.etree import ElementTree

import pytest

from pbem.drawing.legibility import TEXT_CONTRAST, contrast, ink_box, text_width
from pbem.engine import registry
from pbem.i18n.translate import LANGUAGES
from tests.support.boards import pictures, positions, status_html

GAMES = sorted(registry.games())
NS = "{http://www.w3.org/2000/svg}"
SLACK = 0.5  # SVG units: an edge a label may touch


@dataclass(frozen=True)
class Box:
    left: float
    top: float
    right: float
    bottom: float

    def overlaps(self, other: Box) -> bool:
        return (self.left < other.right - SLACK and other.left < self.right - SLACK
                and self.top < other.bottom - SLACK and other.top < self.bottom - SLACK)

    def inside(self, other: Box) -> bool:
        return (self.left >= other.left - SLACK and self.right <= other.right + SLACK
                and self.top >= other.top - SLACK and self.bottom <= other.bottom + SLACK)


@dataclass(frozen=True)
class Shape:
    """A filled rectangle or disc, and where it lies."""

    fill: str
    box: Box
    disc: tuple[float, float, float] | None = None  # a circle's centre and radius

    def holds(self, x: float, y: float) -> bool:
        if self.disc is not None:
            cx, cy, r = self.disc
            return (x - cx) ** 2 + (y - cy) ** 2 <= r * r
        return self.box.left <= x <= self.box.right and self.box.top <= y <= self.box.bottom

    def covers(self, box: Box) -> bool:
        """Whether the label's ``box`` lies over this shape (a disc: its corners within)."""
        if self.disc is None:
            return box.inside(self.box)
        return all(self.holds(x, y) for x in (box.left + SLACK, box.right - SLACK)
                   for y in (box.top + SLACK, box.bottom - SLACK))

    def hides(self, box: Box) -> bool:
        """Whether this shape, drawn over the label, hides part of it."""
        if self.disc is None:
            return self.box.overlaps(box)
        cx, cy, r = self.disc
        nearest_x, nearest_y = min(max(cx, box.left), box.right), min(max(cy, box.top),
                                                                       box.bottom)
        return (nearest_x - cx) ** 2 + (nearest_y - cy) ** 2 < (r - SLACK) ** 2


def _shape(el: ElementTree.Element) -> Shape | None:
    fill = el.get("fill", "#000")
    if fill == "none" or not fill.startswith("#"):
        return None
    if el.tag == f"{NS}rect":
        x, y = float(el.get("x", 0)), float(el.get("y", 0))
        return Shape(fill, Box(x, y, x + float(el.get("width", 0)), y + float(el.get("height", 0))))
    if el.tag == f"{NS}circle":
        cx, cy, r = (float(el.get(a, 0)) for a in ("cx", "cy", "r"))
        return Shape(fill, Box(cx - r, cy - r, cx + r, cy + r), (cx, cy, r))
    return None


def _label_box(el: ElementTree.Element, words: str) -> Box:
    size, bold = float(el.get("font-size", 16)), el.get("font-weight") == "bold"
    width = text_width(words, size, bold)
    x, y = float(el.get("x", 0)), float(el.get("y", 0))
    start = {"middle": x - width / 2, "end": x - width}.get(el.get("text-anchor", "start"), x)
    left, top, right, bottom = ink_box(words, size, bold)
    return Box(start + left, y + top, start + right, y + bottom)


def problems(svg: str) -> list[str]:
    """What is wrong with ``svg``'s labels, one line each (nothing: none)."""
    root = ElementTree.fromstring(svg)
    view = [float(v) for v in root.get("viewBox", "0 0 0 0").split()]
    frame = Box(view[0], view[1], view[0] + view[2], view[1] + view[3])
    drawn = [el for el in root.iter() if el.tag in (f"{NS}rect", f"{NS}circle", f"{NS}text")]
    found = []
    for n, el in enumerate(drawn):
        if el.tag != f"{NS}text":
            continue
        words = "".join(el.itertext()).strip()
        if not words:
            continue
        box = _label_box(el, words)
        centre = ((box.left + box.right) / 2, (box.top + box.bottom) / 2)
        below = [s for s in map(_shape, drawn[:n]) if s is not None and s.holds(*centre)]
        ground = below[-1] if below else None
        ink = el.get("fill", "#000")
        ratio = contrast(ink, ground.fill if ground else "#ffffff")
        if ratio < TEXT_CONTRAST:
            found.append(f"{words!r}: {ink} on {ground.fill if ground else 'white'} "
                         f"{ratio:.2f}:1")
        if not box.inside(frame):
            found.append(f"{words!r} runs out of its picture ({box} beyond {frame})")
        elif ground is not None and not ground.covers(box):
            found.append(f"{words!r} runs off the shape it is written on")
        later = [s for s in map(_shape, drawn[n + 1:]) if s is not None and s.hides(box)]
        if later:
            found.append(f"{words!r} is partly hidden under a {later[0].fill} shape")
    return found


@cache
def _game_pictures(game: str, lang: str) -> frozenset[str]:
    """Every distinct picture (band) of a whole game of ``game`` in ``lang``, as each seat and
    a spectator saw it."""
    rules = registry.get(game)
    seen: set[str] = set()
    for state in positions(game, every=11):
        for seat in [None, *range(rules.max_players)]:
            seen.update(pictures(status_html(game, state, seat, lang)))
    return frozenset(seen)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_every_label_reads_clearly_and_whole(game: str, lang: str) -> None:
    drawn = _game_pictures(game, lang)
    assert len(drawn) > 10
    found = sorted({p for svg in drawn for p in problems(svg)})
    assert not found, f"{len(found)} labels: " + "; ".join(found[:12])


# The checker itself, on pictures that break each rule: it must see each fault.
def _svg(body: str, width: int = 100, height: int = 40) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}">{body}</svg>')


def test_the_checker_sees_white_on_yellow() -> None:
    [found] = problems(_svg('<rect x="0" y="0" width="40" height="40" fill="#f2d21b"/>'
                            '<text x="20" y="24" font-size="12" text-anchor="middle" '
                            'fill="#fff">G</text>'))
    assert re.search(r"#fff on #f2d21b 1\.\d\d:1", found)


def test_the_checker_sees_a_label_running_under_the_next_shape() -> None:
    found = problems(_svg('<text x="4" y="20" font-size="11">ver midden</text>'
                          '<rect x="50" y="0" width="40" height="40" fill="#d33030"/>'))
    assert found == ["'ver midden' is partly hidden under a #d33030 shape"]


def test_the_checker_sees_a_label_cut_by_its_band() -> None:
    found = problems(_svg('<text x="4" y="42" font-size="11">(3)</text>', height=40))
    assert len(found) == 1 and "runs out of its picture" in found[0]


def test_the_checker_passes_a_dark_letter_on_yellow() -> None:
    assert problems(_svg('<circle cx="20" cy="20" r="9" fill="#f2d21b"/>'
                         '<text x="20" y="24" font-size="11" text-anchor="middle" '
                         'fill="#000">Y</text>')) == []


def test_a_picture_drawn_before_this_change_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """Das Riff's row names as they were drawn (cut to ten characters, on one line) ran
    under the first place in Dutch: the check sees it."""
    old = ('<text x="4" y="63" font-size="11" text-anchor="start" fill="#000">ver midden</text>'
           '<rect x="60" y="44" width="36" height="44" fill="#f2d21b"/>')
    found = problems(_svg(old, width=348, height=100))
    assert found and "hidden under" in found[0]
