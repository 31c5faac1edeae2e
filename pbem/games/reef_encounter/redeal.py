"""A state one seat cannot tell from the real one: what it cannot see drawn afresh.

Hidden from a seat while the game runs (RULINGS.md, view.py): the polyps in the bag, the
colours behind the other screens (their number is public), the polyp each other player put
into the parrotfish at setup (``parrotfish[0]``; what a parrotfish eats later is announced),
and in the setup step the larva cubes the others picked. Those polyps are one pool (the box
holds a known number of each colour, less everything in view) dealt again at random into the
same places in the same numbers; the picked cubes are drawn again from the supply as the seat
sees it. The pool is sorted before it is shuffled, so two states that differ only in what the
seat cannot see give the same redeal for the same random draws.
"""

from __future__ import annotations

import random

from pbem.games.reef_encounter.state import State


def _counts(colours: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for c in sorted(colours):
        out[c] = out.get(c, 0) + 1
    return out


def _pool(counts: dict[str, int]) -> list[str]:
    return [c for c, n in sorted(counts.items()) for _ in range(n)]


def redeal(state: State, seat: int, rng: random.Random) -> State:
    """``state`` with every part hidden from ``seat`` drawn afresh (see the module's doc)."""
    new = state.copy()
    if state.phase == "over":  # every screen and parrotfish is turned over for all
        return new
    others = [s for i, s in enumerate(new.players) if i != seat]
    pool = _pool(new.bag)
    for s in others:
        pool += _pool(s.screen) + s.parrotfish[:1]
    pool.sort()
    rng.shuffle(pool)
    for s in others:
        behind = sum(s.screen.values())
        s.screen, pool = _counts(pool[:behind]), pool[behind:]
        if s.parrotfish:
            s.parrotfish[0], pool = pool[0], pool[1:]
    new.bag = _counts(pool)
    if state.phase == "setup":
        _redeal_picks(new, seat, rng)
    return new


def _redeal_picks(state: State, seat: int, rng: random.Random) -> None:
    """The larva cubes the others picked in the secret setup step, drawn again from the
    supply as ``seat`` sees it (the real supply plus those picks)."""
    picked = [s for i, s in enumerate(state.players) if i != seat and s.answered_setup]
    seen = dict(state.larva_supply)
    for s in picked:
        for c, n in s.larva.items():
            seen[c] = seen.get(c, 0) + n
    cubes = _pool(seen)
    rng.shuffle(cubes)
    for s in picked:
        n = sum(s.larva.values())
        s.larva, cubes = _counts(cubes[:n]), cubes[n:]
    left = _counts(cubes)
    state.larva_supply = {c: left.get(c, 0) for c in sorted(seen)}  # empty colours stay listed
