"""What a Reef seat may see: the game redealt from its seat's knowledge, for its bot."""

from __future__ import annotations

import random

from pbem.games.reef2018.bot import walk
from pbem.games.reef2018.cards import cards
from pbem.games.reef2018.legal import start_steps
from pbem.games.reef2018.rules import Step
from pbem.games.reef2018.state import Player, State


def redeal(state: State, seat: int, rng: random.Random) -> State:
    """A state ``seat`` cannot tell from ``state``: the boards, the market, the played cards,
    its own hand and the deck's face-up top kept; the other hands and the rest of the deck
    dealt afresh from the cards it has not seen (hand sizes kept); during the setup step the
    other seats' hidden starting corals placed afresh. The seat also saw which market cards
    others took, but the state does not keep it: the redeal forgets it (never a leak)."""
    new = state.copy()
    if state.phase == "over":
        return new
    seen = set(state.players[seat].hand) | set(state.market) | set(state.deck[:1])
    for s in state.players:
        seen.update(s.played)
    unseen = [card for card in sorted(cards()) if card not in seen]
    rng.shuffle(unseen)
    for i, other in enumerate(new.players):
        if i == seat:
            continue
        n = len(other.hand)
        other.hand, unseen = unseen[:n], unseen[n:]
        if state.phase == "setup" and other.answered_setup:
            other.reef = [[] for _ in other.reef]
            for colour, square in _any_start(new, i, rng):
                other.place(square, colour)
    new.deck = new.deck[:1] + unseen
    return new


def _any_start(state: State, seat: int, rng: random.Random) -> tuple[Step, ...]:
    """Random legal starting corals for ``seat``, as if it had not placed them yet."""
    blank = state.copy(only_seat=seat)
    blank.players[seat] = Player()
    return walk(lambda placed: start_steps(blank, seat, placed), rng)
