"""Orders the host writes itself: a bot's random-but-purposeful turn and the deadline default.

The bot tries the rules' own step functions on a scratch copy, so every line it writes was
legal when written; after a card turns the rules skip what no longer fits, so the mail stays
legal whatever the real card is.

Speed (bench/engine.py): the scratch copy shares the area's slots, the corals and the other
player; the candidates' fixed part (the plan) is kept while tried steps fail (a failed step
changes nothing); a step the rules would surely refuse for want of worms, boats or a free coral
is skipped without raising; the scratch turn makes no messages (turn.QuietTurn) and the scratch
chance records no draws; what a plan takes from the mover's fish, corals and the open crosses
is kept per seat while they stay equal (a boat, a pearl or a shark changes none of them). None
of this changes a random call: seeded bots write the same orders as before
(tests/games/riff/test_behaviour_pin.py).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TypeVar

from pbem.engine.chance import Chance
from pbem.games.riff import worms
from pbem.games.riff.components import cross_colours
from pbem.games.riff.orders import (
    Attach,
    Boat,
    Buy,
    Place,
    SharkArea,
    SharkOwn,
    Step,
)
from pbem.games.riff.state import ROW_OF, Coral, Player, Slot, State, area_row
from pbem.games.riff.turn import BOAT_COST, COST, QuietTurn, RuleError, Turn, do_step

MAX_LINES = 6
T = TypeVar("T")


def default_order(state: State, seat: int) -> str:
    """The mover buys nothing; the other seat restates its preference (a no-op)."""
    if seat != state.to_move:
        return "prefer " + " ".join(worms.preference(state, seat))
    return "pass"


@cache  # the same few steps come back in every bot's order
def _text(step: Step) -> str:
    if isinstance(step, Buy):
        cond = ""
        if step.condition:
            cond = " if " + " or ".join(
                d.kind if d.kind != "fish" else
                " ".join(x for x in (d.colour, {"m": "male", "f": "female"}.get(d.sex or ""),
                                     None if d.sex else "fish") if x)
                for d in step.condition)
        return f"buy {step.place}{cond}"
    if isinstance(step, Boat):
        return "boat"
    if isinstance(step, Attach):
        parts = " and ".join(f"{c} {'male' if s == 'm' else 'female'}" for c, s in step.fish)
        return f"attach {parts} to coral {step.coral + 1}"
    if isinstance(step, SharkArea):
        return f"shark {step.place}"
    if isinstance(step, SharkOwn):
        return f"shark my {step.colour} {'male' if step.sex == 'm' else 'female'}"
    raise AssertionError(step)


@cache
def _fish_key(card: str) -> tuple[str, str] | None:
    """(colour, "colour:sex") of a fish card, None for any other card."""
    if not card.startswith("fish:"):
        return None
    _, colour, sex = card.split(":")
    return colour, f"{colour}:{sex}"


def _wanted(card: str, player: Player, fitting: frozenset[str]) -> bool:
    """Whether a face-up card helps the bot now (``fitting``: colours of the open crosses)."""
    if card == "coral":
        return sum(c.cross is None for c in player.corals) < 2
    fish = _fish_key(card)
    if fish is not None:
        return fish[0] in fitting and player.fish.count(fish[1]) < 2
    return card in ("pearl", "shark")


# One shared (frozen) buy per place: candidates are many, the bot picks one.
_PLACES = tuple(tuple(Buy(Place(c, d)) for d in range(4)) for c in range(8))


@cache
def _parent_pairs(card: str) -> tuple[tuple[str, str], ...]:
    """(male, female) colours that complete the cross ``card``."""
    colours = cross_colours(card)
    if len(colours) == 1:
        return ((colours[0], colours[0]),)
    a, b = colours
    return ((a, b), (b, a))


@lru_cache(maxsize=4096)
def _offer(crosses: tuple[str, ...]) -> tuple[frozenset[str], frozenset[tuple[str, str]]]:
    """The colours of the open crosses, and the (male, female) pairs that complete one."""
    return (frozenset(c for card in crosses for c in card.split("+")),
            frozenset(p for card in crosses for p in _parent_pairs(card)))


_BOAT = Boat()


@dataclass
class _Plan:
    """What ``_candidates`` finds that needs no random call: it stays the same until the
    scratch state changes, and a step the bot tries often fails (changing nothing)."""

    # The attaches (each four times), then the places in order: a wanted face-up card twice,
    # a face-down card (a random call) once now and then. ``found`` holds the candidates
    # before the first face-down place; ``places`` each face-down buy after it with the run
    # of wanted face-up buys that follows it (kept in order: the bot's pick is an index).
    found: list[Step]
    places: list[tuple[Buy, tuple[Step, ...]]]
    boat: bool
    sharks: bool
    chase: list[Step]  # own fish a shark may chase
    area: list[list[Slot]]  # the scratch state's, unchanged while the plan stands
    seat: int
    _ups: list[tuple[int, int]] | None = None

    @property
    def ups(self) -> list[tuple[int, int]]:
        """(distance, column) of the face-up cards, for a shark: listed only when a shark is
        drawn for."""
        if self._ups is None:
            area = self.area
            self._ups = [(d, c) for d, c, row in _SHARK_ORDER[self.seat]
                         if (s := area[row][c]) is not None and s["up"]]
        return self._ups


def _slot_order(seat: int, boats: int) -> tuple[tuple[int, int, Buy, tuple[Buy, Buy]], ...]:
    """(row, column, buy, the buy twice) of the places under the seat's boats, column by
    column, nearest first: the order the bot has always listed them in."""
    return tuple((area_row(seat, d), c, _PLACES[c][d], (_PLACES[c][d],) * 2)
                 for c in range(boats) for d in range(4))


_SLOT_ORDER = tuple(tuple(_slot_order(seat, boats) for boats in range(9)) for seat in range(2))
# (distance, column, row) of every place, distance first then column, for a shark's target.
_SHARK_ORDER = tuple(tuple((d, c, area_row(seat, d)) for d in range(4) for c in range(8))
                     for seat in range(2))


@lru_cache(maxsize=256)
def _open(breeding_open: tuple[str | None, ...]) -> tuple[tuple[str, ...], frozenset[str]]:
    """The open crosses, and their colours."""
    crosses = tuple(c for c in breeding_open if c is not None)
    return crosses, _offer(crosses)[0]


@cache
def _attach4(male: str | None, female: str | None, coral: int) -> tuple[Attach, ...]:
    """The attach of these fish (either may be None) to ``coral``, four times (the bot
    favours attaches)."""
    fish = tuple((c, s) for c, s in ((male, "m"), (female, "f")) if c is not None)
    return (Attach(fish, coral),) * 4


def _attaches(fish: list[str], corals: list[Coral], crosses: tuple[str, ...]) -> list[Step]:
    """Every attach of the unattached ``fish`` to the ``corals`` for an open cross, each four
    times: for each coral, the males (first seen first) each with every female then alone,
    then the females alone. Worked out afresh (cheap): the holdings change at nearly every
    plan, so caches of it mostly missed. What breeding.fits says, as lookups: one parent fits
    if its colour is on an open cross; two if they are the two colours of a cross, or both
    the colour of a one-colour one."""
    fitting, pairs = _offer(crosses)
    males: dict[str, None] = {}  # colours, first seen first
    females: dict[str, None] = {}
    for f in fish:  # "red:m"
        (males if f[-1] == "m" else females)[f[:-2]] = None
    found: list[Step] = []
    for i, coral in enumerate(corals):
        if coral.cross is not None:
            continue
        male, female = coral.male, coral.female
        if male:
            if not female:
                for f in females:
                    if (male, f) in pairs:
                        found += _attach4(None, f, i)
        elif female:
            for m in males:
                if (m, female) in pairs:
                    found += _attach4(m, None, i)
        else:
            for m in males:
                for f in females:
                    if (m, f) in pairs:
                        found += _attach4(m, f, i)
                if m in fitting:
                    found += _attach4(m, None, i)
            for f in females:
                if f in fitting:
                    found += _attach4(None, f, i)
    return found


_NO_RUN: tuple[Step, ...] = ()


# Per seat, the last holding a plan was made for and what it gave: a third of the plans
# follow a step that left the mover's fish, corals and the open crosses as they were (a
# boat, a pearl, a shark). Checked by equality (lists of strings and tuples: in C), so a
# stale entry is only a miss.
_Holding = tuple[list[str], list[Coral], list[str | None], list[Step], dict[str, bool],
                 list[Step]]
_LAST_HOLDING: dict[int, _Holding] = {}


def _holding(player: Player, seat: int, breeding_open: list[str | None]
             ) -> tuple[list[Step], dict[str, bool], list[Step]]:
    """The attaches, the wanted face-up cards (``_wanted``, filled in as the plan meets
    cards) and the own fish a shark may chase, for the mover's holding and offer."""
    fish, corals = player.fish, player.corals
    last = _LAST_HOLDING.get(seat)
    if (last is not None and last[0] == fish and last[1] == corals
            and last[2] == breeding_open):
        return last[3], last[4], last[5]
    crosses, fitting = _open(tuple(breeding_open))
    attaches = _attaches(fish, corals, crosses) if fish else []
    # these cards' answers need no holdings
    wanted = {"pearl": True, "shark": True, "water": False}
    chase: list[Step] = []
    for key in dict.fromkeys(fish):
        colour, sex = key.split(":")
        if colour not in fitting:  # colour_fits_a_cross, from the offer above
            chase.append(SharkOwn(colour, sex))
    _LAST_HOLDING[seat] = (list(fish), list(corals), list(breeding_open), attaches, wanted,
                           chase)
    return attaches, wanted, chase


def _plan(state: State, seat: int, fresh_sharks: int) -> _Plan:
    player = state.players[seat]
    attaches, wanted, chase = _holding(player, seat, state.breeding_open)
    fitting: frozenset[str] | None = None
    area = state.area
    places: list[tuple[Buy, tuple[Step, ...]]] = []
    first: list[Step] | None = None  # the wanted face-up buys before the first face-down one
    run: list[Step] = []  # the wanted face-up buys since the last face-down one
    boats = player.boats
    for row, column, buy, twice in _SLOT_ORDER[seat][boats]:
        slot = area[row][column]
        if slot is None:
            continue
        if slot["up"]:
            card = slot["card"]
            ok = wanted.get(card)
            if ok is None:
                if fitting is None:
                    fitting = _open(tuple(state.breeding_open))[1]
                ok = wanted[card] = _wanted(card, player, fitting)
            if ok:
                run += twice
        else:
            if first is None:
                first = run
            elif run:
                places[-1] = (places[-1][0], tuple(run))
            places.append((buy, _NO_RUN))
            run = []
    if first is None:
        first = run
    elif run:
        places[-1] = (places[-1][0], tuple(run))
    if attaches:
        first[:0] = attaches
    sharks = player.sharks > fresh_sharks
    return _Plan(first, places, boats < 8, sharks, chase if sharks else [], area, seat)


def _choices(plan: _Plan, rng: random.Random) -> list[Step]:
    """The plan's candidates, with its random calls: a face-down card now and then, a boat
    half the time, a shark now and then."""
    found = list(plan.found)
    draw = rng.random
    for buy, run in plan.places:
        if draw() < 0.3:
            found.append(buy)
        if run:
            found += run
    if plan.boat and draw() < 0.5:
        found.append(_BOAT)
    if plan.sharks and draw() < 0.3:
        if plan.ups:
            d, c = rng.choice(plan.ups)
            found.append(SharkArea(Place(c, d)))
        found += plan.chase
    return found


def _candidates(state: State, seat: int, rng: random.Random,
                fresh_sharks: int = 0) -> list[Step]:
    return _choices(_plan(state, seat, fresh_sharks), rng)


class _ScratchChance(Chance):
    """The bot's chance (Chance seeds only at its first draw: most turns of the bot turn no
    hidden card). Its draws are never read, so none are recorded: the same numbers as
    Chance.choice, without the record."""

    def choice(self, label: str, options: Sequence[T]) -> T:
        if not options:
            raise ValueError(f"chance {label!r}: nothing to choose from")
        return options[self._rng.randrange(len(options))]


def _refused(state: State, turn: Turn, step: Step) -> bool:
    """Whether do_step would surely refuse a face-up buy or a boat: no boat left, a fish
    without a free coral (when the option asks for one), or worms.pay's refusal (the rules
    picking the worms): fewer worms (of the fish's colour) than the cost and too few pearls."""
    player = state.players[turn.seat]
    if isinstance(step, Buy):
        row = ROW_OF[turn.seat][step.place.distance]
        slot = state.area[row][step.place.column]
        if slot is None or not slot["up"]:
            return False
        fish = _fish_key(slot["card"])
        if (fish and not state.options["may_buy_fish_without_a_free_coral"]
                and all(c.cross is not None for c in player.corals)):
            return True
        cost = 1 if (row, step.place.column) in turn.flipped else COST[step.place.distance]
        have = player.worms.get(fish[0], 0) if fish else sum(player.worms.values())
    elif isinstance(step, Boat):
        if state.boats_left <= 0:
            return True
        cost, have = BOAT_COST, sum(player.worms.values())
    else:
        return False
    return cost - min(cost, have) > player.pearls - turn.fresh_pearls


def _face_up(state: State, seat: int, place: Place) -> bool:
    slot = state.area[ROW_OF[seat][place.distance]][place.column]
    return slot is not None and bool(slot["up"])


def random_order(state: State, seat: int, rng: random.Random) -> str:
    """A legal order for ``seat``: for the mover a few useful buys, boats and attaches (tried
    on a scratch copy); for the other seat now and then a new preference."""
    if seat != state.to_move:
        colours = list(state.colours)
        rng.shuffle(colours)
        return "prefer " + " ".join(colours[:rng.randint(1, len(colours))])
    scratch = state.copy_for(seat)  # the bot plays only its own steps
    turn = QuietTurn(seat)
    chance = _ScratchChance(f"bot/{rng.random()}")
    lines: list[str] = []
    if rng.random() < 0.05:
        lines.append("prefer " + " ".join(rng.sample(state.colours, 3)))
    plan = None  # until the scratch state changes
    for _ in range(MAX_LINES):
        if plan is None:
            plan = _plan(scratch, seat, turn.fresh_sharks)
        options = _choices(plan, rng)
        if not options:
            break
        step = rng.choice(options)
        # Every step checks before it changes anything, except a buy of a face-down card
        # (its paid turn stays if the buy then fails): only that one is tried on a copy.
        if isinstance(step, Buy) and not _face_up(scratch, seat, step.place):
            trial = scratch.copy_for(seat)
            trial_turn = QuietTurn(seat, set(turn.flipped), turn.revealed,
                                   fresh_pearls=turn.fresh_pearls,
                                   fresh_sharks=turn.fresh_sharks)
        elif _refused(scratch, turn, step):
            continue  # do_step would refuse it, changing nothing: spare its error message
        else:
            trial, trial_turn = scratch, turn
        try:
            do_step(trial, trial_turn, step, chance)
        except (RuleError, ValueError):
            continue
        scratch, turn, plan = trial, trial_turn, None
        lines.append(_text(step))
    return "\n".join(lines) or "pass"

