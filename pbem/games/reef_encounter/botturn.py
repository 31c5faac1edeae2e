"""One seat's random turn, written from a few facts of the state (botfacts.py), with no
scratch copy of the state and no run of the rules: each step changes the facts as the rules
would change the state. tests/games/reef_encounter/test_bot_facts.py applies the written turns
with the rules and checks that the facts came out as the rules' state did."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from functools import cache
from typing import TypeVar

from pbem.games.reef_encounter.board import (
    BOARD_OF,
    neighbours,
    rock_cells,
    starfish_next_to,
    tile_ids,
)
from pbem.games.reef_encounter.botfacts import TurnFacts
from pbem.games.reef_encounter.botreef import next_to_mask
from pbem.games.reef_encounter.bottiles import showing
from pbem.games.reef_encounter.cellbits import cell_bits
from pbem.games.reef_encounter.parrotfish import to_bag_count
from pbem.games.reef_encounter.rules import MAX_FROM_SCREEN, SHRIMPS
from pbem.games.reef_encounter.shrimps import MAX_PER_BOARD
from pbem.games.reef_encounter.state import State

T = TypeVar("T")


@cache
def _names() -> dict[str, str]:
    """Cell key -> how an order writes it ("2:D4" -> "2D4")."""
    return {k: k.replace(":", "") for k in neighbours()}


def _drawn(rng: random.Random, x: list[T]) -> Iterator[T]:
    """``x``'s items in a random order, each drawn when asked for (``x`` is reordered as it
    goes): a bot mostly takes the first item or few of a list it tries in a random order."""
    left = len(x)
    while left:
        i = rng.randrange(left)
        left -= 1
        item = x[i]
        x[i] = x[left]
        yield item


def _less(counts: dict[str, int], colour: str) -> None:
    """One ``colour`` fewer; a count of zero vanishes (as supply.remove)."""
    left = counts[colour] - 1
    if left:
        counts[colour] = left
    else:
        del counts[colour]


def _more(counts: dict[str, int], colour: str, n: int = 1) -> None:
    counts[colour] = counts.get(colour, 0) + n


class Writer(TurnFacts):
    """One seat's random turn being written: each step checks its choice on the facts,
    changes them as the rules would change the state, and adds its line."""

    __slots__ = ()

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
        rng = self.rng
        if rng.random() < 0.75:
            cand = next_to_mask(self.reef.masks[colour], self.in_play)
            keys = cell_bits().keys
            bits = rng.getrandbits
            # A candidate at random until a legal one: getrandbits over the candidates' span,
            # drawn again on a miss (the pinned games hold these exact draws).
            while cand:
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
            k = rng.choice(rock_cells()[rng.choice(boards)])
            if self.placeable(k, colour):
                return k
        every = [k for b in boards for k in rock_cells()[b]]
        for k in _drawn(rng, every):  # every rock cell, in a random order
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
            for n in starfish_next_to()[k]:  # extra growth, as placement.extra_growth
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
        """Action 2 or 3: a larva cube, then polyps of its colour from behind the screen (at
        most four) and from in front of it."""
        larva, screen, consumed, done = self.larva, self.screen, self.consumed, self.done
        if 3 in done:
            return
        colours = [c for c, n in sorted(larva.items())
                   if n > 0 and screen.get(c, 0) + consumed.get(c, 0) > 0]
        if not colours:
            return
        rng = self.rng
        colour = rng.choice(colours)
        target = self.placement(colour)
        if target is None:
            return
        done.add(3 if 2 in done else 2)
        _less(larva, colour)
        _more(self.larva_supply(), colour)
        from_screen = min(screen.get(colour, 0), MAX_FROM_SCREEN)
        want_screen = rng.randint(1, from_screen) if from_screen else 0
        want_consumed = rng.randint(0, consumed.get(colour, 0))
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
        choice = self.rng.choice
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
        rng = self.rng
        source = rng.choice(mine)
        if rng.random() < 0.5:
            rest = rng.choice(rock_cells()[rng.choice(self.boards)])
            if rest not in self.polyps and self.may_move(source, rest):
                self.move(source, rest)
                source = rest
        polyps = sorted(self.polyps)  # all on boards in play: check_rock allows no other
        for n, target in enumerate(_drawn(rng, polyps)):  # five distinct polyps at random
            if n == 5:
                break
            if self.may_move(source, target):
                self.move(source, target)
                return
        if source not in self.polyps:  # still resting on bare rock: home it goes
            self.move(source, None)

    def withdraw_shrimp(self) -> None:
        """Action 5: one of this seat's shrimps home behind its screen."""
        mine = sorted(k for k, s in self.shrimps.items() if s == self.seat)
        if mine:
            self.move(self.rng.choice(mine), None)

    def alga(self) -> None:
        """Action 7, paid with a consumed polyp: an alga cylinder on an uncovered coral tile
        (where check_alga allows it) or on the alga space."""
        consumed = self.consumed
        payable = sorted(c for c, n in consumed.items() if n > 0)
        if not payable:
            return
        rng = self.rng
        paid = rng.choice(payable)
        supply = self.alga_supply()
        if self.sea_shrimp and not self.alga_on_tile and rng.random() < 0.7:
            cylinders = self.cylinders
            tiles = [t for t in tile_ids() if str(t) not in cylinders]
            last = len(tiles) == 1
            for t in _drawn(rng, tiles):  # the uncovered tiles, in a random order
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
            colour = rng.choice(colours)
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
        """Action 6: a consumed polyp traded for a larva cube of its colour."""
        consumed, supply = self.consumed, self.larva_supply()
        colours = sorted(c for c, n in consumed.items() if n > 0 and supply.get(c, 0) > 0)
        if colours:
            colour = self.rng.choice(colours)
            _less(consumed, colour)
            _more(self.avail(), colour)
            _less(supply, colour)
            _more(self.larva, colour)
            self.lines.append(f"consumed {colour} for larva")

    def larva_for_polyp(self) -> None:
        """Action 8: a larva cube traded for a polyp of its colour from the bag or the bonus."""
        avail = self.avail()
        colours = sorted(c for c, n in self.larva.items() if n > 0 and avail.get(c, 0) > 0)
        if colours:
            colour = self.rng.choice(colours)
            _less(avail, colour)
            _less(self.larva, colour)
            _more(self.larva_supply(), colour)
            _more(self.screen, colour)
            self.lines.append(f"larva {colour} for polyp")

    def take(self) -> None:
        """Action 10: any space with a larva cube, or (one time in two) one of the richest."""
        sea = self.state.open_sea
        if self.rng.random() < 0.5:
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
        self.lines.append(f"take {self.rng.choice(colours)}")


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
    edible = w.edible() if seat in state.shrimps.values() else None
    if edible and rng.random() < 0.9:
        w.eat(rng.choice(edible))
    if w.final:
        if not w.lines:
            w.lines.append("pass")
        return w
    # Which optional actions are tried, each by its weight, then in a random order: the same
    # odds as shuffling all ten and trying each by its weight, with fewer draws.
    tried = [action for action, weight in _EXTRAS if rng.random() < weight]
    rng.shuffle(tried)
    for action in tried:
        if w.ended:
            break
        action(w)
    if not w.ended:
        w.take()
    return w
