"""What a long-running ``pbem serve`` loads once, before its first pass.

The first mail after a start would otherwise pay for it (some 150 ms: five languages'
catalogues compiled from their ``.po`` files, babel's locale data for every footer, every
game's templates compiled), and it would fall on a player's order. Then the collector is told
that all of it lives for good (``gc.freeze``): a full collection no longer walks those
hundreds of thousands of objects, which made each one take some 70 ms mid-pass
(bench/pipeline.py).
"""

from __future__ import annotations

import gc
from typing import Any

from pbem.engine import registry
from pbem.engine.contract import GameRules
from pbem.i18n import LANGUAGES, translator
from pbem.pipeline import command_words as words
from pbem.pipeline.seat_language import footer
from pbem.rendering import environment, has_public_part


def warm_up() -> None:
    """Load catalogues, locale data, command words, templates and what each game builds on
    its first order (its ``warm_up``); then freeze them."""
    games = [registry.get(name) for name in sorted(registry.games())]
    for lang in LANGUAGES:
        footer(translator(lang))
        for rules in games:
            footer(translator(lang, rules.name))
    for english in words.ENGLISH_WORDS:
        words.variants(english)
    _compile(environment(), None)
    for rules in games:
        _compile(environment(rules), rules)
        has_public_part(rules)
        rules.warm_up()
    gc.collect()  # what the loading left behind goes first: frozen objects are never freed
    gc.freeze()


def _compile(env: Any, rules: GameRules | None) -> None:
    """The host's own templates, or a game's (those under its name)."""
    def ours(name: str) -> bool:
        first = name.split("/", 1)[0]
        return (name.endswith(".j2")
                and (first == rules.name if rules is not None and "/" in name else "/" not in name))

    for name in env.list_templates(filter_func=ours):
        env.get_template(name)
