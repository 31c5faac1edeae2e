"""The parser's fast path for canonical lines builds exactly the tree lark builds, or none."""

import random

import pytest
from lark import Token
from lark.exceptions import UnexpectedInput

from pbem.engine.chance import Chance
from pbem.games.reef_encounter import GAME
from pbem.games.reef_encounter.parse import _canonical_tree, _lower, _parser, _segments


def _same_as_lark(line: str) -> bool:
    """True if the fast path took the line; fails if its tree differs from lark's in any way."""
    fast = _canonical_tree(line)
    if fast is None:
        return False
    slow = _parser().parse(line)
    assert fast == slow
    fast_tokens = list(fast.scan_values(lambda v: isinstance(v, Token)))
    slow_tokens = list(slow.scan_values(lambda v: isinstance(v, Token)))
    assert [(t.type, t.start_pos, t.end_pos, t.column, t.end_column) for t in fast_tokens] == [
        (t.type, t.start_pos, t.end_pos, t.column, t.end_column) for t in slow_tokens]
    return True


@pytest.mark.parametrize("line", [
    "take pink", "larva white: 2d2 2e2 consumed 2g3", "larva white", "place 2d2",
    "place 2d2 consumed 2e3", "consumed 2d2 2e3", "shrimp new 2f4", "eat 2a2",
    "larva grey: consumed 2a1",
])
def test_canonical_lines_take_the_fast_path_with_lark_s_tree(line: str) -> None:
    assert _same_as_lark(line)


@pytest.mark.parametrize("line", [
    "take t", "take pink larva", "larva white for polyp", "larva w: 2d2", "consumed pink for larva",
    "move shrimp 2f4 home", "alga blue on tile 7 paying pink", "pass", "larva white 2d2",
    "take  pink", "place 2 d 2", "eat 2a2 2b2", "larva white: 2d2 banana", "shrimp 2f4",
])
def test_other_lines_go_to_lark(line: str) -> None:
    assert _canonical_tree(line) is None


@pytest.mark.parametrize("line", ["take", "larva white: 2d2 banana", "eat 2a2 2b2", "place"])
def test_lines_lark_refuses_never_take_the_fast_path(line: str) -> None:
    with pytest.raises(UnexpectedInput):
        _parser().parse(line)
    assert _canonical_tree(line) is None


def test_every_bot_line_parses_the_same_either_way() -> None:
    taken = 0
    for game in range(4):
        chance = Chance(f"fast-{game}")
        state = GAME.setup(4, {}, chance)
        rng = random.Random(game)
        while GAME.waiting_for(state):
            seat = min(GAME.waiting_for(state))
            text = GAME.random_order(state, seat, rng)
            taken += sum(_same_as_lark(_lower(line.raw)) for line in _segments(text))
            state = GAME.apply(state, seat, GAME.parse(state, seat, text), chance).state
    assert taken > 100
