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
from pbem.games.reef_encounter.context import seat_ref, who
from pbem.games.reef_encounter.state import State
from pbem.games.reef_encounter.terms import colour
from pbem.i18n.msg import Msg, msg

TIE_BREAKERS = (
    msg("consumed polyps in front of the screen"),
    msg("unplayed larva cubes"),
    msg("unplayed polyps behind the screen"),
    msg("polyps on the boards in corals protected by their shrimps"),
)


def coral_values(state: State) -> dict[str, int]:
    """Each coral colour's worth now: 1 plus the coral tiles showing it doubled on top."""
    values = {c: 1 for c in components().coral_colours}
    for tile in components().coral_tiles:
        values[visible(state, tile.id)[0]] += 1
    return values


def parrotfish_score(state: State, seat: int, values: dict[str, int]) -> int:
    """Points for the polyps in this seat's parrotfish."""
    return sum(values[c] for c in state.players[seat].parrotfish)


def protected_polyps(state: State, seat: int) -> int:
    """Polyps on the boards in corals holding one of this seat's shrimps (tie-breaker 4)."""
    return sum(len(group(state, cell)) for cell, owner in state.shrimps.items() if owner == seat)


def tie_breaker_values(state: State, seat: int) -> tuple[int, int, int, int]:
    """The four tie-breaker counts, in the rulebook's order."""
    s = state.players[seat]
    return (sum(s.consumed.values()), sum(s.larva.values()), sum(s.screen.values()),
            protected_polyps(state, seat))


def final_outcome(state: State) -> Outcome:
    """Scores, ranking (tied seats grouped, best first) and the explanation as messages."""
    values = coral_values(state)
    seats = range(len(state.players))
    scores = {i: parrotfish_score(state, i, values) for i in seats}
    breakers = {i: tie_breaker_values(state, i) for i in seats}
    lines: list[Msg] = [
        msg("Coral values (1 point plus 1 per coral tile showing the colour on top): {values}.",
            values=[msg("{colour} {value}", colour=colour(c), value=v) for c, v in values.items()])
    ]
    lines += [_breakdown(state, i, values, scores[i]) for i in seats]
    ranking: list[list[int]] = []
    for score in sorted(set(scores.values()), reverse=True):
        tied = [i for i in seats if scores[i] == score]
        if len(tied) > 1:
            lines.append(msg("{players} tie on {score} points.", players=_names(state, tied),
                             score=score))
        ranking += _break_ties(state, tied, 0, breakers, lines)
    lines.append(msg("Final ranking: {places}.", places=_semicolons(
        [msg("{place}. {players}", place=n, players=_names(state, g))
         for n, g in _places(ranking)])))
    return Outcome(scores, ranking, lines)


def _break_ties(state: State, tied: list[int], k: int,
                breakers: dict[int, tuple[int, int, int, int]],
                lines: list[Msg]) -> list[list[int]]:
    """Split a group of equal seats by tie-breaker k onwards; returns groups, best first."""
    if len(tied) == 1:
        return [tied]
    if k == len(TIE_BREAKERS):
        lines.append(msg("{players} are still equal after all four tie-breakers and share their "
                         "place.", players=_names(state, tied)))
        return [tied]
    counts = {i: breakers[i][k] for i in tied}
    if len(set(counts.values())) == 1:
        return _break_ties(state, tied, k + 1, breakers, lines)
    lines.append(msg("Tie-breaker {k} ({breaker}): {counts}.", k=k + 1, breaker=TIE_BREAKERS[k],
                     counts=[msg("{player} {count}", player=_player(state, i), count=counts[i])
                             for i in tied]))
    groups: list[list[int]] = []
    for value in sorted(set(counts.values()), reverse=True):
        sub = [i for i in tied if counts[i] == value]
        groups += _break_ties(state, sub, k + 1, breakers, lines)
    return groups


def _breakdown(state: State, seat: int, values: dict[str, int], score: int) -> Msg:
    fish = state.players[seat].parrotfish
    parts = [msg("{n} {colour} x {value} = {points}", n=fish.count(c), colour=colour(c),
                 value=v, points=fish.count(c) * v)
             for c, v in values.items() if c in fish]
    if not parts:
        return msg("{player}: {score} points (an empty parrotfish).",
                   player=_player(state, seat),
                   seat=seat_ref(seat), score=score)
    return msg("{player}: {score} points ({detail}).", player=_player(state, seat),
               seat=seat_ref(seat), score=score, detail=parts)


def _places(ranking: list[list[int]]) -> list[tuple[int, list[int]]]:
    """Each group with its place; a shared place skips the places it covers (1, 1, 3)."""
    out: list[tuple[int, list[int]]] = []
    place = 1
    for g in ranking:
        out.append((place, g))
        place += len(g)
    return out


def _player(state: State, seat: int) -> Msg:
    """A player as the final summary names them: "Ben (Purple)", so the scores read beside the
    host's ranking (by players' names) and the events (by colours) alike."""
    return msg("{name} ({player})", name=seat_ref(seat), player=who(state, seat))


def _names(state: State, seats: list[int]) -> Msg:
    """"Ben (Purple)", "Ben (Purple) and Cleo (Green)", "Ann (Red), Ben (Purple) and ..."."""
    names = [_player(state, i) for i in seats]
    if len(names) == 1:
        return names[0]
    return msg("{players} and {last}", players=names[:-1], last=names[-1])


def _semicolons(parts: list[Msg]) -> Msg:
    if len(parts) == 1:
        return parts[0]
    return msg("{first}; {rest}", first=parts[0], rest=_semicolons(parts[1:]))
