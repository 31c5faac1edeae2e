"""Views show what RULINGS.md lets a seat see, and nothing else."""

import json

from pbem.engine.chance import Chance
from pbem.games.reef_encounter.render import board_grid, reef_svg
from pbem.games.reef_encounter.setup import setup
from pbem.games.reef_encounter.state import State
from pbem.games.reef_encounter.view import view


def _state() -> State:
    state = setup(3, {}, Chance("view"))
    state.players[1].parrotfish = ["pink"]
    return state


def test_views_differing_only_in_one_screen_are_identical_for_the_other_seats() -> None:
    state = _state()
    state.players[1].screen = {"pink": 5, "white": 2}
    other = state.copy()
    other.players[1].screen = {"grey": 7}  # same count behind the screen, other colours
    for seat in (0, 2, None):
        assert view(state, seat) == view(other, seat)
    assert view(state, 1) != view(other, 1)


def test_another_seats_parrotfish_is_never_shown() -> None:
    state = _state()
    other = state.copy()
    other.players[1].parrotfish = ["white"]
    for seat in (0, 2, None):
        assert view(state, seat) == view(other, seat)
    assert view(state, 1)["you"]["parrotfish"] == ["pink"]


def test_the_bag_is_never_shown() -> None:
    state = _state()
    other = state.copy()
    other.bag["grey"] -= 1
    other.bag["pink"] += 1
    for seat in (0, 1, 2, None):
        assert view(state, seat) == view(other, seat)


def test_polyp_and_shrimp_counts_behind_screens_and_larvae_are_public() -> None:
    state = _state()
    state.players[2].larva = {"white": 1, "yellow": 1}
    state.phase = "play"  # during the secret setup step the picks are hidden (test_turn.py)
    public = view(state, None)
    assert "you" not in public
    assert [p["polyps_behind"] for p in public["players"]] == [
        sum(s.screen.values()) for s in state.players
    ]
    assert public["players"][2]["larvae"] == {"white": 1, "yellow": 1}
    assert all(p["shrimps_behind"] == 4 for p in public["players"])


def test_own_view_shows_own_screen_colours() -> None:
    state = _state()
    assert view(state, 0)["you"]["polyps"] == state.players[0].screen


def test_view_has_the_layout_render_reads_and_is_json() -> None:
    state = _state()
    v = view(state, 0)
    json.dumps(v)
    assert len(v["boards"]) == 3
    assert all(len(b["rows"]) == 6 and len(b["rows"][0]) == 7 for b in v["boards"])
    assert len(v["open_sea"]) == 5 and len(v["tiles"]) == 10
    grid = board_grid(v["boards"][0])
    assert len(grid.splitlines()) >= 6
    assert "<svg" in str(reef_svg(v))


def test_tiles_show_the_tossed_face_and_flipped_tiles_the_other() -> None:
    state = _state()
    state.coral_face = "a"
    state.flipped_tiles = [3]
    tiles = {t["number"]: t for t in view(state, None)["tiles"]}
    assert (tiles[1]["strong"], tiles[1]["weak"]) == ("white", "yellow")
    assert (tiles[3]["strong"], tiles[3]["weak"]) == ("white", "pink")


def test_coral_values_count_the_tiles_showing_each_coral_on_top() -> None:
    state = _state()
    state.coral_face = "a"  # on face "a" every coral is on top of two tiles
    assert view(state, None)["coral_values"] == {c: 3 for c in
                                                 ("grey", "orange", "pink", "white", "yellow")}
    state.flipped_tiles = [3]  # tile 3 now shows white over pink
    values = view(state, None)["coral_values"]
    assert (values["white"], values["pink"]) == (4, 2)


def test_at_the_end_every_screen_and_parrotfish_is_shown_to_all() -> None:
    state = _state()
    assert "parrotfish" not in view(state, 0)["players"][1]
    state.phase = "over"
    for seat in (0, 2, None):
        ben = view(state, seat)["players"][1]
        assert ben["parrotfish"] == ["pink"] and ben["polyps"] == state.players[1].screen
        assert ben["score"] == view(state, seat)["coral_values"]["pink"]


def test_only_the_seat_to_move_gets_an_example_order() -> None:
    state = _state()
    assert all(view(state, s)["you"]["to_move"] for s in range(3))  # setup: all answer
    assert "parrotfish" in view(state, 0)["you"]["example"]
    for seat in state.players:
        seat.answered_setup = True
    state.phase, state.to_move = "play", 2
    assert [view(state, s)["you"]["to_move"] for s in range(3)] == [False, False, True]
    assert view(state, 2)["you"]["example"].startswith("take ")
    assert "example" not in view(state, 0)["you"]
