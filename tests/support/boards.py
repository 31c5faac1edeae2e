"""A game's positions as its players see them, for tests of what its pictures and their text
equivalents say: a seeded game of random legal orders, kept every few moves, to its end."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

from pbem.engine import registry
from pbem.engine.chance import Chance
from pbem.i18n.translate import translator
from pbem.rendering import environment, language_context


def positions(name: str, every: int = 7, seed: str = "boards", moves: int = 2000
              ) -> Iterator[Any]:
    """States of one whole game of ``name`` at its most players: the setup, every ``every``-th
    move after it, and the end."""
    rules = registry.get(name)
    state = rules.setup(rules.max_players, rules.default_options(), Chance(f"{seed}/setup"))
    rng = random.Random(seed)
    yield state
    for n in range(1, moves + 1):
        waiting = rules.waiting_for(state)
        if not waiting:
            break
        seat = min(waiting)
        order = rules.parse(state, seat, rules.random_order(state, seat, rng))
        state = rules.apply(state, seat, order, Chance(f"{seed}/{n}")).state
        if n % every == 0 or not rules.waiting_for(state):
            yield state


def status_html(name: str, state: Any, seat: int | None, lang: str = "en",
                names: list[str] | None = None) -> str:
    """The game's own status part (its ``status.html.j2``) for ``seat`` in ``lang``, with the
    players ``names`` (default: Ann, Ben, ...)."""
    rules = registry.get(name)
    names = names or ["Ann", "Ben", "Cy", "Dee", "Eva", "Fay"][:rules.max_players]
    speech = language_context(translator(lang, rules.name))
    return str(environment(rules).get_template(f"{rules.name}/status.html.j2").render(
        **speech, title=rules.title, tag="", seat=seat, seat_name="",
        view=rules.view(state, seat), intro=[], events=[], waiting=[], your_turn=False,
        deadline=None, outcome=[], explanation=[], secret=None, names=names,
        game_name=rules.name))


SVG = re.compile(r"<svg\b.*?</svg>", re.S)


def pictures(html: str) -> list[str]:
    """Every SVG (each band apart) in ``html``."""
    return SVG.findall(html)
