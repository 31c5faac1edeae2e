"""Final scoring and tie-breakers, as the French rulebook's 'Score' section says.

Each polyp in a parrotfish (the one fed at setup included) is worth 1 point plus 1 per coral
tile showing its colour doubled on top, covered or not: the five values always add up to 15.
Equal scores are compared, in order, on (1) consumed polyps in front of the screen, (2) unplayed
larva cubes, (3) unplayed polyps behind the screen, (4) polyps on the boards in corals protected
by the player's shrimps; players equal on all four stay tied. The advanced game scores the same.
"""

from __future__ import annotations

from pbem.engine.contract import Outcome
from pbem.games.reef_encounter.board import group, visible
from pbem.games.reef_encounter.components import components
from pbem.games.reef_encounter.state import State

TIE_BREAKERS = (
    "consumed polyps in front of the screen",
    "unplayed larva cubes",
    "unplayed polyps behind the screen",
    "polyps on the boards in corals protected by their shrimps",
)


def coral_values(state: State) -> dict[str, int]:
    """Each coral colour's worth now: 1 plus the coral tiles showing it doubled on top."""
    values = {c: 1 for c in components().coral_colours}
    for tile in components().coral_tiles:
        values[visible(state, tile.id)[0]] += 1
    return values


def parrotfish_score(state: State, seat: int, values: dict[str, int]) -> int:
    """Points for the polyps in this seat's parrotfish."""
    return sum(values[c] for c in state.seats[seat].parrotfish)


def protected_polyps(state: State, seat: int) -> int:
    """Polyps on the boards in corals holding one of this seat's shrimps (tie-breaker 4)."""
    return sum(len(group(state, cell)) for cell, owner in state.shrimps.items() if owner == seat)


def tie_breaker_values(state: State, seat: int) -> tuple[int, int, int, int]:
    """The four tie-breaker counts, in the rulebook's order."""
    s = state.seats[seat]
    return (sum(s.consumed.values()), sum(s.larva.values()), sum(s.screen.values()),
            protected_polyps(state, seat))


def final_outcome(state: State) -> Outcome:
    """Scores, ranking (tied seats grouped, best first) and the explanation in plain words."""
    values = coral_values(state)
    seats = range(len(state.seats))
    scores = {i: parrotfish_score(state, i, values) for i in seats}
    breakers = {i: tie_breaker_values(state, i) for i in seats}
    lines = [
        "Coral values (1 point plus 1 per coral tile showing the colour on top): "
        + ", ".join(f"{c} {v}" for c, v in values.items()) + "."
    ]
    lines += [_breakdown(state, i, values, scores[i]) for i in seats]
    ranking: list[list[int]] = []
    for score in sorted(set(scores.values()), reverse=True):
        tied = [i for i in seats if scores[i] == score]
        if len(tied) > 1:
            lines.append(f"{_names(state, tied)} tie on {score} points.")
        ranking += _break_ties(state, tied, 0, breakers, lines)
    lines.append("Final ranking: " + "; ".join(
        f"{n}. {_names(state, g)}" for n, g in _places(ranking)) + ".")
    return Outcome(scores, ranking, lines)



def _break_ties(state: State, tied: list[int], k: int,
                breakers: dict[int, tuple[int, int, int, int]],
                lines: list[str]) -> list[list[int]]:
    """Split a group of equal seats by tie-breaker k onwards; returns groups, best first."""
    if len(tied) == 1:
        return [tied]
    if k == len(TIE_BREAKERS):
        lines.append(f"{_names(state, tied)} are still equal after all four tie-breakers "
                     "and share their place.")
        return [tied]
    counts = {i: breakers[i][k] for i in tied}
    if len(set(counts.values())) == 1:
        return _break_ties(state, tied, k + 1, breakers, lines)
    lines.append(f"Tie-breaker {k + 1} ({TIE_BREAKERS[k]}): " + ", ".join(
        f"{_name(state, i)} {counts[i]}" for i in tied) + ".")
    groups: list[list[int]] = []
    for value in sorted(set(counts.values()), reverse=True):
        sub = [i for i in tied if counts[i] == value]
        groups += _break_ties(state, sub, k + 1, breakers, lines)
    return groups


def _breakdown(state: State, seat: int, values: dict[str, int], score: int) -> str:
    fish = state.seats[seat].parrotfish
    parts = [f"{fish.count(c)} {c} x {v} = {fish.count(c) * v}"
             for c, v in values.items() if c in fish]
    detail = ", ".join(parts) if parts else "an empty parrotfish"
    return f"{_name(state, seat)}: {score} points ({detail})."


def _places(ranking: list[list[int]]) -> list[tuple[int, list[int]]]:
    """Each group with its place; a shared place skips the places it covers (1, 1, 3)."""
    out: list[tuple[int, list[int]]] = []
    place = 1
    for g in ranking:
        out.append((place, g))
        place += len(g)
    return out


def _name(state: State, seat: int) -> str:
    return state.seats[seat].colour.capitalize()


def _names(state: State, seats: list[int]) -> str:
    names = [_name(state, i) for i in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
