"""A turn is one order: action order and limits, action 10 with refill, atomic application."""

import json
from typing import Any

from pbem.engine.chance import Chance
from pbem.games.reef_encounter import GAME
from pbem.games.reef_encounter.state import State
from tests.games.reef_encounter.positions import build, play, refused, texts

CORALS = """
~ ~ ~ . . . ~
. W W . G . ~
. . . . ~ G .
. ~ P . . . .
. . P . . . .
~ . . . . . ~
"""


def _state(**fields: Any) -> State:
    seat = {"larva": {"white": 2, "grey": 1}, "screen": {"white": 6, "grey": 2},
            "consumed": {"pink": 1}}
    return build({2: CORALS}, seats={0: seat},
                 open_sea={"pink": ["grey", "white"], "white": ["pink"]}, **fields)


def test_action_10_takes_the_larva_cube_and_its_polyps() -> None:
    state = _state()
    applied = play(state, 0, "take pink")
    me = applied.state.players[0]
    assert me.larva == {"white": 2, "grey": 1, "pink": 1}
    assert me.screen == {"white": 7, "grey": 3}
    assert ("Purple took the pink larva cube and grey, white from the open sea."
            in texts(applied))


def test_action_10_refills_the_cube_and_one_polyp_per_space_below_three() -> None:
    state = _state()
    chance = Chance("refill")
    new = GAME.apply(state, 0, GAME.parse(state, 0, "take pink"), chance).state
    sizes = {s["colour"]: len(s["polyps"]) for s in new.open_sea}
    assert sizes == {"pink": 1, "white": 2, "grey": 1, "orange": 1, "yellow": 1}
    assert all(s["larva"] == 1 for s in new.open_sea)
    assert new.larva_supply["pink"] == state.larva_supply["pink"] - 1
    assert [d.label for d in chance.draws] == [
        "refill white space", "refill yellow space", "refill orange space", "refill pink space",
        "refill grey space"]


def test_action_10_is_compulsory() -> None:
    err = refused(_state(), 0, "larva white: 2D2")
    assert str(err) == ("your turn cannot end like this: every turn ends with action 10: take a "
                        "larva cube and its polyps from the open sea, e.g. \"take pink\"")


def test_action_10_is_the_last_action() -> None:
    err = refused(_state(), 0, "take pink\nlarva white: 2D2")
    assert str(err) == "step 1 (larva white): action 10 (take) ends the turn; nothing may follow it"
    err = refused(_state(), 0, "take pink\ntake white")
    assert err.step == 1 and err.line == 2  # the first step of line 2


def test_actions_2_and_3_once_each_and_3_may_repeat_the_colour_of_2() -> None:
    state = _state()
    new = play(state, 0, "larva white: 2D2\nlarva white: 2A2\ntake pink").state
    assert new.polyps["2:D2"] == new.polyps["2:A2"] == "white"
    err = refused(state, 0, "larva white: 2D2\nlarva white: 2A2\nlarva grey: 2F4\ntake pink")
    assert str(err) == ("step 1 (larva grey): you have already played two larva cubes this turn "
                        "(actions 2 and 3)")


def test_an_action_is_finished_before_the_next_begins() -> None:
    err = refused(_state(), 0, "larva white: 2D2\nconsumed pink for larva\nplace 2A2\ntake pink")
    assert str(err) == ("step 1 (2A2): polyps are placed right after their larva cube; another "
                        "action came in between (only shrimp moves may)")


def test_once_action_3_places_a_polyp_no_more_polyps_of_action_2_may_be_placed() -> None:
    new = play(_state(), 0, "larva white: 2D2\nlarva grey: 2F4\nplace 2A2\ntake pink").state
    assert new.polyps["2:A2"] == "grey"  # "place" continues the open action, now grey


def test_action_6_trades_a_consumed_polyp_for_a_larva_cube_of_its_colour() -> None:
    state = _state()
    applied = play(state, 0, "consumed pink for larva\ntake white")
    me = applied.state.players[0]
    assert me.consumed == {} and me.larva["pink"] == 1
    assert "Purple traded a consumed pink polyp for a pink larva cube." in texts(applied)
    err = refused(state, 0, "consumed white for larva\ntake white")
    assert str(err) == ("step 1 (consumed white for larva): you have no consumed white polyp in "
                        "front of your screen")


def test_action_6_needs_a_cube_in_the_supply() -> None:
    state = _state()
    state.larva_supply["pink"] = 0
    err = refused(state, 0, "consumed pink for larva\ntake white")
    assert str(err) == "step 1 (consumed pink for larva): no pink larva cube is left in the supply"


def test_action_8_trades_a_larva_cube_for_a_polyp_of_its_colour_from_the_bag() -> None:
    state = _state()
    applied = play(state, 0, "larva grey for polyp\ntake white")
    new = applied.state
    assert new.players[0].screen["grey"] == 3 and "grey" not in new.players[0].larva
    assert new.larva_supply["grey"] == state.larva_supply["grey"] + 1


def test_action_8_takes_the_bonus_polyp_when_the_bag_has_none_of_that_colour() -> None:
    state = _state()
    state.players[1].screen = {"grey": state.bag.pop("grey")}
    new = play(state, 0, "larva grey for polyp\ntake white").state
    assert new.players[0].screen["grey"] == 3 and "grey" not in new.bonus
    state.bonus.pop("grey")
    state.players[1].screen["grey"] += 1
    err = refused(state, 0, "larva grey for polyp\ntake white")
    assert str(err) == "step 1 (larva grey for polyp): no grey polyp is left in the bag"


def test_action_9_does_nothing() -> None:
    new = play(_state(), 0, "pass\ntake white").state
    assert new.polyps == _state().polyps


def test_only_the_player_to_move_may_play() -> None:
    err = refused(_state(), 1, "take white")
    assert str(err) == "it is Purple's turn, not yours"


def test_turns_go_round_in_seat_order() -> None:
    state = _state(players=3)
    new = play(state, 0, "take white").state
    assert (new.to_move, new.turn) == (1, 1)
    new = play(new, 1, "take pink").state
    new = play(new, 2, "take grey").state
    assert (new.to_move, new.turn) == (0, 3)


def test_a_refused_order_leaves_the_state_unchanged_and_names_step_and_line() -> None:
    state = _state()
    before = state.to_json()
    err = refused(state, 0, "larva white: 2D2\n# comment\nshrimp new 2D2\nlarva grey: 2A1\n"
                            "take pink")
    assert (err.step, err.line) == (2, 4)  # the 2nd step of line 4, as the player wrote it
    assert str(err) == "the polyp on 2A1: 2A1 is sand; nothing can stand there"
    assert state.to_json() == before


def test_the_setup_step_comes_first() -> None:
    state = GAME.setup(2, GAME.default_options(), Chance("setup"))
    err = refused(state, 0, "take pink")
    assert str(err) == ("the game has not started yet: first answer the setup step, e.g. "
                        "\"parrotfish pink; larvae white yellow\"")
    err = refused(_state(), 0, "parrotfish pink; larvae white yellow")
    assert str(err) == ("step 1 (parrotfish pink; larvae white yellow): the setup step is over")


def test_setup_answers_are_secret_until_everyone_has_answered() -> None:
    state = GAME.setup(2, GAME.default_options(), Chance("setup"))
    fish = sorted(state.players[0].screen)[0]
    first = play(state, 0, f"parrotfish {fish}; larvae white yellow")
    assert texts(first) == ["Purple has answered the setup step."]
    assert GAME.waiting_for(first.state) == frozenset({1})
    fish = sorted(state.players[1].screen)[0]
    second = play(first.state, 1, f"parrotfish {fish}; larvae pink pink")
    assert texts(second)[1:] == [
        "Everyone has answered. Larva cubes taken — Purple: white, yellow; Green: pink, pink.",
        f"The game begins: {second.state.players[state.start_player].colour.capitalize()} "
        "plays first."]
    assert GAME.waiting_for(second.state) == frozenset({state.start_player})


def test_json_round_trip_is_exact() -> None:
    state = _state(cylinders={"7": "blue"}, alga_space="red", final_turns=[1],
                   end_reason="why", phase="final", advanced=True)
    data = GAME.to_json(state)
    text = json.dumps(data, sort_keys=True)
    again = GAME.from_json(json.loads(text))
    assert again == state
    assert json.dumps(GAME.to_json(again), sort_keys=True) == text


def test_actions_5_to_8_may_be_repeated() -> None:
    picture = CORALS.replace(". W W . G . ~", ". W1 W . G . ~")
    seat = {"larva": {"white": 2, "grey": 1}, "screen": {"white": 1},
            "consumed": {"pink": 2, "orange": 2}}
    state = build({2: picture}, seats={0: seat})
    order = """\
move shrimp 2B2 to 2C2
move shrimp 2C2 to 2F3
consumed pink for larva
consumed pink for larva
alga blue on space paying orange
alga red on space paying orange
larva white for polyp
larva grey for polyp
take white
"""
    new = play(state, 0, order).state
    me = new.players[0]
    assert new.shrimps == {"2:F3": 0}
    assert me.consumed == {}
    assert me.larva == {"white": 2, "pink": 2}
    assert me.screen == {"white": 2, "grey": 1}
    assert (new.alga_space, new.alga_supply["blue"]) == ("red", 5)


def test_setup_picks_do_not_show_in_other_seats_views_until_all_have_answered() -> None:
    state = GAME.setup(2, GAME.default_options(), Chance("secret"))
    fish = sorted(state.players[0].screen)[0]
    answered = play(state, 0, f"parrotfish {fish}; larvae white white").state
    for seat in (1, None):
        assert GAME.view(answered, seat) == GAME.view(_as_answered(state), seat)
    assert GAME.view(answered, 0)["players"][0]["larvae"] == {"white": 2}
    assert GAME.view(answered, 0)["larva_supply"]["white"] == 7


def _as_answered(state: State) -> State:
    """The state with seat 0 marked as answered but nothing visible to others changed."""
    other = state.copy()
    other.players[0].answered_setup = True
    fish = sorted(state.players[0].screen)[0]
    other.players[0].screen[fish] -= 1
    if not other.players[0].screen[fish]:
        del other.players[0].screen[fish]
    return other
