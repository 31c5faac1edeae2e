"""Scoring a card's pattern (rulebook, 'B … 2'): every right-angle rotation counts; only top
pieces count; a number = exactly that height, '+' = that height or more, the multicolour piece
any colour at its height; each top piece used once, points × the most disjoint occurrences;
the 8 'highest' cards."""

from __future__ import annotations

import random

import pytest

from pbem.games.reef2018.cards import ANY, COLOURS, PatternCell, cards, placements
from pbem.games.reef2018.scoring import max_disjoint, occurrences, score_card, score_in_hand
from tests.games.reef2018.positions import reef

PATTERN_CARDS = sorted(c.id for c in cards().values() if not c.highest)
HIGHEST_CARDS = sorted(c.id for c in cards().values() if c.highest)


def test_the_card_list_is_the_transcription_as_its_header_says() -> None:
    deck = cards()
    assert sorted(deck) == list(range(1, 61))
    tops = [colour for card in deck.values() for colour in card.corals]
    assert {c: tops.count(c) for c in COLOURS} == {c: 30 for c in COLOURS}
    assert len(HIGHEST_CARDS) == 8
    kinds = {c.kind for c in deck.values()}
    assert kinds == {"single", "pair", "square", "line3", "corner3", "diagonal3",
                     "diagonal-pair", "highest"}


def _rotate(cells: list[tuple[int, int, PatternCell]], times: int
            ) -> list[tuple[int, int, PatternCell]]:
    """Turn the printed pattern a quarter turn ``times`` times, written independently of the
    rules' own rotation code."""
    out = cells
    for _ in range(times):
        out = [(-y, x, c) for x, y, c in out]
    min_x, min_y = min(x for x, _, _ in out), min(y for _, y, _ in out)
    return [(x - min_x, y - min_y, c) for x, y, c in out]


def _stack_for(cell: PatternCell, other: str) -> list[str]:
    """A stack satisfying ``cell`` exactly: the height it asks for (3 for 'any height', to
    show height does not matter), the top of its colour (``other`` for multicolour)."""
    height = cell.height or 3
    top = other if cell.colour == ANY else cell.colour
    below = next(c for c in COLOURS if c != top)
    return [below] * (height - 1) + [top]


@pytest.mark.parametrize("card_id", PATTERN_CARDS)
@pytest.mark.parametrize("turns", [0, 1, 2, 3])
def test_every_pattern_is_found_in_every_rotation(card_id: int, turns: int) -> None:
    card = cards()[card_id]
    cells = _rotate([(c.dx, c.dy, c) for c in card.cells], turns)
    for ox, oy in ((0, 0), (1, 1)):  # two places on the reef
        board: list[list[str]] = [[] for _ in range(16)]
        for x, y, c in cells:
            board[(oy + y) * 4 + ox + x] = _stack_for(c, "green" if card_id % 2 else "red")
        scored = score_card(board, card_id)
        assert scored.times == 1, (card_id, turns, ox)
        assert scored.points == card.points


@pytest.mark.parametrize("card_id", PATTERN_CARDS)
def test_a_pattern_needs_every_piece(card_id: int) -> None:
    card = cards()[card_id]
    board: list[list[str]] = [[] for _ in range(16)]
    for c in card.cells[:-1]:  # all but the last piece
        board[c.dy * 4 + c.dx] = _stack_for(c, "red")
    assert score_card(board, card_id).points == 0


def test_only_the_top_piece_counts() -> None:
    # Card 7: 1 point per green top at any height. Greens under another colour do not count.
    board = reef("""
    G  RG  GR  GGGG
    .  .   .   .
    YG .   .   GY
    .  .   .   .
    """)
    assert score_card(board, 7).times == 4  # A1, B1 (green on red), D1, B3 (green on yellow)
    board_no_green = reef("""
    GR GY GP .
    .  .  .  .
    .  .  .  .
    .  .  .  .
    """)
    assert score_card(board_no_green, 7).points == 0


def test_a_number_means_exactly_that_height() -> None:
    # Card 2: 4 points per yellow top exactly 3 high.
    board = reef("""
    Y  RY  RRY  RRRY
    .  .   .    .
    .  .   .    .
    .  .   GGY  .
    """)
    assert score_card(board, 2).times == 2  # C1 and C4; not 1, 2 or 4 high


def test_a_plus_means_that_height_or_more() -> None:
    # Card 24: 5 points per diagonal pair, purple 2+ high and red 2+ high.
    board = reef("""
    RP  .    .    .
    .   GGGR .    .
    .   .    P    .
    .   .    .    YR
    """)
    assert score_card(board, 24).times == 1  # A1 (2 high) with B2 (4 high)
    lower = reef("""
    P   .    .    .
    .   GGGR .    .
    .   .    .    .
    .   .    .    .
    """)
    assert score_card(lower, 24).times == 0  # the purple is only 1 high


def test_multicolour_is_any_colour_at_that_height() -> None:
    # Card 36: 2 points per pair side by side, any colours, both exactly 2 high.
    board = reef("""
    RY  GP  .   .
    .   .   .   .
    RR  .   .   .
    YG  .   .   PPP
    """)
    assert score_card(board, 36).times == 2  # A1-B1 and A3-A4
    # Card 21: 3 points per top exactly 4 high, whatever colour.
    tall = reef("""
    RRRY GGGP .   .
    .    .    RRR .
    .    .    .   .
    .    .    .   .
    """)
    assert score_card(tall, 21).points == 6


def _greedy(masks: list[int]) -> int:
    used, n = 0, 0
    for m in masks:
        if not m & used:
            used |= m
            n += 1
    return n


def test_occurrences_share_no_top_piece_and_the_count_is_the_maximum() -> None:
    # Card 16: 5 points per pair of purple tops exactly 2 high. Four such stacks in a path
    # A2-A1-B1-C1: taking A1-B1 first (as a scan does) leaves one pair; A2-A1 + B1-C1 is two.
    board = reef("""
    RP  RP  RP  .
    RP  .   .   .
    .   .   .   .
    .   .   .   .
    """)
    masks = occurrences(board, 16)
    assert len(masks) == 3
    assert _greedy(masks) == 1  # greedy counting is wrong here
    assert max_disjoint(masks) == 2
    assert score_card(board, 16).points == 10


def test_a_full_square_of_one_colour_counts_four_disjoint_squares_once_each() -> None:
    # Card 1: 6 points per 2x2 red square. A 4x4 all-red reef holds 9 squares, 4 disjoint.
    board = reef("\n".join(["R R R R"] * 4))
    assert len(occurrences(board, 1)) == 9
    assert score_card(board, 1).points == 24
    # Line of 3 (card 57, red): a 4x4 of red fits 4 disjoint lines... plus more in the rest.
    assert score_card(board, 57).times == 5  # 4 horizontal lines in columns A-C + D1-D3


def _brute(masks: list[int]) -> int:
    """Every subset, by include/exclude: slow, plainly right."""
    if not masks:
        return 0
    first, rest = masks[0], masks[1:]
    return max(_brute(rest), 1 + _brute([m for m in rest if not m & first]))


def test_max_disjoint_matches_brute_force_on_random_reefs() -> None:
    rng = random.Random(7)
    checked = 0
    for _ in range(300):
        board = [[rng.choice(COLOURS[:2])] * rng.randint(1, 2) if rng.random() < 0.9 else []
                 for _ in range(16)]
        for card_id in (1, 12, 15, 16, 26, 36, 24, 42):
            masks = occurrences(board, card_id)
            if len(masks) <= 18:
                assert max_disjoint(masks) == _brute(masks), (board, card_id)
                checked += len(masks) > 2
    assert checked > 100


def test_rotations_are_placed_once_each() -> None:
    # A square has one orientation, a line two, a corner or a two-colour pair four.
    assert len(placements(1)) == 9
    assert len(placements(15)) == 2 * 2 * 4
    assert len(placements(12)) == 4 * 9
    assert len(placements(9)) == 4 * 12


@pytest.mark.parametrize("card_id", HIGHEST_CARDS)
def test_highest_cards_score_per_adjacent_stack_of_the_named_colour(card_id: int) -> None:
    card = cards()[card_id]
    centre, scored = card.cells[0].colour, card.cells[1].colour
    c, s = centre[0].upper(), scored[0].upper()
    other = next(x[0].upper() for x in COLOURS if x not in (centre, scored))
    # Highest centre-colour stack on B2 (3 high); scored colour on A1 (diagonal), C2 (side),
    # B3 (below) and D4 (not adjacent); an equal-colour stack elsewhere is lower.
    board = reef(f"""
    {s}     .   .   .
    .       {other * 2}{c}  {s}   .
    .       {s}  .   .
    {c}     .   .   {s}
    """)
    result = score_card(board, card_id)
    assert result.times == 3 and result.points == 3 * card.points


def test_highest_means_the_highest_stack_of_that_colour_whatever_the_others() -> None:
    # Card 19: 2 per purple next to the highest yellow stack. A taller purple or red stack
    # does not matter; only yellow tops compete.
    board = reef("""
    P    RRRR  .    .
    .    Y     PPPP .
    .    .     RRY  P
    .    .     .    .
    """)
    # Highest yellow is C3 (3 high): neighbours C2 (purple), D3 (purple) -> 2; not B2's 2.
    result = score_card(board, 19)
    assert result.times == 2 and str(result.where) == "around C3 (3 high)"


def test_highest_tie_takes_the_best() -> None:
    # Card 19 again: yellow stacks B2 and C4 both 2 high. B2 touches 2 purples (B3, C3),
    # C4 touches 4 (B3, C3, D3, D4): the player would choose C4.
    board = reef("""
    .    .     .    .
    .    RY    .    .
    .    P     P    P
    .    .     GY   P
    """)
    result = score_card(board, 19)
    assert result.times == 4 and str(result.where) == "around C4 (2 high)"
    # Mirrored, so the better stack is the first in reading order: still the best is taken.
    board = reef("""
    .    .     .    .
    P    RY    .    .
    P    P     P    .
    .    .     GY   .
    """)
    result = score_card(board, 19)
    assert result.times == 4 and str(result.where) == "around B2 (2 high)"


def test_highest_with_no_stack_of_that_colour_scores_nothing() -> None:
    board = reef("""
    P P P P
    . . . .
    . . . .
    . . . .
    """)
    assert score_card(board, 19).points == 0  # no yellow stack at all


def test_hand_cards_score_once() -> None:
    board = reef("\n".join(["G G G G"] * 4))
    assert score_card(board, 7).points == 16  # played, card 7 would score 16 × 1
    assert score_in_hand(board, 7) == 1  # in hand at the end: its points once
    assert score_in_hand(board, 8) == 6  # the 2x2 green square: once, not 4 times
    assert score_in_hand(board, 1) == 0  # no red square


@pytest.mark.parametrize("card_id", PATTERN_CARDS)
def test_occurrences_are_the_placements_whose_every_square_accepts_its_piece(card_id: int
                                                                               ) -> None:
    """Scoring's written-out checks find, in order, exactly the placements a square-by-square
    PatternCell.accepts finds, on random reefs of few colours (so that patterns occur), with
    empty squares and a stack higher than the rules allow."""
    rng = random.Random(card_id)
    found = 0
    for _ in range(150):
        colours = rng.sample(COLOURS, rng.randint(1, 2))
        board = [[rng.choice(colours) for _ in range(rng.choice((0, 1, 1, 2, 3, 4)))]
                 for _ in range(16)]
        if rng.random() < 0.2:
            board[rng.randrange(16)] = [colours[0]] * 5
        expected = [mask for mask, needs in placements(card_id)
                    if all(board[sq] and cell.accepts(board[sq][-1], len(board[sq]))
                           for sq, cell in needs)]
        assert occurrences(board, card_id) == expected, (board, card_id)
        found += len(expected)
    assert found > 0
