"""Rulebook sentences (French text) that had no test of their own, one test each.

Board 2 is used throughout; its extra-growth space is 2:D4, kept away from unless wanted.
"""

from pbem.engine.chance import Chance
from pbem.games.reef_encounter import GAME
from pbem.games.reef_encounter.board import coral
from pbem.games.reef_encounter.state import State
from tests.games.reef_encounter.positions import build, play, refused

NINE_COVERED = {"1": "green", "2": "red", "3": "purple", "4": "green", "5": "red",
                "6": "blue", "8": "purple", "9": "blue", "10": "green"}


def _with(picture: str, **seat: object) -> State:
    return build({2: picture}, seats={0: dict(seat)})


def test_polyps_touching_only_diagonally_are_not_connected() -> None:
    # "Les polypes ne sont pas connectés s'ils sont en contact en diagonale."
    picture = """
~ ~ ~ . . . ~
. . . . . . ~
. . . . ~ . .
. ~ . . . . .
. . G . . . .
~ . . . . . ~
"""
    new = play(_with(picture, larva={"grey": 1}, screen={"grey": 1}), 0,
               "larva grey: 2B6\ntake white").state
    assert coral(new, "2:B6") == ["2:B6"] and coral(new, "2:C5") == ["2:C5"]


def test_two_single_polyp_corals_next_to_the_target_do_not_make_an_attacker() -> None:
    # "Un corail attaquant doit toujours être composé d'au moins deux polypes."
    picture = """
~ ~ ~ . . . ~
. . . . . . ~
. . . . ~ . .
. ~ . . . . .
. . W . . . .
~ W Y . . . ~
"""
    err = refused(_with(picture, larva={"white": 1}, screen={"white": 1}), 0,
                  "larva white: 2C6\ntake white")
    assert str(err) == ("the polyp on 2C6: white cannot attack the yellow polyp on 2C6: only a "
                        "coral "
                        "of at least two polyps may attack, and the white coral next to it has "
                        "one")


def test_a_stronger_coral_eats_whatever_the_size_of_the_target_coral() -> None:
    # "Les coraux plus forts peuvent toujours vaincre les coraux plus faibles, indépendamment de
    # la taille du corail cible." White dominates yellow on face a (coral tile 1).
    picture = """
~ ~ ~ . . . ~
Y Y Y Y Y Y ~
W W . . ~ . .
. ~ . . . . .
. . . . . . .
~ . . . . . ~
"""
    new = play(_with(picture, larva={"white": 1}, screen={"white": 1}), 0,
               "larva white: 2A2\ntake white").state
    assert new.polyps["2:A2"] == "white" and new.players[0].consumed == {"yellow": 1}


def test_a_polyp_merges_two_corals_when_only_one_holds_a_shrimp() -> None:
    # "Il peut cependant fusionner avec un corail de sa couleur, s'il n'y a pas une crevette sur
    # chacun des deux coraux."
    picture = """
~ ~ ~ . . . ~
G1 . G . . . ~
. . . . ~ . .
. ~ . . . . .
. . . . . . .
~ . . . . . ~
"""
    new = play(_with(picture, larva={"grey": 1}, screen={"grey": 1}), 0,
               "larva grey: 2B2\ntake white").state
    assert coral(new, "2:A2") == ["2:A2", "2:B2", "2:C2"]
    assert new.shrimps == {"2:A2": 0}


def test_the_polyps_of_one_larva_cube_may_go_on_different_corals() -> None:
    # "Tous les polypes joués dans le cadre d'une même action ne sont pas forcément joués sur le
    # même corail."
    picture = """
~ ~ ~ . . . ~
G . . . . . ~
. . . . ~ . .
. ~ . . . . .
. . . . . G .
~ . . . . . ~
"""
    new = play(_with(picture, larva={"grey": 1}, screen={"grey": 2}), 0,
               "larva grey: 2B2 2F6\ntake white").state
    assert coral(new, "2:A2") == ["2:A2", "2:B2"]
    assert coral(new, "2:F5") == ["2:F5", "2:F6"]


def test_a_shrimp_on_bare_rock_protects_nothing() -> None:
    # "Les crevettes protègent d'une attaque le polype sur lequel elles sont posées et tout autre
    # polype du même corail adjacent" — a shrimp moved onto bare rock stands on no polyp.
    picture = """
~ ~ ~ . . . ~
W W Y1 . . . ~
. . . . ~ . .
. ~ . . . . .
. . . . . . .
~ . . . . . ~
"""
    state = _with(picture, larva={"white": 1}, screen={"white": 1})
    assert "protected by purple's shrimp" in str(
        refused(state, 0, "larva white: 2C2\ntake white"))
    new = play(state, 0, "move shrimp 2C2 2C3\nlarva white: 2C2\nmove shrimp 2C3 2C2\n"
                         "take white").state
    assert new.polyps["2:C2"] == "white" and new.players[0].consumed == {"yellow": 1}
    assert new.shrimps == {"2:C2": 0}


def test_a_shrimp_move_before_action_1_rules_out_eating_this_turn() -> None:
    # "Si un joueur a déjà exécuté une action pendant son tour, le poisson perroquet ne peut pas
    # manger un corail pendant ce même tour." Action 5 counts (it comes "entre les actions 1 et
    # 9").
    picture = """
~ ~ ~ . . . ~
W1 W W W W . ~
. . . . ~ . .
. ~ . . . . .
. . . . . . .
~ . . . . . ~
"""
    err = refused(_with(picture), 0, "move shrimp 2A2 2B2\neat 2B2\ntake white")
    assert str(err) == ("step 1 (eat 2B2): action 1 (the parrotfish eats) may only be the first "
                        "action of a turn")


def test_a_refill_that_cannot_be_made_refills_nothing_and_gives_no_final_round() -> None:
    # Ruling (c): "Il n'y a pas suffisamment de polypes ou de cubes larve pour remplacer ceux pris
    # par un joueur à la fin de son tour" — the game stops there; only events 1 and 2 give a final
    # round ("Si la partie s'arrête suite aux événements 1 ou 2 ...").
    state = build({}, players=3, seats={0: {"larva": {"pink": 9}}},
                  open_sea={"grey": ["grey"], "pink": ["white"]})
    chance = Chance("no-refill")
    new = GAME.apply(state, 0, GAME.parse(state, 0, "take pink"), chance).state
    assert (new.phase, new.final_turns) == ("over", [])
    assert chance.draws == []  # nothing drawn: nothing refilled
    sea = {s["colour"]: (s["polyps"], s["larva"]) for s in new.open_sea}
    assert sea["pink"] == ([], 0) and sea["grey"] == (["grey"], 1)
    assert new.players[0].screen == {"white": 1}  # the take itself happened


def test_the_enders_shrimp_left_on_bare_rock_goes_back_behind_the_screen() -> None:
    # Ruling (b): the game stops at once ("La partie s'arrête immédiatement"), so a shrimp that
    # stands on bare rock at that moment goes home.
    picture = """
~ ~ ~ . . . ~
W1 W W W W W ~
. . . . ~ . .
. ~ . . . . .
. . . . . . .
~ . . . . . ~
"""
    state = build({2: picture}, players=3, cylinders=dict(NINE_COVERED),
                  seats={0: {"consumed": {"pink": 1}, "sea_shrimp": True,
                             "parrotfish": ["grey", "white"]}})
    hand = state.players[0].shrimps_in_hand
    new = play(state, 0, "move shrimp 2A2 2A3\nalga blue on tile 7 paying pink").state
    assert new.phase == "final" and new.shrimps == {}
    assert new.players[0].shrimps_in_hand == hand + 1


def test_in_the_advanced_game_action_8_may_still_take_a_bonus_polyp() -> None:
    # Ruling (e): advanced rule 1 only stops extra growth; the bonus polyps set aside at setup stay
    # the reserve action 8 may take from ("ou prenez le polype dans la réserve des polypes de
    # bonus") when the bag has none of that colour.
    state = build({}, seats={0: {"larva": {"grey": 1}}, 1: {}}, advanced=True)
    state.players[1].screen = {"grey": state.bag.pop("grey")}
    new = play(state, 0, "larva grey for polyp\ntake white").state
    assert new.players[0].screen.get("grey") == 1 and "grey" not in new.bonus


def test_nothing_may_follow_the_meal_that_eats_a_players_fourth_shrimp() -> None:
    # Ruling (b) for event 2: "La partie s'arrête immédiatement lorsqu'un des événements suivants
    # a lieu : [...] 2. Les quatre crevettes d'un joueur sont mangées par son poisson perroquet."
    picture = """
~ ~ ~ . . . ~
W1 W W W W W ~
. . . . ~ . .
. ~ . . . . .
. . . . . . .
~ . . . . . ~
"""
    state = build({2: picture}, players=3, seats={0: {"sea_shrimp": True, "fish_shrimps": 2}})
    err = refused(state, 0, "eat 2A2\ntake pink")
    assert str(err) == ("step 1 (take pink): the game ended earlier in this turn; nothing more "
                        "may be done")
    new = play(state, 0, "eat 2A2").state
    assert (new.phase, new.final_turns, new.to_move) == ("final", [1, 2], 1)
