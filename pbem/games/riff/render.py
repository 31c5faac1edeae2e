"""Drawing a view for the status email: the fishing area as a text grid, holdings as words.

Everything here reads only ``view`` output (view.py), never a state. Templates get each helper
with the template's own ``pgettext`` (jinja2.ext.i18n), so its words come out in the seat's
language; called from Python without one they are English.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import jinja2
import jinja2.runtime

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


def _boats(count: int, name: str, label: int, boat: str) -> str:
    return (f"{name:<{label}}" + "".join(f"{boat if c < count else '':<{WIDTH}}"
                                         for c in range(8))).rstrip()


def counts(worms: Mapping[str, int], pgettext: PGettext = _english) -> str:
    shown = [f"{n} {pgettext('colour', c)}" for c, n in worms.items() if n]
    return ", ".join(shown) or str(pgettext("holding", "none"))


def fish_name(colour: str, sex: str, pgettext: PGettext = _english) -> str:
    """ "red male" in the template's language."""
    if sex == "m":
        return str(pgettext("fish", "%(colour)s male", colour=pgettext("colour", colour)))
    return str(pgettext("fish", "%(colour)s female", colour=pgettext("colour", colour)))


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
    colour = pgettext("colour", colour_name)
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


def _in_language(helper: Callable[..., str]) -> Callable[..., str]:
    """``helper`` with the rendering template's ``pgettext`` (the seat's language, however the
    host installed it for this render); English when the template has none."""

    @jinja2.pass_context
    def wrapped(context: jinja2.runtime.Context, *args: Any) -> str:
        found = context.resolve_or_missing("pgettext")
        if found is jinja2.runtime.missing:
            return helper(*args)

        def pgettext(ctx: str, message: str, **fields: Any) -> str:
            return str(context.call(found, ctx, message, **fields))

        return helper(*args, pgettext=pgettext)

    return wrapped


def template_helpers() -> dict[str, Any]:
    helpers: dict[str, Callable[..., str]] = {
        "area_grid": area_grid, "cell_text": cell_text, "counts": counts,
        "fish_list": fish_list, "coral_text": coral_text, "cross_text": cross_text,
        "fish_name": fish_name, "card_text": card_text, "discard_text": discard_text}
    return {name: _in_language(helper) for name, helper in helpers.items()}
