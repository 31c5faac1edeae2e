"""No order text makes a game work for long: each game reads a megabyte of adversarial text in
well under a second of CPU (a parser whose patterns backtrack takes minutes on these).

The host passes a player's whole mail body to the game, so nothing bounds a line but the mail's
size; every pattern a parser runs on a line must be linear in it.
"""

from __future__ import annotations

import contextlib
import time

import pytest

from pbem.engine import registry
from pbem.engine.chance import Chance
from pbem.engine.errors import GameError

MEGABYTE = 1_000_000
ADVERSARIAL = {
    "spaces then a comment": " " * MEGABYTE + "#",
    "digits": "1" * MEGABYTE,
    "letters": "a" * MEGABYTE,
    "a word then spaces": "place" + " " * MEGABYTE + "x",
    "cells": "A1" * (MEGABYTE // 2),
    "punctuation": ":-," * (MEGABYTE // 3),
    "tabs and slashes": "\t/" * (MEGABYTE // 2),
}


@pytest.mark.parametrize("text", ADVERSARIAL.values(), ids=list(ADVERSARIAL))
@pytest.mark.parametrize("game", sorted(registry.games()))
def test_a_megabyte_of_adversarial_order_text_reads_in_under_a_second(game: str,
                                                                       text: str) -> None:
    rules = registry.get(game)
    state = rules.setup(rules.min_players, rules.default_options(), Chance(f"linear-{game}"))
    seat = min(rules.waiting_for(state))
    started = time.process_time()
    with contextlib.suppress(GameError):  # refused is fine: this is about how long it takes
        rules.parse(state, seat, text)
    assert time.process_time() - started < 1.0
