"""Bots: random orders are legal text; the default order; random games end and replay."""

import contextlib
import random
from collections.abc import Callable

import pytest

from pbem.engine import replay
from pbem.engine.chance import Chance
from pbem.engine.contract import Game
from pbem.engine.errors import IllegalOrder
from pbem.engine.hashing import state_hash
from pbem.engine.registry import get
from pbem.games.reef_encounter import GAME
from pbem.games.reef_encounter.bot import default_order
from pbem.games.reef_encounter.legal import TurnInPlay
from pbem.games.reef_encounter.orders import (
    Alga,
    Cell,
    ConsumedForLarva,
    Eat,
    Larva,
    LarvaForPolyp,
    MoveShrimp,
    NewShrimp,
    Order,
    Pass,
    Place,
    Step,
    Take,
)
from pbem.games.reef_encounter.state import State
from tests.games.reef_encounter.positions import build, play


def test_the_game_implements_the_contract_and_is_discovered() -> None:
    assert isinstance(GAME, Game)
    assert get("reef-encounter") is GAME
    assert (GAME.name, GAME.title, GAME.min_players, GAME.max_players) == (
        "reef-encounter", "Reef Encounter", 2, 4)
    assert GAME.default_options() == {"advanced": False}
    assert "take pink" in GAME.help_text()


def test_unknown_options_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown Reef Encounter options: fast"):
        GAME.setup(2, {"fast": True}, Chance("x"))


@pytest.mark.parametrize(("players", "advanced"), [(2, False), (3, True), (4, False)])
def test_random_games_end_and_replay_to_the_same_hash(players: int, advanced: bool) -> None:
    seed = f"moves-{players}-{advanced}"
    state, setup = replay.start(GAME, players, {"advanced": advanced}, seed)
    assert state.advanced is advanced
    rng = random.Random(seed)
    records: list[replay.OrderRecord] = []
    while GAME.waiting_for(state):
        assert len(records) < 1000
        seat = min(GAME.waiting_for(state))
        text = GAME.random_order(state, seat, rng)
        applied, record = replay.play(GAME, state, seat, text, f"{seed}/{len(records)}")
        records.append(record)
        state = applied.state
    assert state.phase == "over" and state.end_reason
    again = replay.replay(GAME, setup, records)
    assert state_hash(GAME.to_json(again)) == state_hash(GAME.to_json(state))


def test_the_default_order_takes_the_open_sea_space_with_most_polyps() -> None:
    state = build({}, open_sea={"pink": ["grey"], "orange": ["grey", "white", "white"]})
    assert default_order(state, 0) == "take orange\n"
    play(state, 0, default_order(state, 0))


def test_the_default_order_in_the_setup_step_and_in_a_final_turn() -> None:
    state = GAME.setup(2, {}, Chance("default"))
    for seat in (0, 1):
        state = play(state, seat, GAME.default_order(state, seat)).state
    assert state.phase == "play"
    final = build({}, phase="final", final_turns=[0])
    assert GAME.default_order(final, 0) == "pass\n"
    assert play(final, 0, "pass").state.phase == "over"


def test_bots_eat_corals_guarded_by_their_shrimps() -> None:
    picture = """
~ ~ ~ . . . ~
W1 W W W W . ~
. . . . ~ . .
. ~ . . . . .
. . . . . . .
~ . . . . . ~
"""
    state: State = build({2: picture})
    coral = [Eat(Cell(2, c, 2)) for c in "ABCDE"]  # any cell of the coral names it
    assert TurnInPlay(state, 0).legal(Eat) == coral
    assert TurnInPlay(state, 1).legal(Eat) == []
    assert GAME.random_order(state, 0, random.Random(1)).startswith("eat 2")


def _random_step(rng: random.Random) -> Step:
    corals = ["grey", "orange", "pink", "white", "yellow"]

    def where() -> Cell:
        return Cell(rng.randint(1, 4), rng.choice("ABCDEFG"), rng.randint(1, 6))

    makers: list[Callable[[], Step]] = [
        lambda: Eat(where()), lambda: Larva(rng.choice(corals)),
        lambda: Place(where(), rng.random() < 0.3), lambda: NewShrimp(where()),
        lambda: MoveShrimp(where(), None if rng.random() < 0.3 else where()),
        lambda: ConsumedForLarva(rng.choice(corals)),
        lambda: Alga(rng.choice(["blue", "green", "purple", "red"]),
                     None if rng.random() < 0.5 else rng.randint(1, 10), rng.choice(corals)),
        lambda: LarvaForPolyp(rng.choice(corals)), Pass, lambda: Take(rng.choice(corals)),
    ]
    return rng.choice(makers)()


def test_random_step_sequences_raise_only_illegal_order_and_never_change_the_state() -> None:
    rng = random.Random(5)
    for game in range(6):
        chance = Chance(f"fuzz-{game}")
        state = GAME.setup(2 + game % 3, {}, chance)
        for _ in range(40):
            if not GAME.waiting_for(state):
                break
            seat = min(GAME.waiting_for(state))
            for _ in range(15):
                steps = tuple(_random_step(rng) for _ in range(rng.randint(1, 5)))
                before = state.to_json()
                with contextlib.suppress(IllegalOrder):
                    GAME.apply(state, seat, Order(steps), Chance("fuzz"))
                assert state.to_json() == before
            text = GAME.random_order(state, seat, rng)
            state = GAME.apply(state, seat, GAME.parse(state, seat, text), chance).state
