"""Legal moves for bots: a random whole turn, and the safe default turn.

The random turn is written from a few facts of the state (the polyps as corals and colour
masks, the shrimps, the seat's holdings, the supplies and tiles its steps touch): each step
changes them as the rules would change the state, and no scratch copy of the state is made nor
are the rules run. Every step is checked on the facts by the rules' own conditions (the same
tests as check_place, may_move, check_alga, ...), written out here on the bot's facts. The
corals are kept from one turn to the next (:class:`Reef`): a turn's polyps are the next
state's. tests/games/reef_encounter/test_bot_facts.py applies the written turns with the rules
and checks that the facts came out as the rules' state did. The bot leans towards growing
corals, guarding them and eating them, so random games reach an end in a sensible number of
turns."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache, lru_cache

from pbem.games.reef_encounter.board import (
    BOARD_OF,
    neighbours,
    rock_cells,
    rock_count,
    starfish_next_to,
    tile_ids,
)
from pbem.games.reef_encounter.botdice import Dice
from pbem.games.reef_encounter.cellbits import cell_bits, grow
from pbem.games.reef_encounter.components import components
from pbem.games.reef_encounter.parrotfish import MIN_CORAL, to_bag_count
from pbem.games.reef_encounter.shrimps import MAX_PER_BOARD
from pbem.games.reef_encounter.state import State
from pbem.games.reef_encounter.turn import MAX_FROM_SCREEN, SHRIMPS


def group_of(polyps: dict[str, str], cell_key: str) -> list[str]:
    """The cells of the coral holding ``cell_key`` (a polyp), breadth first from it."""
    colour = polyps[cell_key]
    near, get = neighbours(), polyps.get
    cells = [cell_key]
    seen = {cell_key}
    for c in cells:  # grows as it goes
        for n in near[c]:
            if n not in seen and get(n) == colour:
                seen.add(n)
                cells.append(n)
    return cells


class Coral:
    """One coral of a :class:`Reef`: its cells (a set, changed in place as it grows)."""

    __slots__ = ("cells",)

    def __init__(self, cells: set[str]) -> None:
        self.cells = cells


class Reef:
    """The polyps as corals and as a bit mask per colour, kept from one bot turn to the next.

    A turn's polyps are the next state's (action 10 takes none), so the reef a turn leaves
    is the next turn's as it is, once ``polyps == state.polyps`` says so; any other state
    gets a reef traced anew. Placements and meals keep it up to date on the way."""

    __slots__ = ("coral", "corals", "masks", "polyps")

    def __init__(self, polyps: dict[str, str]) -> None:
        self.polyps = dict(polyps)
        self.coral: dict[str, Coral] = {}  # cell -> the coral holding it
        self.corals: set[Coral] = set()
        self.masks = dict.fromkeys(components().coral_colours, 0)
        bit, coral = cell_bits().bit, self.coral
        for k, colour in self.polyps.items():
            self.masks[colour] |= bit[k]
            if k not in coral:
                self._new(set(group_of(self.polyps, k)))

    def _new(self, cells: set[str]) -> None:
        found = Coral(cells)
        self.corals.add(found)
        coral = self.coral
        for k in cells:
            coral[k] = found

    def put(self, k: str, colour: str) -> str | None:
        """A ``colour`` polyp on ``k``; returns the colour of the polyp it replaced."""
        polyps, coral, bit = self.polyps, self.coral, cell_bits().bit[k]
        target = polyps.get(k)
        if target is not None:  # an attack: the cell leaves its coral, which may fall apart
            self.masks[target] &= ~bit
            old = coral.pop(k)
            old.cells.discard(k)
            self.corals.discard(old)
            if old.cells:
                self._split(old.cells)
        polyps[k] = colour
        self.masks[colour] |= bit
        joined: Coral | None = None
        get = polyps.get
        for n in neighbours()[k]:
            if get(n) != colour:
                continue
            other = coral[n]
            if joined is None:
                joined = other
            elif other is not joined:  # two corals of the colour meet: the larger keeps both
                if len(other.cells) > len(joined.cells):
                    joined, other = other, joined
                joined.cells |= other.cells
                for c in other.cells:
                    coral[c] = joined
                self.corals.discard(other)
        if joined is None:
            self._new({k})
        else:
            joined.cells.add(k)
            coral[k] = joined
        return target

    def _split(self, cells: set[str]) -> None:
        """The corals of what is left of one coral."""
        rest = set(cells)
        near = neighbours()
        while rest:
            first = rest.pop()
            part = {first}
            todo = [first]
            while todo:
                for n in near[todo.pop()]:
                    if n in rest:
                        rest.discard(n)
                        part.add(n)
                        todo.append(n)
            self._new(part)

    def eat(self, k: str) -> set[str]:
        """The coral holding ``k`` leaves the reef; returns its cells."""
        found = self.coral[k]
        self.corals.discard(found)
        polyps, coral = self.polyps, self.coral
        colour = polyps[k]
        bits = cell_bits().bit
        for c in found.cells:
            del polyps[c]
            del coral[c]
            self.masks[colour] &= ~bits[c]
        return found.cells


# The reef the last turn written left (popped by a turn: two threads' bots never share one).
_REEFS: list[Reef] = []


def _reef_of(state: State) -> Reef:
    try:
        reef = _REEFS.pop()
    except IndexError:
        return Reef(state.polyps)
    return reef if reef.polyps == state.polyps else Reef(state.polyps)


def edible_corals(state: State, seat: int) -> list[str]:
    """Cells of this seat's shrimps that guard a coral the parrotfish may eat now."""
    if seat not in state.shrimps.values():
        return []  # no shrimp of this seat on the reef, as in many turns: no loop
    out = []
    near, get = neighbours(), state.polyps.get
    for k, s in state.shrimps.items():
        if s != seat:
            continue
        colour = get(k)
        if colour is None:
            continue
        seen = [k]  # coral_reaches(state, k, MIN_CORAL), on a list: at most five cells
        for c in seen:
            for n in near[c]:
                if get(n) == colour and n not in seen:
                    seen.append(n)
            if len(seen) >= MIN_CORAL:
                out.append(k)
                break
    return sorted(out)


def next_to_mask(own: int, in_play: int) -> int:
    """The cells of the boards in play next to a polyp of a colour and not holding one, from
    the colour's bits and those of the boards in play (a neighbour lies on its polyp's board)."""
    return grow(own) & in_play & ~own


@lru_cache(maxsize=64)
def _in_play(boards: tuple[int, ...]) -> int:
    """The bits of the rock cells of these boards."""
    bits = cell_bits().board
    return sum(bits[b] for b in boards)


@lru_cache(maxsize=64)
def _rock_total(boards: tuple[int, ...]) -> int:
    """How many rock cells these boards have: when the polyps are as many, the rock is full."""
    return rock_count(boards)


@cache
def _names() -> dict[str, str]:
    """Cell key -> how an order writes it ("2:D4" -> "2D4")."""
    return {k: k.replace(":", "") for k in neighbours()}


@cache
def _tile_faces() -> dict[int, tuple[tuple[str, str, str], tuple[str, str, str]]]:
    """Tile id -> (stronger, weaker, large alga) on face a, then on face b."""
    out = {}
    for tile in components().coral_tiles:
        a, b = tile.face("a"), tile.face("b")
        out[tile.id] = ((a.stronger, a.weaker, a.large_alga), (b.stronger, b.weaker, b.large_alga))
    return out


def showing(face: str, flipped: tuple[int, ...], tile: int) -> tuple[str, str, str]:
    """(stronger, weaker, large alga) of ``tile`` as it lies: as ``board.visible``."""
    return _tile_faces()[tile][(face == "b") != (tile in flipped)]


@lru_cache(maxsize=256)
def dominated(face: str, flipped: tuple[int, ...]) -> dict[str, frozenset[str]]:
    """Colour -> the colours it dominates while the coral tiles lie so (as ``dominates``)."""
    beats: dict[str, set[str]] = {c: set() for c in components().coral_colours}
    for tile in tile_ids():
        stronger, weaker, _ = showing(face, flipped, tile)
        beats[stronger].add(weaker)
    return {c: frozenset(w) for c, w in beats.items()}


def _setup_answer(state: State, seat: int, rng: random.Random) -> str:
    screen = state.seats[seat].screen
    fish = rng.choice(sorted(c for c, n in screen.items() if n > 0))
    cubes = [c for c, n in sorted(state.larva_supply.items()) for _ in range(min(n, 2))]
    first, second = rng.sample(cubes, 2)
    return f"parrotfish {fish}; larvae {first} {second}\n"


def _dice(rng: random.Random) -> Dice:
    """The Dice of ``rng``, kept from its last turn: a game's bot plays every turn with one
    generator, and a Dice keeps no state of its own besides it."""
    global _LAST_DICE
    dice = _LAST_DICE  # read once: another thread's bot may replace it meanwhile
    if dice is None or dice.rng is not rng:
        dice = _LAST_DICE = Dice(rng)
    return dice


_LAST_DICE: Dice | None = None


def _less(counts: dict[str, int], colour: str) -> None:
    """One ``colour`` fewer; a count of zero vanishes (as supply.remove)."""
    left = counts[colour] - 1
    if left:
        counts[colour] = left
    else:
        del counts[colour]


def _more(counts: dict[str, int], colour: str, n: int = 1) -> None:
    counts[colour] = counts.get(colour, 0) + n


class Writer:
    """One seat's random turn being written: its lines, and the facts its steps change.

    The state is only read. The polyps are the reef's (kept or traced anew); the shrimps and
    supplies are copied when a step first changes them, the seat's holdings at once (three
    small dicts)."""

    __slots__ = (
        "_alga_supply",
        "_avail",
        "_beats",
        "_held",
        "_larva_supply",
        "_own_shrimps",
        "alga_on_tile",
        "alga_space",
        "boards",
        "consumed",
        "cylinders",
        "dice",
        "done",
        "ended",
        "final",
        "fish",
        "fish_shrimps",
        "flipped",
        "in_hand",
        "in_play",
        "larva",
        "lines",
        "polyps",
        "reef",
        "rock_total",
        "screen",
        "sea_shrimp",
        "seat",
        "shrimps",
        "state",
    )

    def __init__(self, state: State, seat: int, rng: random.Random) -> None:
        me = state.seats[seat]
        self.state, self.seat, self.dice = state, seat, _dice(rng)
        self.final = state.phase == "final"
        self.boards = boards = tuple(state.boards)
        self.in_play, self.rock_total = _in_play(boards), _rock_total(boards)
        self.reef = _reef_of(state)
        self.polyps, self.shrimps = self.reef.polyps, state.shrimps
        self._own_shrimps = False  # the shrimps are a copy already
        self.larva, self.screen, self.consumed = dict(me.larva), dict(me.screen), dict(me.consumed)
        self.in_hand, self.fish = me.shrimps_in_hand, len(me.parrotfish)
        self.sea_shrimp, self.fish_shrimps = me.sea_shrimp, me.fish_shrimps
        self._avail: dict[str, int] | None = None  # colour -> polyps in the bag and bonus
        self._larva_supply: dict[str, int] | None = None
        self._alga_supply: dict[str, int] | None = None
        self.alga_space = state.alga_space
        self.cylinders = state.cylinders
        self.flipped = tuple(state.flipped_tiles)
        self.alga_on_tile = self.ended = False
        self.done: set[int] = set()  # actions 2, 3 and 4 once done
        self.lines: list[str] = []
        self._beats: dict[str, frozenset[str]] | None = None
        # Coral colour (None: bare rock) -> the shrimps standing on it, once asked.
        self._held: dict[str | None, int] | None = None

    # --- the facts, copied on first change ----------------------------------------------------

    def _shrimps(self) -> dict[str, int]:
        self._held = None  # a shrimp is about to change
        if not self._own_shrimps:
            self._own_shrimps = True
            self.shrimps = dict(self.shrimps)
        return self.shrimps

    def avail(self) -> dict[str, int]:
        """Colour -> polyps in the bag and among the bonus polyps: what extra growth and
        action 8 may still use (the rules move polyps between the two, never out)."""
        if self._avail is None:
            st = self.state
            got = dict(st.bag)
            for c, n in st.bonus.items():
                got[c] = got.get(c, 0) + n
            self._avail = got
        return self._avail

    def larva_supply(self) -> dict[str, int]:
        if self._larva_supply is None:
            self._larva_supply = dict(self.state.larva_supply)
        return self._larva_supply

    def alga_supply(self) -> dict[str, int]:
        if self._alga_supply is None:
            self._alga_supply = dict(self.state.alga_supply)
        return self._alga_supply

    def beats(self) -> dict[str, frozenset[str]]:
        if self._beats is None:
            self._beats = dominated(self.state.coral_face, self.flipped)
        return self._beats

    def edible(self) -> list[str]:
        """``edible_corals`` from the reef's corals."""
        coral, seat = self.reef.coral, self.seat
        return sorted(k for k, s in self.shrimps.items()
                      if s == seat and k in coral and len(coral[k].cells) >= MIN_CORAL)

    def mask(self, colour: str) -> int:
        return self.reef.masks[colour]

    # --- the rules' conditions, on the facts --------------------------------------------------

    def placeable(self, k: str, colour: str) -> bool:
        """check_place without words, for a rock cell ``k`` of a board in play."""
        polyps, shrimps = self.polyps, self.shrimps
        target = polyps.get(k)
        if target is None:
            if k in shrimps:
                return False
        else:
            beats = self._beats or self.beats()
            if target == colour or target not in beats[colour]:
                return False
            near, get, coral = neighbours(), polyps.get, self.reef.coral
            for n in near[k]:  # an attacking coral of two or more next to it
                if get(n) == colour and len(coral[n].cells) > 1:
                    break
            else:
                return False
            if k in shrimps:
                return False  # protected by a shrimp on it
            for n in near[k]:
                if n in shrimps and get(n) == target:
                    return False  # protected by a shrimp on its coral next to it
        return not self.joins_two(k, colour)

    def joins_two(self, k: str, colour: str) -> bool:
        """joins_two_shrimp_corals on the facts."""
        get = self.polyps.get
        first: str | None = None  # the first neighbour of the colour
        second: str | None = None
        for n in neighbours()[k]:  # a loop, not a list: asked for every candidate cell
            if get(n) == colour:
                if first is None:
                    first = n
                else:
                    second = n
        if second is None:
            return False  # fewer than two neighbours of the colour: nothing to join
        held_by = self._held
        if held_by is None:
            held_by = self._held = {}
            for s in self.shrimps:
                c = get(s)
                held_by[c] = held_by.get(c, 0) + 1  # bare rock counts as None
        if held_by.get(colour, 0) < 2:
            return False  # not two shrimps on this colour anywhere: no two corals to join
        shrimps, coral = self.shrimps, self.reef.coral
        around = {coral[n] for n in neighbours()[k] if get(n) == colour}
        return sum(1 for c in around if any(x in shrimps for x in c.cells)) >= 2

    def may_move(self, source: str, target: str) -> bool:
        """shrimps.may_move on the facts."""
        shrimps = self.shrimps
        if shrimps.get(source) != self.seat or target == source:
            return False
        board = BOARD_OF[target]
        if board not in self.boards or target not in neighbours() or target in shrimps:
            return False
        if target in self.polyps:
            for c in self.reef.coral[target].cells:
                if c in shrimps and c != source:
                    return False  # one shrimp per coral
        mine = sum(1 for k, s in shrimps.items() if s == self.seat and BOARD_OF[k] == board)
        if BOARD_OF[source] == board:
            mine -= 1
        return mine < MAX_PER_BOARD

    # --- the steps ------------------------------------------------------------------------------

    def eat(self, k: str) -> None:
        """Action 1 with this seat's shrimp on ``k``."""
        colour = self.polyps[k]
        coral = self.reef.eat(k)
        back = min(len(coral), to_bag_count(self.state, self.final))
        del self._shrimps()[k]
        _more(self.avail(), colour, back)
        self.fish += len(coral) - back
        if self.sea_shrimp:
            self.fish_shrimps += 1
        else:
            self.sea_shrimp = True
        self.lines.append(f"eat {_names()[k]}")
        if not self.final and self.sea_shrimp + self.fish_shrimps == SHRIMPS:
            self.ended = True  # end condition 2: nothing more this turn

    def placement(self, colour: str) -> str | None:
        """A legal cell for a ``colour`` polyp, mostly next to that colour's corals."""
        dice = self.dice
        if dice.random() < 0.75:
            cand = next_to_mask(self.reef.masks[colour], self.in_play)
            keys = cell_bits().keys
            bits = dice.rng.getrandbits
            while cand:  # a candidate at random, until a legal one
                top = cand.bit_length()
                low = (cand & -cand).bit_length() - 1
                span = top - low
                width = span.bit_length()
                i = low + bits(width)
                while i >= top or not cand >> i & 1:
                    i = low + bits(width)
                k = keys[i]
                if self.placeable(k, colour):
                    return k
                cand ^= 1 << i
        boards = self.boards
        for _ in range(3):
            k = dice.choice(rock_cells()[dice.choice(boards)])
            if self.placeable(k, colour):
                return k
        every = [k for b in boards for k in rock_cells()[b]]
        for k in dice.drawn(every):  # every rock cell, in a random order
            if self.placeable(k, colour):
                return k
        return None

    def place(self, k: str, colour: str, consumed: bool) -> None:
        """A ``colour`` polyp on ``k`` (placeable), with its attack and extra growth."""
        reef = self.reef
        target = reef.put(k, colour)
        polyps = reef.polyps
        if target is not None:
            _more(self.consumed, target)
        if not self.state.advanced:
            for n in starfish_next_to()[k]:
                if (n not in polyps and n not in self.shrimps and not self.joins_two(n, colour)
                        and self.avail().get(colour, 0) > 0):
                    reef.put(n, colour)
                    _less(self.avail(), colour)
                    break
        _less(self.consumed if consumed else self.screen, colour)
        if len(polyps) >= self.rock_total and all(
                c in polyps for b in self.boards for c in rock_cells()[b]):
            self.ended = True  # end condition 3: every rock space is taken

    def play_larva(self) -> None:
        larva, screen, consumed, done = self.larva, self.screen, self.consumed, self.done
        if 3 in done:
            return
        colours = [c for c, n in sorted(larva.items())
                   if n > 0 and screen.get(c, 0) + consumed.get(c, 0) > 0]
        if not colours:
            return
        dice = self.dice
        colour = dice.choice(colours)
        target = self.placement(colour)
        if target is None:
            return
        done.add(3 if 2 in done else 2)
        _less(larva, colour)
        _more(self.larva_supply(), colour)
        from_screen = min(screen.get(colour, 0), MAX_FROM_SCREEN)
        want_screen = dice.randint(1, from_screen) if from_screen else 0
        want_consumed = dice.randint(0, consumed.get(colour, 0))
        if want_screen == 0 and want_consumed == 0:
            want_consumed = 1
        names = _names()
        words = [f"larva {colour}:"]
        for i in range(want_screen + want_consumed):
            if self.ended:  # the last rock space was just filled (end condition 3)
                break
            if target is None:
                target = self.placement(colour)
                if target is None:
                    break
            from_consumed = i >= want_screen
            self.place(target, colour, from_consumed)
            if from_consumed and i == want_screen:
                words.append("consumed")
            words.append(names[target])
            target = None
        self.lines.append(" ".join(words))

    def new_shrimp(self) -> None:
        """A new shrimp on a random polyp of a largest coral without a shrimp, on a board where
        this seat has fewer than two (of the largest, one at random)."""
        if self.in_hand < 1 or 4 in self.done:
            return
        shrimps, seat = self.shrimps, self.seat
        mine: dict[int, int] = {}  # board -> this seat's shrimps on it
        for k, owner in shrimps.items():
            if owner == seat:
                mine[BOARD_OF[k]] = mine.get(BOARD_OF[k], 0) + 1
        boards = self.boards
        full = {b for b in boards if mine.get(b, 0) >= MAX_PER_BOARD}
        coral = self.reef.coral
        guarded = {coral[k] for k in shrimps if k in coral}
        best: list[list[str]] = []  # the largest corals without a shrimp so far
        size = 0
        for found in self.reef.corals:
            cells = found.cells
            n = len(cells)
            if n < size or found in guarded:
                continue
            if full and BOARD_OF[next(iter(cells))] in full:  # a coral lies on one board
                continue
            if n > size:
                size, best = n, [list(cells)]
            else:
                best.append(list(cells))
        if not best:
            return
        # Chosen in cell order, not in the dicts' order: a state read back from JSON has its
        # cells in another order, and a seeded bot must choose the same.
        choice = self.dice.choice
        if len(best) > 1:
            best.sort(key=min)
        k = choice(sorted(choice(best)))
        self._shrimps()[k] = seat
        self.in_hand -= 1
        self.done.add(4)
        self.lines.append(f"shrimp new {_names()[k]}")

    def move(self, source: str, target: str | None) -> None:
        """Action 5 (``may_move`` said yes, or ``target`` is None: home)."""
        shrimps = self._shrimps()
        del shrimps[source]
        names = _names()
        if target is None:
            self.in_hand += 1
            self.lines.append(f"move shrimp {names[source]} home")
        else:
            shrimps[target] = self.seat
            self.lines.append(f"move shrimp {names[source]} to {names[target]}")

    def move_shrimp(self) -> None:
        """Move a shrimp to another polyp, sometimes resting it on bare rock on the way."""
        mine = sorted(k for k, s in self.shrimps.items() if s == self.seat)
        if not mine:
            return
        dice = self.dice
        source = dice.choice(mine)
        if dice.random() < 0.5:
            rest = dice.choice(rock_cells()[dice.choice(self.boards)])
            if rest not in self.polyps and self.may_move(source, rest):
                self.move(source, rest)
                source = rest
        polyps = sorted(self.polyps)  # all on boards in play: check_rock allows no other
        for n, target in enumerate(dice.drawn(polyps)):  # five distinct polyps at random
            if n == 5:
                break
            if self.may_move(source, target):
                self.move(source, target)
                return
        if source not in self.polyps:  # still resting on bare rock: home it goes
            self.move(source, None)

    def withdraw_shrimp(self) -> None:
        mine = sorted(k for k, s in self.shrimps.items() if s == self.seat)
        if mine:
            self.move(self.dice.choice(mine), None)

    def alga(self) -> None:
        consumed = self.consumed
        payable = sorted(c for c, n in consumed.items() if n > 0)
        if not payable:
            return
        dice = self.dice
        paid = dice.choice(payable)
        supply = self.alga_supply()
        if self.sea_shrimp and not self.alga_on_tile and dice.random() < 0.7:
            cylinders = self.cylinders
            tiles = [t for t in tile_ids() if str(t) not in cylinders]
            last = len(tiles) == 1
            for t in dice.drawn(tiles):  # the uncovered tiles, in a random order
                colour = showing(self.state.coral_face, self.flipped, t)[2]
                if supply.get(colour, 0) < 1 or (last and self.fish < 2):
                    continue  # check_alga would refuse it
                self._pay_alga(paid, colour)
                self.cylinders = {**cylinders, str(t): colour}
                self.alga_on_tile = True
                self._flip(colour, t)
                self.lines.append(f"alga {colour} on tile {t} paying {paid}")
                if len(self.cylinders) == len(tile_ids()):
                    self.ended = True  # end condition 1: every coral tile covered
                return
        colours = sorted(c for c, n in supply.items() if n > 0)
        if colours:
            colour = dice.choice(colours)
            self._pay_alga(paid, colour)
            if self.alga_space is not None:
                _more(supply, self.alga_space)
            self.alga_space = colour
            self._flip(colour, None)
            self.lines.append(f"alga {colour} on space paying {paid}")

    def _pay_alga(self, paid: str, colour: str) -> None:
        _less(self.consumed, paid)
        _more(self.avail(), paid)
        _less(self.alga_supply(), colour)

    def _flip(self, alga: str, but: int | None) -> None:
        """Turn every uncovered tile but ``but`` that shows a large ``alga``."""
        face, flipped, cylinders = self.state.coral_face, set(self.flipped), self.cylinders
        turned = [t for t in tile_ids() if str(t) not in cylinders and t != but
                  and showing(face, self.flipped, t)[2] == alga]
        if turned:
            flipped ^= set(turned)
            self.flipped = tuple(sorted(flipped))
            self._beats = None

    def consumed_for_larva(self) -> None:
        consumed, supply = self.consumed, self.larva_supply()
        colours = sorted(c for c, n in consumed.items() if n > 0 and supply.get(c, 0) > 0)
        if colours:
            colour = self.dice.choice(colours)
            _less(consumed, colour)
            _more(self.avail(), colour)
            _less(supply, colour)
            _more(self.larva, colour)
            self.lines.append(f"consumed {colour} for larva")

    def larva_for_polyp(self) -> None:
        avail = self.avail()
        colours = sorted(c for c, n in self.larva.items() if n > 0 and avail.get(c, 0) > 0)
        if colours:
            colour = self.dice.choice(colours)
            _less(avail, colour)
            _less(self.larva, colour)
            _more(self.larva_supply(), colour)
            _more(self.screen, colour)
            self.lines.append(f"larva {colour} for polyp")

    def take(self) -> None:
        """Action 10: any space with a larva cube, or (one time in two) one of the richest."""
        sea = self.state.open_sea
        if self.dice.random() < 0.5:
            best = -1
            richest: list[str] = []
            for s in sea:
                if s["larva"]:
                    n = len(s["polyps"])
                    if n > best:
                        best, richest = n, [s["colour"]]
                    elif n == best:
                        richest.append(s["colour"])
            colours = richest
        else:
            colours = [s["colour"] for s in sea if s["larva"]]
        self.lines.append(f"take {self.dice.choice(colours)}")


# The optional actions of a random turn, each with how likely it is tried when its turn comes.
_EXTRAS: tuple[tuple[Callable[[Writer], None], float], ...] = (
    (Writer.play_larva, 0.8), (Writer.play_larva, 0.8),
    (Writer.new_shrimp, 0.8), (Writer.new_shrimp, 0.8),
    (Writer.alga, 0.35), (Writer.alga, 0.35),
    (Writer.consumed_for_larva, 0.2), (Writer.larva_for_polyp, 0.15),
    (Writer.withdraw_shrimp, 0.03), (Writer.move_shrimp, 0.1),
)


def write_turn(state: State, seat: int, rng: random.Random) -> Writer:
    """A random legal turn for ``seat`` (not for the setup step), written: its ``lines``."""
    w = Writer(state, seat, rng)
    dice = w.dice
    edible = w.edible() if seat in state.shrimps.values() else None
    if edible and dice.random() < 0.9:
        w.eat(dice.choice(edible))
    if w.final:
        if not w.lines:
            w.lines.append("pass")
        if not _REEFS:
            _REEFS.append(w.reef)
        return w
    # Which optional actions are tried, each by its weight, then in a random order: the same
    # odds as shuffling all ten and trying each by its weight, with fewer draws.
    tried = [action for action, weight in _EXTRAS if dice.random() < weight]
    dice.shuffle(tried)
    for action in tried:
        if w.ended:
            break
        action(w)
    if not w.ended:
        w.take()
    if not _REEFS:
        _REEFS.append(w.reef)  # the next state's polyps, if this turn is played
    return w


def random_order(state: State, seat: int, rng: random.Random) -> str:
    """A random legal order as text a player could have typed (as format_order writes it)."""
    if state.phase == "setup":
        return _setup_answer(state, seat, rng)
    return "\n".join(write_turn(state, seat, rng).lines) + "\n"


def default_order(state: State, seat: int) -> str:
    """The safe turn for a seat out of time: no action, then take the richest open-sea space.

    In the setup step: the commonest polyp behind the screen into the parrotfish and the two
    commonest larva cubes in the supply. In a final turn: pass.
    """
    if state.phase == "setup":
        screen = state.seats[seat].screen
        fish = max(sorted(screen), key=lambda c: screen[c])
        cubes = sorted(state.larva_supply, key=lambda c: -state.larva_supply[c])
        second = cubes[1] if len(cubes) > 1 else cubes[0]
        return f"parrotfish {fish}; larvae {cubes[0]} {second}\n"
    if state.phase == "final":
        return "pass\n"
    sea = [s for s in state.open_sea if s["larva"]]
    best = max(sea, key=lambda s: len(s["polyps"]))
    return f"take {best['colour']}\n"
