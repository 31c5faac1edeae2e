"""Drawing a view for the status email: the fishing area as a text grid and as a picture,
the open breeding crosses and each player's corals as pictures, holdings as words.

Everything here reads only ``view`` output (view.py), never a state. Templates get each helper
with the template's own ``pgettext`` (jinja2.ext.i18n), so its words come out in the seat's
language; called from Python without one they are English.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import jinja2
import jinja2.runtime
from markupsafe import Markup, escape

from pbem.drawing.legibility import ink_on, wrap
from pbem.drawing.pictures import band

WIDTH = 6  # characters per column of the grid

PGettext = Callable[..., str]


def _english(context: str, message: str, **fields: Any) -> str:
    return message % fields if fields else message


def abbreviation(colour: str, pgettext: PGettext = _english) -> str:
    """Three letters for a colour in the grid ("red" -> "red", "rouge" -> "rou")."""
    short = str(pgettext("colour abbreviation", colour))
    return short if short != colour else colour[:3]


def cell_text(cell: Mapping[str, Any] | None, pgettext: PGettext = _english) -> str:
    """One place of the area: "redM" a red male fish, "[##]" face down, "." a gap."""
    if cell is None:
        return "."
    if not cell.get("up"):
        return "[##]"
    if cell["kind"] == "fish":
        code = "M" if cell["sex"] == "m" else "F"  # (a variable: not a msgid to extract)
        sex = pgettext("sex abbreviation", code)
        return f"{abbreviation(cell['colour'], pgettext)}{sex}"
    if cell["kind"] == "water":
        return "~~~~"
    kind = cell["kind"]  # coral, pearl, shark: at most 5 letters in the grid
    return str(pgettext("card abbreviation", kind))[:WIDTH - 1]


def area_grid(view: Mapping[str, Any], pgettext: PGettext = _english) -> str:
    """The fishing area from the viewer's side: far row on top, near row at the bottom,
    the opponent's boats above it and the viewer's below, columns 1-8 from the sea end."""
    me = view.get("you")
    me = 0 if me is None else me
    players = view["players"]
    label = 16
    head = " " * label + "".join(f"{c:<{WIDTH}}" for c in range(1, 9))
    sea, reef = pgettext("grid", "(sea end)"), pgettext("grid", "(reef end)")
    lines = [(" " * label + f"{sea:<{8 * WIDTH - 11}}" + reef).rstrip(), head.rstrip()]
    boat = str(pgettext("grid", "B"))
    lines.append(_boats(players[1 - me]["boats"], pgettext("grid", "P%(n)s boats", n=2 - me),
                        label, boat))
    for row in view["rows"]:
        name = f"{pgettext('row', row['name'])} ({row['cost']})"
        lines.append((f"{name:<{label}}" + "".join(
            f"{cell_text(c, pgettext):<{WIDTH}}" for c in row["cells"])).rstrip())
    lines.append(_boats(players[me]["boats"], pgettext("grid", "P%(n)s boats", n=me + 1),
                        label, boat))
    return "\n".join(lines)


def area_rows(view: Mapping[str, Any], pgettext: PGettext = _english) -> list[str]:
    """The fishing area's picture read place by place, row by row from the far row: "far (3):
    1 red male fish, 2 face down, 3 water, …" (the text equivalent of the picture, for a
    reader who cannot see it)."""
    out = []
    for row in view["rows"]:
        places = [f"{c} " + (str(pgettext("grid", "empty")) if cell is None
                             else str(pgettext("grid", "face down")) if not cell.get("up")
                             else card_text(cell, pgettext))
                  for c, cell in enumerate(row["cells"], start=1)]
        out.append(f"{pgettext('row', row['name'])} ({row['cost']}): " + ", ".join(places))
    return out


def _boats(count: int, name: str, label: int, boat: str) -> str:
    return (f"{name:<{label}}" + "".join(f"{boat if c < count else '':<{WIDTH}}"
                                         for c in range(8))).rstrip()


def counts(worms: Mapping[str, int], pgettext: PGettext = _english) -> str:
    shown = [f"{n} {pgettext('colour', c)}" for c, n in worms.items() if n]
    return ", ".join(shown) or str(pgettext("holding", "none"))


def fish_name(colour: str, sex: str, pgettext: PGettext = _english) -> str:
    """ "red male" in the template's language."""
    if sex == "m":
        return str(pgettext("fish", "%(colour)s male",
                            colour=pgettext("colour of a male or a fish", colour)))
    return str(pgettext("fish", "%(colour)s female",
                        colour=pgettext("colour of a female", colour)))


def fish_list(fish: Sequence[str], pgettext: PGettext = _english) -> str:
    """ "red:m" ids as words, grouped: "2 red male, 1 blue female"."""
    out: dict[str, int] = {}
    for f in fish:
        colour, sex = f.split(":")
        key = fish_name(colour, sex, pgettext)
        out[key] = out.get(key, 0) + 1
    return ", ".join(f"{n} {k}" for k, n in out.items()) or str(pgettext("holding", "none"))


def card_text(card: Mapping[str, Any], pgettext: PGettext = _english) -> str:
    """A face-up card of the view: "red male fish", "coral"."""
    kind, colour_name = card["kind"], card["colour"]
    if kind != "fish":
        return str(pgettext("card", kind))
    colour = pgettext("colour of a male or a fish", colour_name)
    if card["sex"] == "m":
        return str(pgettext("fish", "%(colour)s male fish", colour=colour))
    return str(pgettext("fish", "%(colour)s female fish", colour=colour))


def discard_text(cards: Sequence[Mapping[str, Any]], pgettext: PGettext = _english) -> str:
    return ", ".join(card_text(c, pgettext) for c in cards)


def cross_text(colours: Sequence[str], pgettext: PGettext = _english) -> str:
    """A breeding cross: "red x yellow"."""
    return f"{pgettext('colour', colours[0])} x {pgettext('colour', colours[-1])}"


def coral_text(coral: Mapping[str, Any], pgettext: PGettext = _english) -> str:
    if coral.get("cross"):
        return str(pgettext("coral", "coral %(number)s: completed cross %(cross)s (used up)",
                            number=coral["number"],
                            cross=cross_text(coral["cross_colours"], pgettext)))
    parents = [fish_name(coral["male"], "m", pgettext) if coral.get("male") else "",
               fish_name(coral["female"], "f", pgettext) if coral.get("female") else ""]
    held = [p for p in parents if p]
    if len(held) == 2:
        return str(pgettext("coral", "coral %(number)s: %(male)s and %(female)s",
                            number=coral["number"], male=held[0], female=held[1]))
    if held:
        return str(pgettext("coral", "coral %(number)s: %(fish)s", number=coral["number"],
                            fish=held[0]))
    return str(pgettext("coral", "coral %(number)s: no fish yet", number=coral["number"]))


# The pictures are drawn at the size a phone shows them (at most 348 units wide: a phone's
# mail is some 366 CSS pixels across, an archive page's 358), so their words, 11 units and
# up, stay readable.
FILL = {"red": "#d33030", "yellow": "#f2d21b", "blue": "#2f6fd0", "green": "#2e9e44",
        "pink": "#f08cb8", "purple": "#8a3fb8"}
WATER, DOWN, EMPTY, CARD = "#cfe8f5", "#7d8b96", "#ffffff", "#f3ead2"
CELL_W, CELL_H, LEFT = 36, 44, 60  # a place of the area; the row names' column
AREA_W = LEFT + 8 * CELL_W  # 348: room for an archive page's margins too
TOP = 20  # the column numbers' band
BOATS = 24  # a row of boats


def _short(text: str, room: int) -> str:
    """``text`` cut to ``room`` characters (an ellipsis marks the cut)."""
    return text if len(text) <= room else text[:room - 1] + "…"


def _text(x: float, y: float, words: str, size: int = 12, fill: str = "#000",
          anchor: str = "middle", bold: bool = False) -> str:
    weight = ' font-weight="bold"' if bold else ""
    return (f'<text x="{x:.0f}" y="{y:.0f}" font-size="{size}" text-anchor="{anchor}" '
            f'fill="{fill}"{weight}>{escape(words)}</text>')


def _place(x: int, y: int, cell: Mapping[str, Any] | None, pgettext: PGettext) -> list[str]:
    """One place of the area: a fish in its colour (its colour and sex written on it), a
    face-down card, water, a coral, pearl or shark card, or a gap."""
    words = cell_text(cell, pgettext)
    if cell is None:
        fill, lines, title = EMPTY, ["."], str(pgettext("grid", "empty"))
    elif not cell.get("up"):
        fill, lines, title = DOWN, ["?"], str(pgettext("grid", "face down"))
    elif cell["kind"] == "fish":
        fill = FILL.get(cell["colour"], CARD)
        lines, title = [abbreviation(cell["colour"], pgettext), words[-1]], card_text(cell,
                                                                                      pgettext)
    elif cell["kind"] == "water":
        fill, lines, title = WATER, ["~"], card_text(cell, pgettext)
    else:
        fill, lines, title = CARD, [words], card_text(cell, pgettext)
    ink = ink_on(fill)
    out = [f'<rect x="{x}" y="{y}" width="{CELL_W}" height="{CELL_H}" fill="{fill}" {CRISP}>'
           f'<title>{escape(title)}</title></rect>']
    first = y + CELL_H / 2 + 4 - 7 * (len(lines) - 1)
    out += [_text(x + CELL_W / 2, first + 14 * n, line, 11 if len(line) > 3 else 12, ink)
            for n, line in enumerate(lines)]
    return out


# Axis-aligned shapes drawn without anti-aliasing, on whole pixels of the mail's PNG (drawn at
# 1.5x: every place's edge is a multiple of 2/3 unit): a picture of flat colours, which the
# mail's palette PNG keeps exact (pbem/drawing/pictures.py), and a fraction of the time.
CRISP = 'shape-rendering="crispEdges"'
GRID = "#456"


def _grid(oy: int, rows: int) -> str:
    """The places' edges, one crisp path (2/3 unit: one pixel of the PNG) drawn over the cards,
    each line a third of a unit (half a pixel) right of and below its edge: it fills the
    first pixel of the place after it, never the band above a cut. Every band of the rows
    holds all of it and shows its own part."""
    def at(v: int) -> str:
        return f"{v + 1 / 3:.2f}"

    d = "".join(f"M{at(LEFT + c * CELL_W)} {at(oy)}v{rows * CELL_H}" for c in range(9))
    d += "".join(f"M{at(LEFT)} {at(oy + r * CELL_H)}h{8 * CELL_W}" for r in range(rows + 1))
    return f'<path d="{d}" fill="none" stroke="{GRID}" stroke-width="0.67" {CRISP}/>'


def _boat_row(y: int, count: int, who: str) -> list[str]:
    """A player's boats: one under (or over) each of the first ``count`` columns."""
    out = [_text(4, y + 16, _short(who, 9), 11, "#333", "start")]
    for c in range(count):
        x = LEFT + c * CELL_W + CELL_W / 2
        out.append(f'<path d="M{x - 13:.0f} {y + 8}h26l-5 9h-16z" fill="#8a5a2b"/>'
                   f'<path d="M{x:.0f} {y + 8}v-6l7 5z" fill="#8a5a2b"/>')
    return out


def area_svg(view: Mapping[str, Any], names: Sequence[str] = (),
             pgettext: PGettext = _english) -> Markup:
    """The fishing area as a picture from the viewer's side, as area_grid writes it: the
    opponent's boats on top, the far row to the near row, the viewer's boats at the bottom;
    columns 1-8 from the sea end. A band per row, so a buy redraws one row."""
    me = view.get("you")
    me = 0 if me is None else me
    players = view["players"]

    def who(seat: int) -> str:
        name = names[seat] if len(names) > seat else ""
        return name or str(pgettext("grid", "P%(n)s boats", n=seat + 1))

    rows = list(view["rows"])
    head = [_text(LEFT + c * CELL_W + CELL_W / 2, 15, str(c + 1), 12, "#333")
            for c in range(8)]
    oy = TOP + BOATS
    height = oy + len(rows) * CELL_H + BOATS
    grid = _grid(oy, len(rows))
    bands = [band(AREA_W, 0, TOP, str(pgettext("picture", "The fishing area")), head),
             band(AREA_W, TOP, oy, "", _boat_row(TOP, players[1 - me]["boats"],
                                                 who(1 - me)))]
    for r, row in enumerate(rows):
        y = oy + r * CELL_H
        # The row's name, wrapped to the room left of the places (never cut), then its cost.
        words = [*wrap(str(pgettext("row", row["name"])), LEFT - 6, 11), f"({row['cost']})"]
        first = y + CELL_H / 2 + 4 - 6 * (len(words) - 1)
        body = [_text(4, first + 12 * n, line, 11, "#000" if n < len(words) - 1 else "#333",
                      "start") for n, line in enumerate(words)]
        for c, cell in enumerate(row["cells"]):
            body += _place(LEFT + c * CELL_W, y, cell, pgettext)
        body.append(grid)
        bands.append(band(AREA_W, y, y + CELL_H, "", body))
    last = oy + len(rows) * CELL_H
    bands.append(band(AREA_W, last, height, "",
                      [*_boat_row(last, players[me]["boats"], who(me)), grid]))
    return Markup(f'<div style="max-width:{AREA_W}px">' + "".join(bands) + "</div>")


PAIR_W, PAIR_H = 116, 40  # one cross or one coral: a male and a female side by side


def _fish_box(x: int, y: int, colour: str | None, sex: str,
              pgettext: PGettext) -> list[str]:
    """A fish of a cross or a coral: its colour's square with its sex written on it; an
    empty dashed square for one not attached yet."""
    if colour is None:
        return [f'<rect x="{x}" y="{y}" width="50" height="28" fill="#fff" stroke="#999" '
                f'stroke-width="0.67" stroke-dasharray="2 2" {CRISP}/>']
    code = "M" if sex == "m" else "F"
    label = f"{abbreviation(colour, pgettext)} {pgettext('sex abbreviation', code)}"
    return [f'<rect x="{x}" y="{y}" width="50" height="28" fill="{FILL.get(colour, CARD)}" '
            f'{CRISP}><title>{escape(fish_name(colour, sex, pgettext))}</title></rect>',
            _text(x + 25, y + 18, label, 11, ink_on(FILL.get(colour, CARD)))]


def _pairs(label: str, pairs: Sequence[tuple[str, str | None, str | None, bool]],
           pgettext: PGettext) -> Markup:
    """Numbered pairs of fish (a cross's or a coral's), three to a row; a done pair greyed."""
    per_row = 3
    rows = max(1, -(-len(pairs) // per_row))
    width, height = per_row * PAIR_W, rows * PAIR_H
    body = []
    for n, (number, male, female, done) in enumerate(pairs):
        x, y = (n % per_row) * PAIR_W, (n // per_row) * PAIR_H
        body.append(_text(x + 6, y + 24, number, 12, "#333", "start", bold=True))
        body += _fish_box(x + 14, y + 6, male, "m", pgettext)
        body += _fish_box(x + 64, y + 6, female, "f", pgettext)
        if done:
            body.append(f'<path d="M{x + 14} {y + 20}h100" stroke="#000" stroke-width="2" '
                        f'{CRISP}/>')
    return Markup(band(width, 0, height, label, body).replace(
        'style="display:block"', 'style="display:block;max-width:100%;height:auto"'))


def crosses_svg(view: Mapping[str, Any], pgettext: PGettext = _english) -> Markup:
    """The open breeding crosses: for each, the male and the female it asks for."""
    pairs = [(str(n), b["colours"][0], b["colours"][-1], False) if b else
             (str(n), None, None, False) for n, b in enumerate(view["breeding"], start=1)]
    return _pairs(str(pgettext("picture", "The open breeding crosses")), pairs, pgettext)


def corals_svg(player: Mapping[str, Any], pgettext: PGettext = _english) -> Markup:
    """A player's corals: the fish attached to each, a completed cross struck through."""
    pairs = []
    for c in player["corals"]:
        if c.get("cross"):
            male, female = c["cross_colours"][0], c["cross_colours"][-1]
            pairs.append((str(c["number"]), male, female, True))
        else:
            pairs.append((str(c["number"]), c.get("male"), c.get("female"), False))
    return _pairs(str(pgettext("picture", "Corals")), pairs, pgettext) if pairs else Markup("")


def _in_language(helper: Callable[..., Any]) -> Callable[..., Any]:
    """``helper`` with the rendering template's ``pgettext`` (the seat's language, however the
    host installed it for this render); English when the template has none."""

    @jinja2.pass_context
    def wrapped(context: jinja2.runtime.Context, *args: Any) -> Any:
        found = context.resolve_or_missing("pgettext")
        if found is jinja2.runtime.missing:
            return helper(*args)

        def pgettext(ctx: str, message: str, **fields: Any) -> str:
            return str(context.call(found, ctx, message, **fields))

        return helper(*args, pgettext=pgettext)

    return wrapped


def template_helpers() -> dict[str, Any]:
    helpers: dict[str, Callable[..., Any]] = {
        "area_grid": area_grid, "cell_text": cell_text, "counts": counts,
        "fish_list": fish_list, "coral_text": coral_text, "cross_text": cross_text,
        "fish_name": fish_name, "card_text": card_text, "discard_text": discard_text,
        "area_svg": area_svg, "area_rows": area_rows, "crosses_svg": crosses_svg,
        "corals_svg": corals_svg}
    return {name: _in_language(helper) for name, helper in helpers.items()}
