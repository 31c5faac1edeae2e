"""Shrimp and supply sentences of the French rulebook that had no test of their own."""

from tests.games.reef_encounter.positions import build, play, refused

ON_1 = """
~ ~ ~ . . . ~
~ Y1 . . . . ~
. . ~ . . . .
. . . . . ~ .
. . . ~ . . .
. . . . . . .
"""


def test_a_shrimp_may_not_move_onto_a_coral_that_holds_another_shrimp() -> None:
    # "Deux crevettes ne peuvent pas se trouver sur le même corail."
    picture = """
~ ~ ~ . . . ~
. W2 W . G1 . ~
. . . . ~ . .
. ~ . . . . .
. . . . . . .
~ . . . . . ~
"""
    err = refused(build({2: picture}), 0, "move shrimp 2E2 to 2C2\ntake white")
    assert str(err) == ("step 1 (move shrimp 2E2 to 2C2): the white coral on 2C2 already has a "
                        "shrimp (green's, on 2B2); one shrimp per coral")


def test_a_shrimp_resting_on_bare_rock_counts_towards_two_per_board() -> None:
    # "Aucun joueur ne peut avoir à aucun moment plus de deux de ses crevettes sur un rocher."
    picture = """
~ ~ ~ . . . ~
. W1 . . G1 . ~
. . . . ~ . .
. ~ . . . . .
. . . . . . .
~ . . . . . ~
"""
    state = build({2: picture, 1: ON_1})
    err = refused(state, 0, "move shrimp 1B2 to 2A5\ntake white")
    assert str(err) == ("step 1 (move shrimp 1B2 to 2A5): you already have two shrimps on board 2; "
                        "at most two per board")


def test_two_shrimp_held_corals_cannot_be_joined_by_an_attack_either() -> None:
    # "Deux coraux de même couleur séparés de deux cases et protégés par des crevettes adverses
    # ne peuvent se rejoindre." The yellow polyp between them is unprotected (another coral),
    # white dominates yellow, yet eating it would join the two shrimp-held white corals.
    picture = """
~ ~ ~ . . . ~
W1 W Y W W2 . ~
. . . . ~ . .
. ~ . . . . .
. . . . . . .
~ . . . . . ~
"""
    state = build({2: picture}, seats={0: {"larva": {"white": 1}, "screen": {"white": 1}}})
    err = refused(state, 0, "larva white: 2C2\ntake white")
    assert str(err) == ("the polyp on 2C2: a white polyp on 2C2 would join two white corals that "
                        "both "
                        "hold a shrimp")


def test_the_larva_cube_played_goes_to_the_supply_by_the_open_sea() -> None:
    # Action 2: "il ajoute ce cube à la réserve de cubes à côté du plateau de pleine mer."
    state = build({}, seats={0: {"larva": {"grey": 1}, "screen": {"grey": 1}}})
    new = play(state, 0, "larva grey: 2A2\ntake white").state
    assert new.larva_supply["grey"] == state.larva_supply["grey"] + 1
    assert new.players[0].larva == {"white": 1}  # only the cube taken by action 10


def test_action_6_puts_the_consumed_polyp_into_the_bag() -> None:
    # Action 6: "Le polype est placé dans le sac."
    state = build({}, seats={0: {"consumed": {"pink": 1}}})
    new = play(state, 0, "consumed pink for larva\ntake white").state
    refill = sum(new.bag.values()) - sum(state.bag.values())
    assert refill == 1 - 5  # one polyp in, one drawn for each of the five open-sea spaces
    assert new.players[0].larva == {"pink": 1, "white": 1}
