"""The computer player's strategy: whole turns sampled from the legal steps, the best kept.

For a turn the bot builds candidate turns from the legal steps the rules produce (legal.py):
some by the random bot, most by a greedy builder that grows and guards its corals (larva cubes
of the colours behind its screen, polyps next to its own guarded corals first, attacks that
consume, a new shrimp on its largest unguarded coral, the richest open-sea space), each with
some randomness. Every candidate is played to its end on the redealt state (refills drawn at
random, since the bag's order is unknown) and the resulting position is valued for the bot's
seat: points in its parrotfish, plus what its guarded corals promise (a coral of five or more
is a meal), polyps, larva cubes and consumed polyps in hand, less the best other seat's
value. ``normal`` weighs 8 candidates, ``strong`` 32, within the CPU budget.
"""

from __future__ import annotations

import random
import time
from typing import Any, TypeVar, cast

from pbem.engine.chance import Chance
from pbem.games.reef_encounter.board import group, neighbours
from pbem.games.reef_encounter.bot import end_turn, random_turn, setup_text
from pbem.games.reef_encounter.legal import TurnInPlay, cell_of
from pbem.games.reef_encounter.orders import Eat, Larva, NewShrimp, Pass, Place, Step, Take
from pbem.games.reef_encounter.parrotfish import MIN_CORAL
from pbem.games.reef_encounter.scoring import coral_values, final_outcome
from pbem.games.reef_encounter.setup_answer import legal_setup_answers
from pbem.games.reef_encounter.state import State

K = TypeVar("K")
Known = dict[tuple[tuple[Step, ...], type], list[Any]]

CANDIDATES = {"normal": 8, "strong": 32}
MARGIN = 0.8  # of the budget: a candidate never starts after this share is spent
WIN = 1000.0  # the value of a game won (an ended game is valued by its outcome)


def bot_order(state: State, seat: int, rng: random.Random, level: str, budget: float) -> str:
    """The best of the level's candidate turns for ``seat`` (see the module's doc)."""
    if state.phase == "setup":
        return setup_text(max(legal_setup_answers(state, seat),
                              key=lambda a: _setup_value(state, seat, a.parrotfish, a.larvae)))
    start = time.process_time()
    known: Known = {}
    slowest = 0.0  # the longest a candidate took so far: the next one may take as long
    best: tuple[float, str] | None = None
    for k in range(CANDIDATES.get(level, CANDIDATES["normal"])):
        began = time.process_time()
        if best is not None and began - start + slowest > budget * MARGIN:
            break
        play = (random_turn(state, seat, rng) if k % 4 == 3
                else greedy_turn(state, seat, rng, k, known))
        text = play.text()
        value = evaluate(play.finish(Chance(f"bot {k}")), seat) + rng.random() * 1e-6
        if best is None or value > best[0]:
            best = (value, text)
        slowest = max(slowest, time.process_time() - began)
    assert best is not None
    return best[1]


def _setup_value(state: State, seat: int, fish: str, larvae: tuple[str, str]) -> float:
    """The parrotfish's polyp scores at the end (the colour worth most now); larva cubes are
    worth most in the colours most polyps behind the screen have."""
    screen = state.players[seat].screen
    values = coral_values(state)
    left = dict(screen)
    left[fish] -= 1
    return (values[fish] + 0.3 * (left.get(larvae[0], 0) + left.get(larvae[1], 0))
            + 0.2 * (larvae[0] != larvae[1]))


def _legal(play: TurnInPlay, kind: type[K], known: Known) -> list[K]:
    """The legal steps of ``kind`` next, worked out once per turn so far (candidates often
    begin alike)."""
    key = (tuple(play.steps), kind)
    if key not in known:
        known[key] = play.legal(kind)
    return cast(list[K], known[key])


def greedy_turn(state: State, seat: int, rng: random.Random, k: int, known: Known
                ) -> TurnInPlay:
    """A turn that eats its best meal (most candidates), grows its corals and guards them."""
    play = TurnInPlay(state, seat)
    values = coral_values(state)
    eats = _legal(play, Eat, known)
    if eats and (k % 3 != 2 or play.turn.final):
        play.play(max(eats, key=lambda e: (len(group(play.state, e.cell.key))
                                           * values[play.state.polyps[e.cell.key]])))
    if play.turn.final:
        if not play.steps:
            play.play(Pass())
        return play
    for _ in range(2):
        if play.over or not _grow(play, rng, values, known):
            break
    if not play.over:
        _guard(play, rng)
    if not play.over:
        takes = play.legal(Take)
        if takes:
            play.play(max(takes, key=lambda t: _sea_value(play.state, t.colour, values)
                          + rng.random()))
    end_turn(play, rng)
    return play


def _grow(play: TurnInPlay, rng: random.Random, values: dict[str, int], known: Known) -> bool:
    """A larva cube of a colour behind the screen, then its polyps, best cells first (polyps
    from behind the screen before consumed ones, which buy cubes and algae)."""
    screen = play.state.players[play.seat].screen
    cubes = _legal(play, Larva, known)
    if not cubes:
        return False
    play.play(max(cubes, key=lambda c: screen.get(c.colour, 0) * values[c.colour]
                  + 2 * rng.random()))
    while not play.over:
        guarded = _guarded(play.state, play.seat)
        ranked = sorted((consumed, -_place_value(play, k, consumed, guarded) - rng.random(), k)
                         for k in play.cells() for consumed in (False, True))
        best = next(((-v, k, c) for c, v, k in ranked if play.accepts(Place(cell_of(k), c))),
                    None)
        if best is None or (best[0] < 0 and play.turn.placed):
            break
        play.play(Place(cell_of(best[1]), best[2]))
    return True


def _guarded(state: State, seat: int) -> set[str]:
    """The cells of the corals the seat's shrimps guard."""
    out: set[str] = set()
    for cell, owner in state.shrimps.items():
        if owner == seat and cell not in out:
            out |= group(state, cell)
    return out


def _place_value(play: TurnInPlay, k: str, consumed: bool, guarded: set[str]) -> float:
    """How much a placement grows the seat's guarded corals, or eats a polyp."""
    polyps = play.state.polyps
    colour = play.turn.larva_colour
    here = polyps.get(k)
    if here == colour:
        return -9.0  # nothing to gain
    value = 0.0 if here is None else 2.0  # an attack: a consumed polyp
    for n in neighbours()[k]:
        if polyps.get(n) == colour:
            value += 4.0 if n in guarded else 1.0
    return value - 1.5 if consumed else value  # consumed polyps buy cubes and algae


def _guard(play: TurnInPlay, rng: random.Random) -> None:
    """A new shrimp on the seat's most promising unguarded coral."""
    state = play.state
    values = coral_values(state)
    corals: list[tuple[float, list[str]]] = []
    seen: set[str] = set()
    for k in sorted(state.polyps):
        if k not in seen:
            coral = sorted(group(state, k))
            seen.update(coral)
            if len(coral) >= 2:
                corals.append((len(coral) * values[state.polyps[k]] + rng.random(), coral))
    corals.sort(reverse=True)
    step = play.first_legal(NewShrimp(cell_of(k)) for _, coral in corals for k in coral)
    if step is not None:
        play.play(step)


def _sea_value(state: State, colour: str, values: dict[str, int]) -> float:
    space = next(s for s in state.open_sea if s["colour"] == colour)
    return 1.0 + sum(0.5 + 0.1 * values[c] for c in space["polyps"])


def evaluate(state: State, seat: int) -> float:
    """The position's worth to ``seat``: its value less the best other seat's."""
    if state.phase == "over":
        outcome = final_outcome(state)
        top = outcome.ranking[0]
        mine = outcome.scores[seat]
        best_other = max(v for s, v in outcome.scores.items() if s != seat)
        return (WIN if seat in top and len(top) == 1 else WIN / 2 if seat in top else 0.0) + (
            mine - best_other)
    values = coral_values(state)
    worth = [_seat_value(state, i, values) for i in range(len(state.players))]
    return worth[seat] - max(w for i, w in enumerate(worth) if i != seat)


def _seat_value(state: State, seat: int, values: dict[str, int]) -> float:
    me = state.players[seat]
    value = float(sum(values[c] for c in me.parrotfish))
    for cell, owner in state.shrimps.items():
        if owner == seat and cell in state.polyps:
            size = len(group(state, cell))
            v = values[state.polyps[cell]]
            value += 0.6 * v * max(size - (MIN_CORAL - 1), 0) + 0.15 * v * min(size, 4)
    value += 0.25 * sum(me.screen.values()) + 0.5 * sum(me.larva.values())
    value += 0.3 * sum(me.consumed.values()) + 0.2 * me.shrimps_in_hand
    return value
