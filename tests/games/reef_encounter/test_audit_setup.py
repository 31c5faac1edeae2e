"""Setup sentences of the French 'Mise en place' not covered elsewhere, audited.

"Piochez une tuile polype du sac. La couleur de cette tuile indique la première des grandes
zones ... Remettez le polype dans le sac. Ensuite ... 3 polypes dans la zone indiquée ..."
"""

from pbem.engine.chance import Chance
from pbem.games.reef_encounter import GAME
from pbem.games.reef_encounter.components import components
from pbem.games.reef_encounter.setup import setup


def test_the_open_sea_deal_starts_with_three_polyps_on_the_drawn_colours_space() -> None:
    clockwise = list(components().open_sea_clockwise)
    seen = set()
    for seed in range(12):
        chance = Chance(f"deal-{seed}")
        state = setup(2, {}, chance)
        (drawn,) = [d.shown for d in chance.draws if d.label == "first open-sea space"]
        seen.add(drawn)
        first = clockwise.index(drawn)
        sizes = [len(state.open_sea[(first + i) % 5]["polyps"]) for i in range(5)]
        assert state.open_sea[first]["colour"] == drawn
        assert sizes == [3, 3, 3, 2, 1]
    assert len(seen) > 1  # the drawn colour really varies


def test_the_polyp_drawn_to_choose_the_first_space_goes_back_into_the_bag() -> None:
    chance = Chance("deal-back")
    state = setup(2, {}, chance)
    # The bag gave 12 polyps to the open sea and 15 to the seats; the drawn one came back.
    assert sum(state.bag.values()) == 200 - 2 * 5 - 5 - 12 - (6 + 9)


def test_the_advanced_game_still_sets_the_five_bonus_polyps_aside() -> None:
    # Advanced rule 1 removes only the extra growth ("pas de tuiles bonus si on place des polypes
    # à côté d'une case de croissance supplémentaire"); the setup text is unchanged.
    state = GAME.setup(3, {"advanced": True}, Chance("advanced-setup"))
    assert state.advanced
    assert state.bonus == {c: 1 for c in components().coral_colours}


def test_each_seat_gets_four_shrimps_and_nothing_else_before_the_secret_step() -> None:
    state = setup(4, {}, Chance("seats"))
    for seat in state.players:
        assert (seat.shrimps_in_hand, seat.larva, seat.consumed, seat.parrotfish) == (4, {}, {}, [])
