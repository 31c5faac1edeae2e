"""Recorded randomness.

Every random outcome a game needs goes through a :class:`Chance`. Live, it draws from a seeded
generator and records each outcome; replaying, it hands back the recorded outcomes in order and
checks each against what the rules now ask for. A game's log (setup draws + each order's draws)
therefore replays to the same state, and an auditor can read every draw.

Games must draw only through this object (never ``random`` directly), and must ask for the same
draws in the same order given the same state and order.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, TypeVar

T = TypeVar("T")


class ChanceMismatch(RuntimeError):
    """A replay asked for a draw the log does not hold (the rules or the log changed)."""


@dataclass(frozen=True)
class Draw:
    """One chance outcome: what was drawn (``label``), its value, and a readable form."""

    label: str
    value: Any  # an index for choice/randint, a permutation (list of indices) for shuffle
    shown: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "value": self.value, "shown": self.shown}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Draw:
        return cls(label=str(d["label"]), value=d["value"], shown=str(d.get("shown", "")))


def seeded_generator(seed: str) -> random.Random:
    """The generator a live :class:`Chance` draws from: ``random.Random`` seeded with the
    first 16 bytes of the seed's SHA-256 digest (so any text makes a full-width seed). Every
    stored game's seeded draws depend on it staying exactly this."""
    digest = hashlib.sha256(seed.encode("utf-8")).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


class Chance:
    """The only source of randomness a game may use."""

    def __init__(self, seed: str, replay: Sequence[Draw] | None = None) -> None:
        self.seed = seed
        self._replay = list(replay) if replay is not None else None
        self.draws: list[Draw] = []

    @cached_property
    def _rng(self) -> random.Random:
        # Made at the first live draw: a replay, and most orders, never draw live.
        return seeded_generator(self.seed)

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
            idx = self._rng.randrange(len(options))
            draw = Draw(label, idx, str(options[idx]))
        self.draws.append(draw)
        return options[idx]

    def deal_counted(self, labels: Sequence[str], counted: Sequence[tuple[T, int]]
                     ) -> list[T]:
        """``choice(label, pool)`` once per label, for the pool that holds each item ``n``
        times in the order given (e.g. a bag's pieces grouped by colour), each drawn item
        taken out of the pool before the next draw: the same draws and records as ``choice``
        on the pool rebuilt after each draw, for a game that keeps its bag as counts."""
        items = [item for item, _ in counted]
        counts = [n for _, n in counted]
        total = sum(counts)
        live = self._replay is None
        out: list[T] = []
        for label in labels:
            if total <= 0:
                raise ValueError(f"chance {label!r}: nothing to choose from")
            if live:
                idx = self._rng.randrange(total)
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
