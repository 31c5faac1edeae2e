"""Drawing Reef Encounter views for status emails: text grids and an inline SVG picture.

Everything here reads only a view (``view.py``'s output), never a state, so nothing drawn can
show what the viewer may not see. The parts of a view used here:

- ``boards``: list of ``{"number": int, "rows": [[cell, ...7], ...6]}``; a cell is
  ``{"sand": bool, "polyp": colour | None, "shrimp": seat | None, "extra_growth": bool}``.
- ``open_sea``: list of ``{"colour": str, "cube": bool, "polyps": [colour, ...]}``, clockwise.

The templates (templates/reef_encounter/) also read ``tiles`` (``{"number", "strong", "weak",
"large_alga", "small_alga", "cylinder"}``, the visible face), ``coral_values`` (colour -> value),
``alga_space`` (colour or None), ``players`` (``{"seat", "colour", "consumed", "larvae",
"polyps_behind", "shrimps_behind", "sea_shrimp"}``) and, for a seat only, ``you``
(``{"polyps", "parrotfish"}``). Colour collections may be lists or colour -> count mappings.

Helpers tolerate a missing key (drawing nothing for it), so a template never fails on a view
from an older state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from markupsafe import Markup, escape

COLUMNS = "ABCDEFG"
LETTER = {"grey": "G", "orange": "O", "pink": "P", "white": "W", "yellow": "Y"}
FILL = {
    "grey": "#9a9a9a", "orange": "#f28c28", "pink": "#f4a3c0", "white": "#ffffff",
    "yellow": "#f2d21b", "blue": "#2f6fd6", "green": "#2e9e44", "purple": "#8a3fb8",
    "red": "#d33030",
}
SAND, ROCK, SEA = "#ecdcae", "#b9b3a6", "#cfe8f3"
CELL = 26


def colour_letter(colour: str | None) -> str:
    """A coral colour's letter (G O P W Y), or '?' for anything else."""
    return LETTER.get(colour or "", "?")


def cell_symbol(cell: Mapping[str, Any]) -> str:
    """Two characters for one board cell: what lies there, then the shrimp owner's seat (1-4)."""
    if cell.get("sand"):
        return "~ "
    polyp = cell.get("polyp")
    if polyp:
        what = colour_letter(polyp)
    elif cell.get("extra_growth"):
        what = "*"
    else:
        what = "."
    shrimp = cell.get("shrimp")
    return what + (str(int(shrimp) + 1) if shrimp is not None else " ")


def board_grid(board: Mapping[str, Any]) -> str:
    """A reef board as a labelled text grid (columns A-G, rows 1-6)."""
    lines = [f"Board {board.get('number', '?')}", "     " + "  ".join(COLUMNS)]
    for r, row in enumerate(board.get("rows", []), start=1):
        lines.append(f"  {r}  " + " ".join(cell_symbol(c) for c in row).rstrip())
    return "\n".join(lines)


def counts(colours: Iterable[str] | Mapping[str, int] | None) -> str:
    """'2 pink, 1 white' from a list of colours or a colour->count mapping; 'none' if empty."""
    if colours is None:
        return "none"
    if isinstance(colours, Mapping):
        tally = {c: int(n) for c, n in colours.items() if int(n)}
    else:
        tally = {}
        for c in colours:
            tally[c] = tally.get(c, 0) + 1
    if not tally:
        return "none"
    return ", ".join(f"{n} {c}" for c, n in sorted(tally.items()))


def seat_label(seat: int | None) -> str:
    """Players as people read them: seat 0 is player 1."""
    return "nobody" if seat is None else f"player {int(seat) + 1}"


def _polyp(x: float, y: float, colour: str, r: float = 9) -> str:
    return (f'<circle cx="{x:.0f}" cy="{y:.0f}" r="{r:.0f}" fill="{FILL.get(colour, "#000")}" '
            f'stroke="#333" stroke-width="1"><title>{escape(colour)}</title></circle>')


def _board_svg(board: Mapping[str, Any], ox: int, oy: int) -> list[str]:
    out = [f'<text x="{ox}" y="{oy - 18}" font-size="13" font-weight="bold">'
           f'Board {escape(str(board.get("number", "?")))}</text>']
    for c, letter in enumerate(COLUMNS):
        out.append(f'<text x="{ox + c * CELL + CELL / 2:.0f}" y="{oy - 4}" font-size="10" '
                   f'text-anchor="middle">{letter}</text>')
    for r, row in enumerate(board.get("rows", [])):
        out.append(f'<text x="{ox - 8}" y="{oy + r * CELL + 17}" font-size="10" '
                   f'text-anchor="middle">{r + 1}</text>')
        for c, cell in enumerate(row):
            x, y = ox + c * CELL, oy + r * CELL
            fill = SAND if cell.get("sand") else ROCK
            out.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" '
                       f'stroke="#7a7466" stroke-width="0.5"/>')
            cx, cy = x + CELL / 2, y + CELL / 2
            if cell.get("polyp"):
                out.append(_polyp(cx, cy, str(cell["polyp"])))
            elif cell.get("extra_growth") and not cell.get("sand"):
                out.append(f'<text x="{cx:.0f}" y="{cy + 5:.0f}" font-size="15" fill="#c0392b" '
                           'text-anchor="middle">✶</text>')
            if cell.get("shrimp") is not None:
                n = int(cell["shrimp"]) + 1
                out.append(f'<circle cx="{x + CELL - 6}" cy="{y + 6}" r="6" fill="#222"/>'
                           f'<text x="{x + CELL - 6}" y="{y + 9}" font-size="9" fill="#fff" '
                           f'text-anchor="middle">{n}</text>')
    return out


def _sea_svg(sea: list[Mapping[str, Any]], oy: int) -> list[str]:
    out = [f'<text x="10" y="{oy - 8}" font-size="13" font-weight="bold">Open sea</text>']
    for i, space in enumerate(sea):
        x, y = 12 + i * 120, oy
        colour = str(space.get("colour", ""))
        out.append(f'<rect x="{x}" y="{y}" width="110" height="56" rx="10" fill="{SEA}" '
                   'stroke="#5a8fa8"/>')
        out.append(f'<text x="{x + 55}" y="{y + 14}" font-size="10" text-anchor="middle">'
                   f'{escape(colour)}</text>')
        if space.get("cube"):
            out.append(f'<rect x="{x + 8}" y="{y + 24}" width="14" height="14" '
                       f'fill="{FILL.get(colour, "#000")}" stroke="#333"><title>larva cube '
                       f'{escape(colour)}</title></rect>')
        for j, polyp in enumerate(space.get("polyps", [])):
            out.append(_polyp(x + 38 + j * 20, y + 31, str(polyp), r=8))
    return out


def reef_svg(view: Mapping[str, Any]) -> Markup:
    """An inline SVG of every reef board and the open sea, for the HTML email."""
    boards = list(view.get("boards", []))
    per_row = 2
    bw, bh = 7 * CELL + 40, 6 * CELL + 40
    rows = (len(boards) + per_row - 1) // per_row
    sea_y = rows * bh + 40
    width = max(per_row * bw + 20, 620)
    height = sea_y + 70
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" role="img" '
             'aria-label="The reefs and the open sea">']
    for i, board in enumerate(boards):
        parts += _board_svg(board, 30 + (i % per_row) * bw, 36 + (i // per_row) * bh)
    parts += _sea_svg(list(view.get("open_sea", [])), sea_y)
    parts.append("</svg>")
    return Markup("\n".join(parts))


def template_helpers() -> dict[str, Callable[..., Any]]:
    """The functions status templates may call; each reads only view data."""
    return {
        "board_grid": board_grid,
        "colour_letter": colour_letter,
        "counts": counts,
        "seat_label": seat_label,
        "reef_svg": reef_svg,
    }
