"""What must hold in every Reef state: every piece, card and point accounted for, no stack
above 4, no hand above 4. ``violations`` lists the problems in words (empty when all is well)."""

from __future__ import annotations

import re
from collections import Counter

from pbem.games.reef2018.cards import COLOURS, MAX_HEIGHT, cards
from pbem.games.reef2018.rules import HAND_LIMIT
from pbem.games.reef2018.setup import MARKET, SUPPLY
from pbem.games.reef2018.state import State

_TAKEN = re.compile(r"[0-9]+ tokens? on card [0-9]+")


class InvariantBroken(AssertionError):
    """A state no sequence of legal orders may produce."""


def check(state: State) -> None:
    problems = violations(state)
    if problems:
        raise InvariantBroken("; ".join(problems))


def violations(state: State) -> list[str]:
    return (_pieces(state) + _stacks(state) + _cards(state) + _points(state)
            + _turn(state))


def _pieces(state: State) -> list[str]:
    found: Counter[str] = Counter(state.supply)
    for seat in state.players:
        for stack in seat.reef:
            found.update(stack)
        if not seat.answered_setup:  # the 4 starting corals wait in front of the player
            found.update(COLOURS)
    per = SUPPLY[len(state.players)]
    out = [f"{found[c]} {c} pieces instead of {per}" for c in COLOURS if found[c] != per]
    out += [f"pieces of unknown colour {c!r}" for c in found if c not in COLOURS]
    out += [f"{n} {c} in the supply" for c, n in state.supply.items() if n < 0]
    return out


def _stacks(state: State) -> list[str]:
    return [f"seat {i}: a stack {len(stack)} high on square {sq}"
            for i, seat in enumerate(state.players) for sq, stack in enumerate(seat.reef)
            if len(stack) > MAX_HEIGHT] + [
        f"seat {i} has {len(seat.reef)} squares" for i, seat in enumerate(state.players)
        if len(seat.reef) != 16]


def _cards(state: State) -> list[str]:
    where = state.deck + state.market + [c for s in state.players for c in s.hand + s.played]
    out = []
    if sorted(where) != sorted(cards()):
        twice = sorted(c for c, n in Counter(where).items() if n > 1)
        out.append(f"cards not each once: {len(where)} cards, twice: {twice}")
    out += [f"seat {i} holds {len(s.hand)} cards" for i, s in enumerate(state.players)
            if len(s.hand) > HAND_LIMIT]
    if len(state.market) != MARKET or len(state.market_tokens) != MARKET:
        out.append(f"a market of {len(state.market)} cards")
    return out


def _points(state: State) -> list[str]:
    out = []
    paid = taken = 0
    for i, seat in enumerate(state.players):
        if seat.score != sum(p for p, _ in seat.ledger):
            out.append(f"seat {i}: score {seat.score} is not the sum of its ledger")
        if seat.score < 0:
            out.append(f"seat {i}: negative score {seat.score}")
        paid += sum(1 for p, why in seat.ledger if "for the deck's top card" in why and p == -1)
        taken += sum(p for p, why in seat.ledger if _TAKEN.fullmatch(why))
    if any(t < 0 for t in state.market_tokens):
        out.append(f"negative tokens {state.market_tokens}")
    if paid != sum(state.market_tokens) + taken:
        out.append(f"{paid} tokens paid but {sum(state.market_tokens)} on the market and "
                   f"{taken} taken back")
    return out


def _turn(state: State) -> list[str]:
    out = []
    if state.phase not in ("setup", "play", "over"):
        out.append(f"unknown phase {state.phase!r}")
    if not 0 <= state.to_move < len(state.players):
        out.append(f"seat {state.to_move} to move")
    if state.phase != "setup" and not all(s.answered_setup for s in state.players):
        out.append("play began before every reef was started")
    if state.phase == "over" and state.deck and not state.last_round:
        out.append("over with cards in the deck and every supply left")
    if state.last_round != any(n == 0 for n in state.supply.values()):
        out.append(f"last round {state.last_round} but supply {state.supply}")
    return out
