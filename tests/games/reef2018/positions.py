"""Reef positions for tests, drawn as text: each square is '.' (empty) or its pieces bottom to
top as letters R Y G P, e.g. 'GGR' is a stack 3 high with a red top.

``build`` makes a whole, consistent state (all 60 cards somewhere, the pieces on the reefs
taken from the supply), so the invariants hold for it and it can be played on.
"""

from __future__ import annotations

from collections import Counter

from pbem.games.reef2018.cards import COLOURS, cards
from pbem.games.reef2018.setup import SUPPLY
from pbem.games.reef2018.state import Player, State

LETTER = {c[0].upper(): c for c in COLOURS}


def reef(picture: str) -> list[list[str]]:
    rows = [line.split() for line in picture.strip().splitlines()]
    assert len(rows) == 4 and all(len(r) == 4 for r in rows), picture
    return [[] if cell == "." else [LETTER[ch] for ch in cell] for row in rows for cell in row]


def build(reefs: list[str], *, hands: list[list[int]] | None = None,
          market: list[int] | None = None, tokens: list[int] | None = None,
          deck: list[int] | None = None, scores: list[int] | None = None,
          supply: dict[str, int] | None = None, to_move: int = 0, start_player: int = 0,
          last_round: bool = False) -> State:
    """A position in play; cards not named are in the deck (ascending) after ``deck``."""
    players = len(reefs)
    hands = hands or [[] for _ in range(players)]
    market = market if market is not None else []
    used = set(market) | {c for h in hands for c in h} | set(deck or [])
    rest = [c for c in sorted(cards()) if c not in used]
    free_market = [c for c in rest if c not in used][:3 - len(market)]
    market = market + free_market
    rest = [c for c in rest if c not in free_market]
    seats = []
    on_reefs: Counter[str] = Counter()
    for i, picture in enumerate(reefs):
        seat = Player(reef=reef(picture), hand=list(hands[i]), answered_setup=True)
        score = 3 if scores is None else scores[i]
        if score:
            seat.add_points(score, "test position")
        for stack in seat.reef:
            on_reefs.update(stack)
        seats.append(seat)
    if supply is None:
        supply = {c: SUPPLY[players] - on_reefs[c] for c in COLOURS}
    return State(dict(supply), list(deck or []) + rest, market,
                 list(tokens or [0, 0, 0]), seats, start_player=start_player, to_move=to_move,
                 phase="play", last_round=last_round)


EMPTY = """
. . . .
. . . .
. . . .
. . . .
"""
