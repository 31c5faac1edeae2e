"""Final scoring and the four tie-breakers, checked against the French rulebook ('Score')."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import Any

from pbem.games.reef_encounter import GAME
from pbem.games.reef_encounter.board import visible
from pbem.games.reef_encounter.components import components
from pbem.games.reef_encounter.scoring import coral_values, final_outcome
from pbem.games.reef_encounter.state import State
from tests.games.reef_encounter.positions import build

# The rulebook's example: values grey 2, pink 3, orange 2, white 3, yellow 5. A value is 1 plus
# the coral tiles showing that colour doubled on top, so yellow tops all four of its tiles,
# pink and white two each, grey and orange one each. With every tile on face "a", turning tiles
# 1 (white/yellow), 5 (grey/white), 6 (grey/yellow) and 9 (orange/grey) gives exactly that.
EXAMPLE_FLIPS = [1, 5, 6, 9]
# Parrotfish contents from the example's table (the number in brackets), by seat:
# Violet (purple) 2 grey 3 white 1 yellow; Green 1 pink 4 yellow; Red 4 orange 4 white;
# Yellow 3 grey 3 pink 1 yellow.
EXAMPLE_FISH = {
    0: ["grey"] * 2 + ["white"] * 3 + ["yellow"],
    1: ["pink"] + ["yellow"] * 4,
    2: ["orange"] * 4 + ["white"] * 4,
    3: ["grey"] * 3 + ["pink"] * 3 + ["yellow"],
}
# Board 2 with a 3-polyp white coral under seat 1's shrimp and a 2-polyp pink coral under
# seat 2's shrimp, plus an orange polyp without a shrimp.
SHRIMP_BOARD = """
~ ~ ~ . . . ~
W1 W W . . . ~
. . . . ~ . .
. ~ . . . . O
P2 P . . . . .
~ . . . . . ~
"""
SWAPPED_SHRIMPS = SHRIMP_BOARD.replace("W1", "W2").replace("P2", "P1")


def english(lines: Sequence[object]) -> list[str]:
    """The explanation's messages in English (str of a Msg)."""
    return [str(line) for line in lines]


def _over(players: int, fish: dict[int, list[str]], seats: dict[int, dict[str, Any]] | None = None,
          boards: dict[int, str] | None = None, **fields: Any) -> State:
    """A finished game: parrotfish contents and other belongings per seat."""
    data: dict[int, dict[str, Any]] = {i: {"parrotfish": list(f)} for i, f in fish.items()}
    for i, extra in (seats or {}).items():
        data.setdefault(i, {}).update(extra)
    return build(boards or {}, players=players, seats=data, phase="over", **fields)


def _example(seats: dict[int, dict[str, Any]] | None = None) -> State:
    return _over(4, EXAMPLE_FISH, seats, flipped_tiles=list(EXAMPLE_FLIPS))


def test_example_coral_values_come_from_the_coral_tiles() -> None:
    state = _example()
    assert coral_values(state) == {"grey": 2, "orange": 2, "pink": 3, "white": 3, "yellow": 5}
    tops = [visible(state, t.id)[0] for t in components().coral_tiles]
    assert tops.count("yellow") == 4 and tops.count("grey") == 1


def test_rulebook_scoring_example_with_red_ahead_of_yellow() -> None:
    # The example leaves Red and Yellow equal on 20; Red has more consumed polyps.
    state = _example({2: {"consumed": {"pink": 2}}, 3: {"consumed": {"grey": 1}}})
    out = final_outcome(state)
    assert out.scores == {0: 18, 1: 23, 2: 20, 3: 20}
    assert out.ranking == [[1], [2], [3], [0]]
    assert english(out.explanation) == [
        "Coral values (1 point plus 1 per coral tile showing the colour on top): "
        "grey 2, orange 2, pink 3, white 3, yellow 5.",
        "Player 1 (Purple): 18 points (2 grey x 2 = 4, 3 white x 3 = 9, 1 yellow x 5 = 5).",
        "Player 2 (Green): 23 points (1 pink x 3 = 3, 4 yellow x 5 = 20).",
        "Player 3 (Red): 20 points (4 orange x 2 = 8, 4 white x 3 = 12).",
        "Player 4 (Yellow): 20 points (3 grey x 2 = 6, 3 pink x 3 = 9, 1 yellow x 5 = 5).",
        "Player 3 (Red) and Player 4 (Yellow) tie on 20 points.",
        "Tie-breaker 1 (consumed polyps in front of the screen): Player 3 (Red) 2, Player 4 "
        "(Yellow) 1.",
        "Final ranking: 1. Player 2 (Green); 2. Player 3 (Red); 3. Player 4 (Yellow); 4. Player "
        "1 (Purple).",
    ]


def test_game_outcome_uses_this_scoring() -> None:
    state = _example({2: {"consumed": {"pink": 2}}})
    assert GAME.outcome(state) == final_outcome(state)


def test_values_always_add_up_to_fifteen_and_covered_tiles_still_count() -> None:
    rng = random.Random(7)
    for _ in range(50):
        flips = sorted(rng.sample(range(1, 11), rng.randint(0, 10)))
        face = rng.choice("ab")
        state = _over(2, {0: [], 1: []}, face=face, flipped_tiles=flips)
        values = coral_values(state)
        assert sum(values.values()) == 15 and all(1 <= v <= 5 for v in values.values())
        covered = _over(2, {0: [], 1: []}, face=face, flipped_tiles=flips,
                        cylinders={str(t): "blue" for t in range(1, 6)})
        assert coral_values(covered) == values


def test_face_b_swaps_every_tile() -> None:
    a = coral_values(_over(2, {0: [], 1: []}, face="a"))
    b = coral_values(_over(2, {0: [], 1: []}, face="b"))
    assert a == {c: 3 for c in components().coral_colours} == b
    # One flip moves a point from the tile's top colour to the other one.
    flipped = coral_values(_over(2, {0: [], 1: []}, face="a", flipped_tiles=[1]))
    assert (flipped["white"], flipped["yellow"]) == (2, 4)


def test_advanced_game_scores_the_same() -> None:
    basic = final_outcome(_example())
    advanced = final_outcome(_over(4, EXAMPLE_FISH, flipped_tiles=list(EXAMPLE_FLIPS),
                                   advanced=True))
    assert basic == advanced


# Two seats on equal parrotfish (one white each, face "a": 3 points); everything else varies.
EQUAL_FISH = {0: ["white"], 1: ["white"]}


def test_tie_breaker_1_consumed_polyps_in_front_of_the_screen() -> None:
    # Seat 1 is ahead on every later criterion; the first one decides.
    state = _over(2, EQUAL_FISH, {0: {"consumed": {"grey": 1, "pink": 1}},
                                  1: {"consumed": {"grey": 1}, "larva": {"grey": 2},
                                      "screen": {"pink": 5}}}, boards={2: SHRIMP_BOARD})
    out = final_outcome(state)
    assert out.ranking == [[0], [1]]
    assert ("Tie-breaker 1 (consumed polyps in front of the screen): Player 1 (Purple) 2, Player "
            "2 (Green) 1.") in english(out.explanation)


def test_tie_breaker_2_unplayed_larva_cubes() -> None:
    state = _over(2, EQUAL_FISH, {0: {"consumed": {"grey": 1}, "screen": {"pink": 5}},
                                  1: {"consumed": {"white": 1}, "larva": {"grey": 1}}})
    out = final_outcome(state)
    assert out.ranking == [[1], [0]]
    assert ("Tie-breaker 2 (unplayed larva cubes): Player 1 (Purple) 0, Player 2 (Green) "
            "1.") in english(out.explanation)


def test_tie_breaker_3_unplayed_polyps_behind_the_screen() -> None:
    state = _over(2, EQUAL_FISH, {0: {"larva": {"grey": 1}, "screen": {"pink": 2, "grey": 1}},
                                  1: {"larva": {"pink": 1}, "screen": {"white": 2}}},
                  boards={2: SWAPPED_SHRIMPS})
    out = final_outcome(state)
    assert out.ranking == [[0], [1]]
    assert ("Tie-breaker 3 (unplayed polyps behind the screen): Player 1 (Purple) 3, Player 2 "
            "(Green) 2.") in english(out.explanation)


def test_tie_breaker_4_polyps_in_corals_protected_by_own_shrimps() -> None:
    # Seat 0 guards the 3-polyp white coral, seat 1 the 2-polyp pink one.
    state = _over(2, {0: ["grey"], 1: ["grey"]}, {0: {"screen": {"pink": 1}},
                                                  1: {"screen": {"grey": 1}}},
                  boards={2: SHRIMP_BOARD})
    out = final_outcome(state)
    assert out.ranking == [[0], [1]]
    assert ("Tie-breaker 4 (polyps on the boards in corals protected by their shrimps): "
            "Player 1 (Purple) 3, Player 2 (Green) 2.") in english(out.explanation)


def test_a_tie_that_survives_all_four_stays_a_tie() -> None:
    same = {"consumed": {"grey": 1}, "larva": {"pink": 1}, "screen": {"white": 2}}
    state = _over(3, {0: ["white"], 1: ["grey"], 2: ["white"]}, {0: same, 1: same, 2: same})
    out = final_outcome(state)
    assert out.scores == {0: 3, 1: 3, 2: 3}
    assert out.ranking == [[0, 1, 2]]
    assert english(out.explanation)[-2:] == [
        "Player 1 (Purple), Player 2 (Green) and Player 3 (Red) are still equal after all four "
        "tie-breakers and share "
        "their place.",
        "Final ranking: 1. Player 1 (Purple), Player 2 (Green) and Player 3 (Red).",
    ]


def test_shared_place_and_partly_broken_three_way_tie() -> None:
    # Three on 3 points: Red wins tie-breaker 1; Purple and Green stay tied on all four.
    # Yellow has more points than anyone.
    same = {"larva": {"pink": 1}}
    state = _over(4, {0: ["white"], 1: ["white"], 2: ["white"], 3: ["white", "grey"]},
                  {0: same, 1: same, 2: {"consumed": {"grey": 1}}})
    out = final_outcome(state)
    assert out.ranking == [[3], [2], [0, 1]]
    assert english(out.explanation)[-4:] == [
        "Player 1 (Purple), Player 2 (Green) and Player 3 (Red) tie on 3 points.",
        "Tie-breaker 1 (consumed polyps in front of the screen): Player 1 (Purple) 0, Player 2 "
        "(Green) 0, Player 3 (Red) 1.",
        "Player 1 (Purple) and Player 2 (Green) are still equal after all four tie-breakers and "
        "share their place.",
        "Final ranking: 1. Player 4 (Yellow); 2. Player 3 (Red); 3. Player 1 (Purple) and Player "
        "2 (Green).",
    ]


def test_ranking_is_lexicographic_over_score_then_tie_breakers() -> None:
    rng = random.Random(11)
    colours = components().coral_colours
    for _ in range(100):
        seats = {i: {"consumed": {"grey": rng.randint(0, 2)}, "larva": {"pink": rng.randint(0, 2)},
                     "screen": {"white": rng.randint(0, 2)}} for i in range(4)}
        fish = {i: [rng.choice(colours) for _ in range(rng.randint(0, 3))] for i in range(4)}
        state = _over(4, fish, seats)
        out = final_outcome(state)
        key = {i: (out.scores[i], seats[i]["consumed"]["grey"], seats[i]["larva"]["pink"],
                   seats[i]["screen"]["white"]) for i in range(4)}
        flat = list(itertools.chain.from_iterable(out.ranking))
        assert sorted(flat) == [0, 1, 2, 3]
        assert [key[i] for i in flat] == sorted(key.values(), reverse=True)
        for g in out.ranking:
            assert len({key[i] for i in g}) == 1
        for a, b in itertools.pairwise(out.ranking):
            assert key[a[0]] > key[b[0]]
