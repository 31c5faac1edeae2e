"""Orders the host writes itself: the random bot, the computer player and the deadline default.

Both bots choose among the steps the rules say are legal next (legal.next_steps) and play
each on a scratch copy with the rules' own code (legal.play), so no rule is written here and
every line was legal when written; after a card turns the rules skip what no longer fits, so
the mail stays legal whatever the real card is.

- ``random_order``: a random but purposeful turn (tests, the demo, fuzzing): attaches and
  face-up cards that help are likelier than face-down cards, boats and sharks.
- ``bot_order`` (the computer player, levels normal and strong): greedy over the legal next
  steps. Each step is played on the scratch turn and the position after it is judged
  (judge.worth: completed crosses, parents on corals and fish in hand for the open crosses,
  free corals, worms, pearls, boats); the best step is taken while it beats stopping. A
  face-down card is judged over a few imagined faces drawn from the cards the seat has not
  seen, and bought only if it is a card worth having (``buy 5 middle if coral or red fish``);
  it ends the turn, as what follows would depend on the real card. ``strong`` imagines four
  times as many faces and looks one step further ahead. The state the host hands the bot is
  already a redeal (pbem.engine.contract.bot_order), so nothing hidden steers it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from pbem.engine.chance import Chance
from pbem.games.riff import worms
from pbem.games.riff.area import face_down_places
from pbem.games.riff.breeding import colour_fits_a_cross
from pbem.games.riff.judge import worth
from pbem.games.riff.legal import Progress, next_steps, play, start
from pbem.games.riff.orders import (
    Attach,
    Boat,
    Buy,
    Describe,
    Flip,
    SharkArea,
    SharkOwn,
    Step,
    step_text,
)
from pbem.games.riff.state import ROW_OF, State

MAX_LINES = 6
T = TypeVar("T")


def default_order(state: State, seat: int) -> str:
    """The mover buys nothing; the other seat restates its preference (a no-op)."""
    if seat != state.to_move:
        return "prefer " + " ".join(worms.preference(state, seat))
    return "pass"


class _RngChance(Chance):
    """The bots' chance for their scratch steps (a turned card, a new breeding card): drawn
    from the bot's own generator, so a seeded bot plays the same game; nothing recorded."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__("bot")
        self.rng = rng

    def choice(self, label: str, options: Sequence[T]) -> T:
        if not options:
            raise ValueError(f"chance {label!r}: nothing to choose from")
        return options[self.rng.randrange(len(options))]


def _slot(progress: Progress, step: Buy | Flip | SharkArea) -> dict[str, str]:
    slot = progress.state.area[ROW_OF[progress.turn.seat][step.place.distance]][
        step.place.column]
    assert slot is not None  # a legal step names a card
    return slot


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
            slot = _slot(progress, step)
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
    chance = _RngChance(rng)
    for _ in range(MAX_LINES):
        step = _random_step(progress, rng)
        if step is None:
            break
        progress = play(progress, step, chance)
        lines.append(step_text(step))
    return "\n".join(lines) or "pass"


# --- the computer player -------------------------------------------------------------------

FACES = {"normal": 3, "strong": 12}  # imagined faces of a face-down card
LOOK_AHEAD = {"normal": 0, "strong": 4}  # best steps looked one step further
MARGIN = 0.9  # of the budget: the bot stops thinking with this much of it spent


def redeal(state: State, seat: int, rng: random.Random) -> State:
    """``state`` as ``seat`` may know it: every face-down card and the reef pile dealt afresh
    from the cards nobody has seen, the breeding pile shuffled. Nothing else is hidden in Das
    Riff (both players' holdings are public), and the pools are sorted before the deal, so
    the answer depends on what they hold, never on where it lay."""
    new = state.copy()
    places = face_down_places(new.area)
    pool = sorted([_card(new, r, c) for r, c in places] + new.pile)
    rng.shuffle(pool)
    for (r, c), card in zip(places, pool, strict=False):
        new.area[r][c] = {"card": card, "up": False}
    new.pile = pool[len(places):]
    new.breeding_pile = sorted(new.breeding_pile)
    rng.shuffle(new.breeding_pile)
    return new


def _card(state: State, row: int, column: int) -> str:
    slot = state.area[row][column]
    assert slot is not None
    return slot["card"]


def _hidden_buy(progress: Progress, step: Buy, rng: random.Random,
                faces: int) -> tuple[float, tuple[Describe, ...]]:
    """A face-down card's buy judged over ``faces`` imagined faces: the cards worth buying
    among them (the worth bought beats the worth of the card turned and left), and the mean
    worth when only those are bought."""
    seat = progress.turn.seat
    left = worth(play(progress, Flip(step.place), _RngChance(rng)).state, seat)
    total = 0.0
    wanted: dict[Describe, None] = {}
    for _ in range(faces):
        turned = play(progress, step, _RngChance(rng))
        bought = _bought_card(progress, turned)
        value = worth(turned.state, seat)
        if bought is not None and value > left:
            wanted[_describe(bought)] = None
            total += value
        else:
            total += left
    return total / faces, tuple(wanted)


def _bought_card(before: Progress, after: Progress) -> str | None:
    """The card ``after``'s last step bought (what the seat holds now that it did not), or
    None if it bought none."""
    old, new = before.state.players[before.turn.seat], after.state.players[after.turn.seat]
    if len(new.corals) > len(old.corals):
        return "coral"
    if new.pearls > old.pearls:
        return "pearl"
    if new.sharks > old.sharks:
        return "shark"
    fish = list(new.fish)
    for f in old.fish:
        fish.remove(f)
    return f"fish:{fish[0]}" if fish else None


def _describe(card: str) -> Describe:
    if card.startswith("fish:"):
        _, colour, sex = card.split(":")
        return Describe("fish", colour, sex)
    return Describe(card)


@dataclass
class _Option:
    """A legal next step the computer player weighs."""

    value: float  # what it is chosen by: the worth it reaches, or one step further
    reached: float  # the worth right after it
    step: Step
    after: Progress | None  # the turn after it; None for a face-down card's buy


def _options(progress: Progress, rng: random.Random, faces: int, chance: Chance,
             deadline: float) -> list[_Option]:
    """Every legal next step worth weighing, each judged (a face-down card's buy over
    ``faces`` imagined faces, and only if one of them is worth buying)."""
    seat = progress.turn.seat
    options: list[_Option] = []
    for step in next_steps(progress):
        if time.process_time() >= deadline:
            break
        if isinstance(step, Flip):
            continue  # a flip alone is judged with the buy of the same card
        if isinstance(step, Buy) and not _slot(progress, step)["up"]:
            value, wanted = _hidden_buy(progress, step, rng, faces)
            if wanted:
                options.append(_Option(value, value, Buy(step.place, condition=wanted), None))
            continue
        after = play(progress, step, chance)
        value = worth(after.state, seat)
        options.append(_Option(value, value, step, after))
    return options


def _choose(options: list[_Option], here: float) -> _Option | None:
    """The best option that gains on ``here``; a face-down card's buy ends the turn, so the
    face-up steps that gain go first."""
    gaining = [o for o in options if o.value > here]
    face_up = [o for o in gaining if o.after is not None]
    return max(face_up or gaining, key=lambda o: o.value, default=None)


def bot_order(state: State, seat: int, rng: random.Random, level: str,
              budget: float) -> str:
    """The computer player's order (see the module's docstring); ``state`` is a redeal."""
    if seat != state.to_move:
        return default_order(state, seat)
    deadline = time.process_time() + budget * MARGIN
    faces = FACES.get(level, FACES["normal"])
    ahead = LOOK_AHEAD.get(level, 0)
    progress = start(state, seat)
    here = worth(progress.state, seat)
    lines: list[str] = []
    chance = _RngChance(rng)
    while len(lines) < MAX_LINES:
        options = sorted(_options(progress, rng, faces, chance, deadline),
                         key=lambda o: -o.value)
        for option in options[:ahead]:
            if option.after is not None and time.process_time() < deadline:
                option.value = max(option.value,
                                   _best_next(option.after, seat, chance, deadline))
        chosen = _choose(options, here)
        if chosen is None:
            break
        lines.append(step_text(chosen.step))
        if chosen.after is None:  # a face-down card's buy: what follows depends on its face
            break
        here, progress = chosen.reached, chosen.after
    return "\n".join(lines) or "pass"


def _best_next(progress: Progress, seat: int, chance: Chance, deadline: float) -> float:
    """The best worth one more face-up step reaches from ``progress``."""
    best = worth(progress.state, seat)
    for step in next_steps(progress):
        if time.process_time() >= deadline:
            break
        if isinstance(step, Flip) or (isinstance(step, Buy) and not _slot(progress, step)["up"]):
            continue
        best = max(best, worth(play(progress, step, chance).state, seat))
    return best
