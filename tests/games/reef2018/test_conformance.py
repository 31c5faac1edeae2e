"""Random complete Reef games checked after every order.

Each game (2, 3 and 4 players, basic and advanced) is played by the engine's own random orders
(one in ten is the default order, as for a missed deadline) through pbem.engine.replay. After
every order: the invariants (invariants.py: pieces conserved, no stack above 4, hand at most 4,
every card once, scores = the sum of their ledger of scorings, tokens conserved), the input
state unchanged, an exact JSON round-trip, the views JSON-serialisable. At the end: the game is
over within a cap, the outcome ranks every seat, and the log replays to the same final hash.

The normal suite plays 300 games; PBEM_CONFORMANCE_GAMES=N plays about N in all (6000 plays
2,000 for each player count).
"""

from __future__ import annotations

import json
import os
import random

import pytest

from pbem.engine import replay
from pbem.engine.hashing import state_hash
from pbem.games.reef2018 import GAME
from pbem.games.reef2018.scoring import final_outcome
from pbem.games.reef2018.state import State
from tests.games.reef2018.invariants import InvariantBroken, check, violations
from tests.games.reef2018.positions import EMPTY, build

CONFIGS = [(p, adv) for p in (2, 3, 4) for adv in (False, True)]
GAMES = int(os.environ.get("PBEM_CONFORMANCE_GAMES", "300"))
PER_CONFIG = max(1, -(-GAMES // len(CONFIGS)))
MAX_ORDERS = 400  # about 70 orders a game; a loop is a failure


def _roundtrip(state: State) -> None:
    data = GAME.to_json(state)
    back = GAME.from_json(json.loads(json.dumps(data)))
    assert back == state and GAME.to_json(back) == data


def play_checked(players: int, advanced: bool, seed: str) -> tuple[int, str]:
    state, setup_record = replay.start(GAME, players, {"advanced": advanced}, seed)
    check(state)
    rng = random.Random(seed)
    records: list[replay.OrderRecord] = []
    while waiting := GAME.waiting_for(state):
        assert len(records) < MAX_ORDERS, f"{seed}: no end after {MAX_ORDERS} orders"
        assert GAME.outcome(state) is None
        seat = rng.choice(sorted(waiting))
        if rng.random() < 0.1:
            text = GAME.default_order(state, seat)
        else:
            text = GAME.random_order(state, seat, rng)
        before = GAME.to_json(state)
        applied, record = replay.play(GAME, state, seat, text, f"{seed}/{len(records)}")
        assert GAME.to_json(state) == before, f"{seed}: apply changed its input"
        state = applied.state
        try:
            check(state)
        except InvariantBroken as err:
            raise AssertionError(f"{seed} order {len(records) + 1} {text!r}: {err}") from None
        _roundtrip(state)
        for viewer in (None, seat):
            json.dumps(GAME.view(state, viewer))
        records.append(record)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome == final_outcome(state)
    assert sorted(s for g in outcome.ranking for s in g) == list(range(players))
    assert outcome.scores == {i: sum(p for p, _ in s.ledger) for i, s in enumerate(state.seats)}
    final = replay.replay(GAME, setup_record, records)
    assert state_hash(GAME.to_json(final)) == records[-1].state_hash == state_hash(
        GAME.to_json(state))
    return len(records), state.end_reason


@pytest.mark.timeout(max(300, PER_CONFIG))
@pytest.mark.parametrize(("players", "advanced"), CONFIGS)
def test_random_games_keep_every_invariant(players: int, advanced: bool) -> None:
    mode = "advanced" if advanced else "basic"
    played = [play_checked(players, advanced, f"reef2018-{players}-{mode}-{i}")
              for i in range(PER_CONFIG)]
    ends = sorted({reason for _, reason in played})
    print(f"{players}p {mode}: {len(played)} games, {sum(n for n, _ in played)} orders; "
          f"ends: {ends}")
    assert all(n > players for n, _ in played)


def test_invariants_catch_a_lost_piece_a_tall_stack_and_a_wrong_score() -> None:
    state = build([EMPTY, EMPTY])
    assert violations(state) == []
    state.supply["red"] -= 1
    state.seats[0].reef[0] = ["green"] * 5
    state.seats[1].score += 1
    state.seats[1].hand = [state.deck.pop() for _ in range(5)]
    assert violations(state) == [
        "17 red pieces instead of 18", "23 green pieces instead of 18",
        "seat 0: a stack 5 high on square 0", "seat 1 holds 5 cards",
        "seat 1: score 4 is not the sum of its ledger"]


def test_a_game_replays_from_its_log_after_a_json_round_trip() -> None:
    state, setup_record = replay.start(GAME, 3, {}, "rt")
    rng = random.Random(1)
    records: list[replay.OrderRecord] = []
    while waiting := GAME.waiting_for(state):
        seat = min(waiting)
        applied, record = replay.play(GAME, state, seat, GAME.random_order(state, seat, rng),
                                      f"rt/{len(records)}")
        state = applied.state
        records.append(record)
    draws = replay.draws_from_json(json.loads(json.dumps(replay.draws_to_json(
        setup_record.draws))))
    again = replay.replay(GAME, replay.SetupRecord(3, {}, draws, setup_record.state_hash),
                          records)
    assert GAME.to_json(again) == GAME.to_json(state)
    # The deck shuffle and the starfish board are the game's only chance.
    assert [d.label for d in setup_record.draws] == ["deck", "starfish board"]
    assert all(not r.draws for r in records)
