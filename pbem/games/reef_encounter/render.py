"""Drawing Reef Encounter views for status emails: text grids and an inline SVG picture.

Everything here reads only a view (``view.py``'s output), never a state, so nothing drawn can
show what the viewer may not see. The parts of a view used here:

- ``boards``: list of ``{"number": int, "rows": [[cell, ...7], ...6]}``; a cell is
  ``{"sand": bool, "polyp": colour | None, "shrimp": seat | None, "extra_growth": bool}``.
- ``open_sea``: list of ``{"colour": str, "cube": bool, "polyps": [colour, ...]}``, clockwise.

The templates (templates/reef/) also read ``phase`` (setup, play, final, over), ``to_move``,
``turn``, ``end_reason``, ``tiles`` (``{"number", "strong", "weak", "large_alga",
"small_alga", "cylinder"}``, the visible face; a cylinder locks the tile), ``coral_values``
(colour -> value), ``alga_space`` (colour or None), ``bonus``, ``players`` (``{"seat",
"colour", "consumed", "larvae", "polyps_behind", "shrimps_behind", "shrimps_on_reefs",
"sea_shrimp", "answered_setup"}``, plus ``"polyps", "parrotfish", "score",
"protected_polyps"`` once the game is over) and, for a seat only, ``you`` (``{"seat",
"colour", "polyps", "parrotfish", "fish_shrimps", "to_move"}`` and ``"example"``, a legal
order, when it is that seat's move). Colour collections may be lists or colour -> count
mappings. Inside the layout the templates also get ``names`` (the players' names by seat).

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
    "grey": "#5c5c5c", "orange": "#f28c28", "pink": "#f4a3c0", "white": "#ffffff",
    "yellow": "#f2d21b", "blue": "#2f6fd6", "green": "#2e9e44", "purple": "#8a3fb8",
    "red": "#d33030",
}
SAND, ROCK, SEA = "#ecdcae", "#dcd6c8", "#cfe8f3"  # light rock: grey polyps stand out
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


def total(items: Iterable[Any] | Mapping[str, int] | None) -> int:
    """How many, from a list or a colour->count mapping."""
    if items is None:
        return 0
    if isinstance(items, Mapping):
        return sum(int(n) for n in items.values())
    return len(list(items))


def seat_label(seat: int | None) -> str:
    """Players as people read them: seat 0 is player 1."""
    return "nobody" if seat is None else f"player {int(seat) + 1}"


def _polyp(x: float, y: float, colour: str, r: float = 9) -> str:
    return (f'<circle cx="{x:.0f}" cy="{y:.0f}" r="{r:.0f}" fill="{FILL.get(colour, "#000")}" '
            f'stroke="#333" stroke-width="1"><title>{escape(colour)}</title></circle>')


def _board_svg(board: Mapping[str, Any], ox: int, oy: int,
               shrimp_fill: Mapping[int, str] | None = None) -> list[str]:
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
                fill = (shrimp_fill or {}).get(n - 1, "#222")
                out.append(f'<circle cx="{x + CELL - 6}" cy="{y + 6}" r="6" fill="{fill}" '
                           f'stroke="#000" stroke-width="0.8"><title>shrimp of player {n}'
                           f'</title></circle><text x="{x + CELL - 6}" y="{y + 9}" '
                           f'font-size="9" fill="#000" text-anchor="middle">{n}</text>')
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


def _sea_extras_svg(view: Mapping[str, Any], oy: int) -> list[str]:
    """The alga space and the shrimps resting on the open-sea board."""
    alga = view.get("alga_space")
    out = [f'<text x="12" y="{oy + 14}" font-size="11">Alga space:</text>',
           f'<rect x="80" y="{oy + 2}" width="16" height="16" rx="3" '
           f'fill="{FILL.get(str(alga), SEA) if alga else SEA}" stroke="#333">'
           f'<title>{escape(str(alga) + " alga" if alga else "empty")}</title></rect>']
    x = 200
    out.append(f'<text x="{x}" y="{oy + 14}" font-size="11">Shrimps on the open sea:</text>')
    for p in view.get("players", []):
        if p.get("sea_shrimp"):
            x += 22
            n = int(p.get("seat", 0)) + 1
            out.append(f'<circle cx="{x + 150}" cy="{oy + 10}" r="7" '
                       f'fill="{FILL.get(str(p.get("colour")), "#222")}" stroke="#000">'
                       f'<title>{escape(str(p.get("colour")))} (player {n})</title></circle>'
                       f'<text x="{x + 150}" y="{oy + 13}" font-size="9" '
                       f'text-anchor="middle">{n}</text>')
    return out


def _tiles_svg(tiles: list[Mapping[str, Any]], oy: int) -> list[str]:
    """The ten coral tiles: the stronger coral twice on top, the weaker below, the large alga
    as a band; a cylinder standing on a tile is drawn over it."""
    out = [f'<text x="10" y="{oy - 8}" font-size="13" font-weight="bold">Coral tiles</text>']
    for i, t in enumerate(tiles):
        x, y = 12 + i * 60, oy
        strong, weak = str(t.get("strong", "")), str(t.get("weak", ""))
        out.append(f'<rect x="{x}" y="{y}" width="54" height="62" rx="4" fill="#fdf8ec" '
                   f'stroke="#7a7466"><title>tile {escape(str(t.get("number")))}: '
                   f'{escape(strong)} beats {escape(weak)}</title></rect>')
        out.append(f'<text x="{x + 4}" y="{y + 11}" font-size="9">'
                   f'{escape(str(t.get("number", "")))}</text>')
        out.append(_polyp(x + 18, y + 18, strong, r=7))
        out.append(_polyp(x + 36, y + 18, strong, r=7))
        out.append(_polyp(x + 27, y + 36, weak, r=6))
        out.append(f'<rect x="{x + 4}" y="{y + 48}" width="46" height="8" '
                   f'fill="{FILL.get(str(t.get("large_alga")), "#000")}"><title>large alga '
                   f'{escape(str(t.get("large_alga")))}</title></rect>')
        if t.get("cylinder"):
            out.append(f'<rect x="{x + 20}" y="{y + 4}" width="14" height="54" rx="6" '
                       f'fill="{FILL.get(str(t["cylinder"]), "#000")}" stroke="#000" '
                       f'opacity="0.9"><title>locked by a {escape(str(t["cylinder"]))} '
                       'alga</title></rect>')
    if tiles:  # the legend: what a tile's parts mean
        out.append(f'<text x="12" y="{oy + 78}" font-size="11" fill="#333">Each tile: the top '
                   'coral (two polyps) beats the coral below it;</text>')
        out.append(f'<text x="12" y="{oy + 92}" font-size="11" fill="#333">the band is its '
                   'large alga; a tall bar is an alga cylinder locking the tile.</text>')
    return out


def reef_svg(view: Mapping[str, Any]) -> Markup:
    """An inline SVG of every reef board, the open sea and the coral tiles, for HTML email."""
    boards = list(view.get("boards", []))
    per_row = 2
    bw, bh = 7 * CELL + 40, 6 * CELL + 40
    rows = (len(boards) + per_row - 1) // per_row
    sea_y = rows * bh + 40
    tiles = list(view.get("tiles", []))
    tiles_y = sea_y + 112
    width = max(per_row * bw + 20, 620)
    height = tiles_y + (100 if tiles else 0)
    shrimp_fill = {int(p.get("seat", 0)): FILL.get(str(p.get("colour")), "#222")
                   for p in view.get("players", [])}
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" role="img" '
             'aria-label="The reefs, the open sea and the coral tiles">']
    for i, board in enumerate(boards):
        parts += _board_svg(board, 30 + (i % per_row) * bw, 36 + (i // per_row) * bh,
                            shrimp_fill)
    parts += _sea_svg(list(view.get("open_sea", [])), sea_y)
    parts += _sea_extras_svg(view, sea_y + 62)
    if tiles:
        parts += _tiles_svg(tiles, tiles_y)
    parts.append("</svg>")
    return Markup("\n".join(parts))


def player_label(player: Mapping[str, Any], names: list[str] | None = None) -> str:
    """'Purple (Ann, player 1)': events name players by colour, the host by name."""
    seat = int(player.get("seat", 0))
    colour = str(player.get("colour", "?")).capitalize()
    name = names[seat] if names and seat < len(names) else None
    return f"{colour} ({name}, player {seat + 1})" if name else f"{colour} (player {seat + 1})"


def score_terms(parrotfish: Iterable[str] | Mapping[str, int] | None,
                values: Mapping[str, int]) -> str:
    """'3 pink × 4 + 2 white × 2 = 16': how a parrotfish scores with the coral values."""
    tally: dict[str, int] = {}
    if isinstance(parrotfish, Mapping):
        tally = {c: int(n) for c, n in parrotfish.items() if int(n)}
    else:
        for c in parrotfish or []:
            tally[c] = tally.get(c, 0) + 1
    if not tally:
        return "empty = 0"
    terms = [f"{n} {c} × {values.get(c, 1)}" for c, n in sorted(tally.items())]
    total = sum(n * values.get(c, 1) for c, n in tally.items())
    return f"{' + '.join(terms)} = {total}"


def template_helpers() -> dict[str, Callable[..., Any]]:
    """The functions status templates may call; each reads only view data."""
    return {
        "board_grid": board_grid,
        "colour_letter": colour_letter,
        "counts": counts,
        "seat_label": seat_label,
        "reef_svg": reef_svg,
        "player_label": player_label,
        "score_terms": score_terms,
        "total": total,
    }
