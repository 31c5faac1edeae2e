"""Building Reef Encounter positions for tests from readable board pictures.

A picture is six rows of seven cells separated by spaces, as the status email draws them:
``~`` sand, ``.`` bare rock, ``G O P W Y`` a polyp; a digit after a cell is a shrimp of that
player (1-based, like the status email). Sand must match the printed board. Everything not
pictured (bag, supplies) is filled in so that every component is accounted for.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from pbem.engine.chance import Chance
from pbem.engine.contract import Applied
from pbem.engine.errors import IllegalOrder
from pbem.games.reef_encounter import GAME
from pbem.games.reef_encounter.components import COLUMNS, LETTER_TO_CORAL, components
from pbem.games.reef_encounter.state import Player, State

EMPTY = "\n".join([". . . . . . ."] * 6)


def board_picture(board_id: int, picture: str) -> tuple[dict[str, str], dict[str, int]]:
    """Polyps and shrimps of one pictured board, keyed like the state ("2:D4")."""
    rows = [r.split() for r in picture.strip().splitlines()]
    assert len(rows) == 6 and all(len(r) == 7 for r in rows), "6 rows of 7 cells"
    board = components().board(board_id)
    polyps: dict[str, str] = {}
    shrimps: dict[str, int] = {}
    for r, row in enumerate(rows, start=1):
        for c, token in enumerate(row):
            cell = f"{COLUMNS[c]}{r}"
            what, who = token[0], token[1:]
            if board.is_sand(cell):
                assert what == "~", f"board {board_id} has sand on {cell}"
                continue
            assert what != "~", f"board {board_id} has rock on {cell}"
            if what in LETTER_TO_CORAL:
                polyps[f"{board_id}:{cell}"] = LETTER_TO_CORAL[what]
            if who:
                shrimps[f"{board_id}:{cell}"] = int(who) - 1
    return polyps, shrimps


def sand_template(board_id: int) -> str:
    """An empty picture of a board (sand and bare rock only), to copy into a test."""
    board = components().board(board_id)
    return "\n".join(
        " ".join("~" if ch == "~" else "." for ch in row) for row in board.rows
    )


def build(
    boards: dict[int, str],
    *,
    players: int = 2,
    to_move: int = 0,
    face: str = "a",
    seats: dict[int, dict[str, Any]] | None = None,
    open_sea: dict[str, list[str]] | None = None,
    **fields: Any,
) -> State:
    """A position in play: pictured boards, seats' belongings, the rest balanced into supplies.

    ``seats`` maps a seat index to Player fields (screen, larva, consumed, parrotfish, ...).
    Missing boards (up to ``players``) are taken empty from the remaining board ids.
    """
    ids = list(boards)
    for b in components().boards:
        if len(ids) < players and b.id not in ids:
            ids.append(b.id)
    state = State(boards=ids, coral_face=face, phase="play", to_move=to_move)
    for board_id in ids:
        polyps, shrimps = board_picture(board_id, boards.get(board_id, sand_template(board_id)))
        state.polyps.update(polyps)
        state.shrimps.update(shrimps)
    colours = components().player_colours
    state.players = [Player(colours[i], answered_setup=True) for i in range(players)]
    for i, data in (seats or {}).items():
        for name, value in data.items():
            setattr(state.players[i], name, value)
    sea = open_sea or {}
    state.open_sea = [
        {"colour": c, "polyps": list(sea.get(c, [])), "larva": 1}
        for c in components().open_sea_clockwise
    ]
    state.bonus = {c: 1 for c in components().coral_colours}
    for name, value in fields.items():
        setattr(state, name, value)
    balance(state)
    return state


def balance(state: State) -> None:
    """Put every polyp, larva cube, cylinder and shrimp not elsewhere into the bag/supplies."""
    per = 40
    used: dict[str, int] = {}

    def count(colours: Any) -> None:
        items = colours.items() if isinstance(colours, dict) else ((c, 1) for c in colours)
        for c, n in items:
            used[c] = used.get(c, 0) + n

    count(list(state.polyps.values()))
    count(state.bonus)
    for space in state.open_sea:
        count(space["polyps"])
    for s in state.players:
        count(s.screen)
        count(s.consumed)
        count(s.parrotfish)
        on_reef = sum(1 for owner in state.shrimps.values() if owner == state.players.index(s))
        s.shrimps_in_hand = 4 - on_reef - (1 if s.sea_shrimp else 0) - s.fish_shrimps
    state.bag = {c: per - used.get(c, 0) for c in components().coral_colours
                 if per - used.get(c, 0)}
    assert all(n >= 0 for n in state.bag.values()), used
    cubes: dict[str, int] = {}
    for space in state.open_sea:
        cubes[space["colour"]] = cubes.get(space["colour"], 0) + space["larva"]
    for s in state.players:
        for c, n in s.larva.items():
            cubes[c] = cubes.get(c, 0) + n
    state.larva_supply = {c: 10 - cubes.get(c, 0) for c in components().coral_colours}
    algae: dict[str, int] = {}
    for c in [*state.cylinders.values(), *([state.alga_space] if state.alga_space else [])]:
        algae[c] = algae.get(c, 0) + 1
    state.alga_supply = {c: 5 - algae.get(c, 0) for c in components().alga_colours}


def play(state: State, seat: int, text: str, seed: str = "test") -> Applied[State]:
    """Parse and apply an order; the input state must come out unchanged."""
    before = state.to_json()
    applied: Applied[State] = GAME.apply(state, seat, GAME.parse(state, seat, text),
                                         Chance(seed))
    assert state.to_json() == before
    return applied


def refused(state: State, seat: int, text: str) -> IllegalOrder:
    """The IllegalOrder an order raises; the state must come out unchanged."""
    before = state.to_json()
    try:
        GAME.apply(state, seat, GAME.parse(state, seat, text), Chance("test"))
    except IllegalOrder as err:
        assert state.to_json() == before
        return err
    raise AssertionError(f"order was accepted: {text!r}")


def texts(applied: Applied[State], seat: int | None = None) -> list[str]:
    """Event texts visible to ``seat`` (None: public ones only)."""
    return [e.text for e in applied.events if e.visible(seat)]


def bot_game(rng: random.Random, seed: str, players: int, advanced: bool
             ) -> Iterator[tuple[int, State]]:
    """A whole game of the random bot: (orders played so far, the state) before each order;
    ``rng`` picks the seat and writes the orders, ``seed`` names the game's draws."""
    state = GAME.setup(players, {"advanced": advanced}, Chance(f"{seed}/setup"))
    n = 0
    while waiting := GAME.waiting_for(state):
        yield n, state
        seat = rng.choice(sorted(waiting))
        order = GAME.parse(state, seat, GAME.random_order(state, seat, rng))
        state = GAME.apply(state, seat, order, Chance(f"{seed}/{n}")).state
        n += 1
