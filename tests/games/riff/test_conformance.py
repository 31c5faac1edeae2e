"""Random complete games, checked after every order.

Each game is played by the engine's own random orders (one in ten is the default order, as
for a missed deadline; now and then the seat not to move sends a preference) through
pbem.engine.replay. After every order: the invariants, the input state unchanged, an exact
JSON round-trip, the views JSON-serialisable. At the end: the outcome ranks both seats and the
log replays to the same final hash.

The normal suite plays 120 games (half with every open question flipped); set
PBEM_CONFORMANCE_GAMES=N to play about N (e.g. 2000 for a long run; -s shows the counts).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.engine import replay
from pbem.engine.hashing import state_hash
from pbem.games.riff import GAME
from pbem.games.riff.state import State
from tests.games.riff.invariants import InvariantBroken, check, violations
from tests.games.riff.positions import FULL, build

GAMES = int(os.environ.get("PBEM_CONFORMANCE_GAMES", "120"))
FLIPPED = {"face_down_at_sea_edge_counts_as_water": True,
           "completed_corals_count_toward_limit": False,
           "may_buy_fish_without_a_free_coral": False}
MAX_ORDERS = 1000  # the turn limit (160) ends every game well before this


def _roundtrip(state: State) -> None:
    data = GAME.to_json(state)
    back = GAME.from_json(json.loads(json.dumps(data)))
    assert back == state and GAME.to_json(back) == data


def play_checked(options: dict[str, object], seed: str) -> tuple[int, str]:
    state, setup_record = replay.start(GAME, 2, options, seed)
    check(state)
    rng = random.Random(seed)
    records: list[replay.OrderRecord] = []
    while waiting := GAME.waiting_for(state):
        assert len(records) < MAX_ORDERS, f"{seed}: no end after {MAX_ORDERS} orders"
        assert GAME.outcome(state) is None
        seat = min(waiting) if rng.random() < 0.9 else 1 - state.to_move
        text = (GAME.default_order(state, seat) if rng.random() < 0.1
                else GAME.random_order(state, seat, rng))
        before = GAME.to_json(state)
        applied, record = replay.play(GAME, state, seat, text, f"{seed}/{len(records)}")
        assert GAME.to_json(state) == before, f"{seed}: apply changed its input"
        state = applied.state
        try:
            check(state)
        except InvariantBroken as err:
            raise AssertionError(f"{seed} order {len(records) + 1} {text!r}: {err}") from None
        _roundtrip(state)
        for viewer in (None, 0, 1):
            json.dumps(GAME.view(state, viewer))
        records.append(record)
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert sorted(s for g in outcome.ranking for s in g) == [0, 1]
    final = replay.replay(GAME, setup_record, records)
    assert state_hash(GAME.to_json(final)) == records[-1].state_hash
    return len(records), state.end_reason


@pytest.mark.timeout(max(600, GAMES))
@pytest.mark.parametrize("flipped", [False, True], ids=["defaults", "open-questions-flipped"])
def test_random_games_keep_every_invariant(flipped: bool) -> None:
    options = FLIPPED if flipped else {}
    played = [play_checked(dict(options), f"conformance-{flipped}-{i}")
              for i in range(max(1, GAMES // 2))]
    wins = sum("completed 5 crosses" in reason for _, reason in played)
    print(f"{'flipped' if flipped else 'defaults'}: {len(played)} games, "
          f"{sum(n for n, _ in played)} orders, {wins} won by 5 crosses")
    assert wins > len(played) // 2  # the bots play to win, and usually do


def final_hashes(games: int) -> list[str]:
    out = []
    for i in range(games):
        state, _ = replay.start(GAME, 2, {}, f"hashes-{i}")
        rng = random.Random(i)
        n = 0
        while waiting := GAME.waiting_for(state):
            seat = min(waiting)
            state = replay.play(GAME, state, seat, GAME.random_order(state, seat, rng),
                                f"hashes-{i}/{n}")[0].state
            n += 1
        out.append(state_hash(GAME.to_json(state)))
    return out


def test_games_do_not_depend_on_string_hashing() -> None:
    code = ("from tests.games.riff.test_conformance import final_hashes; "
            "print(' '.join(final_hashes(6)))")
    root = Path(__file__).resolve().parents[3]
    runs = [subprocess.run([sys.executable, "-c", code], cwd=root, check=True, text=True,
                           capture_output=True, env={**os.environ, "PYTHONHASHSEED": seed},
                           timeout=300).stdout.split() for seed in ("1", "2")]
    assert len(runs[0]) == 6 and runs[0] == runs[1]


def test_invariants_catch_a_lost_card_and_a_lost_worm() -> None:
    state = build(FULL)
    assert violations(state) == []
    state.pile.pop()
    state.players[0].worms["red"] += 1
    problems = violations(state)
    assert any(p.startswith("59 reef cards") for p in problems)
    assert "red worms: [1, 0, 8]" in problems
