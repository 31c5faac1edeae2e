"""DÉROULEMENT: a turn is exactly one of A (take a market card with its tokens and refill the
market, or take the deck's top card paying a token onto the cheapest market card; not at 4
cards) or B (play a card: place its two corals, stacks at most 4, then score its pattern)."""

from __future__ import annotations

import random

import pytest

from pbem.engine.chance import Chance
from pbem.engine.errors import IllegalOrder
from pbem.games.reef2018 import GAME
from pbem.games.reef2018.parse import parse_order
from pbem.games.reef2018.state import State
from tests.games.reef2018.positions import EMPTY, build, reef

CENTRE = """
. .  .  .
. R  Y  .
. G  P  .
. .  .  .
"""


def play(state: State, text: str, seat: int | None = None) -> State:
    seat = state.to_move if seat is None else seat
    return GAME.apply(state, seat, parse_order(text), Chance("x")).state


def refused(state: State, text: str, seat: int | None = None) -> str:
    with pytest.raises(IllegalOrder) as err:
        play(state, text, seat)
    return str(err.value)


# Market cards 25 (5 points), 14 (1 point), 41 (1 point): 14 and 41 tie as the cheapest.
def position(**kw: object) -> State:
    args: dict[str, object] = {"hands": [[17, 33], [9]], "market": [25, 14, 41],
                               "deck": [52, 3]}
    args.update(kw)
    return build([CENTRE, CENTRE], **args)  # type: ignore[arg-type]


def test_take_a_market_card_with_its_tokens_and_refill_from_the_deck() -> None:
    state = position(tokens=[2, 0, 1])
    after = play(state, "take 25")
    me = after.players[0]
    assert me.hand == [17, 33, 25] and me.score == 3 + 2
    assert me.ledger[-1] == [2, "2 tokens on card 25"]
    assert after.market == [52, 14, 41] and after.market_tokens == [0, 0, 1]
    assert after.deck[0] == 3 and after.to_move == 1


def test_take_the_deck_paying_a_token_onto_the_cheapest_market_card() -> None:
    state = position(market=[25, 14, 45])  # 14 (1 point) is the only cheapest
    after = play(state, "take deck")
    me = after.players[0]
    assert me.hand == [17, 33, 52] and me.score == 2
    assert me.ledger[-1] == [-1, "a token onto card 14 for the deck's top card"]
    assert after.market == [25, 14, 45] and after.market_tokens == [0, 1, 0]
    assert after.deck[0] == 3


def test_the_player_picks_the_cheapest_card_among_ties() -> None:
    state = position()
    assert refused(state, "take deck") == (
        "cards 14 and 41 tie as the cheapest in the market: say which gets your token, "
        "e.g. take deck, token on 14")
    assert play(state, "take deck, token on 41").market_tokens == [0, 0, 1]
    assert play(state, "take deck paying 14").market_tokens == [0, 1, 0]
    assert refused(state, "take deck, token on 25") == (
        "your token goes on the market card with the lowest printed value: 14 or 41, not 25")
    assert refused(state, "take deck, token on 52") == "card 52 is not in the market"


def test_taking_the_deck_needs_a_point() -> None:
    state = position(scores=[0, 3])
    assert refused(state, "take deck, token on 14") == (
        "taking the deck's top card costs a one-point token and you have none: take a market "
        "card or play a card")
    assert play(state, "take 14").players[0].hand == [17, 33, 14]  # the market is still open


def test_the_hand_limit_is_four_cards() -> None:
    state = position(hands=[[17, 33, 2, 5], [9]])
    message = "you already hold 4 cards, the limit: play a card instead"
    assert refused(state, "take 25") == message
    assert refused(state, "take deck, token on 14") == message
    assert play(state, "play 2: green A1, green A2").players[0].hand == [17, 33, 5]


def test_take_only_what_the_market_holds() -> None:
    assert refused(position(), "take 52") == "card 52 is not in the market; it holds 25, 14, 41"


def test_play_a_card_places_its_two_corals_from_the_supply() -> None:
    state = position()
    after = play(state, "play 17: purple A1, purple D4")  # card 17 gives purple + purple
    me = after.players[0]
    assert me.reef[0] == ["purple"] and me.reef[15] == ["purple"]
    assert me.hand == [33] and me.played == [17]
    assert after.supply["purple"] == state.supply["purple"] - 2


def test_a_coral_goes_on_an_empty_square_or_on_a_stack() -> None:
    after = play(position(), "play 33: red B2, green A4")  # card 33 gives red + green
    assert after.players[0].reef[5] == ["red", "red"] and after.players[0].reef[12] == ["green"]


def test_both_corals_on_one_stack_in_either_order() -> None:
    one = play(position(), "play 33: green A1, red A1")
    other = play(position(), "play 33: red A1, green A1")
    assert one.players[0].reef[0] == ["green", "red"]
    assert other.players[0].reef[0] == ["red", "green"]
    unnamed = play(position(), "play 33: A1 A1")  # printed order: red then green
    assert unnamed.players[0].reef[0] == ["red", "green"]


def test_no_stack_above_four() -> None:
    tall = """
    RRRY . . .
    RRY  . . .
    .    . . .
    .    . . .
    """
    state = build([tall, EMPTY], hands=[[33], []])
    assert refused(state, "play 33: red A1, green B1") == (
        "the stack on A1 is already 4 high: no piece may go on it")
    assert refused(state, "play 33: red A2, green A2") == (
        "the stack on A2 is already 4 high: no piece may go on it")
    assert play(state, "play 33: red A2, green B1").players[0].reef[4] == [
        "red", "red", "yellow", "red"]


def test_a_play_changes_no_earlier_state_not_even_when_refused_half_way() -> None:
    # Copies share the stacks they do not change: a piece placed must replace its stack, in
    # the new state only, also when the order's next piece is refused.
    tall = """
    .    . . .
    RRY  . . .
    .    . . .
    .    . . .
    """
    state = build([tall, EMPTY], hands=[[33, 17], []])
    before = GAME.to_json(state)
    assert refused(state, "play 33: red A2, green A2") == (
        "the stack on A2 is already 4 high: no piece may go on it")
    after = play(state, "play 33: red A2, green B1")
    later = play(play(after, "take 1", seat=1), "play 17: purple B1, purple A1")
    assert GAME.to_json(state) == before
    assert after.players[0].reef[4] == ["red", "red", "yellow", "red"]
    assert after.players[0].reef[1] == ["green"]
    assert later.players[0].reef[1] == ["green", "purple"]


def test_the_corals_are_the_cards_own() -> None:
    state = position()
    assert refused(state, "play 33: yellow A1, green A2") == (
        "card 33 gives red and green, not yellow")
    assert refused(state, "play 33: green A1, green A2") == (
        "card 33 gives red and green, and the green is named twice or not in the supply")
    assert refused(state, "play 33: A1") == (
        "card 33 gives two corals (red and green): name a square for each")
    assert refused(state, "play 9: A1, A2") == "card 9 is not in your hand; you hold 17, 33"


def test_playing_scores_the_pattern_times_its_occurrences() -> None:
    # Card 48 gives red + red and scores 3 per green-yellow pair side by side: two pairs.
    two_pairs = """
    G Y . .
    . . . .
    G Y . .
    . . . .
    """
    state = build([two_pairs, EMPTY], hands=[[48], []])
    after = play(state, "play 48: red D4, red D3")
    assert after.players[0].score == 3 + 6
    assert after.players[0].ledger[-1] == [6, "card 48: 2 × 3"]
    # The corals are placed before scoring: covering a green leaves one pair.
    covered = play(state, "play 48: red A1, red D3")
    assert covered.players[0].ledger[-1] == [3, "card 48: 1 × 3"]


def test_a_pattern_not_on_the_reef_scores_nothing() -> None:
    state = position(hands=[[1], []])  # a 2x2 red square
    after = play(state, "play 1: purple A1, purple A2")
    assert after.players[0].score == 3 and len(after.players[0].ledger) == 1


def test_turns_pass_to_the_left_and_only_the_mover_may_order() -> None:
    state = position()
    assert refused(state, "take 25", seat=1) == "it is Player 1's turn, not yours"
    after = play(state, "take 25")
    assert after.to_move == 1 and GAME.waiting_for(after) == {1}
    assert play(after, "take 14").to_move == 0


def test_a_short_supply_gives_what_is_left_and_the_turn_goes_on() -> None:
    state = position(hands=[[17, 33], [9]],
                     supply={"red": 10, "yellow": 10, "green": 10, "purple": 1})
    assert refused(state, "play 17: purple A1, purple A2") == (
        "card 17 gives purple and purple but only 1 of its corals can be placed (purple): "
        "name 1 square")
    after = play(state, "play 17: purple A1")
    assert after.supply["purple"] == 0 and after.players[0].reef[0] == ["purple"]
    assert after.phase == "play" and after.to_move == 1 and after.last_round
    none_left = position(supply={"red": 10, "yellow": 10, "green": 10, "purple": 0})
    after = play(none_left, "play 17")
    assert after.players[0].played == [17] and after.phase == "play"


def test_a_single_coral_can_be_named_by_colour_when_the_supply_is_short() -> None:
    state = position(hands=[[33], []], supply={"red": 0, "yellow": 5, "green": 5, "purple": 5})
    assert play(state, "play 33: green D1").players[0].reef[3] == ["green"]
    assert refused(state, "play 33: red D1") == (
        "card 33 gives red and green, and the red is named twice or not in the supply")


def test_reef_pictures_read_bottom_to_top() -> None:
    assert reef("RG . . .\n. . . .\n. . . .\n. . . .")[0] == ["red", "green"]


def test_a_full_reef_leaves_the_corals_it_cannot_hold_in_the_supply() -> None:
    # Every stack 4 high but D4 (3 high): card 33 (red + green) can place only one coral.
    almost_full = "\n".join(["RRRR RRRR RRRR RRRR"] * 3 + ["GGGG GGGG GGGG GGG"])
    plenty = {"red": 5, "yellow": 5, "green": 5, "purple": 5}  # a test reef beyond the box
    state = build([almost_full, EMPTY], hands=[[33], []], supply=plenty)
    assert refused(state, "play 33: red D4, green D4") == (
        "card 33 gives red and green but only 1 of its corals can be placed (red): "
        "name 1 square")
    after = play(state, "play 33: red D4")
    assert after.players[0].reef[15] == ["green"] * 3 + ["red"]
    assert after.supply["green"] == state.supply["green"]  # the green stays in the supply
    # With no room at all, the card is still played, placing nothing.
    full_reef = "\n".join(["RRRR RRRR RRRR RRRR"] * 4)
    state = build([full_reef, EMPTY], hands=[[33], []], supply=plenty)
    after = play(state, "play 33")
    assert after.players[0].played == [33] and after.supply == state.supply


def test_the_default_order_is_legal_and_never_costs_a_point() -> None:
    rng = random.Random(11)
    checked = 0
    for i in range(12):
        state = GAME.setup(2 + i % 3, {"advanced": i % 2 == 1}, Chance(f"default-{i}"))
        while waiting := GAME.waiting_for(state):
            seat = min(waiting)
            before = state.players[seat].score
            after = play(state, GAME.default_order(state, seat), seat)  # raises if illegal
            assert after.players[seat].score >= before
            checked += 1
            state = play(state, GAME.random_order(state, seat, rng), seat)
    assert checked > 300
