"""What holds in every Das Riff position: the box is conserved (60 reef cards, 21 breeding
cards, 15 boats, 48 worms, each exactly as the options say), and between turns the area is in
shape (outer rows face up, no gap while the pile has cards)."""

from __future__ import annotations

from collections import Counter

from pbem.games.riff.components import reef_deck
from pbem.games.riff.state import COLUMNS, State


class InvariantBroken(AssertionError):
    pass


def reef_cards(state: State) -> Counter[str]:
    found: Counter[str] = Counter()
    for row in state.area:
        found.update(s["card"] for s in row if s is not None)
    found.update(state.pile)
    found.update(state.discard)
    for p in state.players:
        found.update(f"fish:{f}" for f in p.fish)
        found.update(["coral"] * len(p.corals) + ["pearl"] * p.pearls + ["shark"] * p.sharks)
        found.update(f"fish:{c.male}:m" for c in p.corals if c.male)
        found.update(f"fish:{c.female}:f" for c in p.corals if c.female)
    return found


def violations(state: State) -> list[str]:
    out = []
    deck = Counter(reef_deck(state.options))
    found = reef_cards(state)
    if found != deck:
        out.append(f"{sum(found.values())} reef cards, off by {dict(found - deck)} / "
                   f"{dict(deck - found)}")
    crosses = Counter([c for c in state.breeding_open if c] + state.breeding_pile
                      + [c.cross for p in state.players for c in p.corals if c.cross])
    if crosses != Counter(state.options["breeding_cards"]):
        out.append(f"{sum(crosses.values())} breeding cards instead of 21")
    if state.boats_left + sum(p.boats for p in state.players) != 15 or state.boats_left < 0:
        out.append("boats are not 15")
    for colour in state.colours:
        held = [p.worms.get(colour, 0) for p in state.players] + [state.worm_supply[colour]]
        if sum(held) != 8 or min(held) < 0:
            out.append(f"{colour} worms: {held}")
    for i, p in enumerate(state.players):
        if not 1 <= p.boats <= COLUMNS:
            out.append(f"player {i + 1} has {p.boats} boats")
        limited = [c for c in p.corals
                   if state.options["completed_corals_count_toward_limit"] or c.cross is None]
        if len(limited) > 5:
            out.append(f"player {i + 1} holds {len(limited)} corals")
        for n, c in enumerate(p.corals):
            if c.cross and (c.male or c.female):
                out.append(f"player {i + 1}'s used-up coral {n + 1} holds fish")
            if c.male and c.female:
                out.append(f"player {i + 1}'s coral {n + 1} holds an unfinished pair")
        if p.pearls < 0 or p.sharks < 0:
            out.append(f"player {i + 1} holds negative cards")
        if p.crosses() >= 5 and state.phase != "over":
            out.append(f"player {i + 1} has won but the game goes on")
    for r in (0, 3):
        if any(s is not None and not s["up"] for s in state.area[r]):
            out.append(f"a face-down card in outer row {r + 1}")
    for r, row in enumerate(state.area):
        if state.phase == "over":
            break
        cards = [s is not None for s in row]
        if cards != sorted(cards, reverse=True) and len(state.pile) >= 8:
            out.append(f"row {r + 1} has a gap nearer the sea than a card")
        if state.pile and any(s is None for s in row):
            out.append(f"a gap in row {r + 1} while the pile holds cards")
    if len(state.discard) >= 7 and state.phase != "over" and any(
            s is None for row in state.area for s in row):
        out.append("a gap stayed open although the discard could refill it")
    if state.phase == "over" and not state.end_reason:
        out.append("the game is over without a reason")
    return out


def check(state: State) -> None:
    problems = violations(state)
    if problems:
        raise InvariantBroken("; ".join(problems))
