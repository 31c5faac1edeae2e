"""One seat's random turn, written from a few facts of the state.

The facts are the polyps as corals and colour masks (botreef.py), the shrimps, the seat's
holdings, and the supplies and tiles its steps touch: each step changes them as the rules would
change the state. Each step is checked on the facts by the rules' own conditions (those of
check_place, move_shrimp, check_alga, ...), written out here. tests/games/reef_encounter/
test_bot_facts.py applies the written turns with the rules and checks that the facts came out
as the rules' state did."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache

from pbem.games.reef_encounter.board import (
    BOARD_OF,
    neighbours,
    rock_cells,
    starfish_next_to,
    tile_ids,
)
from pbem.games.reef_encounter.botdice import kept_dice
from pbem.games.reef_encounter.botreef import (
    in_play,
    keep_reef,
    kept_reef,
    next_to_mask,
    rock_total,
)
from pbem.games.reef_encounter.bottiles import dominated, showing
from pbem.games.reef_encounter.cellbits import cell_bits
from pbem.games.reef_encounter.parrotfish import MIN_CORAL, to_bag_count
from pbem.games.reef_encounter.shrimps import MAX_PER_BOARD
from pbem.games.reef_encounter.state import State
from pbem.games.reef_encounter.turn import MAX_FROM_SCREEN, SHRIMPS


@cache
def _names() -> dict[str, str]:
    """Cell key -> how an order writes it ("2:D4" -> "2D4")."""
    return {k: k.replace(":", "") for k in neighbours()}


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
        self.state, self.seat, self.dice = state, seat, kept_dice(rng)
        self.final = state.phase == "final"
        self.boards = boards = tuple(state.boards)
        self.in_play, self.rock_total = in_play(boards), rock_total(boards)
        self.reef = kept_reef(state)
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
        keep_reef(w.reef)
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
    keep_reef(w.reef)  # the next state's polyps, if this turn is played
    return w
