"""Computer players: a random whole turn and the safe default turn (the strategy: strategy.py).

Every bot chooses among the legal steps the rules produce (legal.py: a turn built step by step,
each step checked by the rules themselves), so no rule is written twice. The random bot leans
towards growing corals, guarding them and eating them, so random games reach an end in a
sensible number of turns.

The strategy (levels normal and strong) is handed a redeal (redeal.py: what its seat cannot
see drawn afresh). It builds candidate whole turns from the legal steps (mostly greedy: eat the
best meal, grow the guarded corals, guard the largest unguarded one, take the richest open-sea
space; some random), plays each to the turn's end and keeps the one whose position is worth
most to it against the best other seat (parrotfish points, what its guarded corals promise,
polyps, cubes). normal weighs 8 candidates, strong 32, within the CPU budget.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from pbem.games.reef_encounter.board import group, neighbours
from pbem.games.reef_encounter.legal import TurnInPlay, cell_of
from pbem.games.reef_encounter.orders import (
    Alga,
    ConsumedForLarva,
    Eat,
    Larva,
    LarvaForPolyp,
    MoveShrimp,
    NewShrimp,
    Pass,
    Place,
    SetupAnswer,
    Step,
    Take,
)
from pbem.games.reef_encounter.setup_answer import legal_setup_answers
from pbem.games.reef_encounter.state import State

MAX_POLYPS = 6  # at most this many polyps per larva cube, in a random turn


def setup_text(answer: SetupAnswer) -> str:
    """A setup answer as a player would type it."""
    return f"parrotfish {answer.parrotfish}; larvae {answer.larvae[0]} {answer.larvae[1]}\n"


def random_order(state: State, seat: int, rng: random.Random) -> str:
    """A random legal order as text a player could have typed (as format_order writes it)."""
    if state.phase == "setup":
        return setup_text(rng.choice(legal_setup_answers(state, seat)))
    return random_turn(state, seat, rng).text()


def random_turn(state: State, seat: int, rng: random.Random) -> TurnInPlay:
    """A random legal turn for ``seat`` (not for the setup step), played on a scratch copy."""
    play = TurnInPlay(state, seat)
    if rng.random() < 0.9:
        cells = sorted(play.state.polyps)  # sorted: a state read from JSON has sorted keys
        rng.shuffle(cells)
        eat = play.first_legal(Eat(cell_of(k)) for k in cells)
        if eat is not None:
            play.play(eat)
    if play.turn.final:
        if not play.steps:
            play.play(Pass())
        return play
    tried = [action for action, weight in _EXTRAS if rng.random() < weight]
    rng.shuffle(tried)
    for action in tried:
        if play.over:
            break
        action(play, rng)
    end_turn(play, rng)
    return play


def end_turn(play: TurnInPlay, rng: random.Random) -> None:
    """Action 10 (any space, or one time in two one of the richest), after bringing home any
    shrimp the rules would not let the turn end on."""
    while not play.over:
        takes = play.legal(Take)
        if not takes:
            homes = [s for s in play.legal(MoveShrimp) if s.target is None]
            play.play(homes[0])
            continue
        if rng.random() < 0.5:
            size = {s["colour"]: len(s["polyps"]) for s in play.state.open_sea}
            most = max(size[t.colour] for t in takes)
            takes = [t for t in takes if size[t.colour] == most]
        play.play(rng.choice(takes))


def _larva(play: TurnInPlay, rng: random.Random) -> None:
    """A larva cube, then some of its colour's polyps, mostly next to that colour's corals."""
    cube = play.first_legal(rng.sample(play.candidates_of(Larva), 5))
    if cube is None:
        return
    play.play(cube)
    for _ in range(rng.randint(1, MAX_POLYPS)):
        if play.over:
            return
        cells = play.cells()
        rng.shuffle(cells)
        if rng.random() < 0.75:
            polyps, colour = play.state.polyps, play.turn.larva_colour
            cells.sort(key=lambda k: k in polyps or all(
                polyps.get(n) != colour for n in neighbours()[k]))  # next to its colour first
        step = play.first_legal(Place(cell_of(k), consumed) for k in cells
                                for consumed in (False, True))
        if step is None:
            return
        play.play(step)


def _new_shrimp(play: TurnInPlay, rng: random.Random) -> None:
    """A new shrimp onto one of the largest corals it may go on."""
    size: dict[str, int] = {}
    for k in play.state.polyps:
        if k not in size:
            coral = group(play.state, k)
            size.update(dict.fromkeys(coral, len(coral)))
    cells = sorted(size)
    rng.shuffle(cells)
    cells.sort(key=lambda k: -size[k])
    step = play.first_legal(NewShrimp(cell_of(k)) for k in cells)
    if step is not None:
        play.play(step)


def _move_shrimp(play: TurnInPlay, rng: random.Random) -> None:
    """One shrimp to another polyp."""
    moves = [MoveShrimp(cell_of(source), cell_of(target))
             for source in sorted(play.state.shrimps) for target in sorted(play.state.polyps)]
    rng.shuffle(moves)
    step = play.first_legal(moves)
    if step is not None:
        play.play(step)


def _withdraw_shrimp(play: TurnInPlay, rng: random.Random) -> None:
    homes = [m for m in play.legal(MoveShrimp) if m.target is None]
    if homes:
        play.play(rng.choice(homes))


def _alga(play: TurnInPlay, rng: random.Random) -> None:
    """An alga cylinder, mostly on a coral tile when one may take it."""
    algae = play.candidates_of(Alga)
    rng.shuffle(algae)
    if rng.random() < 0.7:
        algae.sort(key=lambda a: a.tile is None)
    step = play.first_legal(algae)
    if step is not None:
        play.play(step)


def _one_of(kind: type) -> Callable[[TurnInPlay, random.Random], None]:
    def act(play: TurnInPlay, rng: random.Random) -> None:
        steps: list[Step] = play.candidates_legal(kind)
        if steps:
            play.play(rng.choice(steps))
    return act


# The optional actions of a random turn, each with how likely it is tried when its turn comes.
_EXTRAS: tuple[tuple[Callable[[TurnInPlay, random.Random], None], float], ...] = (
    (_larva, 0.8), (_larva, 0.8), (_new_shrimp, 0.8), (_new_shrimp, 0.8),
    (_alga, 0.35), (_alga, 0.35), (_one_of(ConsumedForLarva), 0.2),
    (_one_of(LarvaForPolyp), 0.15), (_withdraw_shrimp, 0.03), (_move_shrimp, 0.1),
)


def one_tap_orders(state: State, seat: int) -> list[str]:
    """The whole turns a player may choose with one tap: in a final turn, pass; in a turn,
    take each open-sea colour the rules let the seat take (no action before it); in the
    setup step, each answer (a larva pair once, in one order), where they are few."""
    if state.phase == "setup":
        return sorted({setup_text(a).strip() for a in legal_setup_answers(state, seat)
                       if a.larvae[0] <= a.larvae[1]})
    if state.phase == "final":
        return ["pass"]
    takes = {t.colour for t in TurnInPlay(state, seat).legal(Take)}
    return [f"take {s['colour']}" for s in state.open_sea if s["colour"] in takes]


def default_order(state: State, seat: int) -> str:
    """The safe turn for a seat out of time: no action, then take the richest open-sea space.

    In the setup step: the commonest polyp behind the screen into the parrotfish and the two
    commonest larva cubes in the supply. In a final turn: pass.
    """
    if state.phase == "setup":
        screen, supply = state.players[seat].screen, state.larva_supply
        return setup_text(max(legal_setup_answers(state, seat), key=lambda a: (
            screen[a.parrotfish], supply[a.larvae[0]], a.larvae[0] != a.larvae[1],
            supply[a.larvae[1]])))
    if state.phase == "final":
        return "pass\n"
    takes = {t.colour for t in TurnInPlay(state, seat).legal(Take)}
    best = max((s for s in state.open_sea if s["colour"] in takes), key=lambda s: len(s["polyps"]))
    return f"take {best['colour']}\n"
