"""Drawing Reef views for status emails: text grids and inline SVG pictures.

Everything here reads only a view (view.py's output), never a state. The parts used:
``players`` (``{"seat", "reef": rows of {"height", "top", "stack"}, "hand_count", "played",
"score", "covered", "full_stacks", "answered_setup"}``, plus ``"hand"`` and ``"ledger"`` once
the game is over), cards as ``card_view`` writes them (``{"id", "corals", "points", "kind",
"text", "pattern": rows of labels, "highest"?}``), ``market`` (``{"card", "tokens"}``),
``deck_top``, ``deck_count``, ``supply`` and, for a seat, ``you`` (``{"hand", "to_move",
"example"?}``). Missing keys draw nothing, so a template never fails on an older view.

Words are in the reader's language: each helper takes a translator (``tr``), which the
templates' helpers (:func:`template_helpers`) take from the render's context.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup, escape

from pbem.drawing.legibility import ink_on
from pbem.drawing.pictures import grid_bands
from pbem.games.reef2018.keywords import localise_order
from pbem.i18n.msg import Msg, cmsg, msg
from pbem.i18n.translate import ENGLISH, Translator

COLUMNS = "ABCD"
FILL = {"red": "#d33030", "yellow": "#f2d21b", "green": "#2e9e44", "purple": "#8a3fb8",
        "any": "#ffffff"}
CELL = 34


def seat_label(seat: int | None, tr: Translator = ENGLISH) -> str:
    return tr(msg("nobody")) if seat is None else tr(msg("player {n}", n=int(seat) + 1))


def said(data: Any, tr: Translator = ENGLISH) -> str:
    """A message the view carries as data (``Msg.to_json``), in ``tr``'s language; a plain
    string (a view written before messages) as it is."""
    if isinstance(data, Mapping) and "id" in data:
        return tr(Msg.from_json(data))
    return "" if data is None else str(data)


def cell_text(cell: Mapping[str, Any]) -> str:
    """'R2': a red top piece on a stack 2 high; '.' an empty square."""
    top = cell.get("top")
    return f"{str(top)[0].upper()}{cell.get('height', 0)}" if top else "."


def reef_grid(player: Mapping[str, Any]) -> str:
    """A reef as a labelled text grid: top colour letter and stack height per square."""
    lines = ["      " + "   ".join(COLUMNS)]
    for r, row in enumerate(player.get("reef", []), start=1):
        lines.append(f"  {r}   " + " ".join(f"{cell_text(c):<3}" for c in row).rstrip())
    return "\n".join(lines)


def reef_squares(player: Mapping[str, Any], tr: Translator = ENGLISH) -> list[str]:
    """The reef's picture read square by square, row by row: "A1 red, height 3", "B1 empty"
    (the text equivalent of its picture, for a reader who cannot see it)."""
    out = []
    for r, row in enumerate(player.get("reef", []), start=1):
        for c, cell in enumerate(row):
            square = f"{COLUMNS[c]}{r}"
            top = cell.get("top")
            out.append(tr(msg("{square} {colour}, height {height}", square=square,
                              colour=cmsg("colour", str(top)), height=cell.get("height", 0)))
                       if top else f"{square} {tr(msg('empty'))}")
    return out


def corals(card: Mapping[str, Any], tr: Translator = ENGLISH) -> str:
    return " + ".join(tr(cmsg("colour", str(c))) for c in card.get("corals", []))


def card_text(card: Mapping[str, Any], tr: Translator = ENGLISH) -> str:
    """The card's pattern in words."""
    return said(card.get("description", card.get("text", "")), tr)


def pattern_lines(card: Mapping[str, Any], tr: Translator = ENGLISH) -> list[str]:
    """The card's pattern as drawn on it (one orientation; every rotation counts)."""
    high = card.get("highest")
    if high:
        return [tr(msg("highest {colour}: +{points} per {scored} around it",
                       colour=str(high["centre"])[0].upper(), points=card.get("points"),
                       scored=str(high["scored"])[0].upper()))]
    return [" ".join(f"{label or '.':<3}" for label in row).rstrip()
            for row in card.get("pattern", [])]


def card_block(card: Mapping[str, Any], indent: str = "    ", tr: Translator = ENGLISH) -> str:
    """A card in a few lines: number, corals, points, pattern in words and drawn."""
    head = tr(msg("Card {card}: gives {corals}; {points} points — {text}", card=card.get("id"),
                  corals=corals(card, tr), points=card.get("points"), text=card_text(card, tr)))
    return "\n".join([head] + [indent + line for line in pattern_lines(card, tr)])


def _stack_words(cell: Mapping[str, Any], tr: Translator) -> str:
    stack = [tr(cmsg("colour", str(c))) for c in cell.get("stack", [])]
    return " / ".join(stack) if stack else tr(msg("empty"))


# Axis-aligned squares drawn without anti-aliasing: the same look (their edges fall on whole
# pixels, under the grid lines) for a fraction of the rasteriser's time (pbem/drawing/pictures.py).
CRISP = 'shape-rendering="crispEdges"'


def grid_path(ox: int, oy: int, cols: int, rows: int, cell: int, colour: str) -> str:
    """A reef's grid lines as one crisp path of whole pixels (4/3 unit: 2 pixels in the mail's
    PNG, drawn at 1.5x); stroking every square anti-aliased cost more than the rest."""
    d = "".join(f"M{ox + c * cell} {oy}v{rows * cell}" for c in range(cols + 1))
    d += "".join(f"M{ox} {oy + r * cell}h{cols * cell}" for r in range(rows + 1))
    return (f'<path d="{d}" fill="none" stroke="{colour}" stroke-width="1.33" '
            f'{CRISP}/>')


def _square(x: float, y: float, cell: Mapping[str, Any], size: int,
            tr: Translator) -> tuple[str, str]:
    """A square coloured by its top piece, and its top's letter and stack height ("R3", as the
    text grid writes it; empty if none) to draw over the grid: the colour is never alone."""
    top = cell.get("top")
    fill = FILL.get(str(top), "#e8f4f8") if top else "#e8f4f8"
    square = (f'<rect x="{x:.0f}" y="{y:.0f}" width="{size}" height="{size}" fill="{fill}" '
              f'{CRISP}><title>{escape(_stack_words(cell, tr))}</title></rect>')
    label = (f'<text x="{x + size / 2:.0f}" y="{y + size / 2 + 5:.0f}" '
             f'font-size="15" font-weight="bold" text-anchor="middle" '
             f'fill="{ink_on(fill)}">{cell_text(cell)}</text>') if top else ""
    return square, label


# A reef's picture is cut into bands (SVG units; even, so on a whole PNG pixel at 1.5x): its
# owner's name and the column letters, drawn once, then a band per row of squares, so that a
# move, which changes a square or two of one reef, redraws one or two small bands, not every
# reef (resvg fills every glyph and square on every call: pbem/drawing/pictures.py).
REEF_TOP, REEF_OY = 38, 40  # the header band ends above the grid's top line; CELL is even


def _reef_bands(player: Mapping[str, Any], who: str, label: str, tr: Translator) -> str:
    """One player's reef: the name and column letters, then each row of squares (their
    colours, the grid over them, then the stack heights over the grid)."""
    ox, oy = 30, REEF_OY
    width = 4 * CELL + 40
    reef = list(player.get("reef", []))
    head = [f'<text x="{ox}" y="16" font-size="13" font-weight="bold">{escape(who)}</text>']
    head += [f'<text x="{ox + c * CELL + CELL / 2:.0f}" y="{oy - 6}" font-size="12" '
             f'text-anchor="middle">{letter}</text>' for c, letter in enumerate(COLUMNS)]
    grid = grid_path(ox, oy, len(reef[0]), len(reef), CELL, "#456") if reef else ""
    rows = []
    for r, row in enumerate(reef):
        squares = [_square(ox + c * CELL, oy + r * CELL, cell, CELL, tr)
                   for c, cell in enumerate(row)]
        body = [f'<text x="{ox - 10}" y="{oy + r * CELL + CELL / 2 + 4:.0f}" '
                f'font-size="12" text-anchor="middle">{r + 1}</text>']
        body += [square for square, _ in squares] + [grid]
        body += [height for _, height in squares if height]
        rows.append(body)
    bands = grid_bands(width, 4 * CELL + 60, label, head, rows, REEF_TOP, oy, CELL)
    return (f'<span style="display:inline-block;vertical-align:top;width:100%;'
            f'max-width:{width}px;margin:0 8px 8px 0">{bands}</span>')


def reef_words(player: Mapping[str, Any], tr: Translator = ENGLISH) -> str:
    """A reef in words, square by square as orders name them (:func:`reef_squares`): the
    picture's text for a client that hides pictures."""
    return "; ".join(reef_squares(player, tr))


def reef_svg(view: Mapping[str, Any], names: list[str] | None = None,
             seat: int | None = None, tr: Translator = ENGLISH) -> Markup:
    """Every player's reef, side by side where the window is wide enough: each square coloured
    by its top piece, its stack height written in it. A picture per reef, each cut into bands
    (REEF_TOP), so that a move redraws only the rows it changed; each picture's name (its
    ``alt``) is the reef in words (:func:`reef_words`), or, while others' starting corals are
    hidden (``seat`` sees only its own), whether they are placed."""
    players = list(view.get("players", []))
    out = []
    for i, p in enumerate(players):
        index = int(p.get("seat", i))
        who = tr.seat_name(index, names or ())
        if view.get("phase") == "setup" and index != seat:
            shown = tr(msg("placed, shown when everyone has") if p.get("answered_setup")
                       else msg("not placed yet"))
        else:
            shown = reef_words(p, tr)
        label = tr(msg("{who}'s reef: {squares}", who=who, squares=shown))
        out.append(_reef_bands(p, who, label, tr))
    return Markup("<div>" + "".join(out) + "</div>")


def card_svg(card: Mapping[str, Any], tr: Translator = ENGLISH) -> Markup:
    """A card's pattern as a little picture: coloured squares, heights written in them."""
    size = 28  # room for the widest label, "G2+"
    high = card.get("highest")
    if high:
        cells = [[{"top": high["centre"], "label": str(high["centre"])[0].upper() + "▲"},
                  {"top": high["scored"], "label": str(high["scored"])[0].upper() + "+"}]]
    else:  # each square with its whole label, its colour's letter first
        cells = [[{"top": _colour(label), "label": label} if label else {}
                  for label in row] for row in card.get("pattern", [])]
    width = max((len(r) for r in cells), default=1) * size + 2
    height = len(cells) * size + 2
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" role="img" '
             f'aria-label="{escape(card_text(card, tr))}">']
    for r, row in enumerate(cells):
        for c, cell in enumerate(row):
            if not cell:
                continue
            top = str(cell["top"])
            parts.append(f'<rect x="{1 + c * size}" y="{1 + r * size}" width="{size}" '
                         f'height="{size}" fill="{FILL.get(top, "#fff")}" stroke="#333"/>')
            if cell["label"]:
                parts.append(f'<text x="{1 + c * size + size / 2:.0f}" y="{r * size + 19}" '
                             f'font-size="11" text-anchor="middle" '
                             f'fill="{ink_on(FILL.get(top, "#fff"))}">'
                             f'{escape(cell["label"])}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))


def _colour(label: str) -> str:
    return {"R": "red", "Y": "yellow", "G": "green", "P": "purple"}.get(label[:1], "any")


def supply_words(supply: Mapping[str, Any], tr: Translator = ENGLISH) -> str:
    """'red 12, yellow 10, ...': each colour's pieces left."""
    return ", ".join(f"{tr(cmsg('colour', str(c)))} {n}" for c, n in supply.items())


def order_words(order: str, tr: Translator = ENGLISH) -> str:
    """An English (canonical) order in the reader's words, as they would write it."""
    return localise_order(order, tr.lang)


def strong(text: str) -> Markup:
    return Markup("<strong>{}</strong>").format(text)


def code(text: str) -> Markup:
    return Markup("<code>{}</code>").format(text)


def _in_language(helper: Callable[..., Any]) -> Callable[..., Any]:
    """``helper`` for templates: its words in the render's language (the context's ``tr``)."""
    @pass_context
    def call(*args: Any, **kwargs: Any) -> Any:
        tr: Any = ENGLISH
        if args and isinstance(args[0], Context):  # from a template (else: called directly)
            tr = args[0].get("tr")
            args = args[1:]
        return helper(*args, **kwargs, tr=tr if isinstance(tr, Translator) else ENGLISH)
    return call


def template_helpers() -> dict[str, Callable[..., Any]]:
    words: dict[str, Callable[..., Any]] = {
        "card_block": card_block, "card_svg": card_svg, "reef_svg": reef_svg,
        "seat_label": seat_label, "corals": corals, "pattern_lines": pattern_lines,
        "card_text": card_text, "said": said, "supply_words": supply_words,
        "order_words": order_words, "reef_squares": reef_squares}
    plain: dict[str, Callable[..., Any]] = {"reef_grid": reef_grid, "strong": strong,
                                            "code": code}
    return plain | {name: _in_language(f) for name, f in words.items()}
