"""The facts of a turn the bot is writing, and the rules' conditions on them.

The facts are the polyps as corals and colour masks (botreef.py), the shrimps, the seat's
holdings, and the supplies and tiles its steps touch. The conditions are the rules' own (those
of check_place, move_shrimp's target check, the parrotfish's meal), written out on the facts:
tests/games/reef_encounter/test_bot_facts.py holds them to the rules' answers."""

from __future__ import annotations

import random

from pbem.games.reef_encounter.board import BOARD_OF, neighbours, rock_count
from pbem.games.reef_encounter.botreef import Reef, in_play
from pbem.games.reef_encounter.bottiles import dominated
from pbem.games.reef_encounter.parrotfish import MIN_CORAL
from pbem.games.reef_encounter.shrimps import MAX_PER_BOARD
from pbem.games.reef_encounter.state import State


class TurnFacts:
    """What one seat's turn being written knows: its lines so far, and the facts its steps
    change, with the rules' conditions on them (the steps are :class:`botturn.Writer`'s).

    The state is only read. The polyps are the reef's (traced from the state); the shrimps and
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
        "rng",
        "rock_total",
        "screen",
        "sea_shrimp",
        "seat",
        "shrimps",
        "state",
    )

    def __init__(self, state: State, seat: int, rng: random.Random) -> None:
        me = state.seats[seat]
        self.state, self.seat, self.rng = state, seat, rng
        self.final = state.phase == "final"
        self.boards = boards = tuple(state.boards)
        self.in_play, self.rock_total = in_play(boards), rock_count(boards)
        self.reef = Reef(state.polyps)
        self.polyps, self.shrimps = self.reef.polyps, state.shrimps
        self._own_shrimps = False  # True once self.shrimps is this turn's own copy
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
        # Coral colour (None: bare rock) -> how many shrimps stand on it, once asked.
        self._held: dict[str | None, int] | None = None

    # --- the facts, copied on first change ----------------------------------------------------

    def _shrimps(self) -> dict[str, int]:
        """The shrimps, for a step to change (the state's own are only read)."""
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
        """The cells of this seat's shrimps that guard a coral the parrotfish may eat now
        (of MIN_CORAL polyps or more), read off the reef's corals' sizes."""
        coral, seat = self.reef.coral, self.seat
        return sorted(k for k, s in self.shrimps.items()
                      if s == seat and k in coral and len(coral[k].cells) >= MIN_CORAL)

    def mask(self, colour: str) -> int:
        """The bits of the ``colour`` polyps (test_bot_facts checks them against the state)."""
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
        """Whether move_shrimp would move this seat's shrimp from ``source`` to ``target``
        (its checks and shrimps._check_target's, without words)."""
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
