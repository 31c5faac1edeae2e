"""Attacks: coral of 2+, dominance from the tiles as they lie now, shrimp protection, splits."""

from pbem.games.reef_encounter.board import coral, dominates
from tests.games.reef_encounter.positions import build, play, refused, texts

# Face a: white > orange (tile 2), pink > white (tile 3), orange > pink (tile 10).
WHITE_PAIR_ORANGE = """
~ ~ ~ . . . ~
. W W O . . ~
. . . O ~ . .
. ~ . . . . .
. . . . . . .
~ . . . . . ~
"""


def _me(**seat: object) -> dict[int, dict[str, object]]:
    base: dict[str, object] = {"larva": {"white": 1, "pink": 1, "orange": 1},
                               "screen": {"white": 4, "pink": 4, "orange": 4}}
    base.update(seat)
    return {0: base}


def test_an_attack_eats_an_adjacent_dominated_unprotected_polyp() -> None:
    state = build({2: WHITE_PAIR_ORANGE}, seats=_me())
    applied = play(state, 0, "larva white: 2D2\ntake white")
    new = applied.state
    assert new.polyps["2:D2"] == "white"
    assert new.players[0].consumed == {"orange": 1}  # in front of the attacker's screen
    assert coral(new, "2:B2") == ["2:B2", "2:C2", "2:D2"]
    assert ("Purple placed a white polyp on 2D2, eating the orange polyp there (now in front of "
            "Purple's screen).") in texts(applied)


def test_the_attacking_coral_needs_at_least_two_polyps() -> None:
    picture = WHITE_PAIR_ORANGE.replace(". W W O . . ~", ". . W O . . ~")
    err = refused(build({2: picture}, seats=_me()), 0, "larva white: 2D2\ntake white")
    assert str(err) == ("the polyp on 2D2: white cannot attack the orange polyp on 2D2: only a "
                        "coral "
                        "of at least two polyps may attack, and the white coral next to it has one")


def test_an_attack_needs_a_coral_of_the_attackers_colour_next_to_the_target() -> None:
    err = refused(build({2: WHITE_PAIR_ORANGE}, seats=_me()), 0, "larva white: 2D3\ntake white")
    assert str(err) == ("the polyp on 2D3: white cannot attack the orange polyp on 2D3: no white "
                        "coral is next to it")


def test_dominance_comes_from_the_coral_tile_of_the_pair() -> None:
    picture = """
~ ~ ~ . . . ~
. W W P . . ~
. . . . ~ . .
. ~ . . . . .
. . . . . . .
~ . . . . . ~
"""
    err = refused(build({2: picture}, seats=_me()), 0, "larva white: 2D2\ntake white")
    assert str(err) == ("the polyp on 2D2: white cannot attack pink here — pink dominates white "
                        "(coral tile 3)")


def test_dominance_is_read_from_the_tiles_as_they_lie_now() -> None:
    picture = """
~ ~ ~ . . . ~
. W W P . . ~
. . . . ~ . .
. ~ . . . . .
. . . . . . .
~ . . . . . ~
"""
    flipped = build({2: picture}, seats=_me(), flipped_tiles=[3])
    assert dominates(flipped, "white", "pink") == (True, 3)
    new = play(flipped, 0, "larva white: 2D2\ntake white").state
    assert new.polyps["2:D2"] == "white"
    on_b = build({2: picture}, seats=_me(), face="b")  # all tiles tossed to face b
    assert play(on_b, 0, "larva white: 2D2\ntake white").state.polyps["2:D2"] == "white"


def test_a_coral_never_attacks_its_own_colour() -> None:
    err = refused(build({2: WHITE_PAIR_ORANGE}, seats=_me()), 0, "larva white: 2C2\ntake white")
    assert str(err) == ("the polyp on 2C2: 2C2 already holds a white polyp (a coral never attacks "
                        "its own colour)")


def test_a_shrimp_protects_the_polyp_it_stands_on() -> None:
    picture = WHITE_PAIR_ORANGE.replace(". W W O . . ~", ". W W O2 . . ~")
    err = refused(build({2: picture}, seats=_me()), 0, "larva white: 2D2\ntake white")
    assert str(err) == ("the polyp on 2D2: the orange polyp on 2D2 is protected by green's "
                        "shrimp on it")


def test_a_shrimp_protects_orthogonally_adjacent_polyps_of_its_coral() -> None:
    picture = WHITE_PAIR_ORANGE.replace(". . . O ~ . .", ". . . O2 ~ . .")
    err = refused(build({2: picture}, seats=_me()), 0, "larva white: 2D2\ntake white")
    assert str(err) == ("the polyp on 2D2: the orange polyp on 2D2 is protected by green's "
                        "shrimp on "
                        "2D3")


def test_a_shrimp_does_not_protect_polyps_two_cells_away_in_its_coral() -> None:
    picture = """
~ ~ ~ . . . ~
. W W O . . ~
. . . O ~ . .
. ~ . O2 . . .
. . . . . . .
~ . . . . . ~
"""
    new = play(build({2: picture}, seats=_me()), 0, "larva white: 2D2\ntake white").state
    assert new.polyps["2:D2"] == "white"


def test_a_shrimp_does_not_protect_an_adjacent_polyp_of_another_coral() -> None:
    picture = """
~ ~ ~ . . . ~
. W W O . . ~
. . . P2 ~ . .
. ~ . . . . .
. . . . . . .
~ . . . . . ~
"""
    new = play(build({2: picture}, seats=_me()), 0, "larva white: 2D2\ntake white").state
    assert new.polyps["2:D2"] == "white"


def test_a_coral_split_by_an_attack_becomes_separate_corals_and_shrimps_stay_put() -> None:
    picture = """
~ ~ ~ . . . ~
. O2 O O O . ~
. . . W ~ . .
. ~ . W . . .
. . . . . . .
~ . . . . . ~
"""
    new = play(build({2: picture}, seats=_me()), 0, "larva white: 2D2\ntake white").state
    assert coral(new, "2:B2") == ["2:B2", "2:C2"]
    assert coral(new, "2:E2") == ["2:E2"]
    assert new.shrimps == {"2:B2": 1}


def test_anyone_may_grow_another_players_coral_and_attack_with_it() -> None:
    picture = """
~ ~ ~ . . . ~
. W2 . O . . ~
. . . . ~ . .
. ~ . . . . .
. . . . . . .
~ . . . . . ~
"""
    state = build({2: picture}, seats=_me())
    new = play(state, 0, "larva white: 2C2 2D2\ntake white").state
    assert new.polyps["2:D2"] == "white" and new.players[0].consumed == {"orange": 1}


def test_extra_growth_follows_an_attack_too() -> None:
    picture = """
~ ~ ~ . . . ~
. . . . . . ~
. . W O ~ . .
. ~ W . . . .
. . . . . . .
~ . . . . . ~
"""
    new = play(build({2: picture}, seats=_me()), 0, "larva white: 2D3\ntake white").state
    assert new.polyps["2:D3"] == "white" and new.polyps["2:D4"] == "white"
