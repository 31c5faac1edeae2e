"""The parser's fast path (canonical.py) reads exactly what the grammar reads, or declines."""

import random

import pytest

from pbem.engine.chance import Chance
from pbem.engine.errors import OrderSyntaxError
from pbem.games.reef_encounter import GAME
from pbem.games.reef_encounter.canonical import canonical_steps, read_canonical
from pbem.games.reef_encounter.parse import parse_order, parse_with_grammar


def _bot_orders(games: int) -> list[str]:
    texts = []
    for i in range(games):
        rng = random.Random(f"canonical-{i}")
        state = GAME.setup(2 + i % 3, {"advanced": i % 2 == 1}, Chance(f"canonical-{i}"))
        n = 0
        while waiting := GAME.waiting_for(state):
            seat = min(waiting)
            text = GAME.random_order(state, seat, rng)
            texts.append(text)
            state = GAME.apply(state, seat, GAME.parse(state, seat, text),
                               Chance(f"canonical-{i}/{n}")).state
            n += 1
    return texts


def _agree(text: str) -> bool:
    """True if the fast path took ``text``; fails if it read it differently from the grammar."""
    fast = read_canonical(text)
    try:
        slow = parse_with_grammar(text)
    except OrderSyntaxError:
        assert fast is None  # what the grammar refuses, the fast path never accepts
        return False
    assert fast is None or fast == slow
    assert parse_order(text) == slow
    return fast is not None


def test_every_bot_order_takes_the_fast_path_and_reads_the_same() -> None:
    texts = _bot_orders(6)
    setup = [t for t in texts if t.startswith("parrotfish")]
    assert setup  # the setup answers (with ";") go the long way
    for text in texts:
        assert _agree(text) is (text not in setup), text


@pytest.mark.parametrize("line", [
    "take pink", "pass", "eat 2a2", "shrimp new 2f4", "move shrimp 2f4 home",
    "move shrimp 2f4 to 3g1", "larva white", "larva white for polyp", "consumed pink for larva",
    "larva white: 2d2 2e2 consumed 2g3", "place 2d2 consumed 2e3", "consumed 2d2 2e3",
    "alga blue on space paying pink", "alga red on tile 10 paying grey", "TAKE PINK",
    "Larva White: 2D2", "larva grey: consumed 2a1", "place consumed 2a1 consumed 2a2",
])
def test_canonical_lines_read_as_the_grammar_reads_them(line: str) -> None:
    assert _agree(line)
    assert _agree(f"{line}\ntake grey\n")


@pytest.mark.parametrize("line", [
    "take p", "take  pink", " take pink", "take pink.", "take pink # mine", "take pink; pass",
    "take pink larva", "take blue", "take", "pass now", "eat 2a2 2b2", "eat 5a1", "eat 2h1",
    "eat 2a7", "eat 2a0", "eat 12a1", "eat 2 a 2", "shrimp 2f4", "shrimp new 9a1",
    "move shrimp 2f4", "move shrimp 2f4 to", "move shrimp 2f4 back", "move 2f4 home",
    "larva w: 2d2", "larva white 2d2", "larva white:", "larva white: 2d2 banana",
    "larva white: 2h2", "larva pink for polyps", "larva blue for polyp", "consumed p for larva",
    "consumed pink for larvae", "consumed 2d2 2z3", "place", "place consumed", "place 2 d 2",
    "alga blue on space paying p", "alga pink on space paying grey", "alga red on tile 11 "
    "paying grey", "alga red on tile 0 paying grey", "alga red tile 3 paying grey",
    "alga red on tile 3", "alga red on the space paying grey", "", "tåke pink",
    "parrotfish pink; larvae white yellow", "larva white: 2d2, 2e2",
])
def test_anything_else_goes_the_long_way(line: str) -> None:
    assert canonical_steps(line) is None
    assert not _agree(line)
    assert not _agree(f"take pink\n{line}\n")
