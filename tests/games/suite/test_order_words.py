"""Every game's orders read as orders to the reply reader: each line of its random orders, in
every host language, begins with one of its ``order_words``, is made of them, or holds a digit,
so no line of a real order is ever set aside as a greeting or a closing."""

from __future__ import annotations

import random

import pytest

from pbem.engine import registry
from pbem.engine.chance import Chance
from pbem.engine.contract import localise_order, order_words
from pbem.i18n import LANGUAGES
from pbem.pipeline.aside import order_reader

PLAYOUT = 40  # orders played from the start, each line of each checked


@pytest.mark.parametrize("game", sorted(registry.games()))
def test_every_line_of_a_games_orders_reads_as_an_order_in_every_language(game: str) -> None:
    rules = registry.get(game)
    assert order_words(rules), f"{game} declares no order words"
    assert all(word == word.lower() for word in order_words(rules))
    state = rules.setup(rules.max_players, rules.default_options(), Chance(f"words-{game}"))
    rng = random.Random(game)
    for step in range(PLAYOUT):
        waiting = sorted(rules.waiting_for(state))
        if not waiting:
            break
        seat = waiting[0]
        order = rules.random_order(state, seat, rng)
        for lang in LANGUAGES:
            reads = order_reader(rules, state, seat, lang)
            for line in localise_order(rules, order, lang).splitlines():
                if line.strip():
                    assert reads(line) or any(c.isdigit() for c in line), (step, lang, line)
        state = rules.apply(state, seat, rules.parse(state, seat, order),
                            Chance(f"words-{game}-{step}")).state
