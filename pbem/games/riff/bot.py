"""Orders the host writes itself: a bot's random-but-purposeful turn and the deadline default.

The bot tries the rules' own step functions on a scratch copy, so every line it writes was
legal when written; after a card turns the rules skip what no longer fits, so the mail stays
legal whatever the real card is.

Every step is the rules' own (do_buy, do_step), played on a scratch copy of the state (which
shares the other player: the mover's steps never touch it), with a quiet turn
(rules.QuietTurn: nobody reads its messages) and the bot's own generator for the cards that
turn. Its candidates (the plan) are kept while tried steps fail, since a failed step changes
nothing, and patched after a boat or a buy that leaves what the bot wants as it was. A
seeded bot writes the same orders every time (tests/games/riff/test_behaviour_pin.py).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from pbem.engine.chance import Chance, Draw
from pbem.games.riff import worms
from pbem.games.riff.breeding import fits
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
from pbem.games.riff.rules import QuietTurn, RuleError, Turn, do_buy, do_step
from pbem.games.riff.state import Coral, Player, Slot, State, area_row
from pbem.games.riff.worms import CannotPay

MAX_LINES = 6
T = TypeVar("T")


def default_order(state: State, seat: int) -> str:
    """The mover buys nothing; the other seat restates its preference (a no-op)."""
    if seat != state.to_move:
        return "prefer " + " ".join(worms.preference(state, seat))
    return "pass"


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


# One shared (frozen) buy per place: candidates are many, the bot picks one.
_PLACES = tuple(tuple(Buy(Place(c, d)) for d in range(4)) for c in range(8))


_BOAT = Boat()


# (distance, column, row) of every place, distance first then column, for a shark's target.
_SHARK_ORDER = tuple(tuple((d, c, area_row(seat, d)) for d in range(4) for c in range(8))
                     for seat in range(2))


def _open(breeding_open: tuple[str | None, ...]) -> tuple[tuple[str, ...], frozenset[str]]:
    """The open crosses, and their colours."""
    crosses = tuple(c for c in breeding_open if c is not None)
    return crosses, frozenset(c for card in crosses for c in cross_colours(card))


def _fits(male: str | None, female: str | None, crosses: tuple[str, ...]) -> bool:
    """Whether these parents (either may be None) fit one of the open ``crosses``."""
    return any(fits(male, female, card) for card in crosses)


def _attach4(male: str | None, female: str | None, coral: int) -> tuple[Attach, ...]:
    """The attach of these fish (either may be None) to ``coral``, four times (the bot
    favours attaches)."""
    fish = tuple((c, s) for c, s in ((male, "m"), (female, "f")) if c is not None)
    return (Attach(fish, coral),) * 4


def _sorted_fish(fish: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...],
                                                 frozenset[str]]:
    """The colours of the males and of the females (each first seen first), and the fish
    held more than once ("red:m")."""
    males: dict[str, None] = {}
    females: dict[str, None] = {}
    for f in fish:  # "red:m"
        (males if f[-1] == "m" else females)[f[:-2]] = None
    doubles = (_NO_DOUBLES if len(set(fish)) == len(fish)
               else frozenset(f for f in fish if fish.count(f) > 1))
    return tuple(males), tuple(females), doubles


_NO_DOUBLES: frozenset[str] = frozenset()


def _attaches(males: tuple[str, ...], females: tuple[str, ...], corals: list[Coral],
              crosses: tuple[str, ...], first: int = 0) -> list[Step]:
    """Every attach of the unattached fish (the colours of their ``males`` and ``females``)
    to the ``corals`` for an open cross, each four times: for each coral, the males each with
    every female then alone, then the females alone. ``first``: the number of the first coral
    given."""
    found: list[Step] = []
    for i, coral in enumerate(corals, first):
        if coral.cross is not None:
            continue
        male, female = coral.male, coral.female
        if male:
            if not female:
                for f in females:
                    if _fits(male, f, crosses):
                        found += _attach4(None, f, i)
        elif female:
            for m in males:
                if _fits(m, female, crosses):
                    found += _attach4(m, None, i)
        else:
            for m in males:
                for f in females:
                    if _fits(m, f, crosses):
                        found += _attach4(m, f, i)
                if _fits(m, None, crosses):
                    found += _attach4(m, None, i)
            for f in females:
                if _fits(None, f, crosses):
                    found += _attach4(None, f, i)
    return found


def _kept_attaches(males: tuple[str, ...], females: tuple[str, ...], corals: tuple[Coral, ...],
                   crosses: tuple[str, ...]) -> tuple[Step, ...]:
    """_attaches of every coral, kept (a holding is made at every order and after an
    attach)."""
    return tuple(_attaches(males, females, list(corals), crosses))


def _fish_attaches(colour: str, sex: str, males: tuple[str, ...], females: tuple[str, ...],
                   corals: list[Coral], crosses: tuple[str, ...]) -> list[Step]:
    """The attaches _attaches lists with one parent the fish (``colour``, ``sex``) just
    bought, the first of its kind: alone, or with each fish of the other sex held."""
    found: list[Step] = []
    for i, coral in enumerate(corals):
        if coral.cross is not None:
            continue
        male, female = coral.male, coral.female
        if sex == "m":
            if male:
                continue
            if female:
                if _fits(colour, female, crosses):
                    found += _attach4(colour, None, i)
                continue
            for f in females:
                if _fits(colour, f, crosses):
                    found += _attach4(colour, f, i)
            if _fits(colour, None, crosses):
                found += _attach4(colour, None, i)
        else:
            if female:
                continue
            if male:
                if _fits(male, colour, crosses):
                    found += _attach4(None, colour, i)
                continue
            for m in males:
                if _fits(m, colour, crosses):
                    found += _attach4(m, colour, i)
            if _fits(None, colour, crosses):
                found += _attach4(None, colour, i)
    return found


def _wanted(fitting: frozenset[str], doubles: frozenset[str], coral: bool) -> frozenset[str]:
    """The face-up cards that help the bot now: pearls and sharks; a coral while fewer than
    two are free (``coral``); a fish of a colour of the open crosses (``fitting``) unless two
    like it are held (``doubles``, "red:m")."""
    return frozenset(["pearl", "shark", *(["coral"] if coral else []),
                      *(f"fish:{key}" for colour in fitting for key in (f"{colour}:m",
                                                                        f"{colour}:f")
                        if key not in doubles)])


def _shark_own(key: str) -> SharkOwn:
    colour, sex = key.split(":")
    return SharkOwn(colour, sex)


class _Holding:
    """What the mover's fish, corals and the open crosses give the plans, kept up to date
    as the bot's steps change them: the attaches, which face-up cards help (``_wanted``) and
    the own fish a shark may chase (listed only when a shark is drawn for)."""

    __slots__ = ("_chase", "attaches", "coral", "crosses", "doubles", "fitting", "player",
                 "wanted")

    def __init__(self, player: Player, breeding_open: list[str | None]) -> None:
        fish, corals = player.fish, player.corals
        self.player = player
        self.crosses, self.fitting = _open(tuple(breeding_open))
        males, females, self.doubles = _sorted_fish(tuple(fish))
        self.attaches = _kept_attaches(males, females, tuple(corals), self.crosses) if fish else ()
        self.coral = [c.cross for c in corals].count(None) < 2
        self.wanted = _wanted(self.fitting, self.doubles, self.coral)
        self._chase: list[Step] | None = None

    def bought(self, card: str) -> bool:
        """Keeps up with a coral or a fish just bought (the commonest changes): attaches are
        only added, after the others; False for any other change (the holding must be made
        again)."""
        player = self.player
        if card == "coral":  # its attaches come last, as its coral does
            corals = player.corals
            if player.fish:
                males, females, _ = _sorted_fish(tuple(player.fish))
                self.attaches = self.attaches + tuple(_attaches(
                    males, females, corals[-1:], self.crosses, len(corals) - 1))
            self.coral = [c.cross for c in corals].count(None) < 2
        elif card.startswith("fish:"):
            key = card[5:]  # "fish:red:m" -> "red:m"
            held = player.fish.count(key)
            if held == 1:  # a fish unlike any held: its own attaches, maybe a chase
                males, females, _ = _sorted_fish(tuple(player.fish))
                new = _fish_attaches(key[:-2], key[-1], males, females, player.corals,
                                     self.crosses)
                if new:
                    self.attaches = self.attaches + tuple(new)
                self._chase = None
            elif held == 2:
                self.doubles = self.doubles | {key}
        else:
            return False
        self.wanted = _wanted(self.fitting, self.doubles, self.coral)
        return True

    @property
    def chase(self) -> list[Step]:
        if self._chase is None:
            self._chase = [_shark_own(key) for key in dict.fromkeys(self.player.fish)
                           if key[:-2] not in self.fitting]  # colour_fits_a_cross
        return self._chase


@dataclass(frozen=True)
class _HiddenBuy(Buy):
    """A buy the bot knows to be of a face-down card: the one step it tries on a copy (see
    random_order). Written and read as any buy."""


_BUY_TEXT = tuple(tuple(_text(buy) for buy in column) for column in _PLACES)
_HIDDEN = tuple(tuple(_HiddenBuy(Place(c, d)) for d in range(4)) for c in range(8))

# Per seat and column, (key, row) of the column's places, nearest first. A key orders the
# places as the bot has always listed them: column by column, nearest first.
_COLUMN_PLACES = tuple(tuple(tuple((c * 4 + d, area_row(seat, d)) for d in range(4))
                             for c in range(8))
                       for seat in range(2))
# By key: a face-up card's buy twice (the bot favours them), a face-down card's buy.
_TWICE_AT = tuple((_PLACES[key // 4][key % 4],) * 2 for key in range(32))
_HIDDEN_AT = tuple(_HIDDEN[key // 4][key % 4] for key in range(32))

# What the plans read of the places under the mover's boats: the face-up cards by key, and
# the face-down cards' buys in key order; gaps are left out. Kept up to date as the scratch
# steps change the area (a buy or a shark empties a place, a boat adds a column).
_Ups = dict[int, str]


# Per seat and number of boats, (key, row, column) of the places under them, in key order.
_UNDER_BOATS = tuple(tuple(tuple((key, row, c) for c in range(boats)
                                 for key, row in _COLUMN_PLACES[seat][c])
                           for boats in range(9))
                     for seat in range(2))


def _add_columns(ups: _Ups, downs: list[Buy], area: list[list[Slot]], seat: int, start: int,
                 stop: int) -> None:
    """The places of columns ``start`` to ``stop`` (excluded) into ``ups`` and ``downs``."""
    for key, row, c in _UNDER_BOATS[seat][stop][start * 4:]:
        slot = area[row][c]
        if slot is not None:
            if slot["up"]:
                ups[key] = slot["card"]
            else:
                downs.append(_HIDDEN_AT[key])


def _wanted_buys(ups: Iterable[tuple[int, str]], wanted: frozenset[str]) -> list[Step]:
    """The buys of the wanted face-up cards, each twice."""
    return [buy for key, card in ups if card in wanted for buy in _TWICE_AT[key]]


class _Plan:
    """The bot's candidates: they stay the same until the scratch state changes, and a step
    the bot tries often fails (changing nothing). ``sure`` holds the attaches (each four
    times) and the wanted face-up buys (each twice); ``downs`` the face-down buys (the
    order's own list, kept by random_order), each weighing ``DOWN`` of a sure one; a boat
    weighs ``BOAT``, and with a shark to play the chase of a face-up card (one, at random)
    and of each own fish that fits no cross weigh ``SHARK`` each (see _pick)."""

    __slots__ = ("_ups", "area", "boat", "downs", "holding", "seat", "sharks", "sure")

    def __init__(self, ups: _Ups, downs: list[Buy], holding: _Holding, player: Player,
                 fresh_sharks: int, area: list[list[Slot]], seat: int) -> None:
        self.holding = holding
        self.sure: list[Step] = [*holding.attaches, *_wanted_buys(ups.items(), holding.wanted)]
        self.downs = downs
        self.boat = player.boats < 8
        self.sharks = player.sharks > fresh_sharks
        self.area = area  # the scratch state's, unchanged while the plan stands
        self.seat = seat
        self._ups: list[tuple[int, int]] | None = None

    def sailed(self, ups: _Ups, boats: int) -> None:
        """Keeps up with a boat just bought, the ``boats``-th: its column's face-up places
        join (random_order adds its face-down ones to ``downs``); the holding, the sharks and
        the area's face-up cards stay."""
        self.sure += _wanted_buys(((key, ups[key]) for key, _ in
                                   _COLUMN_PLACES[self.seat][boats - 1] if key in ups),
                                  self.holding.wanted)
        self.boat = boats < 8

    def took(self, step: Buy) -> None:
        """Keeps up with a face-up buy just made, when the holding still wants the same
        face-up cards: its candidates go."""
        self._ups = None  # the place is empty now
        sure = self.sure
        j = next(j for j, s in enumerate(sure) if s is step)
        del sure[j:j + 2]  # a face-up buy is listed twice

    @property
    def ups(self) -> list[tuple[int, int]]:
        """(distance, column) of the face-up cards, for a shark: listed only when a shark is
        drawn for."""
        if self._ups is None:
            area = self.area
            self._ups = [(d, c) for d, c, row in _SHARK_ORDER[self.seat]
                         if (s := area[row][c]) is not None and s["up"]]
        return self._ups


# The weights of the candidates the bot is not sure to want, against 1 for a sure one.
DOWN = 0.3
BOAT = 0.5
SHARK = 0.3


def _none_drawn(downs: int, boat: bool, sharks: bool) -> float:
    """The chance that a draw for each candidate the bot is not sure to want (each with its
    weight as its chance) draws none: then, with no sure candidate, the order ends (as the
    bot always played: a turn without a sure use is often short)."""
    return (1 - DOWN) ** downs * ((1 - BOAT) if boat else 1.0) * ((1 - SHARK) if sharks else 1.0)


def _pick(plan: _Plan, rng: random.Random) -> Step | None:
    """One of the plan's candidates, by weight (one random call): a sure one is worth 1, a
    face-down card ``DOWN``, a boat ``BOAT``, a shark's chase ``SHARK``."""
    sure, downs = plan.sure, plan.downs
    total = len(sure) + DOWN * len(downs)
    boat = BOAT if plan.boat else 0.0
    chase = plan.holding.chase if plan.sharks else ()
    total += boat + (SHARK * (1 + len(chase)) if plan.sharks else 0.0)
    if not total:
        return None
    if not sure and rng.random() < _none_drawn(len(downs), plan.boat, plan.sharks):
        return None  # nothing sure and nothing else drawn for: the order ends
    x = rng.random() * total
    if x < len(sure):
        return sure[int(x)]
    x -= len(sure)
    if x < DOWN * len(downs):
        return downs[min(int(x / DOWN), len(downs) - 1)]
    x -= DOWN * len(downs)
    if x < boat:
        return _BOAT
    x -= boat
    if x < SHARK:  # a face-up card for the shark (the area always shows some)
        ups = plan.ups
        if not ups:
            return None
        d, c = ups[min(int(x / SHARK * len(ups)), len(ups) - 1)]  # the same draw, scaled
        return _SHARK_AREA[c][d]
    return chase[min(int((x - SHARK) / SHARK), len(chase) - 1)] if chase else None


_SHARK_AREA = tuple(tuple(SharkArea(Place(c, d)) for d in range(4)) for c in range(8))


class _BotChance(Chance):
    """The bot's chance for its scratch steps (a turned card, a new breeding card): drawn
    from the bot's own generator, so a seeded bot plays the same game. A draw is
    Chance.choice's (``randrange`` of the size), kept in ``draws`` without its readable form
    (nobody reads a scratch draw)."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__("bot")
        self.rng = rng

    def choice(self, label: str, options: Sequence[T]) -> T:
        if not options:
            raise ValueError(f"chance {label!r}: nothing to choose from")
        idx = self.rng.randrange(len(options))
        self.draws.append(Draw(label, idx))
        return options[idx]


def _buy(state: State, turn: Turn, step: Buy, chance: _BotChance) -> str | None:
    """The rules' buy, played on the scratch state only if it succeeds; returns the card
    bought, or None. A face-down card's paid turn would stay if the buy then failed, so such
    a buy is tried on a copy first, and played with the copy's draw."""
    try:
        if type(step) is not _HiddenBuy:  # do_buy checks before it changes anything
            return do_buy(state, turn, step, chance)
        drawn = len(chance.draws)
        trial = QuietTurn(turn.seat, set(turn.flipped), turn.revealed, turn.fresh_pearls,
                          turn.fresh_sharks)
        do_buy(state.copy_for(turn.seat), trial, step, chance)
    except (RuleError, CannotPay):
        return None
    return do_buy(state, turn, step, Chance.replaying(chance.draws[drawn:]))


def random_order(state: State, seat: int, rng: random.Random) -> str:
    """A legal order for ``seat``: for the mover a few useful buys, boats and attaches (tried
    on a scratch copy); for the other seat now and then a new preference."""
    if seat != state.to_move:
        colours = list(state.colours)
        rng.shuffle(colours)
        return "prefer " + " ".join(colours[:rng.randint(1, len(colours))])
    scratch = state.copy_for(seat)  # the bot plays only its own steps
    turn = QuietTurn(seat)
    chance = _BotChance(rng)
    lines: list[str] = []
    if rng.random() < 0.05:
        lines.append("prefer " + " ".join(rng.sample(state.colours, 3)))
    player = scratch.players[seat]
    ups: _Ups = {}
    hidden: list[Buy] = []  # the face-down places' buys
    _add_columns(ups, hidden, scratch.area, seat, 0, player.boats)
    holding: _Holding | None = None  # until the fish, corals or open crosses change
    plan: _Plan | None = None  # until the scratch state changes
    for _ in range(MAX_LINES):
        if plan is None:
            if holding is None:
                holding = _Holding(player, scratch.breeding_open)
            plan = _Plan(ups, hidden, holding, player, turn.fresh_sharks, scratch.area, seat)
        step = _pick(plan, rng)
        if step is None:
            break
        if isinstance(step, Buy):
            place = step.place
            card = _buy(scratch, turn, step, chance)
            if card is None:
                continue
            if type(step) is _HiddenBuy:
                hidden.remove(step)
            else:
                del ups[place.column * 4 + place.distance]
            held = plan.holding
            wanted, attaches = held.wanted, held.attaches
            if card not in ("pearl", "shark") and not held.bought(card):
                holding = None
            lines.append(_BUY_TEXT[place.column][place.distance])
            if holding is not None and held.wanted == wanted:
                # boats and sharks stay as they were: the plan stands, patched
                if type(step) is not _HiddenBuy:
                    plan.took(step)
                if held.attaches is not attaches:  # only added to: the new ones join
                    plan.sure += held.attaches[len(attaches):]
                continue
        else:
            try:  # every other step checks before it changes anything
                do_step(scratch, turn, step, chance)
            except (RuleError, ValueError):
                continue
            # what the step changed of the places and the holding (the rest stays)
            if step is _BOAT:
                _add_columns(ups, hidden, scratch.area, seat, player.boats - 1, player.boats)
                plan.sailed(ups, player.boats)
                lines.append(_text(step))
                continue  # the plan stands
            if isinstance(step, SharkArea):
                ups.pop(step.place.column * 4 + step.place.distance, None)
            else:  # an attach (maybe completing a cross), a shark on an own fish
                holding = None
            lines.append(_text(step))
        plan = None
    return "\n".join(lines) or "pass"
