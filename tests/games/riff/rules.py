"""Playing crafted orders against crafted positions, with chance scripted where it matters."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from pbem.engine.chance import Chance
from pbem.games.riff import GAME
from pbem.games.riff.state import State

T = TypeVar("T")


class Scripted(Chance):
    """Live chance, except that draws with a scripted label take the given indexes in turn."""

    def __init__(self, script: dict[str, list[int]] | None = None, seed: str = "t") -> None:
        super().__init__(seed)
        self.script = {k: list(v) for k, v in (script or {}).items()}

    def choice(self, label: str, options: Sequence[T]) -> T:
        forced = self.script.get(label)
        if forced:
            return options[forced.pop(0)]
        return super().choice(label, options)


def play(state: State, seat: int, text: str, chance: Chance | None = None
         ) -> tuple[State, list[str]]:
    """Apply ``text`` for ``seat``; the new state and every event's text."""
    order = GAME.parse(state, seat, text)
    applied = GAME.apply(state, seat, order, chance or Scripted())
    return applied.state, [e.text for e in applied.events]

