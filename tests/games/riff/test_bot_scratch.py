"""The bot plays its buys on its scratch state through the rules' do_buy, a face-down card's
only if it succeeds (pbem/games/riff/bot.py): a buy it plays must change the state exactly as
do_buy does, a buy do_buy refuses must change nothing (but draw the same card), and the state
the bot is given must never change."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

from pbem.engine.chance import Chance
from pbem.games.riff import GAME
from pbem.games.riff.bot import _BotChance, _buy, _HiddenBuy
from pbem.games.riff.orders import Buy, Place
from pbem.games.riff.rules import QuietTurn, RuleError, do_buy
from pbem.games.riff.state import ROW_OF, State
from pbem.games.riff.worms import CannotPay

FLIPPED = {"face_down_at_sea_edge_counts_as_water": True,
           "completed_corals_count_toward_limit": False,
           "may_buy_fish_without_a_free_coral": False}


def _played(games: int) -> Iterator[State]:
    """Every state before an order of seeded bot games, half with the options switched."""
    for i in range(games):
        state = GAME.setup(2, FLIPPED if i % 2 else {}, Chance(f"scratch-{i}/setup"))
        rng = random.Random(f"scratch-{i}")
        n = 0
        while GAME.waiting_for(state):
            assert n < 1000
            yield state
            seat = state.to_move
            text = GAME.random_order(state, seat, rng)
            order = GAME.parse(state, seat, text)
            state = GAME.apply(state, seat, order, Chance(f"scratch-{i}/{n}")).state
            n += 1


def _dump(state: State) -> str:
    return json.dumps(GAME.to_json(state))


def test_the_bots_buys_change_the_state_as_do_buy_does() -> None:
    played = refused = 0
    for state in _played(4):
        seat = state.to_move
        for column in range(state.players[seat].boats):
            for distance in range(4):
                slot = state.area[ROW_OF[seat][distance]][column]
                if slot is None:
                    continue
                place = Place(column, distance)
                # the rules, on a copy: do_buy checks before it changes anything, except a
                # face-down card's paid turn
                rules, rules_turn = state.copy(), QuietTurn(seat)
                rules_chance = _BotChance(random.Random("s"))
                try:
                    do_buy(rules, rules_turn, Buy(place), rules_chance)
                    bought = True
                except (RuleError, CannotPay):
                    bought = False
                bot, bot_turn = state.copy(), QuietTurn(seat)
                bot_chance = _BotChance(random.Random("s"))
                card = _buy(bot, bot_turn, Buy(place) if slot["up"] else _HiddenBuy(place),
                            bot_chance)
                assert (card is not None) == bought, (place, slot)
                if bought:
                    played += 1
                    assert _dump(bot) == _dump(rules)
                    assert (bot_turn.flipped, bot_turn.revealed, bot_turn.fresh_pearls,
                            bot_turn.fresh_sharks) == (rules_turn.flipped, rules_turn.revealed,
                                                       rules_turn.fresh_pearls,
                                                       rules_turn.fresh_sharks)
                else:
                    refused += 1
                    assert _dump(bot) == _dump(state)
                # the same card drawn (or none): the next draws are the same
                assert bot_chance.choice("next", range(10**9)) == rules_chance.choice(
                    "next", range(10**9))
    assert played > 100 and refused > 100  # both ways were met


def test_the_bot_leaves_the_state_it_is_given_unchanged() -> None:
    rng = random.Random("unchanged")
    for state in _played(4):
        before = _dump(state)
        GAME.random_order(state, state.to_move, rng)
        assert _dump(state) == before
