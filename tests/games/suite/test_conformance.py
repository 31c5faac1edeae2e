"""Random complete games of every game, checked after every order.

Each game is played by the engine's own random orders (one in ten is the default order, as for
a missed deadline) through pbem.engine.replay, in every configuration its hooks name. After
every order: the game's invariants (its hooks' ``violations``), the input state unchanged, an
exact JSON round trip, every seat's and the spectator's view JSON-serialisable, and any
step-by-step check the game has. At the end: the game is over within a cap on orders, its
outcome ranks every seat, and the log replays to the same final hash.

Each game plays its hooks' number of games in all; PBEM_CONFORMANCE_GAMES=N plays about N of
each (add -s to see the counts).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pbem.engine import replay
from pbem.engine.chance import Chance
from pbem.engine.hashing import state_hash
from tests.games.suite.games import every_game, games
from tests.games.suite.hooks import Config, Hooks, Played, configs, hooks_for

SETUPS = 20  # fresh setups checked per player count


def per_config(game: Any, hooks: Hooks) -> int:
    total = int(os.environ.get("PBEM_CONFORMANCE_GAMES", str(hooks.games)))
    return max(1, -(-total // len(configs(game, hooks))))


def _roundtrip(game: Any, state: Any) -> None:
    data = game.to_json(state)
    back = game.from_json(json.loads(json.dumps(data)))
    assert back == state and game.to_json(back) == data


def _check(hooks: Hooks, state: Any, where: str) -> None:
    problems = hooks.violations(state)
    assert not problems, f"{where}: {'; '.join(problems)}"


def play_checked(game: Any, hooks: Hooks, config: Config, seed: str) -> Played:
    """One random complete game, checked throughout (see the module docstring)."""
    state, setup_record = replay.start(game, config.players, dict(config.options), seed)
    _check(hooks, state, f"{seed} setup")
    _roundtrip(game, state)
    rng = random.Random(seed)
    records: list[replay.OrderRecord] = []
    steps = 0
    while waiting := game.waiting_for(state):
        assert len(records) < hooks.max_orders, f"{seed}: no end after {hooks.max_orders} orders"
        assert game.outcome(state) is None
        seat = hooks.choose_seat(state, waiting, rng)
        # Now and then a seat misses its deadline and gets the default order.
        if rng.random() < 0.1:
            text = game.default_order(state, seat)
        else:
            text = game.random_order(state, seat, rng)
        before = game.to_json(state)
        applied, record = replay.play(game, state, seat, text, f"{seed}/{len(records)}")
        assert game.to_json(state) == before, f"{seed}: apply changed its input"
        steps += hooks.check_steps(state, seat, text)
        state = applied.state
        _check(hooks, state, f"{seed} order {len(records) + 1} {text!r}")
        _roundtrip(game, state)
        for viewer in (None, *range(config.players)):  # the host mails views after each order
            json.dumps(game.view(state, viewer))
        records.append(record)
    outcome = game.outcome(state)
    assert outcome is not None
    assert sorted(s for g in outcome.ranking for s in g) == list(range(config.players))
    hooks.check_end(state, outcome)
    final = replay.replay(game, setup_record, records)
    assert state_hash(game.to_json(final)) == records[-1].state_hash == state_hash(
        game.to_json(state))
    return Played(len(records), steps, state)


# Long runs: up to a second a game on a busy machine.
CONFIGS = [pytest.param(name, config, id=f"{name}-{config.id}",
                        marks=pytest.mark.timeout(max(600, per_config(game, hooks))))
           for name, game, hooks in every_game() for config in configs(game, hooks)]


# Several minutes of CPU over all games: a long run (CI runs it in its own step, `-m slow`).
@pytest.mark.slow
@pytest.mark.parametrize(("name", "config"), CONFIGS)
def test_random_games_keep_every_invariant(name: str, config: Config) -> None:
    game = games()[name]
    hooks = hooks_for(game)
    played = [play_checked(game, hooks, config, f"{config.seed}-{i}")
              for i in range(per_config(game, hooks))]
    assert all(p.orders > config.players for p in played)
    print(f"{name} {config.id}: {len(played)} games, {sum(p.orders for p in played)} orders, "
          f"{sum(p.steps for p in played)} steps checked")
    hooks.check_played(config, played)


def final_hashes(name: str, count: int) -> list[str]:
    """Final state hashes of seeded random games (run in fresh processes by the test below)."""
    game = games()[name]
    kinds = configs(game, hooks_for(game))
    out = []
    for i in range(count):
        config = kinds[i % len(kinds)]
        state, _ = replay.start(game, config.players, dict(config.options), f"hashes-{i}")
        rng = random.Random(i)
        n = 0
        while waiting := game.waiting_for(state):
            seat = rng.choice(sorted(waiting))
            text = game.random_order(state, seat, rng)
            state = replay.play(game, state, seat, text, f"hashes-{i}/{n}")[0].state
            n += 1
        out.append(state_hash(game.to_json(state)))
    return out


@pytest.mark.timeout(600)
@pytest.mark.parametrize(("name", "game", "hooks"), every_game(), ids=list(games()))
def test_games_do_not_depend_on_string_hashing(name: str, game: Any, hooks: Hooks) -> None:
    # A log must replay on another machine: set order (PYTHONHASHSEED) must never matter.
    count = max(6, 2 * len(configs(game, hooks)))
    code = ("from pbem.ops.services import start; start(); "
            "from tests.games.suite.test_conformance import final_hashes; "
            f"print(' '.join(final_hashes({name!r}, {count})))")
    root = Path(__file__).resolve().parents[3]
    runs = [subprocess.run([sys.executable, "-c", code], cwd=root, check=True, text=True,
                           capture_output=True, env={**os.environ, "PYTHONHASHSEED": seed},
                           timeout=300).stdout.split() for seed in ("1", "2")]
    assert len(runs[0]) == count and runs[0] == runs[1]


SEATINGS = [pytest.param(name, players, id=f"{name}-{players}p")
            for name, game in games().items()
            for players in range(game.min_players, game.max_players + 1)]


@pytest.mark.parametrize(("name", "players"), SEATINGS)
def test_setup_states_keep_every_invariant(name: str, players: int) -> None:
    game = games()[name]
    hooks = hooks_for(game)
    for i in range(SETUPS):
        state = game.setup(players, game.default_options(), Chance(f"setup-{players}-{i}"))
        assert hooks.violations(state) == []
        _roundtrip(game, state)


@pytest.mark.parametrize("name", list(games()))
def test_a_game_replays_from_its_log_after_a_json_round_trip(name: str) -> None:
    game = games()[name]
    players = min(3, game.max_players)
    state, setup_record = replay.start(game, players, {}, "rt")
    rng = random.Random(1)
    records: list[replay.OrderRecord] = []
    while waiting := game.waiting_for(state):
        seat = min(waiting)
        applied, record = replay.play(game, state, seat, game.random_order(state, seat, rng),
                                      f"rt/{len(records)}")
        state = applied.state
        records.append(record)
    draws = replay.draws_from_json(json.loads(json.dumps(replay.draws_to_json(
        setup_record.draws))))
    again = replay.replay(game, replay.SetupRecord(players, {}, draws, setup_record.state_hash),
                          records)
    assert game.to_json(again) == game.to_json(state)
    hooks_for(game).check_records(setup_record, records)
