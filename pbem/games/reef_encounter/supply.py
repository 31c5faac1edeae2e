"""The bag, the five bonus polyps and the counted supplies (larva cubes, alga cylinders).

Every random draw from the bag goes through Chance with a label naming what it is for; taking
a chosen colour (action 8, refilling a bonus polyp) is not random and draws nothing.
"""

from __future__ import annotations

from pbem.engine.chance import Chance
from pbem.games.reef_encounter.state import State


def add(counts: dict[str, int], colour: str, n: int = 1) -> None:
    counts[colour] = counts.get(colour, 0) + n


def remove(counts: dict[str, int], colour: str, n: int = 1) -> None:
    """Take ``n`` of ``colour`` (the caller checked there are enough); zero counts vanish."""
    left = counts[colour] - n
    if left:
        counts[colour] = left
    else:
        del counts[colour]


def bag_pool(bag: dict[str, int]) -> list[str]:
    """The bag's polyps one by one, grouped by colour, colours sorted: what a draw chooses from."""
    pool: list[str] = []
    for c in sorted(bag):
        pool += [c] * bag[c]
    return pool


def bag_size(state: State) -> int:
    return sum(state.bag.values())


def _bonus_into_empty_bag(state: State) -> None:
    """Rulebook: if the bag is ever empty, the five bonus polyps go into it."""
    if bag_size(state) == 0 and state.bonus:
        for colour, n in state.bonus.items():
            add(state.bag, colour, n)
        state.bonus.clear()


def to_bag(state: State, colour: str, n: int = 1) -> None:
    add(state.bag, colour, n)


def take_from_bag(state: State, colour: str) -> None:
    """Take one polyp of a chosen colour out of the bag (the caller checked it is there)."""
    remove(state.bag, colour)
    _bonus_into_empty_bag(state)


def bonus_ready(state: State, colour: str) -> bool:
    """Is a bonus polyp of ``colour`` there, topping the bonus polyps up from the bag if needed?"""
    if state.bonus.get(colour, 0) > 0:
        return True
    if state.bag.get(colour, 0) > 0:
        take_from_bag(state, colour)
        add(state.bonus, colour)
        return True
    return False


def use_bonus(state: State, colour: str) -> None:
    """Use the bonus polyp of ``colour`` and replace it from the bag if the bag has one."""
    remove(state.bonus, colour)
    if state.bag.get(colour, 0) > 0:
        take_from_bag(state, colour)
        add(state.bonus, colour)


def draw_each(state: State, chance: Chance, labels: list[str]) -> list[str]:
    """One polyp drawn at random from the bag per label, in order (the caller counted that
    enough polyps are left); once the bag is empty, the bonus polyps go into it.

    Each draw chooses from the bag's polyps grouped by colour, colours sorted
    (:func:`bag_pool`), less the polyps drawn before it: ``Chance.deal_counted``.
    """
    bag = state.bag
    out: list[str] = []
    while True:
        left = sum(bag.values())
        if not left:  # only an emptied bag lets the bonus polyps in
            _bonus_into_empty_bag(state)
            left = sum(bag.values())
        if len(out) == len(labels):
            return out
        now = labels[len(out):len(out) + left] if left else labels[len(out):]
        for colour in chance.deal_counted(now, sorted(bag.items())):
            remove(bag, colour)
            out.append(colour)
