"""Crafted Das Riff positions for rule tests, drawn as the status email draws them.

``build`` takes the fishing area as seat 0 sees it (far row first, its near row last), one
token per column: ``redM``/``bluF`` fish, ``coral``, ``pearl``, ``shark``, ``~~~~`` water,
``.`` a gap, and ``[redM]`` a face-down card (with its hidden face). Whatever is not placed
(pile, breeding pile, worm supply, boats) is the rest of the box, so every count adds up.
"""

from __future__ import annotations

from typing import Any

from pbem.games.riff.components import reef_deck, resolve
from pbem.games.riff.state import COLUMNS, Coral, Player, Slot, State

ABBR = {"red": "red", "yel": "yellow", "blu": "blue", "gre": "green", "pin": "pink",
        "pur": "purple"}


def card(token: str) -> str:
    if token == "~~~~":
        return "water"
    if token in ("coral", "pearl", "shark"):
        return token
    colour, sex = ABBR[token[:3]], token[3].lower()
    return f"fish:{colour}:{sex}"


def area(picture: str) -> list[list[Slot]]:
    lines = [line.split() for line in picture.strip().splitlines()]
    assert len(lines) == 4 and all(len(line) == COLUMNS for line in lines), picture
    rows: list[list[Slot]] = []
    for tokens in reversed(lines):  # area row 0 is seat 0's near row
        row: list[Slot] = []
        for t in tokens:
            if t == ".":
                row.append(None)
            elif t.startswith("["):
                row.append({"card": card(t[1:-1]), "up": False})
            else:
                row.append({"card": card(t), "up": True})
        rows.append(row)
    return rows


def _remove(pool: list[str], items: list[str]) -> None:
    for item in items:
        pool.remove(item)


def build(picture: str, *, to_move: int = 0, dice: tuple[str, str] = ("red", "blue"),
          players: list[dict[str, Any]] | None = None, breeding: list[str] | None = None,
          breeding_pile: list[str] | None = None, pile: list[str] | None = None,
          discard: list[str] | None = None, options: dict[str, Any] | None = None,
          turn: int = 0) -> State:
    """A position; each player dict may set boats, worms, fish, corals (list of
    (male, female, cross)), pearls, sharks, prefer."""
    opts = resolve(options or {})
    grid = area(picture)
    made = [Player(worms=dict.fromkeys(opts["colour_names"], 0)) for _ in range(2)]
    for p, spec in zip(made, players or [{}, {}], strict=True):
        p.boats = spec.get("boats", 1)
        p.worms.update(spec.get("worms", {}))
        p.fish = list(spec.get("fish", []))
        p.corals = [Coral(*c) for c in spec.get("corals", [])]
        p.pearls = spec.get("pearls", 0)
        p.sharks = spec.get("sharks", 0)
        p.prefer = spec.get("prefer")
    rest = reef_deck(opts)
    _remove(rest, [s["card"] for row in grid for s in row if s is not None])
    for p in made:
        _remove(rest, [f"fish:{f}" for f in p.fish] + ["coral"] * len(p.corals)
                + ["pearl"] * p.pearls + ["shark"] * p.sharks)
        _remove(rest, [f"fish:{c.male}:m" for c in p.corals if c.male]
                + [f"fish:{c.female}:f" for c in p.corals if c.female])
    _remove(rest, list(discard or []))
    if pile is not None:
        _remove(rest, list(pile))  # the named pile; the rest of the box goes to the discard
        discard = list(discard or []) + rest
        rest = list(pile)
    offer = list(breeding if breeding is not None else opts["breeding_cards"][:4])
    crosses = list(opts["breeding_cards"])
    _remove(crosses, [c for c in offer if c] + [c.cross for p in made for c in p.corals
                                                 if c.cross])
    if breeding_pile is not None:
        _remove(crosses, list(breeding_pile))
        assert not crosses, f"breeding cards unaccounted for: {crosses}"
        crosses = list(breeding_pile)
    supply = {c: 8 - sum(p.worms[c] for p in made) for c in opts["colour_names"]}
    state = State(options=opts, area=grid, pile=rest, discard=list(discard or []),
                  breeding_open=offer, breeding_pile=crosses,
                  boats_left=15 - sum(p.boats for p in made), worm_supply=supply,
                  players=made, to_move=to_move, turn=turn, dice=list(dice), taken=[])
    return state


EMPTY_ROW = ". . . . . . . ."

# A full area (seat 0's far row first) to change a few places of in rule tests.
FULL = """
pinM  purF  ~~~~  coral gref  bluM  yelF  redM
[gref] [pinF] [coral] [~~~~] [redF] [purM] [bluF] [yelM]
[bluM] [redM] [purF] [shark] [greM] [pinM] [coral] [yelF]
redF  greM  coral pearl yelM  bluF  purM  pinF
"""
