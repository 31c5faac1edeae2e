"""The French rulebook's worked example ('Attaquer d'autres coraux'): Red's turn.

Red has 3 yellow and 4 white polyps, a yellow and a white larva cube behind the screen and one
consumed white polyp in front. White and yellow beat orange, pink beats white, yellow beats pink
(all tiles on face a). Action 2: yellow grows to three polyps (cell 1) and eats two oranges
(cells 2, 3). Action 7: one of those oranges pays for a purple alga on the yellow/pink tile, which
flips the pink/white tile, so white now beats pink. Action 3: the white larva, four white polyps
from behind the screen and the consumed one: a new coral (cells 4, 5) eats two oranges (6, 7)
and a pink (8). Action 4: a shrimp on cell 4 protects the new white coral. Then action 10.
"""

from pbem.games.reef_encounter.board import coral, dominates, protector
from pbem.games.reef_encounter.state import State
from tests.games.reef_encounter.positions import build, play, refused, texts

RED = 2  # players are purple, green, red, yellow in seat order

# Numbers in the comments are the example's cells: 1 = 2C5, 2 = 2B6, 3 = 2C6 (yellow),
# 4 = 2D2, 5 = 2E2, 6 = 2F2, 7 = 2F3, 8 = 2G3 (white).
BEFORE = """
~ ~ ~ . . . ~
. . . . . O ~
. . . . ~ O P
. ~ . . . . P
Y Y3 . . . . P1
~ O O . . . ~
"""
AFTER = """
~ ~ ~ . . . ~
. . . W3 W W ~
. . . . ~ W W
. ~ . . . . P
Y Y3 Y . . . P1
~ Y Y . . . ~
"""

ORDER = """\
larva yellow: 2C5 2B6 2C6
alga purple on tile 8 paying orange
larva white: 2D2 2E2 2F2 2F3 consumed 2G3
shrimp new 2D2
take grey
"""


def _before() -> State:
    red = {"screen": {"yellow": 3, "white": 4}, "larva": {"yellow": 1, "white": 1},
           "consumed": {"white": 1}, "sea_shrimp": True, "parrotfish": ["grey", "pink"]}
    return build({2: BEFORE}, players=3, to_move=RED, seats={RED: red},
                 open_sea={"grey": ["pink", "white"]})


def test_reds_turn_from_the_rulebook() -> None:
    state = _before()
    assert dominates(state, "yellow", "orange")[0] and dominates(state, "white", "orange")[0]
    assert dominates(state, "pink", "white")[0] and dominates(state, "yellow", "pink")[0]
    applied = play(state, RED, ORDER)
    new = applied.state
    expected = build({2: AFTER}, players=3)
    assert {k: v for k, v in new.polyps.items() if k.startswith("2:")} == {
        k: v for k, v in expected.polyps.items() if k.startswith("2:")}
    assert new.shrimps == expected.shrimps
    me = new.players[RED]
    # Three of the four oranges and the pink lie in front of Red's screen.
    assert me.consumed == {"orange": 3, "pink": 1}
    assert me.screen == {"pink": 1, "white": 1}  # taken with the grey cube
    assert new.cylinders == {"8": "purple"}
    assert new.flipped_tiles == [3]
    assert dominates(new, "white", "pink") == (True, 3)
    # The new white coral, and the shrimp protecting it.
    assert coral(new, "2:D2") == ["2:D2", "2:E2", "2:F2", "2:F3", "2:G3"]
    assert protector(new, "2:E2") == "2:D2"
    assert texts(applied) == [
        "Red played a yellow larva cube (action 2).",
        "Red placed a yellow polyp on 2C5.",
        "Red placed a yellow polyp on 2B6, eating the orange polyp there (now in front of Red's "
        "screen).",
        "Red placed a yellow polyp on 2C6, eating the orange polyp there (now in front of Red's "
        "screen).",
        "Red paid a consumed orange polyp for a purple alga and put it on coral tile 8, locking "
        "it; coral tiles flipped: 3.",
        "Red played a white larva cube (action 3).",
        "Red placed a white polyp on 2D2.",
        "Red placed a white polyp on 2E2.",
        "Red placed a white polyp on 2F2, eating the orange polyp there (now in front of Red's "
        "screen).",
        "Red placed a white polyp on 2F3, eating the orange polyp there (now in front of Red's "
        "screen).",
        "Red placed a white polyp on 2G3, eating the pink polyp there (now in front of Red's "
        "screen).",
        "Red put a new shrimp on the white coral at 2D2.",
        "Red took the grey larva cube and pink, white from the open sea.",
    ]


def test_without_the_alga_white_could_not_eat_the_pink() -> None:
    state = _before()
    order = ORDER.replace("alga purple on tile 8 paying orange\n", "")
    err = refused(state, RED, order)
    assert str(err) == ("the polyp on 2G3: white cannot attack pink here — pink dominates white "
                        "(coral tile 3)")
