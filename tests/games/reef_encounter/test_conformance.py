"""Random complete games checked after every order and every step of every order.

Each game (2, 3 and 4 players, basic and advanced) is played by the engine's own random orders
(one in ten is the default order, as for a missed deadline) through pbem.engine.replay. After
every order: the invariants (invariants.py), the input state unchanged, an exact JSON round-trip,
the spectator's and the mover's views JSON-serialisable; within each order the steps are
re-applied one by one with the rules' step function and the invariants checked mid-turn. At the
end: the game is over within a cap on orders, its outcome ranks every seat as scoring.py does,
and the log replays to the same final hash.

The normal suite plays 204 games (34 per configuration); set PBEM_CONFORMANCE_GAMES=N to play
about N in all (e.g. 6000 for a long run; add -s to see the counts).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from pbem.engine import replay
from pbem.engine.chance import Chance
from pbem.engine.hashing import state_hash
from pbem.games.reef_encounter import GAME
from pbem.games.reef_encounter.context import Turn
from pbem.games.reef_encounter.orders import Take
from pbem.games.reef_encounter.rules import do_step
from pbem.games.reef_encounter.scoring import final_outcome
from pbem.games.reef_encounter.setup import setup
from pbem.games.reef_encounter.state import State
from tests.games.reef_encounter.invariants import InvariantBroken, check, violations
from tests.games.reef_encounter.positions import build

CONFIGS = [(p, adv) for p in (2, 3, 4) for adv in (False, True)]
GAMES = int(os.environ.get("PBEM_CONFORMANCE_GAMES", "204"))
PER_CONFIG = max(1, -(-GAMES // len(CONFIGS)))
MAX_ORDERS = 600  # random games end in about 20 orders per player; a loop is a failure


@dataclass
class Played:
    orders: int
    steps: int
    end_reason: str


def _roundtrip(state: State) -> None:
    data = GAME.to_json(state)
    back = GAME.from_json(json.loads(json.dumps(data)))
    assert back == state and GAME.to_json(back) == data


def _steps_one_by_one(state: State, seat: int, text: str) -> int:
    """Re-apply a legal order's steps one at a time, checking the state after each."""
    if state.phase not in ("play", "final"):
        return 0
    order = GAME.parse(state, seat, text)
    scratch = state.copy()
    turn = Turn(seat, final=state.phase == "final")
    chance = Chance("steps")
    for n, step in enumerate(order.steps, start=1):
        if isinstance(step, Take):  # applied when the turn ends, by apply_order
            break
        do_step(scratch, turn, step, chance)
        turn.steps += 1
        problems = violations(scratch, between_turns=False)
        assert not problems, f"after step {n} of {text!r}: {problems}"
    return len(order.steps)


def play_checked(players: int, advanced: bool, seed: str) -> Played:
    """One random complete game, checked throughout (see the module docstring)."""
    state, setup_record = replay.start(GAME, players, {"advanced": advanced}, seed)
    check(state)
    _roundtrip(state)
    rng = random.Random(seed)
    records: list[replay.OrderRecord] = []
    steps = 0
    while waiting := GAME.waiting_for(state):
        assert len(records) < MAX_ORDERS, f"{seed}: no end after {MAX_ORDERS} orders"
        assert GAME.outcome(state) is None
        seat = rng.choice(sorted(waiting))
        # Now and then a seat misses its deadline and gets the default order.
        if rng.random() < 0.1:
            text = GAME.default_order(state, seat)
        else:
            text = GAME.random_order(state, seat, rng)
        before = GAME.to_json(state)
        applied, record = replay.play(GAME, state, seat, text, f"{seed}/{len(records)}")
        assert GAME.to_json(state) == before, f"{seed}: apply changed its input"
        steps += _steps_one_by_one(state, seat, text)
        state = applied.state
        try:
            check(state)
        except InvariantBroken as err:
            raise AssertionError(f"{seed} order {len(records) + 1} {text!r}: {err}") from None
        _roundtrip(state)
        for viewer in (None, seat):  # the host mails views after every order
            json.dumps(GAME.view(state, viewer))
        records.append(record)
    assert state.phase == "over"
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome == final_outcome(state)
    assert sorted(s for g in outcome.ranking for s in g) == list(range(players))
    final = replay.replay(GAME, setup_record, records)
    assert state_hash(GAME.to_json(final)) == records[-1].state_hash
    return Played(len(records), steps, state.end_reason)


@pytest.mark.timeout(max(300, PER_CONFIG))  # long runs: up to a second a game on a busy machine
@pytest.mark.parametrize(("players", "advanced"), CONFIGS)
def test_random_games_keep_every_invariant(players: int, advanced: bool) -> None:
    mode = "advanced" if advanced else "basic"
    played = [play_checked(players, advanced, f"conformance-{players}-{mode}-{i}")
              for i in range(PER_CONFIG)]
    assert all(p.orders > players for p in played)
    ends = sorted({_end_kind(p.end_reason) for p in played})
    print(f"{players}p {mode}: {len(played)} games, {sum(p.orders for p in played)} orders, "
          f"{sum(p.steps for p in played)} steps checked; ends: {ends}")
    # Random play reaches more than one of the four ends, not always the same one.
    if PER_CONFIG >= 20:
        assert len(ends) >= 2


def _end_kind(reason: str) -> str:
    return "a parrotfish ate four shrimps" if "has eaten all four" in reason else reason


def final_hashes(games: int) -> list[str]:
    """Final state hashes of seeded random games (run in fresh processes by the test below)."""
    out = []
    for i in range(games):
        state, _ = replay.start(GAME, 2 + i % 3, {"advanced": i % 2 == 1}, f"hashes-{i}")
        rng = random.Random(i)
        n = 0
        while waiting := GAME.waiting_for(state):
            seat = rng.choice(sorted(waiting))
            text = GAME.random_order(state, seat, rng)
            state = replay.play(GAME, state, seat, text, f"hashes-{i}/{n}")[0].state
            n += 1
        out.append(state_hash(GAME.to_json(state)))
    return out


def test_games_do_not_depend_on_string_hashing() -> None:
    # A log must replay on another machine: set order (PYTHONHASHSEED) must never matter.
    code = ("from tests.games.reef_encounter.test_conformance import final_hashes; "
            "print(' '.join(final_hashes(12)))")
    root = Path(__file__).resolve().parents[3]
    runs = [subprocess.run([sys.executable, "-c", code], cwd=root, check=True, text=True,
                           capture_output=True, env={**os.environ, "PYTHONHASHSEED": seed},
                           timeout=120).stdout.split() for seed in ("1", "2")]
    assert len(runs[0]) == 12 and runs[0] == runs[1]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_states_keep_every_invariant(players: int) -> None:
    for i in range(20):
        state = setup(players, Chance(f"setup-{players}-{i}"))
        assert violations(state) == []


def test_invariants_catch_a_lost_polyp() -> None:
    state, _ = replay.start(GAME, 2, {}, "broken")
    colour = next(iter(state.bonus))
    state.bonus[colour] -= 1
    assert violations(state) == [f"39 {colour} polyps instead of 40"]


TWO_ON_ONE_CORAL = """
~ ~ ~ . . . ~
W1 W2 . . . . ~
. . . . ~ . .
. ~ . . . . .
. . . . . . .
~ . . . . . ~
"""
THREE_ON_ONE_BOARD = """
~ ~ ~ . . . ~
W1 . P1 . . . ~
. . . . ~ . .
. ~ . . . . .
O1 . . . . . .
~ . . . . . ~
"""


def _position(picture: str) -> State:
    fed = {"parrotfish": ["grey"]}
    return build({2: picture}, seats={0: dict(fed), 1: dict(fed)})


def test_invariants_catch_two_shrimps_on_one_coral() -> None:
    state = _position(TWO_ON_ONE_CORAL)
    assert violations(state) == ["the coral on 2:A2 holds shrimps on 2:A2 and 2:B2"]


def test_invariants_catch_three_own_shrimps_on_one_board() -> None:
    state = _position(THREE_ON_ONE_BOARD)
    assert violations(state) == ["seat 0 has 3 shrimps on board 2"]


def test_invariants_allow_a_shrimp_on_bare_rock_only_mid_turn() -> None:
    state = _position(THREE_ON_ONE_BOARD.replace("O1", ".2"))
    assert violations(state, between_turns=False) == []
    assert violations(state) == ["seat 1's shrimp on 2:A5 stands on bare rock between turns"]
