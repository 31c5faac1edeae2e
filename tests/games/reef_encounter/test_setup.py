"""Setup per the rulebook's 'Mise en place', with every draw recorded and replayable."""

from collections import Counter

import pytest

from pbem.engine.chance import Chance
from pbem.games.reef_encounter.components import components
from pbem.games.reef_encounter.setup import setup
from pbem.games.reef_encounter.state import State


def _all_polyps(state: State) -> Counter[str]:
    total: Counter[str] = Counter(state.polyps.values())
    total.update(state.bag)
    total.update(state.bonus)
    for space in state.open_sea:
        total.update(space["polyps"])
    for seat in state.players:
        total.update(seat.screen)
    return total


@pytest.mark.parametrize("players", [2, 3, 4])
def test_as_many_distinct_boards_as_players_each_with_its_five_starting_polyps(
    players: int,
) -> None:
    state = setup(players, {}, Chance(f"boards-{players}"))
    assert len(state.boards) == len(set(state.boards)) == players
    assert len(state.polyps) == 5 * players
    for board_id in state.boards:
        for cell, colour in components().board(board_id).starting_polyps().items():
            assert state.polyps[f"{board_id}:{cell}"] == colour


@pytest.mark.parametrize("players", [2, 3, 4])
def test_all_200_polyps_are_accounted_for(players: int) -> None:
    state = setup(players, {}, Chance(f"count-{players}"))
    assert _all_polyps(state) == {c: 40 for c in components().coral_colours}


def test_one_bonus_polyp_of_each_colour() -> None:
    state = setup(2, {}, Chance("bonus"))
    assert state.bonus == {c: 1 for c in components().coral_colours}


def test_open_sea_gets_3_3_3_2_1_clockwise_and_one_larva_cube_per_space() -> None:
    for seed in range(10):
        state = setup(2, {}, Chance(f"sea-{seed}"))
        sizes = [len(s["polyps"]) for s in state.open_sea]
        first = sizes.index(1) - 4  # the 1-space is the fifth, clockwise from the drawn colour
        assert [sizes[(first + i) % 5] for i in range(5)] == [3, 3, 3, 2, 1]
        assert all(s["larva"] == 1 for s in state.open_sea)
        assert state.larva_supply == {c: 9 for c in components().coral_colours}


@pytest.mark.parametrize(("players", "hands"), [(2, [6, 9]), (3, [6, 7, 9]), (4, [6, 7, 8, 9])])
def test_starting_polyps_grow_clockwise_from_the_start_player(
    players: int, hands: list[int]
) -> None:
    state = setup(players, {}, Chance(f"hands-{players}"))
    got = [
        sum(state.players[(state.start_player + i) % players].screen.values())
        for i in range(players)
    ]
    assert got == hands
    assert state.to_move == state.start_player
    assert state.phase == "setup"
    assert all(seat.shrimps_in_hand == 4 for seat in state.players)


def test_coral_tile_toss_lands_on_both_faces_over_many_seeds() -> None:
    faces = {setup(2, {}, Chance(f"toss-{seed}")).coral_face for seed in range(30)}
    assert faces == {"a", "b"}


def test_replaying_the_recorded_draws_gives_the_same_setup() -> None:
    chance = Chance("replay")
    state = setup(4, {}, chance)
    again = setup(4, {}, Chance.replaying(chance.draws))
    assert again.to_json() == state.to_json()
    assert State.from_json(state.to_json()) == state


def test_five_players_are_refused() -> None:
    with pytest.raises(ValueError, match="Reef Encounter is for 2 to 4 players"):
        setup(5, {}, Chance("five"))
