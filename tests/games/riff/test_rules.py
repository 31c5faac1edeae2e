"""A rule test for every sentence of the rules (seed 003).

Positions are drawn as seat 0 sees the area (far row first); see positions.py.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from pbem.engine.chance import Chance
from pbem.engine.errors import IllegalOrder
from pbem.games.riff import GAME
from pbem.games.riff.area import flow, refill
from pbem.games.riff.components import OptionError, reef_deck, resolve
from pbem.games.riff.setup import setup
from pbem.games.riff.state import State
from pbem.games.riff.worms import default_preference
from tests.games.riff.invariants import violations
from tests.games.riff.positions import FULL, build
from tests.games.riff.rules import Scripted, play

RICH = {"red": 3, "yellow": 3, "blue": 3, "green": 3, "pink": 3, "purple": 3}


# --- setup ----------------------------------------------------------------------------------


def test_setup_deals_32_cards_outer_rows_face_up_middle_face_down_rest_the_pile() -> None:
    state = setup(2, {}, Chance("s"))
    assert [[s is not None for s in r] for r in state.area] == [[True] * 8] * 4
    assert [{s["up"] for s in r if s} for r in state.area] == [{True}, {False}, {False},
                                                                 {True}]
    assert len(state.pile) == 60 - 32 and state.discard == []
    assert Counter(c for r in state.area for s in r if s for c in [s["card"]]) + Counter(
        state.pile) == Counter(reef_deck(state.options))
    assert violations(state) == []


def test_setup_opens_four_breeding_cards_one_boat_and_one_worm_of_each_colour_each() -> None:
    state = setup(2, {}, Chance("s"))
    assert len([c for c in state.breeding_open if c]) == 4 and len(state.breeding_pile) == 17
    assert [p.boats for p in state.players] == [1, 1] and state.boats_left == 13
    mover = state.to_move
    assert sum(state.players[1 - mover].worms.values()) == 6
    assert all(n == 1 for n in state.players[1 - mover].worms.values())


def test_setup_picks_a_start_player_who_rolls_and_takes_both_worms() -> None:
    starts = {setup(2, {}, Chance(f"s{i}")).to_move for i in range(20)}
    assert starts == {0, 1}
    state = setup(2, {}, Chance("s"))
    mover = state.players[state.to_move]
    assert len(state.dice) == 2 and state.taken == state.dice
    assert sum(mover.worms.values()) == 8
    for colour in state.dice:
        assert mover.worms[colour] == 1 + state.dice.count(colour)


# --- step 1: dice and worms -----------------------------------------------------------------


def test_the_opponent_takes_one_worm_of_a_dice_colour_by_preference() -> None:
    state = build(FULL, dice=("red", "blue"), players=[{}, {"prefer": ["green", "blue"]}])
    new, said = play(state, 0, "pass")
    assert new.players[1].worms["blue"] == 1 and new.players[1].worms["green"] == 0
    assert "Player 2 took a blue worm (one of the dice's colours, by preference)." in said


def test_the_dice_for_the_next_turn_are_rolled_when_a_turn_ends() -> None:
    state = build(FULL, players=[{}, {}])
    new, said = play(state, 0, "pass", Scripted({"die 1": [2], "die 2": [5]}))
    assert new.to_move == 1 and new.dice == ["blue", "purple"] and new.taken == new.dice
    # Its own pick of this turn's dice (red, blue: red by default), then the two rolled.
    assert new.players[1].worms == {**dict.fromkeys(RICH, 0), "red": 1, "blue": 1,
                                     "purple": 1}
    assert "Dice for Player 2's turn: blue and purple." in said


def test_a_colour_out_of_the_supply_is_replaced_by_a_preferred_one() -> None:
    # All 8 red worms are held: the opponent's pick of red falls back to its next colour.
    state = build(FULL, dice=("red", "red"), players=[{"worms": {"red": 8}},
                                                       {"prefer": ["red", "pink"]}])
    new, said = play(state, 0, "pass", Scripted({"die 1": [0], "die 2": [0]}))
    assert "red worms are out: Player 2 took a pink worm instead (by preference)." in said
    # ... and the mover's own red dice likewise (Player 2 rolls red, red next).
    assert new.taken == ["pink", "pink"] and new.players[1].worms["pink"] == 3
    assert "red worms are out: Player 2 took a pink worm instead." in said


def test_the_default_preference_wants_the_partners_of_the_players_fish() -> None:
    state = build(FULL, breeding=["red+yellow", "blue+green", "pink", "purple"],
                  players=[{"fish": ["blue:m"]}, {}])
    assert default_preference(state, 0)[:2] == ["green", "red"]
    assert default_preference(state, 1)[:3] == ["red", "yellow", "blue"]


def test_prefer_is_read_from_the_seat_not_to_move_and_changes_nothing_else() -> None:
    state = build(FULL)
    new, said = play(state, 1, "prefer purple pink")
    assert new.players[1].prefer == ["purple", "pink"] and new.to_move == 0
    assert said == ["Player 2 now prefers purple, pink worms."]
    assert GAME.takes_orders_out_of_turn(state, 1) and GAME.waiting_for(state) == {0}


def test_the_seat_not_to_move_may_send_only_prefer() -> None:
    state = build(FULL)
    with pytest.raises(IllegalOrder, match="It is not your turn: only \"prefer\" lines"):
        play(state, 1, "prefer red\nbuy 1 near")


# --- step 2: buying -------------------------------------------------------------------------


def test_cards_are_bought_only_in_columns_with_one_of_the_players_boats() -> None:
    state = build(FULL, players=[{"worms": RICH, "boats": 2}, {}])
    play(state, 0, "buy 2 near")
    with pytest.raises(IllegalOrder, match="3 near: you have no boat in column 3"):
        play(state, 0, "buy 3 near")


def test_a_red_fish_in_the_near_row_costs_one_red_worm() -> None:
    state = build(FULL, players=[{"worms": {"red": 1, "blue": 2}}, {}])
    new, said = play(state, 0, "buy 1 near")
    assert new.players[0].fish == ["red:f"] and new.players[0].worms["red"] == 0
    assert new.players[0].worms["blue"] == 2
    assert "Player 1 bought the red female fish on 1 near." in said
    with pytest.raises(IllegalOrder, match="costs 1 red worm"):
        play(build(FULL, players=[{"worms": {"blue": 2}}, {}]), 0, "buy 1 near")


def test_a_red_fish_face_up_in_a_middle_row_costs_two_red_worms() -> None:
    picture = FULL.replace("[bluM] [redM]", "redM [redM]")
    state = build(picture, players=[{"worms": {"red": 2, "blue": 1}}, {}])
    new, _ = play(state, 0, "buy 1 middle")
    assert new.players[0].fish == ["red:m"] and sum(new.players[0].worms.values()) == 1
    with pytest.raises(IllegalOrder, match="costs 2 red worm"):
        play(build(picture, players=[{"worms": {"red": 1, "blue": 3}}, {}]), 0,
             "buy 1 middle")


def test_a_face_down_red_fish_costs_a_worm_of_any_colour_then_a_red_one() -> None:
    state = build(FULL, players=[{"worms": {"blue": 1, "red": 1}}, {}])
    state.area[1][0], state.area[1][1] = state.area[1][1], state.area[1][0]  # [redM] first
    # The draw picks the card's own place among the unseen ones: it keeps its face.
    new, said = play(state, 0, "buy 1 middle paying blue red", Scripted(
        {"turned reef card": [_unseen_index(state, 1, 0)]}))
    assert "Player 1 turned 1 middle: a red male fish." in said
    assert new.players[0].fish == ["red:m"] and sum(new.players[0].worms.values()) == 0


def _unseen_index(state: State, row: int, column: int) -> int:
    unseen = [(r, c) for r in range(4) for c in range(8)
              if (s := state.area[r][c]) is not None and not s["up"]]
    return unseen.index((row, column))


def test_a_red_fish_in_the_far_row_costs_three_red_worms() -> None:
    state = build(FULL, players=[{"worms": {"red": 3}}, {}])
    state.players[0].boats = 8
    new, _ = play(state, 0, "buy 8 far")
    assert new.players[0].fish == ["red:m"]
    assert new.players[0].worms["red"] == 0
    state.players[0].worms["red"] = 2
    with pytest.raises(IllegalOrder, match="costs 3 red worm"):
        play(state, 0, "buy 8 far")


def test_a_turned_card_left_unbought_stays_face_up() -> None:
    state = build(FULL, players=[{"worms": {"green": 1}}, {}])
    new, said = play(state, 0, "flip 1 middle", Scripted(
        {"turned reef card": [_unseen_index(state, 1, 0)]}))
    assert new.area[1][0] == {"card": "fish:blue:m", "up": True}
    assert "Player 1 turned 1 middle: a blue male fish." in said
    assert new.players[0].worms["green"] == 0


def test_buy_if_leaves_a_turned_card_that_is_not_wanted() -> None:
    state = build(FULL, players=[{"worms": {"green": 1, "blue": 1}}, {}])
    new, said = play(state, 0, "buy 1 middle paying green if coral or red fish", Scripted(
        {"turned reef card": [_unseen_index(state, 1, 0)]}))
    assert "Player 1 left the blue male fish on 1 middle (not what the order asked for)." in said
    assert new.players[0].fish == [] and new.players[0].worms["blue"] == 1


def test_a_pearl_replaces_a_worm_of_any_colour() -> None:
    state = build(FULL, players=[{"pearls": 1}, {}])
    new, _ = play(state, 0, "buy 1 near paying pearl")
    assert new.players[0].fish == ["red:f"] and new.players[0].pearls == 0
    assert new.discard[-1:] == ["pearl"] or "pearl" in new.pile  # discarded after use


def test_corals_pearls_and_sharks_are_paid_in_any_colours() -> None:
    picture = FULL.replace("redF  greM  coral pearl", "coral pearl shark redF")
    state = build(picture, players=[{"worms": {"blue": 2, "green": 1}, "boats": 3}, {}])
    new, said = play(state, 0, "buy 1 near\nbuy 2 near paying green\nbuy 3 near")
    p = new.players[0]
    assert "Player 1 bought the coral on 1 near as coral 1." in said
    assert len(p.corals) == 1 and p.pearls == 1 and p.sharks == 1
    assert sum(p.worms.values()) == 0


def test_a_fish_must_be_paid_in_its_colour_when_the_player_names_the_worms() -> None:
    state = build(FULL, players=[{"worms": {"blue": 1, "red": 1}}, {}])
    with pytest.raises(IllegalOrder, match=r"must be paid in red worms \(or pearls\), not blue"):
        play(state, 0, "buy 1 near paying blue")


def test_pearls_and_sharks_are_kept_to_play_on_a_later_turn() -> None:
    picture = FULL.replace("redF  greM  coral pearl", "pearl shark coral redF")
    state = build(picture, players=[{"worms": {"blue": 2}, "boats": 4}, {}])
    new, _ = play(state, 0, "buy 1 near\nbuy 2 near")
    assert new.players[0].pearls == 1 and new.players[0].sharks == 1
    with pytest.raises(IllegalOrder, match=r"you have 0 red, and pearls to play: 0"):
        play(state, 0, "buy 1 near\nbuy 2 near\nbuy 4 near")
    with pytest.raises(IllegalOrder, match="a shark bought this turn is played on a later "
                                           "turn"):
        play(state, 0, "buy 2 near\nshark 5 far")
    later = build(picture, players=[{"worms": {"red": 0}, "boats": 4, "pearls": 1,
                                     "sharks": 1}, {}])
    new, said = play(later, 0, "buy 4 near paying pearl\nshark 5 far")
    assert new.players[0].fish == ["red:f"] and new.players[0].sharks == 0
    assert "Player 1's shark chased the green female fish from 5 far." in said


def test_no_player_holds_more_than_five_corals() -> None:
    five = [(None, None, None)] * 4 + [(None, None, "pink")]
    state = build(FULL, players=[{"worms": {"red": 1}, "corals": five, "boats": 3}, {}])
    with pytest.raises(IllegalOrder, match="you hold 5 corals already"):
        play(state, 0, "buy 3 near")
    # An open question, as an option: completed corals need not count.
    state = build(FULL, players=[{"worms": {"red": 1}, "corals": five, "boats": 3}, {}],
                  options={"completed_corals_count_toward_limit": False})
    new, _ = play(state, 0, "buy 3 near")
    assert len(new.players[0].corals) == 6


def test_water_cards_cannot_be_bought() -> None:
    picture = FULL.replace("redF  greM", "~~~~  greM")
    with pytest.raises(IllegalOrder, match="a water card shows nothing to fish"):
        play(build(picture, players=[{"worms": RICH}, {}]), 0, "buy 1 near")


def test_fish_without_a_free_coral_is_an_option() -> None:
    state = build(FULL, players=[{"worms": RICH}, {}],
                  options={"may_buy_fish_without_a_free_coral": False})
    with pytest.raises(IllegalOrder, match="you need a coral without a completed cross"):
        play(state, 0, "buy 1 near")


# --- boats ----------------------------------------------------------------------------------


def test_a_boat_costs_three_worms_of_any_colours_under_the_next_column() -> None:
    state = build(FULL, players=[{"worms": {"red": 1, "blue": 1, "pink": 1}}, {}])
    new, said = play(state, 0, "boat")
    assert new.players[0].boats == 2 and sum(new.players[0].worms.values()) == 0
    assert new.boats_left == 12 and "Player 1 bought a boat, under column 2." in said


def test_there_are_fifteen_boats_so_eight_and_seven_at_most() -> None:
    state = build(FULL, players=[{"worms": RICH, "boats": 8}, {"boats": 7}])
    assert state.boats_left == 0
    with pytest.raises(IllegalOrder, match="all 15 boats are in play"):
        play(state, 0, "boat")
    state = build(FULL, players=[{"worms": RICH, "boats": 8}, {}])
    with pytest.raises(IllegalOrder, match="a boat under every one of the 8 columns"):
        play(state, 0, "boat")


# --- breeding -------------------------------------------------------------------------------

CROSSES = ["red+yellow", "blue+green", "pink", "purple"]


def test_parents_go_on_a_coral_only_if_they_make_an_open_cross() -> None:
    state = build(FULL, breeding=CROSSES, players=[{
        "fish": ["red:m", "blue:f", "pink:m"], "corals": [(None, None, None)]}, {}])
    new, _ = play(state, 0, "attach red male to coral 1")
    assert new.players[0].corals[0].male == "red" and new.players[0].fish == ["blue:f",
                                                                               "pink:m"]
    with pytest.raises(IllegalOrder, match="make none of the open crosses"):
        play(state, 0, "attach red male and blue female to coral 1")
    with pytest.raises(IllegalOrder, match="you have no coral 2"):
        play(state, 0, "attach red male to coral 2")


def test_a_completed_cross_discards_both_fish_and_takes_the_card_onto_the_coral() -> None:
    state = build(FULL, breeding=CROSSES, breeding_pile=[c for c in resolve({})[
        "breeding_cards"] if c not in CROSSES], players=[{
            "fish": ["yellow:f"], "corals": [("red", None, None)]}, {}])
    new, said = play(state, 0, "attach yellow female to coral 1",
                     Scripted({"breeding card turned": [0]}))
    coral = new.players[0].corals[0]
    assert coral.cross == "red+yellow" and coral.male is None and coral.female is None
    assert "red+yellow" not in new.breeding_open and len(new.breeding_pile) == 16
    assert new.breeding_open[0] == state.breeding_pile[0]
    assert Counter(new.discard + new.pile)["fish:red:m"] >= 1
    assert "Player 1 completed the cross red x yellow on coral 1 (1 in all)." in said


def test_a_used_up_coral_takes_no_more_fish() -> None:
    state = build(FULL, breeding=CROSSES, players=[{
        "fish": ["pink:m"], "corals": [(None, None, "yellow")]}, {}])
    with pytest.raises(IllegalOrder, match="coral 1 is used up"):
        play(state, 0, "attach pink male to coral 1")


def test_a_newly_turned_breeding_card_may_be_completed_at_once() -> None:
    rest = [c for c in resolve({})["breeding_cards"] if c not in CROSSES and c != "green+pink"]
    state = build(FULL, breeding=CROSSES, breeding_pile=["green+pink", *rest], players=[{
        "fish": ["yellow:f", "green:m", "pink:f"],
        "corals": [("red", None, None), (None, None, None)]}, {}])
    new, said = play(state, 0, "attach yellow female to coral 1\n"
                               "attach green male and pink female to coral 2",
                     Scripted({"breeding card turned": [0, 0]}))
    assert [c.cross for c in new.players[0].corals] == ["red+yellow", "green+pink"]
    assert "New breeding card on offer: green x pink." in said


# --- sharks ---------------------------------------------------------------------------------


def test_a_shark_chases_any_face_up_card_of_the_fishing_area() -> None:
    state = build(FULL, players=[{"sharks": 1}, {}])
    new, said = play(state, 0, "shark 6 far")  # no boat there: a shark needs none
    assert new.players[0].sharks == 0
    assert "Player 1's shark chased the blue male fish from 6 far." in said
    assert Counter(new.discard + new.pile)["shark"] >= 1
    with pytest.raises(IllegalOrder, match="a shark chases only face-up cards"):
        play(state, 0, "shark 2 middle")


def test_a_shark_chases_an_own_fish_whose_colour_fits_no_open_cross() -> None:
    state = build(FULL, breeding=CROSSES, players=[{
        "sharks": 2, "fish": ["red:m"], "corals": [(None, None, None)]}, {}])
    with pytest.raises(IllegalOrder, match="still fits an open cross"):
        play(state, 0, "shark my red male")
    state = build(FULL, breeding=["red+yellow", "blue+green", "pink", "yellow+blue"],
                  players=[{"sharks": 1, "fish": ["purple:f"],
                            "corals": [("green", None, None)]}, {}])
    new, said = play(state, 0, "shark my purple female")
    assert new.players[0].fish == []
    assert "Player 1's shark chased their own purple female fish." in said


# --- steps 3 and 4: water and refill --------------------------------------------------------


def test_the_water_slides_cards_toward_the_sea_and_face_down_cards_stay_down() -> None:
    picture = FULL.replace("[bluM] [redM] [purF]", "[bluM] .      [purF]")
    state = build(picture)
    flow(state, Chance("f"))
    assert [None if s is None else s["up"] for s in state.area[1]] == [False] * 7 + [None]
    assert state.area[1][1] == {"card": "fish:purple:f", "up": False}


def test_water_cards_reaching_the_sea_end_are_discarded() -> None:
    picture = FULL.replace("redF  greM  coral pearl", ".     ~~~~  ~~~~  pearl")
    state = build(picture)
    said = [e.text for e in flow(state, Chance("f"))]
    assert [s["card"] if s else None for s in state.area[0]][:2] == ["pearl", "fish:yellow:m"]
    assert state.discard[-2:] == ["water", "water"] and len(said) == 2
    assert state.area[0][5:] == [None, None, None]


def test_face_down_cards_at_the_sea_end_may_count_as_water() -> None:
    state = build(FULL, options={"face_down_at_sea_edge_counts_as_water": True})
    said = [e.text for e in flow(state, Scripted({"turned reef card": [0, 7]}))]  # own faces
    assert said[0] == "A face-down card (blue male fish) left the sea end of row 2."
    assert [s.split(")")[1] for s in said] == [" left the sea end of row 2.",
                                               " left the sea end of row 3."]
    assert state.area[1][0] == {"card": "fish:red:m", "up": False}  # slid in: stays
    kept = build(FULL)
    flow(kept, Chance("f"))
    assert kept.area[1][0] == {"card": "fish:blue:m", "up": False}  # the default: it stays


def test_a_discard_of_seven_or_more_is_shuffled_into_the_pile() -> None:
    state = build(FULL.replace("redF  greM", ".     .   "),
                  discard=["water"] * 4 + ["pearl", "shark", "shark"])
    pile = len(state.pile)
    said = [e.text for e in refill(state, Chance("r"))]
    assert state.discard == [] and len(state.pile) == pile + 7 - 2
    assert "The discard (7 cards) was shuffled into the pile." in said


def test_a_discard_of_fewer_than_seven_stays() -> None:
    state = build(FULL.replace("redF  greM", ".     .   "),
                  discard=["water"] * 4 + ["pearl", "shark"])
    refill(state, Chance("r"))
    assert state.discard == ["water"] * 4 + ["pearl", "shark"]
    assert all(s is not None and s["up"] for s in state.area[0])


def test_when_the_pile_runs_short_pile_and_discard_are_shuffled_together() -> None:
    state = build(FULL.replace("redF  greM  coral", ".     .     .    "), pile=["pearl"])
    state.discard = state.discard[:4]  # fewer than 7: only the pile's shortage shuffles it
    said = [e.text for e in refill(state, Chance("r"))]
    assert any("The pile could not fill the area" in s for s in said)
    assert all(s is not None for s in state.area[0])


# --- the end --------------------------------------------------------------------------------


def test_the_first_to_complete_five_crosses_wins() -> None:
    done = [(None, None, c) for c in ("pink", "purple", "blue+green", "red+green")]
    state = build(FULL, breeding=["red+yellow", "green+pink", "yellow", "blue+pink"],
                  players=[{"fish": ["yellow:f"], "corals": [*done, ("red", None, None)]}, {}])
    new, said = play(state, 0, "attach yellow female to coral 5")
    assert new.phase == "over" and new.winner == 0 and GAME.waiting_for(new) == set()
    assert said[-1] == "Player 1 wins with 5 completed crosses."
    outcome = GAME.outcome(new)
    assert outcome is not None and outcome.ranking == [[0], [1]]
    assert outcome.scores == {0: 5, 1: 0}


def test_at_the_turn_limit_more_crosses_win_and_equal_is_a_draw() -> None:
    state = build(FULL, turn=9, options={"turn_limit": 10},
                  players=[{}, {"corals": [(None, None, "pink")]}])
    new, said = play(state, 0, "pass")
    assert new.phase == "over" and new.winner == 1
    assert said[-1].endswith("Player 2 has more completed crosses and wins.")
    assert GAME.outcome(new) is not None
    state = build(FULL, turn=9, options={"turn_limit": 10})
    new, _ = play(state, 0, "pass")
    outcome = GAME.outcome(new)
    assert outcome is not None and outcome.ranking == [[0, 1]]
    assert str(outcome.explanation[0]).startswith("A draw: the turn limit (10 turns)")


# --- by email: hidden cards -----------------------------------------------------------------


def test_after_a_card_turns_a_line_that_no_longer_fits_is_skipped() -> None:
    state = build(FULL, players=[{"worms": {"green": 1}}, {}])
    new, said = play(state, 0, "buy 1 middle\nbuy 1 near", Scripted(
        {"turned reef card": [_unseen_index(state, 1, 0)]}))
    assert "Player 1's line 1 could not be played after the turned card, so it was " \
           "skipped." in said
    assert "Player 1's line 2 could not be played after the turned card, so it was " \
           "skipped." in said
    assert new.area[1][0] is not None and new.area[1][0]["up"]  # turned, paid, left


def test_a_turned_card_is_drawn_among_every_unseen_card() -> None:
    faces = set()
    for seed in range(30):
        state = build(FULL, players=[{"worms": {"green": 1}}, {}])
        new, _ = play(state, 0, "flip 1 middle", Chance(f"seed-{seed}"))
        slot = new.area[1][0]
        assert slot is not None
        faces.add(slot["card"])
    assert len(faces) > 3  # a check with another seed shows another card


# --- the box and its options ----------------------------------------------------------------


def test_options_must_keep_the_known_totals() -> None:
    with pytest.raises(OptionError, match="add up to 61, but the box holds 60"):
        resolve({"coral": 11})
    with pytest.raises(OptionError, match="unknown Das Riff options: corals"):
        resolve({"corals": 9})
    with pytest.raises(OptionError, match="must list 21 cards"):
        resolve({"breeding_cards": ["red"]})
    opts = resolve({"coral": 9, "water": 7})
    assert Counter(reef_deck(opts))["water"] == 7


def test_males_and_females_of_a_colour_may_differ_within_the_known_total() -> None:
    fish: dict[str, Any] = {"red": {"m": 4, "f": 2}, "yellow": 3, "blue": 3, "green": 3,
                            "pink": 3, "purple": 3}
    opts = resolve({"fish_per_colour_per_sex": fish})
    deck = Counter(reef_deck(opts))
    assert (deck["fish:red:m"], deck["fish:red:f"], deck["fish:yellow:f"]) == (4, 2, 3)
    assert opts["fish_per_colour_per_sex"]["red"] == {"m": 4, "f": 2}
    assert sum(deck.values()) == 60
    with pytest.raises(OptionError, match="add up to 61, but the box holds 60"):
        resolve({"fish_per_colour_per_sex": {**fish, "red": {"m": 4, "f": 3}}})
    with pytest.raises(OptionError, match='red needs a count for males and females, as '
                                          r'\{"m": 3, "f": 3\}, not \{\'m\': 6\}'):
        resolve({"fish_per_colour_per_sex": {**fish, "red": {"m": 6}}})


def test_the_dice_faces_are_an_option_checked_against_the_box() -> None:
    colours = ["red", "yellow", "blue", "green", "pink", "purple"]
    assert "die_faces" not in resolve({})  # the reconstruction: each colour once on each die
    assert "die_faces" not in resolve({"die_faces": [colours, colours]})
    reds = ["red", "red", "red", "red", "yellow", "yellow"]
    opts = resolve({"die_faces": [reds, colours]})
    assert opts["die_faces"] == [reds, colours]
    state = setup(2, {"die_faces": [["red"] * 6, ["blue"] * 6]}, Chance("dice"))
    assert state.dice == ["red", "blue"]
    for bad in ([colours], [colours, colours[:5]], [colours, [*colours[:5], "orange"]]):
        with pytest.raises(OptionError, match="option die_faces must list 2 dice of 6 faces, "
                                              "each face one of red, yellow, blue, green, "
                                              "pink, purple"):
            resolve({"die_faces": bad})


def test_per_colour_fish_counts_and_own_colour_names_are_options() -> None:
    fish = {"red": 4, "yellow": 2, "blue": 3, "green": 3, "pink": 3, "purple": 3}
    deck = Counter(reef_deck(resolve({"fish_per_colour_per_sex": fish})))
    assert deck["fish:red:m"] == 4 and deck["fish:yellow:f"] == 2
    names = ["red", "yellow", "blue", "green", "orange", "violet"]
    opts = resolve({"colour_names": names})
    assert "orange+violet" in opts["breeding_cards"]
    state = setup(2, {"colour_names": names}, Chance("c"))
    assert violations(state) == []
    # As the host hands them over, every option at its default but the colours: the shipped
    # breeding cards follow the game's own colours, as when they are not given.
    assert resolve({**GAME.default_options(), "colour_names": names}) == opts
    assert GAME.check_options({**GAME.default_options(), "colour_names": names}) == []
