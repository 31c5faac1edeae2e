"""Scoring a card's pattern on a reef, and the end of the game.

Only the top piece of each stack counts (its colour and the stack's height). A pattern scores
its points once per occurrence, occurrences sharing no top piece, and the count is the largest
such set (a greedy count can be too small: see tests/games/reef2018/test_patterns.py). The 8
'highest' cards score per stack of one colour around the player's highest stack of another;
among tied highest stacks the player chooses, and the choice has no other effect, so the host
takes the best one for them (RULINGS-ADDENDUM.md).
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from pbem.engine.contract import Outcome
from pbem.games.reef2018.cards import (
    MAX_HEIGHT,
    NEIGHBOURS,
    Card,
    cards,
    checks,
    square_name,
)
from pbem.games.reef2018.state import State
from pbem.i18n.msg import Msg, SeatRef, cmsg, msg, nmsg

Reef = list[list[str]]


def occurrences(reef: Reef, card_id: int) -> list[int]:
    """The bitmask of every placement of the card's pattern present on ``reef``."""
    found = []
    for mask, needs in checks(card_id):
        for square, colour, lowest, highest in needs:
            stack = reef[square]
            if (not stack or (colour is not None and stack[-1] != colour)
                    or not lowest <= len(stack) <= highest):
                break
        else:
            found.append(mask)
    return found


def max_disjoint(masks: list[int]) -> int:
    """The most occurrences sharing no square (exact: branch on the lowest square in use)."""
    if len(masks) <= 1:
        return len(masks)
    memo: dict[int, int] = {}

    def best(avail: int) -> int:
        if avail in memo:
            return memo[avail]
        fit = [m for m in masks if m & avail == m]
        if not fit:
            result = 0
        else:
            union = 0
            for m in fit:
                union |= m
            low = union & -union
            result = best(avail & ~low)  # nothing covers the lowest square...
            for m in fit:  # ... or one occurrence does
                if m & low:
                    result = max(result, 1 + best(avail & ~m))
        memo[avail] = result
        return result

    return best((1 << 16) - 1)


class Scored(NamedTuple):
    """What a card's pattern is worth on a reef, and where (for the players to check)."""

    times: int
    points: int
    where: Msg | str  # e.g. "found at B2-C2, A4-B4" or "around C3 (4 high)"


def highest_centres(reef: Reef, colour: str) -> list[int]:
    """The player's highest stacks topped by ``colour`` (several when tied), by square."""
    best, out = 0, []
    for square, stack in enumerate(reef):
        if stack and stack[-1] == colour:
            if len(stack) > best:
                best, out = len(stack), [square]
            elif len(stack) == best:
                out.append(square)
    return out


def score_card(reef: Reef, card_id: int) -> Scored:
    """The card's pattern scored on ``reef`` as when it is played."""
    card = cards()[card_id]
    if card.highest:
        centre = card.cells[0].colour
        best_n, best_square = _around_highest(reef, card)
        if best_square < 0:
            return Scored(0, 0, msg("no {colour} stack", colour=cmsg("colour", centre)))
        where = msg("around {square} ({height} high)", square=square_name(best_square),
                    height=len(reef[best_square]))
        return Scored(best_n, best_n * card.points, where)
    masks = occurrences(reef, card_id)
    times = _count(card, masks)
    return Scored(times, times * card.points, _where(masks) if times else "")


def _count(card: Card, masks: list[int]) -> int:
    return len(masks) if len(card.cells) == 1 else max_disjoint(masks)


def times_on(reef: Reef, card_id: int) -> int:
    """How many times the card's pattern scores on ``reef`` (:func:`score_card`'s count,
    without the words), for bots weighing reefs."""
    card = cards()[card_id]
    if card.highest:
        return _around_highest(reef, card)[0]
    return _count(card, occurrences(reef, card_id))


def _around_highest(reef: Reef, card: Card) -> tuple[int, int]:
    """A 'highest' card: the most stacks topped by its scored colour around one of the highest
    stacks of its centre colour, and that stack's square (-1: no such stack)."""
    centre, target = card.cells[0].colour, card.cells[1].colour
    best_n, best_square = 0, -1
    for square in highest_centres(reef, centre):
        n = sum(1 for nb in NEIGHBOURS[square] if reef[nb] and reef[nb][-1] == target)
        if best_square < 0 or n > best_n:
            best_n, best_square = n, square
    return best_n, best_square


@cache
def _squares(mask: int) -> str:
    """'B2-C2': an occurrence's squares (a few hundred placements, named once each)."""
    return "-".join(square_name(s) for s in range(16) if mask >> s & 1)


def _where(masks: list[int]) -> Msg:
    shown = ", ".join(_squares(m) for m in masks[:6])
    if len(masks) > 6:
        return msg("found at {squares} and {n} more", squares=shown, n=len(masks) - 6)
    return msg("found at {squares}", squares=shown)


def score_in_hand(reef: Reef, card_id: int) -> int:
    """A card still in hand at the end scores its points once if its pattern is there (the
    count and the words of :func:`score_card` are not needed)."""
    card = cards()[card_id]
    there = _around_highest(reef, card)[0] if card.highest else occurrences(reef, card_id)
    return card.points if there else 0


def covered(reef: Reef) -> int:
    return sum(1 for stack in reef if stack)


def full_stacks(reef: Reef) -> int:
    return sum(1 for stack in reef if len(stack) == MAX_HEIGHT)


TIE_BREAKERS = (msg("most covered squares"), msg("most stacks 4 high"))


def final_outcome(state: State) -> Outcome:
    """Scores (already including the hand cards), ranking with tie-breakers, and words."""
    seats = list(range(len(state.players)))
    scores = {i: state.players[i].score for i in seats}
    breakers = {i: (covered(state.players[i].reef), full_stacks(state.players[i].reef))
                for i in seats}
    lines: list[str | Msg] = [nmsg(
        "{player}: {points} points; {covered} squares covered, {n} stack 4 high.",
        "{player}: {points} points; {covered} squares covered, {n} stacks 4 high.",
        breakers[i][1], player=SeatRef(i), points=scores[i], covered=breakers[i][0])
        for i in seats]
    ranking: list[list[int]] = []
    for score in sorted(set(scores.values()), reverse=True):
        tied = [i for i in seats if scores[i] == score]
        if len(tied) > 1:
            lines.append(msg("{players} tie on {points} points.", players=_names(tied),
                             points=score))
        ranking += _break_ties(tied, 0, breakers, lines)
    return Outcome(scores, ranking, lines)


def _break_ties(tied: list[int], k: int, breakers: dict[int, tuple[int, int]],
                lines: list[str | Msg]) -> list[list[int]]:
    if len(tied) == 1:
        return [tied]
    if k == len(TIE_BREAKERS):
        lines.append(msg("{players} are still equal after both tie-breakers and share their "
                         "place.", players=_names(tied)))
        return [tied]
    counts = {i: breakers[i][k] for i in tied}
    if len(set(counts.values())) == 1:
        return _break_ties(tied, k + 1, breakers, lines)
    lines.append(msg("Tie-breaker {k} ({rule}): {counts}.", k=k + 1, rule=TIE_BREAKERS[k],
                     counts=[msg("{player} {n}", player=SeatRef(i), n=counts[i])
                             for i in tied]))
    groups: list[list[int]] = []
    for value in sorted(set(counts.values()), reverse=True):
        groups += _break_ties([i for i in tied if counts[i] == value], k + 1, breakers, lines)
    return groups


def _names(seats: list[int]) -> Msg:
    """'Player 1 and Player 2', 'Player 1, Player 2 and Player 3' (names, once rendered)."""
    return msg("{first} and {last}", first=[SeatRef(i) for i in seats[:-1]],
               last=SeatRef(seats[-1]))
