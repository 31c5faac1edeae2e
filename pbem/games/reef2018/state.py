"""A Reef position: plain lists and dicts, so copies and JSON round-trips are exact.

Where every component lives (for the invariants):
- coral pieces: ``supply`` (colour -> pieces left; the box's extra pieces are not in play) and
  each player's ``reef`` (16 stacks, bottom piece first; square = row * 4 + column);
- the 60 cards: ``deck`` (top first), ``market`` (face up, ``market_tokens`` beside each),
  each player's ``hand`` (hidden) and ``played`` (the face-up discard pile);
- points: each player's ``score``; ``ledger`` lists every change to it as [points, why], so the
  score is always the ledger's sum; one-point tokens paid for the deck lie in ``market_tokens``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

FORMAT = 1


@dataclass(slots=True)
class Player:
    """What one seat holds (the seat is its index in :attr:`State.players`)."""

    reef: list[list[str]] = field(default_factory=lambda: [[] for _ in range(16)])
    hand: list[int] = field(default_factory=list)
    played: list[int] = field(default_factory=list)
    score: int = 0
    ledger: list[list[Any]] = field(default_factory=list)  # [points, why] per score change
    answered_setup: bool = False

    def copy(self) -> Player:
        """A copy with lists of its own; the stacks and ledger entries in them are shared, as
        nothing changes one in place (:meth:`place` replaces a stack). Copying every stack
        was most of a turn's copying, and a turn adds to one or two."""
        return Player(list(self.reef), list(self.hand), list(self.played), self.score,
                      list(self.ledger), self.answered_setup)

    def place(self, square: int, colour: str) -> int:
        """A piece on top of a square's stack (a new list: copies share the old one); the
        stack's new height."""
        stack = [*self.reef[square], colour]
        self.reef[square] = stack
        return len(stack)

    def to_dict(self) -> dict[str, Any]:
        return {"reef": [list(s) for s in self.reef], "hand": list(self.hand),
                "played": list(self.played), "score": self.score,
                "ledger": [list(e) for e in self.ledger], "answered_setup": self.answered_setup}

    def add_points(self, points: int, why: str) -> None:
        self.score += points
        self.ledger.append([points, why])


@dataclass(slots=True)
class State:
    supply: dict[str, int]
    deck: list[int]
    market: list[int]
    market_tokens: list[int]
    players: list[Player]  # by seat; stored as "seats", with their count as "players"
    start_player: int = 0
    to_move: int = 0
    phase: str = "setup"  # "setup" (each seat places its 4 starting corals), "play", "over"
    advanced: bool = False
    last_round: bool = False  # a colour's supply ran out: the game ends with this round
    end_reason: str = ""
    turn: int = 0  # turns played since the setup step

    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "players": len(self.players), "supply": dict(self.supply),
                "deck": list(self.deck), "market": list(self.market),
                "market_tokens": list(self.market_tokens),
                "seats": [p.to_dict() for p in self.players], "start_player": self.start_player,
                "to_move": self.to_move, "phase": self.phase, "advanced": self.advanced,
                "last_round": self.last_round, "end_reason": self.end_reason,
                "turn": self.turn}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> State:
        raw = json.loads(json.dumps(data))
        if raw.pop("format", None) != FORMAT:
            raise ValueError("unknown Reef state format")
        del raw["players"]  # the count, kept in the JSON beside the seats
        players = [Player(**p) for p in raw.pop("seats")]
        return cls(players=players, **raw)

    def copy(self, only_seat: int | None = None) -> State:
        """An independent copy.

        With ``only_seat``, the other seats are shared with this state: for a turn, which
        changes no other seat (the end of the game copies them all before scoring hands).
        """
        players = ([p.copy() for p in self.players] if only_seat is None else
                   [p.copy() if i == only_seat else p for i, p in enumerate(self.players)])
        return State(dict(self.supply), list(self.deck), list(self.market),
                     list(self.market_tokens), players,
                     self.start_player, self.to_move, self.phase, self.advanced,
                     self.last_round, self.end_reason, self.turn)

    def last_in_round(self) -> int:
        """The seat whose turn closes a round: the one before the start player."""
        return (self.start_player - 1) % len(self.players)
