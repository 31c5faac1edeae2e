"""The computer player (levels normal and strong), and its judgement of a position.

``bot_order`` is greedy over the legal next steps (legal.next_steps). Each step is played on
the scratch turn and the position after it is judged (:func:`worth`: completed crosses,
parents on corals and fish in hand for the open crosses, free corals, worms, pearls, boats);
the best step is taken while it beats stopping. A face-down card is judged over a few
imagined faces drawn from the cards the seat has not seen, and bought only if it is a card
worth having (``buy 5 middle if coral or red fish``); it ends the turn, as what follows would
depend on the real card. ``strong`` imagines four times as many faces and looks one step
further ahead. The state the host hands the bot is already a redeal (redeal.py, through
pbem.engine.contract.bot_order), so nothing hidden steers it.

The judgement gives points, not rules: what the rules decide (which parents fit which cross)
is asked of them (breeding.fits). A completed cross is worth most; then parents on a coral for
an open cross, fish in hand that would join them, free corals to breed on, boats (more
columns to fish from), pearls, worms and sharks to pay and play with.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from pbem.engine.chance import Chance
from pbem.games.riff.bot import MAX_LINES, RngChance, card_of, default_order
from pbem.games.riff.breeding import fits
from pbem.games.riff.legal import Progress, next_steps, play, start
from pbem.games.riff.orders import Buy, Describe, Flip, Step, step_text
from pbem.games.riff.rules import WIN
from pbem.games.riff.state import Coral, State

CROSS = 150.0
WON = 10_000.0
ON_CORAL = 30.0  # a parent on a coral, for an open cross
IN_HAND = 18.0  # a fish in hand that would join a coral's parents for an open cross
LOOSE = 6.0  # a fish in hand of an open cross's colour, for no coral yet
STRAY = 1.0  # any other fish
CORAL = (20.0, 20.0, 6.0)  # each free coral: the first two, then every other
BOATS = (0.0, 22.0, 16.0, 12.0, 6.0)  # the n-th boat (more: the last)
PEARL = 5.0
WORMS = (3.0, 6, 1.0)  # each worm up to 6 held, then each more: unspent worms buy nothing
SHARK = 3.0


def worth(state: State, seat: int) -> float:
    player = state.players[seat]
    crosses = [c for c in state.breeding_open if c is not None]
    done = player.crosses()
    value = CROSS * done + (WON if done >= WIN else 0.0)
    hand = list(player.fish)
    free = sorted((c for c in player.corals if c.cross is None),
                  key=lambda c: (c.male is None) + (c.female is None))
    for n, coral in enumerate(free):
        value += CORAL[min(n, len(CORAL) - 1)] + _coral(coral, hand, crosses)
    for fish in hand:
        colour = fish[:-2]
        value += LOOSE if any(fits(colour, None, c) for c in crosses) else STRAY
    value += sum(BOATS[min(n, len(BOATS) - 1)] for n in range(player.boats))
    value += PEARL * player.pearls + SHARK * player.sharks + _worms(sum(player.worms.values()))
    return value


def _coral(coral: Coral, hand: list[str], crosses: list[str]) -> float:
    """The worth of a free coral's parents and of the fish in ``hand`` that would join them
    for the best open cross; those fish are taken out of ``hand``."""
    best = 0.0
    best_used: tuple[str, ...] = ()
    for card in crosses:
        if not fits(coral.male, coral.female, card):
            continue
        on = ON_CORAL * ((coral.male is not None) + (coral.female is not None))
        used = _joining(coral, hand, card)
        if on + IN_HAND * len(used) > best:
            best, best_used = on + IN_HAND * len(used), used
    for fish in best_used:
        hand.remove(fish)
    return best


def _joining(coral: Coral, hand: list[str], card: str) -> tuple[str, ...]:
    """The most fish of ``hand`` that would join the coral's parents for cross ``card``."""
    males = [f for f in dict.fromkeys(hand) if f.endswith(":m")] if coral.male is None else []
    females = [f for f in dict.fromkeys(hand) if f.endswith(":f")] if coral.female is None else []
    for m in males:
        for f in females:
            if fits(m[:-2], f[:-2], card):
                return (m, f)
    for m in males:
        if fits(m[:-2], coral.female, card):
            return (m,)
    for f in females:
        if fits(coral.male, f[:-2], card):
            return (f,)
    return ()


def _worms(n: int) -> float:
    first, upto, more = WORMS
    return first * min(n, upto) + more * max(0, n - upto)


FACES = {"normal": 3, "strong": 12}  # imagined faces of a face-down card


LOOK_AHEAD = {"normal": 0, "strong": 4}  # best steps looked one step further


MARGIN = 0.9  # of the budget: the bot stops thinking with this much of it spent


def _hidden_buy(progress: Progress, step: Buy, rng: random.Random,
                faces: int) -> tuple[float, tuple[Describe, ...]]:
    """A face-down card's buy judged over ``faces`` imagined faces: the cards worth buying
    among them (the worth bought beats the worth of the card turned and left), and the mean
    worth when only those are bought."""
    seat = progress.turn.seat
    left = worth(play(progress, Flip(step.place), RngChance(rng)).state, seat)
    total = 0.0
    wanted: dict[Describe, None] = {}
    for _ in range(faces):
        turned = play(progress, step, RngChance(rng))
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
        if isinstance(step, Buy) and not card_of(progress, step)["up"]:
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
    chance = RngChance(rng)
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
        if isinstance(step, Flip) or (isinstance(step, Buy) and not card_of(progress, step)["up"]):
            continue
        best = max(best, worth(play(progress, step, chance).state, seat))
    return best
