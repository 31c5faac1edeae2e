"""Legal moves for bots: a random whole turn, and the safe default turn.

The random turn is written by botturn.py from a few facts of the state (botfacts.py), with no
scratch copy of the state and no run of the rules. The bot leans towards growing corals,
guarding them and eating them, so random games reach an end in a sensible number of turns."""

from __future__ import annotations

import random

from pbem.games.reef_encounter.botturn import write_turn
from pbem.games.reef_encounter.state import State


def _setup_answer(state: State, seat: int, rng: random.Random) -> str:
    """A random polyp from behind the screen into the parrotfish, and two larva cubes."""
    screen = state.seats[seat].screen
    fish = rng.choice(sorted(c for c, n in screen.items() if n > 0))
    cubes = [c for c, n in sorted(state.larva_supply.items()) for _ in range(min(n, 2))]
    first, second = rng.sample(cubes, 2)
    return f"parrotfish {fish}; larvae {first} {second}\n"


def random_order(state: State, seat: int, rng: random.Random) -> str:
    """A random legal order as text a player could have typed (as format_order writes it)."""
    if state.phase == "setup":
        return _setup_answer(state, seat, rng)
    return "\n".join(write_turn(state, seat, rng).lines) + "\n"


def default_order(state: State, seat: int) -> str:
    """The safe turn for a seat out of time: no action, then take the richest open-sea space.

    In the setup step: the commonest polyp behind the screen into the parrotfish and the two
    commonest larva cubes in the supply. In a final turn: pass.
    """
    if state.phase == "setup":
        screen = state.seats[seat].screen
        fish = max(sorted(screen), key=lambda c: screen[c])
        cubes = sorted(state.larva_supply, key=lambda c: -state.larva_supply[c])
        second = cubes[1] if len(cubes) > 1 else cubes[0]
        return f"parrotfish {fish}; larvae {cubes[0]} {second}\n"
    if state.phase == "final":
        return "pass\n"
    sea = [s for s in state.open_sea if s["larva"]]
    best = max(sea, key=lambda s: len(s["polyps"]))
    return f"take {best['colour']}\n"
