"""Orders the host writes itself: the random bot and the deadline default (the computer
player is strategy.py's).

Every bot chooses among the steps the rules say are legal next (legal.next_steps) and plays
each on a scratch copy with the rules' own code (legal.play), so no rule is written here and
every line was legal when written; after a card turns the rules skip what no longer fits, so
the mail stays legal whatever the real card is.

``random_order``: a random but purposeful turn (tests, the demo, fuzzing): attaches and
face-up cards that help are likelier than face-down cards, boats and sharks.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

from pbem.engine.chance import Chance
from pbem.games.riff import worms
from pbem.games.riff.breeding import colour_fits_a_cross
from pbem.games.riff.legal import Progress, next_steps, play, slot, start
from pbem.games.riff.orders import (
    Attach,
    Boat,
    Buy,
    Flip,
    SharkArea,
    SharkOwn,
    Step,
    step_text,
)
from pbem.games.riff.state import State

MAX_LINES = 6
T = TypeVar("T")


def default_order(state: State, seat: int) -> str:
    """The mover buys nothing; the other seat restates its preference (a no-op)."""
    if seat != state.to_move:
        return "prefer " + " ".join(worms.preference(state, seat))
    return "pass"


class RngChance(Chance):
    """The bots' chance for their scratch steps (a turned card, a new breeding card): drawn
    from the bot's own generator, so a seeded bot plays the same game; nothing recorded."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__("bot")
        self.rng = rng

    def choice(self, label: str, options: Sequence[T]) -> T:
        if not options:
            raise ValueError(f"chance {label!r}: nothing to choose from")
        return options[self.rng.randrange(len(options))]


def card_of(progress: Progress, step: Buy | Flip | SharkArea) -> dict[str, str]:
    """The card a legal step names (face up or down)."""
    card = slot(progress, step.place)
    assert card is not None  # a legal step names a card
    return card


# --- the random bot ------------------------------------------------------------------------

# Weights against 1 for a step the random bot is sure to like (an attach weighs 4, a wanted
# face-up card 2): a face-down card's buy, a boat, a shark (on the area, all places together;
# on an own fish, each).
DOWN = 0.3
BOAT = 0.5
SHARK = 0.3


def _wanted(progress: Progress, card: str) -> bool:
    """Face-up cards the random bot likes: pearls and sharks; a coral while fewer than two
    are free; a fish of an open cross's colour unless two like it are held."""
    player = progress.state.players[progress.turn.seat]
    if card in ("pearl", "shark"):
        return True
    if card == "coral":
        return [c.cross for c in player.corals].count(None) < 2
    if card.startswith("fish:"):
        return (colour_fits_a_cross(progress.state, card.split(":")[1])
                and player.fish.count(card[5:]) < 2)
    return False


def _random_weights(progress: Progress, steps: list[Step]) -> list[float]:
    sharks_on_area = sum(isinstance(s, SharkArea) for s in steps)
    weights = []
    for step in steps:
        if isinstance(step, Attach):
            weights.append(4.0)
        elif isinstance(step, Buy):
            slot = card_of(progress, step)
            weights.append(DOWN if not slot["up"] else 2.0 if _wanted(progress, slot["card"])
                           else 0.0)
        elif isinstance(step, Boat):
            weights.append(BOAT)
        elif isinstance(step, SharkArea):
            weights.append(SHARK / sharks_on_area)
        elif isinstance(step, SharkOwn):
            weights.append(SHARK)
        else:  # a flip alone: the random bot buys what it turns
            weights.append(0.0)
    return weights


def _random_step(progress: Progress, rng: random.Random) -> Step | None:
    """One legal next step by weight, or None (the order ends): with no step it is sure to
    like, the order ends with the chance that none of the others is drawn for."""
    steps = next_steps(progress)
    weights = _random_weights(progress, steps)
    total = sum(weights)
    if not total:
        return None
    if not any(w >= 1 for w in weights):
        none_drawn = 1.0
        for w in weights:
            none_drawn *= 1 - min(w, 1.0)
        if rng.random() < none_drawn:
            return None
    return rng.choices(steps, weights)[0]


def random_order(state: State, seat: int, rng: random.Random) -> str:
    """A legal order for ``seat``: for the mover a few useful legal steps (played on a
    scratch copy); for the other seat now and then a new preference."""
    if seat != state.to_move:
        colours = list(state.colours)
        rng.shuffle(colours)
        return "prefer " + " ".join(colours[:rng.randint(1, len(colours))])
    lines: list[str] = []
    if rng.random() < 0.05:
        lines.append("prefer " + " ".join(rng.sample(state.colours, 3)))
    progress = start(state, seat)
    chance = RngChance(rng)
    for _ in range(MAX_LINES):
        step = _random_step(progress, rng)
        if step is None:
            break
        progress = play(progress, step, chance)
        lines.append(step_text(step))
    return "\n".join(lines) or "pass"




