"""Recorded randomness.

Every random outcome a game needs goes through a :class:`Chance`. Live, it draws from a seeded
generator and records each outcome; replaying, it hands back the recorded outcomes in order and
checks each against what the rules now ask for. A game's log (setup draws + each order's draws)
therefore replays to the same state, and an auditor can read every draw.

Games must draw only through this object (never ``random`` directly), and must ask for the same
draws in the same order given the same state and order.
"""

from __future__ import annotations

import _random
import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")


class ChanceMismatch(RuntimeError):
    """A replay asked for a draw the log does not hold (the rules or the log changed)."""


@dataclass(frozen=True, init=False)
class Draw:
    """One chance outcome: what was drawn (``label``), its value, and a readable form."""

    label: str
    value: Any  # an index for choice/randint, a permutation (list of indices) for shuffle
    shown: str = ""

    def __init__(self, label: str, value: Any, shown: str = "") -> None:
        # The dataclass's own __init__, written straight into the instance's dict (a frozen
        # dataclass sets each field through object.__setattr__): games draw many times.
        own = self.__dict__
        own["label"] = label
        own["value"] = value
        own["shown"] = shown

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "value": self.value, "shown": self.shown}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Draw:
        return cls(label=str(d["label"]), value=d["value"], shown=str(d.get("shown", "")))


def _seeded(seed: str) -> random.Random:
    """``random.Random(n)``, n from the seed's digest, without Random's two Python-level
    frames (``__init__``, ``seed``): for an int, ``Random.seed`` only calls the C seeding,
    and most orders seed a generator."""
    digest = hashlib.sha256(seed.encode("utf-8")).digest()
    rng = _NEW_RANDOM(random.Random)
    _SEED_RANDOM(rng, int.from_bytes(digest[:16], "big"))
    rng.gauss_next = None  # type: ignore[attr-defined]  # what Random.__init__ sets too
    return rng


_NEW_RANDOM = random.Random.__new__
_SEED_RANDOM = _random.Random.seed


class Chance:
    """The only source of randomness a game may use."""

    def __init__(self, seed: str, replay: Sequence[Draw] | None = None) -> None:
        self.seed = seed
        self._rng_or_none: random.Random | None = None  # seeded at the first live draw
        self._replay = list(replay) if replay is not None else None
        self.draws: list[Draw] = []

    @property
    def _rng(self) -> random.Random:
        # Seeding costs more than most orders' rules, and most orders draw nothing.
        if self._rng_or_none is None:
            self._rng_or_none = _seeded(self.seed)
        return self._rng_or_none

    @classmethod
    def replaying(cls, draws: Sequence[Draw]) -> Chance:
        return cls("replay", replay=draws)

    @property
    def replaying_log(self) -> bool:
        return self._replay is not None

    def _next(self, label: str) -> Draw:
        assert self._replay is not None
        index = len(self.draws)
        if index >= len(self._replay):
            raise ChanceMismatch(f"replay needs draw #{index + 1} ({label}) but the log has none")
        draw = self._replay[index]
        if draw.label != label:
            raise ChanceMismatch(
                f"replay draw #{index + 1}: log has {draw.label!r}, rules asked for {label!r}"
            )
        return draw

    def _replayed(self, label: str, size: int) -> Draw:
        """The next recorded draw, for a choice among ``size`` options: its index must be one."""
        draw = self._next(label)
        idx = int(draw.value)
        if not 0 <= idx < size:
            raise ChanceMismatch(f"replay draw {label!r}: index {idx} out of range")
        return draw

    def choice(self, label: str, options: Sequence[T]) -> T:
        """Pick one of ``options`` (which must not be empty)."""
        if not options:
            raise ValueError(f"chance {label!r}: nothing to choose from")
        if self._replay is not None:
            draw = self._replayed(label, len(options))
            idx = int(draw.value)
        else:
            # randrange(n) for an int n > 0 is exactly _randbelow(n), one Python call less
            # per draw (a Reef Encounter turn draws three or four polyps).
            idx = (self._rng_or_none or self._rng)._randbelow(len(options))  # type: ignore[attr-defined]
            draw = Draw(label, idx, str(options[idx]))
        self.draws.append(draw)
        return options[idx]

    def deal_counted(self, labels: Sequence[str], counted: Sequence[tuple[T, int]]
                     ) -> list[T]:
        """``choice(label, pool)`` once per label, for the pool that holds each item ``n``
        times in the order given (e.g. a bag's polyps grouped by colour), each drawn item
        taken out of the pool before the next draw: the same draws and records as ``choice``
        on the pool rebuilt after each draw, without building it. A Reef Encounter turn
        draws three polyps from a bag of some sixty: building that pool, or even one call
        per draw, cost more than the draws."""
        items = [item for item, _ in counted]
        counts = [n for _, n in counted]
        total = sum(counts)
        live = self._replay is None
        below = (self._rng_or_none or self._rng)._randbelow if live else None  # type: ignore[attr-defined]
        out: list[T] = []
        for label in labels:
            if total <= 0:
                raise ValueError(f"chance {label!r}: nothing to choose from")
            if below is not None:
                idx = below(total)
            else:
                replayed = self._replayed(label, total)
                idx = int(replayed.value)
            i, at = 0, idx
            while at >= counts[i]:  # the pool's item at idx, counting through the groups
                at -= counts[i]
                i += 1
            counts[i] -= 1
            total -= 1
            item = items[i]
            self.draws.append(Draw(label, idx, str(item)) if live else replayed)
            out.append(item)
        return out

    def randint(self, label: str, low: int, high: int) -> int:
        """An integer in ``[low, high]`` inclusive."""
        return self.choice(label, list(range(low, high + 1)))

    def shuffle(self, label: str, items: Sequence[T]) -> list[T]:
        """A new list holding ``items`` in a random order."""
        n = len(items)
        if self._replay is not None:
            draw = self._next(label)
            perm = [int(i) for i in draw.value]
            if sorted(perm) != list(range(n)):
                raise ChanceMismatch(f"replay draw {label!r}: not a permutation of {n} items")
        else:
            perm = list(range(n))
            self._rng.shuffle(perm)
            draw = Draw(label, perm, ", ".join(str(items[i]) for i in perm))
        self.draws.append(draw)
        return [items[i] for i in perm]

    def sample(self, label: str, items: Sequence[T], k: int) -> list[T]:
        """``k`` distinct items, in draw order."""
        return self.shuffle(label, items)[:k]

    def finish(self) -> None:
        """In replay, check that every recorded draw was used."""
        if self._replay is not None and len(self.draws) != len(self._replay):
            raise ChanceMismatch(
                f"replay used {len(self.draws)} of {len(self._replay)} recorded draws"
            )
