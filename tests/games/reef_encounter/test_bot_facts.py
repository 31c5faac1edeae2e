"""The bot writes its turn from facts it keeps itself (botturn.Writer on botfacts.TurnFacts),
never running the rules: its conditions must say what the rules say, and its facts must follow
its steps as the rules' state does. A disagreement would make the bot write illegal orders (or
skip legal steps)."""

from __future__ import annotations

import random

from pbem.engine.chance import Chance
from pbem.games.reef_encounter.board import Refused, dominates, group, rock_cells
from pbem.games.reef_encounter.botreef import Reef
from pbem.games.reef_encounter.bottiles import dominated
from pbem.games.reef_encounter.botturn import Writer, write_turn
from pbem.games.reef_encounter.context import Turn
from pbem.games.reef_encounter.orders import Cell, MoveShrimp
from pbem.games.reef_encounter.parrotfish import MIN_CORAL
from pbem.games.reef_encounter.parse import CORAL_COLOURS, format_order, parse_order
from pbem.games.reef_encounter.placement import check_place
from pbem.games.reef_encounter.rules import _steps, do_step
from pbem.games.reef_encounter.state import State
from tests.games.reef_encounter.positions import bot_game

GAMES = [(2, False), (3, True), (4, False), (4, True)]


def _positions(seed: str, every: int, rounds: int = 1) -> list[State]:
    return [state for i, (players, advanced) in enumerate(GAMES * rounds)
            for n, state in bot_game(random.Random(f"{seed}-{i}"), f"{seed}-{i}", players,
                                     advanced)
            if n % every == 0 and state.phase in ("play", "final")]


def edible_corals(state: State, seat: int) -> list[str]:
    """The rule on the rules' state: the cells of this seat's shrimps that stand on a coral of
    MIN_CORAL polyps or more (what the parrotfish may eat now)."""
    return sorted(k for k, s in state.shrimps.items()
                  if s == seat and len(group(state, k)) >= MIN_CORAL)


def _cell(k: str) -> Cell:
    board, rest = k.split(":")
    return Cell(int(board), rest[0], int(rest[1:]))


def _bag_and_bonus(state: State) -> dict[str, int]:
    out = dict(state.bag)
    for c, n in state.bonus.items():
        out[c] = out.get(c, 0) + n
    return {c: n for c, n in out.items() if n}


def test_the_written_steps_change_the_state_as_the_facts() -> None:
    """Every turn of seeded games, applied by the rules up to its take: the bot's facts after
    writing it are the rules' state (polyps, shrimps, the seat's holdings, supplies, tiles)."""
    checked = ended = 0
    for state in _positions("facts", 1, rounds=3):
        seat = state.to_move
        w = write_turn(state, seat, random.Random(f"facts-{state.turn}-{seat}"))
        text = "\n".join(w.lines) + "\n"
        order = parse_order(text)
        assert format_order(order) == text  # the bot writes canonical text
        new, turn, _ = _steps(state, seat, order, Chance("facts"))
        me = new.seats[seat]
        assert w.polyps == new.polyps
        assert w.shrimps == new.shrimps
        assert (w.larva, w.screen, w.consumed) == (me.larva, me.screen, me.consumed)
        assert (w.in_hand, w.sea_shrimp, w.fish_shrimps, w.fish) == (
            me.shrimps_in_hand, me.sea_shrimp, me.fish_shrimps, len(me.parrotfish))
        assert {c: n for c, n in w.avail().items() if n} == _bag_and_bonus(new)
        assert w.larva_supply() == new.larva_supply
        assert w.alga_supply() == new.alga_supply
        assert (w.alga_space, w.cylinders, list(w.flipped)) == (
            new.alga_space, new.cylinders, new.flipped_tiles)
        assert w.ended == turn.ended
        for colour in CORAL_COLOURS:  # the masks, asked or not
            assert w.mask(colour) == sum(1 << i for i, k in enumerate(_keys())
                                         if k and new.polyps.get(k) == colour)
        _same_corals(w.reef, Reef(new.polyps))
        checked += 1
        ended += w.ended
    assert checked > 600 and ended


def _keys() -> tuple[str, ...]:
    from pbem.games.reef_encounter.cellbits import cell_bits

    return cell_bits().keys


def test_the_bots_placeable_is_check_place() -> None:
    agreed = refused = 0
    for state in _positions("placeable", 9):
        seat = state.to_move
        w = Writer(state, seat, random.Random(1))
        for k in (k for b in state.boards for k in rock_cells()[b]):
            for colour in CORAL_COLOURS:
                try:
                    check_place(state, seat, k, colour)
                    legal = True
                except Refused:
                    legal = False
                    refused += 1
                assert w.placeable(k, colour) == legal, (k, colour)
                agreed += 1
    assert refused and refused < agreed


def test_the_bots_may_move_is_move_shrimp() -> None:
    cells = [k for ks in rock_cells().values() for k in ks]
    moved = refused = 0
    for state in _positions("may-move", 11):
        seat = state.to_move
        w = Writer(state, seat, random.Random(1))
        sources = sorted(k for k, s in state.shrimps.items() if s == seat)
        others = sorted(k for k, s in state.shrimps.items() if s != seat)
        for source in [*sources, *others[:1]]:
            for target in cells:
                try:
                    do_step(state.copy_for(seat), Turn(seat),
                            MoveShrimp(_cell(source), _cell(target)), Chance("unused"))
                    legal = True
                    moved += 1
                except Refused:
                    legal = False
                    refused += 1
                assert w.may_move(source, target) == legal, (source, target)
    assert moved > 100 and refused > moved


def test_the_bots_dominance_table_follows_the_tiles() -> None:
    asked = 0
    for state in _positions("dominance", 5):
        beats = dominated(state.coral_face, tuple(state.flipped_tiles))
        for a in CORAL_COLOURS:
            for t in CORAL_COLOURS:
                if a != t:
                    assert (t in beats[a]) == dominates(state, a, t)[0]
                    asked += 1
    assert asked


def _same_corals(kept: Reef, traced: Reef) -> None:
    """A reef kept up to date step by step is the reef traced anew from the same polyps."""
    assert kept.polyps == traced.polyps
    assert kept.masks == traced.masks
    corals = {frozenset(c.cells) for c in kept.corals}
    assert corals == {frozenset(c.cells) for c in traced.corals}
    assert len(corals) == len(kept.corals)
    assert all(k in kept.coral[k].cells and kept.coral[k] in kept.corals for k in kept.polyps)
    assert kept.coral.keys() == kept.polyps.keys()


def test_the_bot_eats_what_the_rules_let_it_eat() -> None:
    """In every position of seeded bot games, the corals the bot's facts call edible are the
    ones the rules' state says the parrotfish may eat."""
    asked = 0
    for i, (players, advanced) in enumerate(GAMES):
        for _, state in bot_game(random.Random(f"kept-{i}"), f"kept-{i}", players, advanced):
            if state.phase not in ("play", "final"):
                continue
            w = Writer(state, state.to_move, random.Random(1))
            assert w.edible() == edible_corals(state, state.to_move)
            asked += 1
    assert asked > 200
