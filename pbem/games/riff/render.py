"""Drawing a view for the status email: the fishing area as a text grid, holdings as words.

Everything here reads only ``view`` output (view.py), never a state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

WIDTH = 6  # characters per column of the grid


def abbreviation(colour: str) -> str:
    return colour[:3]


def cell_text(cell: Mapping[str, Any] | None) -> str:
    """One place of the area: "redM" a red male fish, "[##]" face down, "." a gap."""
    if cell is None:
        return "."
    if not cell.get("up"):
        return "[##]"
    if cell["kind"] == "fish":
        return f"{abbreviation(cell['colour'])}{'M' if cell['sex'] == 'm' else 'F'}"
    return {"water": "~~~~"}.get(cell["kind"], cell["kind"])


def area_grid(view: Mapping[str, Any]) -> str:
    """The fishing area from the viewer's side: far row on top, near row at the bottom,
    the opponent's boats above it and the viewer's below, columns 1-8 from the sea end."""
    me = view.get("you")
    me = 0 if me is None else me
    players = view["players"]
    label = 16
    head = " " * label + "".join(f"{c:<{WIDTH}}" for c in range(1, 9))
    lines = [" " * label + "(sea end)" + " " * (8 * WIDTH - 20) + "(reef end)", head.rstrip()]
    lines.append(_boats(players[1 - me]["boats"], f"P{2 - me} boats", label))
    for row in view["rows"]:
        name = f"{row['name']} ({row['cost']})"
        lines.append((f"{name:<{label}}" + "".join(
            f"{cell_text(c):<{WIDTH}}" for c in row["cells"])).rstrip())
    lines.append(_boats(players[me]["boats"], f"P{me + 1} boats", label))
    return "\n".join(lines)


def _boats(count: int, name: str, label: int) -> str:
    return (f"{name:<{label}}" + "".join(f"{'B' if c < count else '':<{WIDTH}}"
                                         for c in range(8))).rstrip()


def counts(worms: Mapping[str, int]) -> str:
    shown = [f"{n} {c}" for c, n in worms.items() if n]
    return ", ".join(shown) or "none"


def fish_list(fish: Sequence[str]) -> str:
    """ "red:m" ids as words, grouped: "2 red male, 1 blue female"."""
    out: dict[str, int] = {}
    for f in fish:
        colour, sex = f.split(":")
        key = f"{colour} {'male' if sex == 'm' else 'female'}"
        out[key] = out.get(key, 0) + 1
    return ", ".join(f"{n} {k}" for k, n in out.items()) or "none"


def coral_text(coral: Mapping[str, Any]) -> str:
    if coral.get("cross"):
        return f"coral {coral['number']}: completed cross {coral['cross']} (used up)"
    parents = [f"{coral['male']} male" if coral.get("male") else "",
               f"{coral['female']} female" if coral.get("female") else ""]
    held = " and ".join(p for p in parents if p)
    return f"coral {coral['number']}: {held or 'no fish yet'}"


def template_helpers() -> dict[str, Any]:
    return {"area_grid": area_grid, "cell_text": cell_text, "counts": counts,
            "fish_list": fish_list, "coral_text": coral_text}
