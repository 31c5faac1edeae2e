"""Legal moves for bots: a random whole turn, and the safe default turn.

The random turn is built step by step on a scratch copy of the state with the rules' own step
functions, so what it writes is legal by construction; every candidate is first checked with the
rules' non-changing checks. It leans towards growing corals, guarding them and eating them, so
random games reach an end in a sensible number of turns.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import lru_cache
from itertools import islice

from pbem.engine.chance import Chance
from pbem.games.reef_encounter.algae import check_alga, uncovered
from pbem.games.reef_encounter.board import (
    BOARD_OF,
    Refused,
    dominates,
    neighbours,
    rock_cells,
    starfish_next_to,
    visible,
)
from pbem.games.reef_encounter.botdice import Dice
from pbem.games.reef_encounter.cellbits import cell_bits, cells_in, grow
from pbem.games.reef_encounter.context import Turn
from pbem.games.reef_encounter.language import format_order
from pbem.games.reef_encounter.orders import (
    Alga,
    Cell,
    ConsumedForLarva,
    Eat,
    Larva,
    LarvaForPolyp,
    MoveShrimp,
    NewShrimp,
    Order,
    Pass,
    Place,
    Step,
    Take,
)
from pbem.games.reef_encounter.parrotfish import MIN_CORAL
from pbem.games.reef_encounter.placement import placeable, placeable_in_play
from pbem.games.reef_encounter.shrimps import MAX_PER_BOARD, may_move
from pbem.games.reef_encounter.state import State
from pbem.games.reef_encounter.turn import (
    MAX_FROM_SCREEN,
    do_step,
    new_shrimp_checked,
    place_checked,
)
from pbem.i18n.msg import Msg

_NO_CHANCE = Chance("bot")  # never drawn from: the bot stops before action 10


def cell(cell_key: str) -> Cell:
    found = _CELLS.get(cell_key)
    if found is None:
        board, rest = cell_key.split(":")
        found = _CELLS[cell_key] = Cell(int(board), rest[0], int(rest[1:]))
    return found


_CELLS: dict[str, Cell] = {}  # cell key -> its (immutable) Cell, made once


def placing(cell_key: str, consumed: bool) -> Place:
    """``Place(cell(cell_key), consumed)``, made once per cell and source: steps are immutable,
    and a random game places a few hundred polyps on the same cells."""
    found = _PLACES.get((cell_key, consumed))
    if found is None:
        found = _PLACES[(cell_key, consumed)] = Place(cell(cell_key), consumed=consumed)
    return found


_PLACES: dict[tuple[str, bool], Place] = {}
_LARVAE: dict[str, Larva] = {}  # colour -> its Larva step, made once
_TAKES: dict[str, Take] = {}  # colour -> its Take step, made once


def edible_corals(state: State, seat: int) -> list[str]:
    """Cells of this seat's shrimps that guard a coral the parrotfish may eat now."""
    if seat not in state.shrimps.values():
        return []  # no shrimp of this seat on the reef, as in many turns: no loop
    out = []
    polyps, near = state.polyps, neighbours()
    get = polyps.get
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


def dominance(state: State) -> dict[tuple[str, str], bool]:
    """(attacker, target) -> whether ``dominates(state, attacker, target)`` now, for the pairs
    asked so far while the coral tiles lie as now (tiles turn only with algae)."""
    lie: tuple[str | int, ...] = (state.coral_face, *state.flipped_tiles)
    found = _DOMINANCE.get(lie)
    if found is None:
        if len(_DOMINANCE) >= 256:
            _DOMINANCE.clear()
        found = _DOMINANCE[lie] = {}
    return found


_DOMINANCE: dict[tuple[str | int, ...], dict[tuple[str, str], bool]] = {}


def colour_mask(polyps: dict[str, str], colour: str) -> int:
    """The bits of the cells holding a ``colour`` polyp."""
    bit = cell_bits().bit
    own = 0
    for k, c in polyps.items():
        if c == colour:
            own |= bit[k]
    return own


def next_to(state: State, colour: str) -> list[str]:
    """The sorted cells of the boards in play next to a ``colour`` polyp and not holding one."""
    boards = cell_bits().board
    in_play = 0
    for b in state.boards:
        in_play |= boards[b]  # a neighbour lies on its polyp's board
    own = colour_mask(state.polyps, colour)
    return cells_in(grow(own) & in_play & ~own)


def _setup_answer(state: State, seat: int, rng: random.Random) -> str:
    screen = state.seats[seat].screen
    fish = rng.choice(sorted(c for c, n in screen.items() if n > 0))
    cubes = [c for c, n in sorted(state.larva_supply.items()) for _ in range(min(n, 2))]
    first, second = rng.sample(cubes, 2)
    return f"parrotfish {fish}; larvae {first} {second}\n"


@lru_cache(maxsize=64)
def _in_play(boards: tuple[int, ...]) -> int:
    """The bits of the rock cells of these boards."""
    bits = cell_bits().board
    return sum(bits[b] for b in boards)


class _QuietTurn(Turn):
    """The bot's turn: the rules' events are thrown away, so they are not even made."""

    loud = False

    def say(self, kind: str, message: Msg) -> None:
        pass

    def tell(self, kind: str, message: Msg) -> None:
        pass


def _dice(rng: random.Random) -> Dice:
    """The Dice of ``rng``, kept from its last turn: a game's bot plays every turn with one
    generator, and a Dice keeps no state of its own besides it."""
    global _LAST_DICE
    dice = _LAST_DICE  # read once: another thread's bot may replace it meanwhile
    if dice is None or dice.rng is not rng:
        dice = _LAST_DICE = Dice(rng)
    return dice


_LAST_DICE: Dice | None = None


class _Builder:
    """A turn under construction on a scratch state (a copy for this seat's turn)."""

    def __init__(self, state: State, seat: int, rng: random.Random) -> None:
        self.state = state.copy_for(seat)
        self.seat = seat
        self.rng = _dice(rng)
        self.in_play = _in_play(tuple(state.boards))
        self.turn: Turn = _QuietTurn(seat, final=state.phase == "final")
        self.steps: list[Step] = []
        # Colour -> its polyps' bits on the scratch state, for the colours asked so far, kept
        # up to date by the bot's own steps (only placements and a meal move polyps).
        self._masks: dict[str, int] = {}

    def do(self, step: Step) -> None:
        do_step(self.state, self.turn, step, _NO_CHANCE)
        self.turn.steps += 1
        self.steps.append(step)
        if isinstance(step, Eat):  # a coral left the reef
            self._masks.clear()

    def place(self, cell_key: str, consumed: bool) -> None:
        """``do(placing(cell_key, consumed))`` for a cell placement() found placeable, without
        the rules checking it again."""
        st = self.state
        target = st.polyps.get(cell_key)  # an attack: placeable() allowed it
        step = placing(cell_key, consumed)
        place_checked(st, self.turn, step, target)
        self.turn.steps += 1
        self.steps.append(step)
        masks = self._masks
        if not masks:
            return
        bit = cell_bits().bit
        colour = self.turn.larva_colour
        if colour in masks:
            grown = bit[cell_key]
            for n in starfish_next_to()[cell_key]:  # extra growth, if it happened
                if st.polyps.get(n) == colour:
                    grown |= bit[n]
            masks[colour] |= grown
        if target in masks:
            masks[target] &= ~bit[cell_key]

    def next_to(self, colour: str) -> list[str]:
        """``next_to(self.state, colour)``, its colour's cells kept from the last time."""
        own = self._masks.get(colour)
        if own is None:
            own = self._masks[colour] = colour_mask(self.state.polyps, colour)
        return cells_in(grow(own) & self.in_play & ~own)

    def placement(self, colour: str) -> str | None:
        """A legal cell for a ``colour`` polyp, mostly next to that colour's corals."""
        st = self.state
        boards = st.boards
        if self.rng.random() < 0.75:
            cands = self.next_to(colour)
            polyps = st.polyps
            strong = dominance(st)
            # rock cells in play: placeable() without its board and rock tests; the first
            # candidate drawn is mostly placeable
            for k in self.rng.drawn(cands):
                # A candidate never holds ``colour``: a polyp on it is attacked, which needs
                # ``colour`` to dominate it (told here without the tile look-ups).
                target = polyps.get(k)
                if target is not None:
                    pair = (colour, target)
                    known = strong.get(pair)
                    if known is None:
                        known = strong[pair] = dominates(st, colour, target)[0]
                    if not known:
                        continue
                if placeable_in_play(st, k, colour, dominant=True):
                    return k
        for _ in range(3):
            board = self.rng.choice(boards)
            k = self.rng.choice(rock_cells()[board])
            if placeable(st, k, colour):
                return k
        every = [k for b in boards for k in rock_cells()[b]]
        for k in self.rng.drawn(every):  # every rock cell, in a random order
            if placeable(st, k, colour):
                return k
        return None

    def play_larva(self) -> None:
        me = self.state.seats[self.seat]
        colours = [c for c, n in sorted(me.larva.items())
                   if n > 0 and me.screen.get(c, 0) + me.consumed.get(c, 0) > 0]
        if not colours:
            return
        colour = self.rng.choice(colours)
        first = self.placement(colour)
        if first is None:
            return
        larva = _LARVAE.get(colour)
        if larva is None:
            larva = _LARVAE[colour] = Larva(colour)
        self.do(larva)
        from_screen = min(me.screen.get(colour, 0), MAX_FROM_SCREEN)
        want_screen = self.rng.randint(1, from_screen) if from_screen else 0
        want_consumed = self.rng.randint(0, me.consumed.get(colour, 0))
        if want_screen == 0 and want_consumed == 0:
            want_consumed = 1
        target: str | None = first
        for consumed in [False] * want_screen + [True] * want_consumed:
            if self.turn.ended:  # the last rock space was just filled (end condition 3)
                return
            if target is None:
                target = self.placement(colour)
                if target is None:
                    return
            self.place(target, consumed)
            target = None

    def new_shrimp(self) -> None:
        """A new shrimp on a random polyp of a largest coral without a shrimp, on a board where
        this seat has fewer than two (of the largest, one at random)."""
        st = self.state
        if st.seats[self.seat].shrimps_in_hand < 1 or 4 in self.turn.done:
            return
        mine: dict[int, int] = {}  # board -> this seat's shrimps on it
        for k, owner in st.shrimps.items():
            if owner == self.seat:
                mine[BOARD_OF[k]] = mine.get(BOARD_OF[k], 0) + 1
        full = {b for b in st.boards if mine.get(b, 0) >= MAX_PER_BOARD}
        boards = st.boards
        polyps, near = st.polyps, neighbours()
        left = dict(polyps)  # the polyps not yet traced into a coral
        # A coral lies on one board: one on a full board (or one not in play) is traced but
        # not chosen.
        barred = full | (set(rock_cells()) - set(boards)) if full or len(boards) < len(
            rock_cells()) else None
        get, take = left.get, left.pop
        for k in st.shrimps:  # the corals holding a shrimp first, out of the way
            colour = take(k, None)
            if colour is None:
                continue
            cells = [k]
            for c in cells:
                for n in near[c]:
                    if get(n) == colour:
                        del left[n]
                        cells.append(n)
        best: list[list[str]] = []  # the largest corals without a shrimp so far
        size = 0
        popitem = left.popitem
        while left:
            k, colour = popitem()
            for n in near[k]:
                if get(n) == colour:
                    break
            else:  # a lone polyp (most are): a coral of one, told without tracing
                if size <= 1 and (barred is None or BOARD_OF[k] not in barred):
                    size = 1
                    best.append([k])
                continue
            cells = [k]
            for c in cells:  # grows as it goes: the coral traced breadth first (as group())
                for n in near[c]:
                    if get(n) == colour:
                        del left[n]
                        cells.append(n)
            if len(cells) < size or (barred is not None and BOARD_OF[k] in barred):
                continue
            if len(cells) > size:
                size, best = len(cells), [cells]
            elif len(cells) == size:
                best.append(cells)
        if best:  # legal: a coral without a shrimp, on a board not full
            # Chosen in cell order, not in the dicts' order: a state read back from JSON has
            # its cells in another order, and a seeded bot must choose the same.
            choice = self.rng.choice
            if len(best) > 1:
                best.sort(key=min)
            step = NewShrimp(cell(choice(sorted(choice(best)))))
            new_shrimp_checked(st, self.turn, step)
            self.turn.steps += 1
            self.steps.append(step)

    def attempt(self, step: MoveShrimp) -> bool:
        """Apply the shrimp move if the rules accept it. A refused shrimp move has changed
        nothing (do_step and move_shrimp check everything before moving it; tested in
        test_bot_checks.py), so no backup copy is needed."""
        try:
            self.do(step)
        except Refused:
            return False
        return True

    def move_shrimp(self) -> None:
        """Move a shrimp to another polyp, sometimes resting it on bare rock on the way."""
        st = self.state
        mine = sorted(k for k, s in st.shrimps.items() if s == self.seat)
        if not mine:
            return
        source = self.rng.choice(mine)
        if self.rng.random() < 0.5:
            board = self.rng.choice(st.boards)
            rest = self.rng.choice(rock_cells()[board])
            if (rest not in st.polyps and may_move(st, self.seat, source, rest)
                    and self.attempt(MoveShrimp(cell(source), cell(rest)))):
                source = rest
        polyps = sorted(k for k in st.polyps if BOARD_OF[k] in st.boards)
        for target in islice(self.rng.drawn(polyps), 5):  # five distinct polyps at random
            if may_move(st, self.seat, source, target) and self.attempt(
                    MoveShrimp(cell(source), cell(target))):
                return
        if source not in self.state.polyps:  # still resting on bare rock: home it goes
            self.do(MoveShrimp(cell(source), None))

    def withdraw_shrimp(self) -> None:
        mine = sorted(k for k, s in self.state.shrimps.items() if s == self.seat)
        if mine:
            self.do(MoveShrimp(cell(self.rng.choice(mine)), None))

    def alga(self) -> None:
        st = self.state
        me = st.seats[self.seat]
        payable = sorted(c for c, n in me.consumed.items() if n > 0)
        if not payable:
            return
        paid = self.rng.choice(payable)
        if me.sea_shrimp and not self.turn.alga_on_tile and self.rng.random() < 0.7:
            tiles = uncovered(st)
            for t in self.rng.drawn(tiles):  # the uncovered tiles, in a random order
                colour = visible(st, t)[2]
                if st.alga_supply.get(colour, 0) < 1:
                    continue  # check_alga would refuse it: no such cylinder left
                try:
                    check_alga(st, self.turn, colour, t, paid)
                except Refused:
                    continue
                self.do(Alga(colour, t, paid))
                return
        colours = sorted(c for c, n in st.alga_supply.items() if n > 0)
        if colours:
            self.do(Alga(self.rng.choice(colours), None, paid))

    def consumed_for_larva(self) -> None:
        st = self.state
        me = st.seats[self.seat]
        colours = sorted(c for c, n in me.consumed.items()
                         if n > 0 and st.larva_supply.get(c, 0) > 0)
        if colours:
            self.do(ConsumedForLarva(self.rng.choice(colours)))

    def larva_for_polyp(self) -> None:
        st = self.state
        me = st.seats[self.seat]
        colours = sorted(c for c, n in me.larva.items()
                         if n > 0 and st.bag.get(c, 0) + st.bonus.get(c, 0) > 0)
        if colours:
            self.do(LarvaForPolyp(self.rng.choice(colours)))

    def take(self) -> Take:
        sea = [s for s in self.state.open_sea if s["larva"]]
        if self.rng.random() < 0.5:
            best = max(len(s["polyps"]) for s in sea)
            sea = [s for s in sea if len(s["polyps"]) == best]
        colour = str(self.rng.choice(sea)["colour"])
        found = _TAKES.get(colour)
        if found is None:
            found = _TAKES[colour] = Take(colour)
        return found


# The optional actions of a random turn, each with how likely it is tried when its turn comes.
_EXTRAS: tuple[tuple[Callable[[_Builder], None], float], ...] = (
    (_Builder.play_larva, 0.8), (_Builder.play_larva, 0.8),
    (_Builder.new_shrimp, 0.8), (_Builder.new_shrimp, 0.8),
    (_Builder.alga, 0.35), (_Builder.alga, 0.35),
    (_Builder.consumed_for_larva, 0.2), (_Builder.larva_for_polyp, 0.15),
    (_Builder.withdraw_shrimp, 0.03), (_Builder.move_shrimp, 0.1),
)


def random_steps(state: State, seat: int, rng: random.Random) -> Order:
    """A random legal turn for ``seat`` as steps (not for the setup step)."""
    b = _Builder(state, seat, rng)
    dice = b.rng
    edible = edible_corals(state, seat)
    if edible and dice.random() < 0.9:
        b.do(Eat(cell(dice.choice(edible))))
    if b.turn.final:
        if not b.steps:
            b.steps.append(Pass())
        return Order(tuple(b.steps))
    # Which optional actions are tried, each by its weight, then in a random order: the same
    # odds as shuffling all ten and trying each by its weight, with fewer draws.
    tried = [action for action, weight in _EXTRAS if dice.random() < weight]
    dice.shuffle(tried)
    for action in tried:
        if b.turn.ended:
            break
        action(b)
    if not b.turn.ended:
        b.steps.append(b.take())
    return Order(tuple(b.steps))


def random_order(state: State, seat: int, rng: random.Random) -> str:
    """A random legal order as text a player could have typed."""
    if state.phase == "setup":
        return _setup_answer(state, seat, rng)
    return format_order(random_steps(state, seat, rng))


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

