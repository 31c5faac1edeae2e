"""Replaying a game's whole log as the host wrote it: moves, and the operator's admin entries.

The engine replays moves (:func:`pbem.engine.replay.replay_one`); the host adds two things:

- **admin entries** (kind ``admin``) record what an operator did: a takeover, a drop, a pause,
  an undo... They change no game state except ``undo``, and each records the state hash after
  it, so replay checks that nothing moved underneath them.
- **undo**: the log is append-only, so an undo does not delete anything. Its entry
  ``undo 7 8`` revokes the live moves 7 and 8, which must be the newest live moves at that
  point. Replay re-runs every move (each was honestly played, so its hash is checked too),
  and at the undo entry goes back to the state before entry 7 — the same state as replaying
  the log without the revoked entries — and checks the undo's recorded hash against it.

Moves are entries of kind ``order`` (a player's mail), ``forced`` (orders the operator
entered for a seat), ``timeout`` (the game's default order, played by the host's clock) and
``bot`` (the order the host's bot chose for a bot seat or a player it stands in for).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pbem.engine.contract import GameRules
from pbem.engine.hashing import canonical_json, state_hash
from pbem.engine.replay import ReplayMismatch, SetupRecord, replay, replay_one
from pbem.store import queries
from pbem.store.tables import LogEntry

ADMIN = "admin"
FORCED = "forced"
BOT = "bot"
MOVE_KINDS = frozenset({"order", FORCED, "timeout", BOT})
HOST_MOVES = frozenset({"timeout", BOT})  # played by the host, not by a person
TALK = "talk"  # table talk (pbem.pipeline.talk): no state change, hash checked like admin


class BadAdminEntry(ValueError):
    """An admin entry replay cannot follow (a damaged or edited log)."""


def admin_action(entry: LogEntry) -> str:
    """The action of an admin entry: the first word of its text (``undo``, ``takeover``...)."""
    return entry.text.split(maxsplit=1)[0].lower() if entry.text.strip() else ""


def undo_targets(entry: LogEntry) -> list[int]:
    """The entries an ``undo`` admin entry revokes: ``undo 7 8 (...)`` → [7, 8]."""
    words = entry.text.split()
    targets = []
    for word in words[1:]:
        if not word.isdigit():
            break
        targets.append(int(word))
    if not targets:
        raise BadAdminEntry(f"entry {entry.index}: undo names no entry: {entry.text!r}")
    return targets


def revoked(entries: Sequence[LogEntry]) -> dict[int, int]:
    """Every revoked entry's index → the index of the undo entry that revoked it."""
    out: dict[int, int] = {}
    for e in entries:
        if e.kind == ADMIN and admin_action(e) == "undo":
            for target in undo_targets(e):
                out[target] = e.index
    return out


@dataclass
class Replayed:
    """The state after the whole log, and the live moves with the state before each."""

    state: Any
    live: list[tuple[LogEntry, str]] = field(default_factory=list)  # (entry, state JSON before)
    entries: int = 0

    def state_before(self, rules: GameRules, position: int) -> Any:
        return rules.from_json(json.loads(self.live[position][1]))


def replay_log(rules: GameRules, setup: SetupRecord, entries: Sequence[LogEntry],
               progress: Callable[[int, int], None] | None = None,
               observe: Callable[[LogEntry | None, Any], None] | None = None) -> Replayed:
    """Re-run ``entries`` (the log after its setup entry), checking every recorded hash.

    ``observe`` is called with each verified state: (None, state) after the setup, then
    (entry, state after it) — the game archive draws its steps from these.
    Raises :class:`ReplayMismatch` on a hash that differs, :class:`BadAdminEntry` on an
    admin entry that makes no sense where it stands.
    """
    result = Replayed(replay(rules, setup, []))
    if observe is not None:
        observe(None, result.state)
    for i, entry in enumerate(entries, start=1):
        if progress is not None:
            progress(i, len(entries))
        if entry.kind in MOVE_KINDS:
            before = canonical_json(rules.to_json(result.state))
            result.state = replay_one(rules, result.state, queries.order_record(entry),
                                      entry.index)
            result.live.append((entry, before))
        elif entry.kind in (ADMIN, TALK):
            if entry.kind == ADMIN and admin_action(entry) == "undo":
                result.state = _undo(rules, result, entry)
            got = state_hash(rules.to_json(result.state))
            if got != entry.state_hash:
                raise ReplayMismatch(entry.index, entry.state_hash, got)
        else:
            raise BadAdminEntry(f"entry {entry.index}: unknown kind {entry.kind!r}")
        if observe is not None:
            observe(entry, result.state)
    result.entries = len(entries)
    return result


def _undo(rules: GameRules, result: Replayed, entry: LogEntry) -> Any:
    """Revoke the newest live moves named by ``entry``; the state before the oldest of them."""
    targets = undo_targets(entry)
    newest = [e.index for e, _ in result.live[-len(targets):]]
    if len(result.live) < len(targets) or sorted(targets) != newest:
        raise BadAdminEntry(f"entry {entry.index}: undo may only revoke the newest live moves "
                            f"({', '.join(map(str, newest)) or 'none'}), not "
                            f"{', '.join(map(str, targets))}")
    state = result.state_before(rules, len(result.live) - len(targets))
    del result.live[-len(targets):]
    return state
