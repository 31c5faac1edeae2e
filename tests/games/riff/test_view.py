"""What a seat may see: every owned thing and face-up card, never a face-down card's face nor
the piles' order (only their sizes)."""

from __future__ import annotations

import json

from pbem.games.riff import GAME
from pbem.games.riff.components import cross_name
from tests.games.riff.positions import FULL, build


def test_face_down_cards_and_the_piles_are_only_counted() -> None:
    state = build(FULL, players=[{"fish": ["red:m"], "corals": [("blue", None, None)]}, {}])
    for viewer in (None, 0, 1):
        view = GAME.view(state, viewer)
        text = json.dumps(view)
        hidden = [c for row in view["rows"] for c in row["cells"] if c and not c["up"]]
        assert len(hidden) == 16 and all(c == {"up": False} for c in hidden)
        assert view["pile"] == len(state.pile) and view["breeding_pile"] == 17
        assert [b["name"] for b in view["breeding"]] == [
            cross_name(c) for c in state.breeding_open if c]
        assert "fish:" not in text  # no raw card id (the hidden ones are ids in the state)
        assert view["players"][0]["fish"] == ["red:m"]
        assert view["players"][0]["corals"][0]["male"] == "blue"


def test_each_seat_sees_the_area_from_its_own_side() -> None:
    state = build(FULL)
    ann, ben = GAME.view(state, 0), GAME.view(state, 1)
    assert [r["name"] for r in ann["rows"]] == ["far", "far middle", "middle", "near"]
    assert ann["rows"][3]["cells"] == ben["rows"][0]["cells"]
    assert ann["rows"][3]["cost"] == 1 and ben["rows"][0]["cost"] == 3


def test_preferences_and_dice_are_public() -> None:
    state = build(FULL, dice=("pink", "green"), players=[{}, {"prefer": ["purple"]}])
    view = GAME.view(state, 0)
    assert view["dice"] == ["pink", "green"]
    assert view["players"][1]["prefer"][0] == "purple" and view["players"][1]["prefer_set"]
    assert not view["players"][0]["prefer_set"]
