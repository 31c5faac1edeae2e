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
from an older state. Helpers that write words take them from the render's translator (``tr``
in the template context, the seat's language; English when a render has none).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup, escape

from pbem.drawing.legibility import ink_on
from pbem.drawing.pictures import band, grid_bands
from pbem.games.reef_encounter.keywords import localise_order
from pbem.i18n.msg import Msg, cmsg, msg
from pbem.i18n.translate import ENGLISH, Translator

COLUMNS = "ABCDEFG"
LETTER = {"grey": "G", "orange": "O", "pink": "P", "white": "W", "yellow": "Y"}
FILL = {
    "grey": "#5c5c5c", "orange": "#f28c28", "pink": "#f4a3c0", "white": "#ffffff",
    "yellow": "#f2d21b", "blue": "#2f6fd6", "green": "#2e9e44", "purple": "#8a3fb8",
    "red": "#d33030",
}
SAND, ROCK, SEA = "#ecdcae", "#dcd6c8", "#cfe8f3"  # light rock: grey polyps stand out
CELL = 26
GRID = "#8f8979"  # a whole-pixel line of this reads as light as a half-pixel line of #7a7466
GROWTH = "#9e2a1e"  # an extra-growth space's star: 4.5:1 and more on sand and on rock


def _tr(ctx: Context) -> Translator:
    """The render's translator (the seat's language), or English."""
    found = ctx.resolve("tr")
    return found if isinstance(found, Translator) else ENGLISH


def _word(tr: Translator, colour: str) -> str:
    return tr(cmsg("colour", colour))


def colour_name(colour: str | None, tr: Translator = ENGLISH) -> str:
    """A colour in the reader's language."""
    return _word(tr, str(colour or ""))


def message(data: Any, tr: Translator = ENGLISH) -> str:
    """A message from a view (``Msg.to_json()``) in the reader's language."""
    if not data:
        return ""
    return tr(Msg.from_json(data) if isinstance(data, Mapping) else str(data))


def order_words(text: str, tr: Translator = ENGLISH) -> str:
    """An English order (an example) in the reader's order words."""
    return localise_order(str(text), tr.lang)


def colour_letter(colour: str | None) -> str:
    """A colour's letter: a coral's (G O P W Y), else the colour's initial (a player's, a
    larva cube's), or '?' for none."""
    return LETTER.get(colour or "", (colour or "?")[0].upper())


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


def board_grid(board: Mapping[str, Any], tr: Translator = ENGLISH) -> str:
    """A reef board as a labelled text grid (columns A-G, rows 1-6)."""
    title = tr(msg("Board {number}", number=board.get("number", "?")))
    lines = [title, "     " + "  ".join(COLUMNS)]
    for r, row in enumerate(board.get("rows", []), start=1):
        lines.append(f"  {r}  " + " ".join(cell_symbol(c) for c in row).rstrip())
    return "\n".join(lines)


def board_cells(board: Mapping[str, Any], tr: Translator = ENGLISH) -> str:
    """A board's picture read cell by cell, row by row: "Board 2: A1 sand; B2 grey polyp,
    shrimp of player 2; …" (the text equivalent of its picture, for a reader who cannot see
    it)."""
    out = []
    for r, row in enumerate(board.get("rows", []), start=1):
        for c, cell in enumerate(row):
            polyp = cell.get("polyp")
            what = [tr(msg("{colour} polyp", colour=cmsg("colour", str(polyp)))) if polyp
                    else tr(msg("sand")) if cell.get("sand")
                    else tr(msg("extra-growth space")) if cell.get("extra_growth")
                    else tr(msg("bare rock"))]
            if cell.get("shrimp") is not None:
                what.append(tr(msg("shrimp of player {n}", n=int(cell["shrimp"]) + 1)))
            out.append(f"{COLUMNS[c]}{r} " + ", ".join(what))
    title = tr(msg("Board {number}", number=str(board.get("number", "?"))))
    return f"{title}: " + "; ".join(out)


def counts(colours: Iterable[str] | Mapping[str, int] | None, tr: Translator = ENGLISH) -> str:
    """'2 pink, 1 white' from a list of colours or a colour->count mapping; 'none' if empty."""
    if colours is None:
        return tr(msg("none"))
    if isinstance(colours, Mapping):
        tally = {c: int(n) for c, n in colours.items() if int(n)}
    else:
        tally = {}
        for c in colours:
            tally[c] = tally.get(c, 0) + 1
    if not tally:
        return tr(msg("none"))
    return ", ".join(tr(msg("{n} {colour}", n=n, colour=cmsg("colour", c)))
                     for c, n in sorted(tally.items()))


def total(items: Iterable[Any] | Mapping[str, int] | None) -> int:
    """How many, from a list or a colour->count mapping."""
    if items is None:
        return 0
    if isinstance(items, Mapping):
        return sum(int(n) for n in items.values())
    return len(list(items))


def seat_label(seat: int | None, tr: Translator = ENGLISH) -> str:
    """Players as people read them: seat 0 is player 1."""
    return tr(msg("nobody")) if seat is None else tr(msg("player {n}", n=int(seat) + 1))


def _letter(x: float, y: float, colour: str, fill: str) -> str:
    """A colour's letter centred on (``x``, ``y``), in the ink that reads best on ``fill``:
    no piece tells its colour by its colour alone."""
    return (f'<text x="{x:.0f}" y="{y + 4:.0f}" font-size="11" font-weight="bold" '
            f'text-anchor="middle" fill="{ink_on(fill)}">{colour_letter(colour)}</text>')


def _polyp(tr: Translator, x: float, y: float, colour: str, r: float = 9) -> str:
    fill = FILL.get(colour, "#000")
    return (f'<circle cx="{x:.0f}" cy="{y:.0f}" r="{r:.0f}" fill="{fill}" '
            f'stroke="#333" stroke-width="1"><title>{escape(_word(tr, colour))}</title></circle>'
            + _letter(x, y, colour, fill))


# Axis-aligned cells drawn without anti-aliasing: the same look (their edges fall on whole
# pixels, under the grid lines) for a fraction of the rasteriser's time (pbem/drawing/pictures.py).
CRISP = 'shape-rendering="crispEdges"'


def grid_path(ox: int, oy: int, cols: int, rows: int, cell: int, colour: str) -> str:
    """A board's grid lines as one crisp path: 2/3 unit is one whole pixel in the mail's PNG
    (drawn at 1.5x) and in a browser. Stroking each cell with an anti-aliased hairline cost
    more than the rest of the board (bench/pipeline.py's pictures stage)."""
    d = "".join(f"M{ox + c * cell} {oy}v{rows * cell}" for c in range(cols + 1))
    d += "".join(f"M{ox} {oy + r * cell}h{cols * cell}" for r in range(rows + 1))
    return (f'<path d="{d}" fill="none" stroke="{colour}" stroke-width="0.67" '
            f'{CRISP}/>')


def _board_header_svg(tr: Translator, board: Mapping[str, Any], ox: int, oy: int) -> list[str]:
    """A board's title and column letters: the same for every position of that board."""
    title = tr(msg("Board {number}", number=str(board.get("number", "?"))))
    out = [f'<text x="{ox}" y="{oy - 18}" font-size="13" font-weight="bold">'
           f'{escape(title)}</text>']
    for c, letter in enumerate(COLUMNS):
        out.append(f'<text x="{ox + c * CELL + CELL / 2:.0f}" y="{oy - 4}" font-size="12" '
                   f'text-anchor="middle">{letter}</text>')
    return out


def _board_rows_svg(tr: Translator, board: Mapping[str, Any], ox: int, oy: int,
                    shrimp_fill: Mapping[int, str] | None = None) -> list[list[str]]:
    """Each row of a board as the elements its band draws: the row's number and cells, the
    grid over them, then its pieces on top. Every piece stays inside its row (a shrimp's token
    sits half a unit below the row's top line), so a piece that moves redraws one band only."""
    rows = list(board.get("rows", []))
    grid = grid_path(ox, oy, len(rows[0]), len(rows), CELL, GRID) if rows else ""
    cells: list[list[str]] = []
    pieces: list[list[str]] = []
    for r, row in enumerate(rows):
        cells.append([f'<text x="{ox - 9}" y="{oy + r * CELL + 18}" font-size="12" '
                      f'text-anchor="middle">{r + 1}</text>'])
        pieces.append([])
        for c, cell in enumerate(row):
            x, y = ox + c * CELL, oy + r * CELL
            fill = SAND if cell.get("sand") else ROCK
            cells[r].append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" '
                            f'fill="{fill}" {CRISP}/>')
            # A polyp sits low and left of the middle: its letter clear of a shrimp's token.
            cx, cy = x + CELL / 2 - 3, y + CELL / 2 + 2
            if cell.get("polyp"):
                pieces[r].append(_polyp(tr, cx, cy, str(cell["polyp"])))
            elif cell.get("extra_growth") and not cell.get("sand"):
                pieces[r].append(f'<text x="{cx:.0f}" y="{cy + 5:.0f}" font-size="15" '
                                 f'fill="{GROWTH}" text-anchor="middle">✶</text>')
            if cell.get("shrimp") is not None:
                n = int(cell["shrimp"]) + 1
                fill = (shrimp_fill or {}).get(n - 1, "#222")
                label = escape(tr(msg("shrimp of player {n}", n=n)))
                pieces[r].append(
                    f'<circle cx="{x + CELL - 6}" cy="{y + 6.5}" r="6" fill="{fill}" '
                    f'stroke="#000" stroke-width="0.8"><title>{label}</title></circle>'
                    f'<text x="{x + CELL - 6}" y="{y + 10.5}" font-size="11" '
                    f'fill="{ink_on(fill)}" text-anchor="middle">{n}</text>')
    return [cells[r] + [grid] + pieces[r] for r in range(len(rows))]


# The open sea on a phone: three spaces a row (two rows), each row's names over its boxes;
# the alga space and the shrimps on lines of their own below. 346 units wide, so a phone
# shows it at its own size and every word at 12 px or more.
SEA_W, SEA_PER_ROW, SEA_BOX_W, SEA_STEP, SEA_ROW = 346, 3, 108, 114, 70


def _sea_at(i: int, oy: int) -> tuple[int, int]:
    """Where the ``i``-th space's box starts."""
    return 8 + (i % SEA_PER_ROW) * SEA_STEP, oy + (i // SEA_PER_ROW) * SEA_ROW


def _sea_names_svg(tr: Translator, sea: list[Mapping[str, Any]], oy: int, row: int
                   ) -> list[str]:
    """The spaces' names of one row, over the tops of their boxes: the same all game."""
    out = []
    for i, space in enumerate(sea):
        if i // SEA_PER_ROW != row:
            continue
        x, y = _sea_at(i, oy)
        out.append(_sea_box(x, y))
        out.append(f'<text x="{x + SEA_BOX_W // 2}" y="{y + 15}" font-size="12" '
                   f'text-anchor="middle">{escape(_word(tr, str(space.get("colour", ""))))}'
                   '</text>')
    return out


def _sea_box(x: int, y: int) -> str:
    return (f'<rect x="{x}" y="{y}" width="{SEA_BOX_W}" height="56" rx="10" fill="{SEA}" '
            'stroke="#5a8fa8"/>')


def _sea_svg(tr: Translator, sea: list[Mapping[str, Any]], oy: int, row: int) -> list[str]:
    """One row's boxes with their larva cubes and polyps (what nearly every move changes)."""
    out = []
    for i, space in enumerate(sea):
        if i // SEA_PER_ROW != row:
            continue
        x, y = _sea_at(i, oy)
        colour = str(space.get("colour", ""))
        out.append(_sea_box(x, y))
        if space.get("cube"):
            label = escape(tr(msg("larva cube {colour}", colour=cmsg("colour", colour))))
            out.append(f'<rect x="{x + 8}" y="{y + 26}" width="14" height="14" '
                       f'fill="{FILL.get(colour, "#000")}" stroke="#333"><title>{label}'
                       '</title></rect>' + _letter(x + 15, y + 33, colour,
                                                   FILL.get(colour, "#000")))
        for j, polyp in enumerate(space.get("polyps", [])):
            out.append(_polyp(tr, x + 36 + j * 20, y + 33, str(polyp), r=8))
    return out


def _sea_extras_svg(tr: Translator, view: Mapping[str, Any], oy: int) -> list[str]:
    """The alga space and the shrimps resting on the open-sea board, a line each, their
    pieces at the right end."""
    alga = view.get("alga_space")
    what = (tr(msg("{colour} alga", colour=cmsg("colour", str(alga)))) if alga
            else tr(msg("empty")))
    space = escape(tr(msg("Alga space:")))
    out = [f'<text x="8" y="{oy + 16}" font-size="12">{space}</text>',
           f'<rect x="{SEA_W - 26}" y="{oy + 3}" width="16" height="16" rx="3" '
           f'fill="{FILL.get(str(alga), SEA) if alga else SEA}" stroke="#333">'
           f'<title>{escape(what)}</title></rect>']
    if alga:
        out.append(_letter(SEA_W - 18, oy + 11, str(alga), FILL.get(str(alga), SEA)))
    shrimps = tr(msg("Shrimps on the open sea:"))
    out.append(f'<text x="8" y="{oy + 40}" font-size="12">{escape(shrimps)}</text>')
    x = SEA_W - 18
    for p in reversed(view.get("players", [])):
        if p.get("sea_shrimp"):
            n = int(p.get("seat", 0)) + 1
            label = tr(msg("{colour} (player {n})", colour=cmsg("colour", str(p.get("colour"))),
                           n=n))
            fill = FILL.get(str(p.get("colour")), "#222")
            out.append(f'<circle cx="{x}" cy="{oy + 35}" r="8" fill="{fill}" stroke="#000">'
                       f'<title>{escape(label)}</title></circle>'
                       f'<text x="{x}" y="{oy + 39}" font-size="11" fill="{ink_on(fill)}" '
                       f'text-anchor="middle">{n}</text>')
            x -= 22
    return out


# The coral tiles: five a row (two rows), 342 units wide.
TILE_W, TILE_H, TILE_STEP, TILES_PER_ROW = 62, 66, 66, 5
TILES_W = 12 + TILES_PER_ROW * TILE_STEP


def _tiles_svg(tr: Translator, tiles: list[Mapping[str, Any]], oy: int) -> list[str]:
    """The ten coral tiles: the stronger coral twice on top, the weaker below, the large alga
    as a band; a cylinder standing on a tile is drawn over it."""
    title = escape(tr(msg("Coral tiles")))
    out = [f'<text x="10" y="{oy - 8}" font-size="13" font-weight="bold">{title}</text>']
    for i, t in enumerate(tiles):
        x = 12 + (i % TILES_PER_ROW) * TILE_STEP
        y = oy + (i // TILES_PER_ROW) * (TILE_H + 6)
        strong, weak = str(t.get("strong", "")), str(t.get("weak", ""))
        label = tr(msg("tile {number}: {strong} beats {weak}", number=str(t.get("number")),
                       strong=cmsg("colour", strong), weak=cmsg("colour", weak)))
        out.append(f'<rect x="{x}" y="{y}" width="{TILE_W}" height="{TILE_H}" rx="4" '
                   f'fill="#fdf8ec" stroke="#7a7466"><title>{escape(label)}</title></rect>')
        out.append(f'<text x="{x + 4}" y="{y + 13}" font-size="11">'
                   f'{escape(str(t.get("number", "")))}</text>')
        out.append(_polyp(tr, x + 22, y + 23, strong, r=8))
        out.append(_polyp(tr, x + 40, y + 23, strong, r=8))
        out.append(_polyp(tr, x + 31, y + 41, weak, r=8))
        alga = str(t.get("large_alga"))
        large = tr(msg("large alga {colour}", colour=cmsg("colour", alga)))
        out.append(f'<rect x="{x + 4}" y="{y + 51}" width="{TILE_W - 8}" height="12" '
                   f'fill="{FILL.get(alga, "#000")}" {CRISP}><title>'
                   f'{escape(large)}</title></rect>'
                   + _letter(x + TILE_W / 2, y + 57, alga, FILL.get(alga, "#000")))
        if t.get("cylinder"):  # a bar at the tile's right edge, beside its polyps
            cylinder = str(t["cylinder"])
            locked = tr(msg("locked by a {colour} alga", colour=cmsg("colour", cylinder)))
            out.append(f'<rect x="{x + TILE_W - 13}" y="{y + 4}" width="12" height="44" '
                       f'rx="5" fill="{FILL.get(cylinder, "#000")}" stroke="#000">'
                       f'<title>{escape(locked)}</title></rect>'
                       + _letter(x + TILE_W - 7, y + 26, cylinder, FILL.get(cylinder, "#000")))
    return out


def tiles_legend(tr: Translator = ENGLISH) -> Markup:
    """What a drawn tile's parts mean: text under the picture rather than in it, where it
    reflows and reads at the reader's font size (in the PNG, 11 units on a phone were ~6 CSS
    pixels), and its ~140 glyphs were an eighth of the picture's drawing time."""
    first = tr(msg("Each tile: the top coral (two polyps) beats the coral below it;"))
    second = tr(msg("the band is its large alga; a tall bar is an alga cylinder locking "
                    "the tile."))
    return Markup(f"<p><small>{escape(first)} {escape(second)}</small></p>")


def _svg(width: int, height: int, label: str, body: list[str]) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="sans-serif" role="img" '
            f'aria-label="{escape(label)}">\n' + "\n".join(body) + "\n</svg>")


def _beside(svg: str, width: int) -> str:
    """A picture that sits beside the next one where the window is wide enough (two boards on
    a desktop) and alone on its line on a phone."""
    return (f'<span style="display:inline-block;vertical-align:top;width:100%;'
            f'max-width:{width}px;margin:0 8px 8px 0">{svg}</span>')


# Where a board's and the sea's pictures are cut into bands (SVG units; even, so on a whole
# PNG pixel at 1.5x): the words that never change (titles, column letters, the spaces' names,
# the alga row's captions) fill about half of a picture's drawing time (resvg shapes every
# glyph on every call), so they sit in bands of their own, drawn once and kept by
# pbem.drawing.pictures; a board's rows are a band each (most moves change one row of one
# board: bench/pipeline.py); a move redraws only the bands it changed.
BOARD_TOP, BOARD_OY = 34, 36  # the header band ends above the grid's top line; CELL is even
SEA_OY = 22  # the first row of the open sea's boxes


def reef_svg(view: Mapping[str, Any], tr: Translator = ENGLISH) -> Markup:
    """Inline SVG pictures for HTML email: one per reef board, one of the open sea, one of the
    coral tiles (the tiles' legend follows as text: tiles_legend).

    One picture per board, not one of everything: a move changes a board or two and the open
    sea, and a mail's PNG of a picture that did not change is the one already drawn for an
    earlier mail (pbem.drawing.pictures keeps them by their SVG), so a move draws only what it
    changed. A phone also shows each board at its own width instead of a quarter of one
    picture. Boards and sea are further cut into bands (pbem.drawing.pictures.band): the static
    words in one, the pieces in another."""
    shrimp_fill = {int(p.get("seat", 0)): FILL.get(str(p.get("colour")), "#222")
                   for p in view.get("players", [])}
    out = []
    for board in view.get("boards", []):
        rows = list(board.get("rows", []))
        cols = len(rows[0]) if rows else len(COLUMNS)
        width, height = cols * CELL + 40, len(rows) * CELL + 40
        title = tr(msg("Board {number}", number=str(board.get("number", "?"))))
        out.append(_beside(grid_bands(
            width, height, title, _board_header_svg(tr, board, 30, BOARD_OY),
            _board_rows_svg(tr, board, 30, BOARD_OY, shrimp_fill), BOARD_TOP, BOARD_OY, CELL),
            width))
    sea = list(view.get("open_sea", []))
    heading = [f'<text x="8" y="{SEA_OY - 8}" font-size="13" font-weight="bold">'
               f'{escape(tr(msg("Open sea")))}</text>']
    # Bands: each row's names (static), each row's boxes, the extras; cut on even units.
    names = [SEA_OY + r * SEA_ROW + 20 for r in (0, 1)]  # under the names' descenders
    boxes = [SEA_OY + r * SEA_ROW + 60 for r in (0, 1)]  # under the boxes
    out.append(_beside(
        band(SEA_W, 0, names[0], tr(msg("Open sea")),
             heading + _sea_names_svg(tr, sea, SEA_OY, 0))
        + band(SEA_W, names[0], boxes[0], "", _sea_svg(tr, sea, SEA_OY, 0))
        + band(SEA_W, boxes[0], names[1], "", _sea_names_svg(tr, sea, SEA_OY, 1))
        + band(SEA_W, names[1], boxes[1], "", _sea_svg(tr, sea, SEA_OY, 1))
        + band(SEA_W, boxes[1], boxes[1] + 50, "", _sea_extras_svg(tr, view, boxes[1])),
        SEA_W))
    tiles = list(view.get("tiles", []))
    if tiles:  # apart from the sea, which nearly every move changes: tiles change rarely
        tile_rows = -(-len(tiles) // TILES_PER_ROW)
        out.append(_beside(_svg(TILES_W, 22 + tile_rows * (TILE_H + 6) + 2, tr(msg("Coral tiles")),
                                _tiles_svg(tr, tiles, 22)), TILES_W))
    return Markup("<div>" + "".join(out) + "</div>")


def player_label(player: Mapping[str, Any], names: list[str] | None = None,
                 tr: Translator = ENGLISH) -> str:
    """'Purple (Ann, player 1)': events name players by colour, the host by name."""
    seat = int(player.get("seat", 0))
    colour = cmsg("player", str(player.get("colour", "?")).capitalize())
    name = names[seat] if names and seat < len(names) else None
    if name:
        return tr(msg("{colour} ({name}, player {n})", colour=colour, name=name, n=seat + 1))
    return tr(msg("{colour} (player {n})", colour=colour, n=seat + 1))


def score_terms(parrotfish: Iterable[str] | Mapping[str, int] | None,
                values: Mapping[str, int], tr: Translator = ENGLISH) -> str:
    """'3 pink × 4 + 2 white × 2 = 16': how a parrotfish scores with the coral values."""
    tally: dict[str, int] = {}
    if isinstance(parrotfish, Mapping):
        tally = {c: int(n) for c, n in parrotfish.items() if int(n)}
    else:
        for c in parrotfish or []:
            tally[c] = tally.get(c, 0) + 1
    if not tally:
        return tr(msg("empty = 0"))
    terms = [f"{n} {_word(tr, c)} × {values.get(c, 1)}" for c, n in sorted(tally.items())]
    total = sum(n * values.get(c, 1) for c, n in tally.items())
    return f"{' + '.join(terms)} = {total}"


def tie_lines(explanation: Iterable[Any], players: Iterable[Mapping[str, Any]],
              tr: Translator = ENGLISH) -> list[str]:
    """The explanation's words on ties (scoring.final_outcome): not its first line (the coral
    values), not its last (the final ranking), not a player's own score line ("Ann (Purple): ...",
    in any language; the status's final scoring already shows those)."""
    lines = [str(line) for line in explanation]
    names = [tr(cmsg("player", str(p.get("colour", "")).capitalize())) for p in players]
    return [line for line in lines[1:-1]
            if not any(_scored(line.partition(":")[0].strip(), n) for n in names)]


def _scored(head: str, name: str) -> bool:
    """Whether a line's head before its colon names the player: "Purple", "Ann (Purple)"."""
    return head == name or head.endswith(f"({name})")


def _in_language(helper: Callable[..., Any]) -> Callable[..., Any]:
    """``helper`` as a template calls it: in the render's language."""
    @pass_context
    def call(ctx: Context, *args: Any, **kwargs: Any) -> Any:
        return helper(*args, tr=_tr(ctx), **kwargs)
    return call


def template_helpers() -> dict[str, Callable[..., Any]]:
    """The functions status templates may call; each reads only view data."""
    worded: dict[str, Callable[..., Any]] = {
        "board_grid": board_grid, "colour_name": colour_name, "counts": counts,
        "message": message, "order_words": order_words, "seat_label": seat_label,
        "reef_svg": reef_svg, "player_label": player_label, "score_terms": score_terms,
        "tie_lines": tie_lines, "tiles_legend": tiles_legend, "board_cells": board_cells}
    return {"colour_letter": colour_letter, "total": total,
            **{name: _in_language(f) for name, f in worded.items()}}
