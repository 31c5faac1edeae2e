"""Drawing Reef views for status emails: text grids and inline SVG pictures.

Everything here reads only a view (view.py's output), never a state. The parts used:
``players`` (``{"seat", "reef": rows of {"height", "top", "stack"}, "hand_count", "played",
"score", "covered", "full_stacks", "answered_setup"}``, plus ``"hand"`` and ``"ledger"`` once
the game is over), cards as ``card_view`` writes them (``{"id", "corals", "points", "kind",
"text", "pattern": rows of labels, "highest"?}``), ``market`` (``{"card", "tokens"}``),
``deck_top``, ``deck_count``, ``supply`` and, for a seat, ``you`` (``{"hand", "to_move",
"example"?}``). Missing keys draw nothing, so a template never fails on an older view.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from markupsafe import Markup, escape

COLUMNS = "ABCD"
FILL = {"red": "#d33030", "yellow": "#f2d21b", "green": "#2e9e44", "purple": "#8a3fb8",
        "any": "#ffffff"}
INK = {"yellow": "#000", "any": "#000"}
CELL = 34


def seat_label(seat: int | None) -> str:
    return "nobody" if seat is None else f"player {int(seat) + 1}"


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


def corals(card: Mapping[str, Any]) -> str:
    return " + ".join(str(c) for c in card.get("corals", []))


def pattern_lines(card: Mapping[str, Any]) -> list[str]:
    """The card's pattern as drawn on it (one orientation; every rotation counts)."""
    high = card.get("highest")
    if high:
        return [f"highest {str(high['centre'])[0].upper()}: +{card.get('points')} per "
                f"{str(high['scored'])[0].upper()} around it"]
    return [" ".join(f"{label or '.':<3}" for label in row).rstrip()
            for row in card.get("pattern", [])]


def card_block(card: Mapping[str, Any], indent: str = "    ") -> str:
    """A card in a few lines: number, corals, points, pattern in words and drawn."""
    head = (f"Card {card.get('id')}: gives {corals(card)}; {card.get('points')} points — "
            f"{card.get('text', '')}")
    return "\n".join([head] + [indent + line for line in pattern_lines(card)])


def _square(x: float, y: float, cell: Mapping[str, Any], size: int) -> str:
    top = cell.get("top")
    height = int(cell.get("height", 0))
    fill = FILL.get(str(top), "#e8f4f8") if top else "#e8f4f8"
    parts = [f'<rect x="{x:.0f}" y="{y:.0f}" width="{size}" height="{size}" fill="{fill}" '
             f'stroke="#456" stroke-width="1"><title>'
             f'{escape(" / ".join(cell.get("stack", [])) or "empty")}</title></rect>']
    if top:
        parts.append(f'<text x="{x + size / 2:.0f}" y="{y + size / 2 + 5:.0f}" '
                     f'font-size="15" font-weight="bold" text-anchor="middle" '
                     f'fill="{INK.get(str(top), "#fff")}">{height}</text>')
    return "".join(parts)


def reef_svg(view: Mapping[str, Any], names: list[str] | None = None) -> Markup:
    """Every player's reef side by side: each square coloured by its top piece, its stack
    height written in it."""
    players = list(view.get("players", []))
    bw = 4 * CELL + 40
    width, height = max(len(players), 1) * bw + 20, 4 * CELL + 60
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" role="img" '
             'aria-label="The reefs: top colour and stack height of each square">']
    for i, p in enumerate(players):
        ox, oy = 30 + i * bw, 40
        seat = int(p.get("seat", i))
        who = names[seat] if names and seat < len(names) else f"Player {seat + 1}"
        parts.append(f'<text x="{ox}" y="16" font-size="13" font-weight="bold">'
                     f'{escape(who)}</text>')
        for c, letter in enumerate(COLUMNS):
            parts.append(f'<text x="{ox + c * CELL + CELL / 2:.0f}" y="{oy - 6}" '
                         f'font-size="10" text-anchor="middle">{letter}</text>')
        for r, row in enumerate(p.get("reef", [])):
            parts.append(f'<text x="{ox - 10}" y="{oy + r * CELL + CELL / 2 + 4:.0f}" '
                         f'font-size="10" text-anchor="middle">{r + 1}</text>')
            for c, cell in enumerate(row):
                parts.append(_square(ox + c * CELL, oy + r * CELL, cell, CELL))
    parts.append("</svg>")
    return Markup("\n".join(parts))


def card_svg(card: Mapping[str, Any]) -> Markup:
    """A card's pattern as a little picture: coloured squares, heights written in them."""
    size = 22
    high = card.get("highest")
    if high:
        cells = [[{"top": high["centre"], "label": "▲"}, {"top": high["scored"], "label": "+"}]]
    else:
        cells = [[{"top": _colour(label), "label": label[1:]} if label else {}
                  for label in row] for row in card.get("pattern", [])]
    width = max((len(r) for r in cells), default=1) * size + 2
    height = len(cells) * size + 2
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" role="img" '
             f'aria-label="{escape(str(card.get("text", "")))}">']
    for r, row in enumerate(cells):
        for c, cell in enumerate(row):
            if not cell:
                continue
            top = str(cell["top"])
            parts.append(f'<rect x="{1 + c * size}" y="{1 + r * size}" width="{size}" '
                         f'height="{size}" fill="{FILL.get(top, "#fff")}" stroke="#333"/>')
            if cell["label"]:
                parts.append(f'<text x="{1 + c * size + size / 2:.0f}" y="{r * size + 16}" '
                             f'font-size="11" text-anchor="middle" '
                             f'fill="{INK.get(top, "#fff")}">{escape(cell["label"])}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))


def _colour(label: str) -> str:
    return {"R": "red", "Y": "yellow", "G": "green", "P": "purple"}.get(label[:1], "any")


def template_helpers() -> dict[str, Callable[..., Any]]:
    return {"reef_grid": reef_grid, "card_block": card_block, "card_svg": card_svg,
            "reef_svg": reef_svg, "seat_label": seat_label, "corals": corals,
            "pattern_lines": pattern_lines}
