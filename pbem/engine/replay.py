"""A game's history as data, and its replay.

A history is the setup record (player count, options, the setup's chance draws) plus one entry
per applied order (seat, order text, the order's draws, the resulting state hash). Replaying
re-runs setup and every order with the recorded draws and checks every hash, so any game can be
audited from its log alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pbem.engine.chance import Chance, Draw
from pbem.engine.contract import Applied, Event, Game, Seat
from pbem.engine.hashing import state_hash

S = TypeVar("S")


@dataclass
class SetupRecord:
    seats: int
    options: dict[str, Any]
    draws: list[Draw]
    state_hash: str


@dataclass
class OrderRecord:
    seat: Seat | None  # None for an admin entry that replaces the state wholesale
    text: str
    draws: list[Draw]
    state_hash: str
    events: list[Event] = field(default_factory=list)


class ReplayMismatch(RuntimeError):
    """A replayed state's hash differs from the recorded one."""

    def __init__(self, index: int, expected: str, got: str) -> None:
        where = "setup" if index == 0 else f"entry {index}"
        super().__init__(f"{where}: recorded hash {expected[:12]}…, replay gives {got[:12]}…")
        self.index = index
        self.expected = expected
        self.got = got


def start(game: Game[S, Any], seats: int, options: Mapping[str, Any],
          seed: str) -> tuple[S, SetupRecord]:
    """Set up a new game and record how."""
    chance = Chance(f"{seed}/setup")
    state = game.setup(seats, options, chance)
    return state, SetupRecord(seats, dict(options), chance.draws, state_hash(game.to_json(state)))


def play(
    game: Game[S, Any], state: S, seat: Seat, text: str, seed: str
) -> tuple[Applied[S], OrderRecord]:
    """Parse and apply one order live; raises the game's errors untouched."""
    order = game.parse(state, seat, text)
    chance = Chance(seed)
    applied = game.apply(state, seat, order, chance)
    record = OrderRecord(seat, text, chance.draws, state_hash(game.to_json(applied.state)),
                         applied.events)
    return applied, record


def replay(game: Game[S, Any], setup: SetupRecord, entries: Iterable[OrderRecord]) -> S:
    """Re-run a history, checking every hash; returns the final state."""
    chance = Chance.replaying(setup.draws)
    state = game.setup(setup.seats, setup.options, chance)
    chance.finish()
    got = state_hash(game.to_json(state))
    if got != setup.state_hash:
        raise ReplayMismatch(0, setup.state_hash, got)
    for i, entry in enumerate(entries, start=1):
        state = replay_one(game, state, entry, i)
    return state


def replay_one(game: Game[S, Any], state: S, entry: OrderRecord, index: int) -> S:
    """Apply one recorded order with its recorded draws and check the resulting hash."""
    if entry.seat is None:
        raise ValueError(f"entry {index}: admin entries are replayed by the host, not the engine")
    chance = Chance.replaying(entry.draws)
    order = game.parse(state, entry.seat, entry.text)
    new_state = game.apply(state, entry.seat, order, chance).state
    chance.finish()
    got = state_hash(game.to_json(new_state))
    if got != entry.state_hash:
        raise ReplayMismatch(index, entry.state_hash, got)
    return new_state


def draws_to_json(draws: Sequence[Draw]) -> list[dict[str, Any]]:
    return [d.to_json() for d in draws]


def draws_from_json(data: Sequence[Mapping[str, Any]]) -> list[Draw]:
    return [Draw.from_json(dict(d)) for d in data]
