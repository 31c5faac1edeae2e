"""What must hold in every Reef Encounter state: every component accounted for, shrimp rules.

``violations`` returns readable problems (empty when all is well) so a failing random game says
what broke; ``check`` raises with them. Counts come from components.toml, never from constants
here, so a corrected component count is checked too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from pbem.games.reef_encounter.board import group, neighbours
from pbem.games.reef_encounter.components import components
from pbem.games.reef_encounter.shrimps import MAX_PER_BOARD
from pbem.games.reef_encounter.state import State

PHASES = ("setup", "play", "final", "over")


class InvariantBroken(AssertionError):
    """A state that no sequence of legal orders may produce."""


def check(state: State, *, between_turns: bool = True) -> None:
    """Raise InvariantBroken listing every problem; ``between_turns`` adds the end-of-turn rules."""
    problems = violations(state, between_turns=between_turns)
    if problems:
        raise InvariantBroken("; ".join(problems))


def violations(state: State, *, between_turns: bool = True) -> list[str]:
    """Every broken invariant, in words. Mid-turn states skip the between-turns rules."""
    problems: list[str] = []
    problems += _counts_are_valid(state)
    problems += polyps_accounted(state)
    problems += larvae_accounted(state)
    problems += cylinders_accounted(state)
    problems += shrimps_accounted(state)
    problems += _places_are_valid(state)
    problems += shrimp_rules(state, between_turns=between_turns)
    problems += _turn_fields(state)
    return problems


def polyp_locations(state: State) -> Counter[str]:
    """Polyps by colour over every place one can be."""
    found: Counter[str] = Counter(state.polyps.values())
    found.update(state.bag)
    found.update(state.bonus)
    for space in state.open_sea:
        found.update(space["polyps"])
    for seat in state.players:
        found.update(seat.screen)
        found.update(seat.consumed)
        found.update(seat.parrotfish)
    return found


def polyps_accounted(state: State) -> list[str]:
    comp = components()
    per = int(comp.counts["polyp_tiles_per_colour"])
    found = polyp_locations(state)
    out = [f"{found[c]} {c} polyps instead of {per}" for c in comp.coral_colours
           if found[c] != per]
    out += [f"polyps of unknown colour {c!r}" for c in found if c not in comp.coral_colours]
    return out


def larvae_accounted(state: State) -> list[str]:
    comp = components()
    per = int(comp.counts["larva_cubes_per_colour"])
    found: Counter[str] = Counter(state.larva_supply)
    for space in state.open_sea:
        found[space["colour"]] += space["larva"]
    for seat in state.players:
        found.update(seat.larva)
    out = [f"{found[c]} {c} larva cubes instead of {per}" for c in comp.coral_colours
           if found[c] != per]
    out += [f"larva cubes of unknown colour {c!r}" for c in found if c not in comp.coral_colours]
    return out


def cylinders_accounted(state: State) -> list[str]:
    comp = components()
    per = int(comp.counts["alga_cylinders_per_colour"])
    found: Counter[str] = Counter(state.alga_supply)
    found.update(state.cylinders.values())
    if state.alga_space is not None:
        found[state.alga_space] += 1
    for seat in state.players:
        found.update(seat.algae)
    out = [f"{found[c]} {c} cylinders instead of {per}" for c in comp.alga_colours
           if found[c] != per]
    out += [f"cylinders of unknown colour {c!r}" for c in found if c not in comp.alga_colours]
    # A cylinder bought with action 7 is played at once; nobody keeps one.
    out += [f"seat {i} keeps alga cylinders {dict(s.algae)}" for i, s in enumerate(state.players)
            if any(s.algae.values())]
    return out


def shrimps_accounted(state: State) -> list[str]:
    per = int(components().counts["shrimps_per_player"])
    on_reef = Counter(state.shrimps.values())
    out = []
    for i, seat in enumerate(state.players):
        total = on_reef[i] + seat.shrimps_in_hand + int(seat.sea_shrimp) + seat.fish_shrimps
        if total != per:
            out.append(f"seat {i} has {total} shrimps instead of {per}")
        if seat.fish_shrimps and not seat.sea_shrimp:
            out.append(f"seat {i}: shrimps in the parrotfish but none on the open-sea board")
    out += [f"shrimp of unknown seat {s} on {k}" for k, s in state.shrimps.items()
            if not 0 <= s < len(state.players)]
    return out


def shrimp_rules(state: State, *, between_turns: bool = True) -> list[str]:
    """One shrimp per coral; at most two own shrimps per board; none on bare rock between turns."""
    out = []
    for cell, seat in state.shrimps.items():
        if cell in state.polyps:
            others = sorted(k for k in group(state, cell) if k in state.shrimps and k != cell)
            if others and cell < others[0]:
                out.append(f"the coral on {cell} holds shrimps on {cell} and {', '.join(others)}")
        elif between_turns:
            out.append(f"seat {seat}'s shrimp on {cell} stands on bare rock between turns")
    per_board = Counter((seat, cell.split(":")[0]) for cell, seat in state.shrimps.items())
    out += [f"seat {seat} has {n} shrimps on board {board}"
            for (seat, board), n in per_board.items() if n > MAX_PER_BOARD]
    return out


def _counts_are_valid(state: State) -> list[str]:
    """Every counted pile holds a whole number of pieces, never a negative one."""
    piles: list[tuple[str, Mapping[str, int]]] = [
        ("bag", state.bag), ("bonus", state.bonus), ("larva supply", state.larva_supply),
        ("alga supply", state.alga_supply)]
    for i, seat in enumerate(state.players):
        piles += [(f"seat {i} screen", seat.screen), (f"seat {i} larva", seat.larva),
                  (f"seat {i} consumed", seat.consumed), (f"seat {i} algae", seat.algae)]
    out = [f"{where}: {n!r} {c}" for where, pile in piles for c, n in pile.items()
           if not isinstance(n, int) or n < 0]
    out += [f"{n} bonus {c} polyps (at most one per colour)" for c, n in state.bonus.items()
            if n > 1]
    for i, seat in enumerate(state.players):
        if seat.shrimps_in_hand < 0 or seat.fish_shrimps < 0:
            out.append(f"seat {i}: negative shrimps")
    return out


def _places_are_valid(state: State) -> list[str]:
    """Polyps and shrimps on rock of boards in play; open sea, tiles and cylinders well formed."""
    comp = components()
    rock = neighbours()
    boards = {str(b) for b in state.boards}
    out = [f"{what} on {cell}, which is not rock of a board in play"
           for what, cells in (("polyp", state.polyps), ("shrimp", state.shrimps))
           for cell in cells if cell not in rock or cell.split(":")[0] not in boards]
    if sorted(s["colour"] for s in state.open_sea) != sorted(comp.coral_colours):
        out.append("the open sea does not have one space per coral colour")
    out += [f"open-sea space {s['colour']} holds {s['larva']} larva cubes"
            for s in state.open_sea if s["larva"] not in (0, 1)]
    tiles = {str(t.id) for t in comp.coral_tiles}
    out += [f"cylinder on unknown coral tile {t}" for t in state.cylinders if t not in tiles]
    if state.flipped_tiles != sorted(set(state.flipped_tiles)) or not set(
            map(str, state.flipped_tiles)) <= tiles:
        out.append(f"flipped tiles malformed: {state.flipped_tiles}")
    if len(set(state.boards)) != len(state.players):
        out.append("seats or boards do not match the player count")
    return out


def _turn_fields(state: State) -> list[str]:
    out = []
    if state.phase not in PHASES:
        out.append(f"unknown phase {state.phase!r}")
    if not 0 <= state.to_move < len(state.players):
        out.append(f"seat {state.to_move} to move in a {len(state.players)}-player game")
    if state.phase == "final" and (not state.final_turns or state.final_turns[0] != state.to_move):
        out.append("a final turn for a seat not owed one")
    if state.phase != "setup" and _fish_empty(state.players[i].parrotfish for i in range(
            len(state.players))):
        out.append("the game runs with an empty parrotfish (setup feeds every one)")
    return out


def _fish_empty(fishes: Iterable[list[str]]) -> bool:
    return any(not f for f in fishes)
