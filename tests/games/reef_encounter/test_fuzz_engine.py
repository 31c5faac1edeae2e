"""Random and mutated orders never corrupt a game.

Positions come from seeded random games (setup, play and final turns, 2-4 players). Orders are
lines of the order language with cells, colours and tiles drawn from the position, or legal
orders from the engine's bot with lines dropped, repeated, swapped or words changed, sent by the
seat to move or another one. Whatever happens, apply either refuses with OrderSyntaxError or
IllegalOrder and leaves the state exactly as it was, or returns a state that keeps every
invariant, round-trips through JSON, and leaves its input unchanged.
"""

from __future__ import annotations

import json
import os
import random
from functools import cache

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from pbem.engine.chance import Chance
from pbem.engine.errors import IllegalOrder, OrderSyntaxError
from pbem.games.reef_encounter import GAME
from pbem.games.reef_encounter.board import rock_cells
from pbem.games.reef_encounter.components import components
from pbem.games.reef_encounter.state import State
from tests.games.reef_encounter.invariants import violations

LINES = [
    "eat {cell}", "larva {coral}: {cells}", "larva {coral}: {cell} consumed {cells}",
    "place {cells}", "consumed {cells}", "{cells}", "shrimp new {cell}",
    "move shrimp {cell} to {cell}", "move shrimp {cell} home", "consumed {coral} for larva",
    "alga {alga} on tile {tile} paying {coral}", "alga {alga} on space paying {coral}",
    "larva {coral} for polyp", "pass", "take {coral}", "parrotfish {coral}; larvae {coral} {coral}",
    "check", "# a comment", "",
]
EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "400"))
ODD_CELLS = ["9A1", "1H1", "2A0", "3G7", "0D4", "2d 4", "4-A-6"]


@cache
def positions() -> tuple[State, ...]:
    """States met in seeded random games: every 3rd, plus each game's setup and final turns."""
    found: list[State] = []
    for players, advanced, seed in ((2, False, "f2"), (3, True, "f3"), (4, False, "f4"),
                                    (4, True, "f4a")):
        state = GAME.setup(players, {"advanced": advanced}, Chance(seed))
        rng = random.Random(seed)
        n = 0
        while waiting := GAME.waiting_for(state):
            if n % 3 == 0 or state.phase != "play":
                found.append(state)
            seat = rng.choice(sorted(waiting))
            text = GAME.random_order(state, seat, rng)
            state = GAME.apply(state, seat, GAME.parse(state, seat, text),
                               Chance(f"{seed}/{n}")).state
            n += 1
        found.append(state)
    return tuple(found)


def _cell(draw: st.DrawFn, state: State) -> str:
    near = [k for b in state.boards for k in rock_cells()[b]]
    interesting = sorted(state.polyps) + sorted(state.shrimps)
    pool = draw(st.sampled_from(["near", "near", "interesting", "interesting", "odd"]))
    if pool == "interesting" and interesting:
        key = draw(st.sampled_from(interesting))
    elif pool == "odd":
        return draw(st.sampled_from(ODD_CELLS))
    else:
        key = draw(st.sampled_from(near))
    return key.replace(":", "")


def _line(draw: st.DrawFn, state: State) -> str:
    template = draw(st.sampled_from(LINES))
    comp = components()
    out = template
    while "{" in out:
        start = out.index("{")
        field = out[start + 1:out.index("}")]
        if field == "cell":
            value = _cell(draw, state)
        elif field == "cells":
            value = " ".join(_cell(draw, state) for _ in range(draw(st.integers(1, 6))))
        elif field == "coral":
            value = draw(st.sampled_from([*comp.coral_colours, "g", "w", "blue", "black"]))
        elif field == "alga":
            value = draw(st.sampled_from([*comp.alga_colours, "b", "pink"]))
        else:
            value = str(draw(st.integers(0, 11)))
        out = out[:start] + value + out[out.index("}") + 1:]
    return out


def _mutate(draw: st.DrawFn, state: State, text: str) -> str:
    lines = text.splitlines()
    for _ in range(draw(st.integers(0, 3))):  # 0: the legal order as it is
        how = draw(st.sampled_from(["drop", "repeat", "swap", "insert", "word", "cut"]))
        if not lines:
            lines = [_line(draw, state)]
        i = draw(st.integers(0, len(lines) - 1))
        if how == "drop":
            del lines[i]
        elif how == "repeat":
            lines.insert(i, lines[i])
        elif how == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif how == "insert":
            lines.insert(i, _line(draw, state))
        elif how == "word":
            words = lines[i].split() or [""]
            w = draw(st.integers(0, len(words) - 1))
            words[w] = draw(st.sampled_from([_cell(draw, state), "pink", "red", "home", "to",
                                             "consumed", "3", ":", "larva", "x"]))
            lines[i] = " ".join(words)
        else:
            lines[i] = lines[i][:draw(st.integers(0, len(lines[i])))]
    return "\n".join(lines)


@st.composite
def attempts(draw: st.DrawFn) -> tuple[State, int, str]:
    """A position, a seat (usually one the game waits for) and an order text."""
    state = draw(st.sampled_from(positions()))
    waiting = sorted(GAME.waiting_for(state))
    if waiting and draw(st.integers(0, 9)) > 0:
        seat = draw(st.sampled_from(waiting))
    else:
        seat = draw(st.integers(0, len(state.players) - 1))
    if draw(st.booleans()) and state.phase != "over" and seat in waiting:
        legal = GAME.random_order(state, seat, random.Random(draw(st.integers(0, 2**32))))
        text = _mutate(draw, state, legal)
    else:
        text = "\n".join(_line(draw, state) for _ in range(draw(st.integers(1, 6))))
    return state, seat, text


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(attempts(), st.integers(0, 1000))
def test_orders_never_corrupt_the_state(attempt: tuple[State, int, str], seed: int) -> None:
    state, seat, text = attempt
    before = state.to_json()
    try:
        applied = GAME.apply(state, seat, GAME.parse(state, seat, text), Chance(f"fuzz{seed}"))
    except (OrderSyntaxError, IllegalOrder) as err:
        event(type(err).__name__)
        assert state.to_json() == before
        assert str(err)  # a player always gets a reason
        return
    event("accepted")
    assert state.to_json() == before
    new = applied.state
    assert violations(new) == [], text
    assert GAME.from_json(json.loads(json.dumps(GAME.to_json(new)))) == new


def test_positions_cover_every_phase() -> None:
    assert {s.phase for s in positions()} == {"setup", "play", "final", "over"}
    assert {len(s.players) for s in positions()} == {2, 3, 4}
