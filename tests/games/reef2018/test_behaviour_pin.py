"""Pins the engine's whole observable behaviour across speed work: seeded games of
bot orders and default orders for 2, 3 and 4 players, basic and advanced, with each order's
text, parse, events (kind, message as data, English text), the exact ``to_json`` text (key
order included), some views, and now and then a few refused orders' answers (message and
hint), folded into one digest. The digest was taken from the engine before any speed work; a
change to the rules, the bot's random calls, the messages or the state's JSON shows here as a
different digest.

The same games' orders as the bot chose them before it picked among the rules' legal orders are
kept in ``pinned_orders.json``: replayed, they give the digest taken before any speed work, so
the rules, messages and JSON are unchanged byte for byte whatever the bot chooses now."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

from pbem.engine.chance import Chance
from pbem.engine.errors import IllegalOrder, OrderSyntaxError
from pbem.games.reef2018 import GAME
from pbem.games.reef2018.state import State

GAMES = 12
# Refused in most positions, each for another rule: no such card, a card not in the market, a
# card not in hand (or, when held, corals it does not give), a token on a card not in the
# market or not the cheapest, starting corals again (in the setup step: anything else).
REFUSED = ("take 61", "take 60", "play 5: red A1, red A1", "take deck, token on 1",
           "start: red B2, yellow C2, green B3, purple C3", "play 1: red A1, green A2")
# Retaken when a colour beside its noun took a context of its own ("colour of a top"): only
# the messages' data changed (with the former context the games give the former digests,
# 6bf0a8799dc632bc6d71a4de4697677392b0f5fc36245d9034c5e41cdca60ad1 and
# cb89eb13541464c0357c9967b2b87c849f1b30b328a39cbffcef2079273191fe).
DIGEST = "fe892dc972b800433d46ce546b3a7534b89fc8758a474d07de96071a943c88ee"
RECORDED = Path(__file__).with_name("pinned_orders.json")  # (seat, text) per order, per game
RECORDED_DIGEST = "e7df6971a5d280ec6a359b775adaada5866dce3359960fa09f9d092cbb862c47"


def _dump(data: object) -> bytes:
    return json.dumps(data, ensure_ascii=False).encode("utf-8")


def _answer(text: str, state: State, seat: int) -> str:
    try:
        GAME.apply(state, seat, GAME.parse(state, seat, text), Chance("refused"))
    except (IllegalOrder, OrderSyntaxError) as err:
        return f"{err} | {err.hint}"
    return "accepted"


def play_digest(games: int, recorded: list[list[list[object]]] | None = None) -> str:
    """The digest of ``games`` seeded games: the bot's and default orders, or with
    ``recorded`` the orders recorded for each game."""
    digest = hashlib.sha256()
    for i in range(games):
        seed = f"pin-{i}"
        players = 2 + i % 3
        chance = Chance(f"{seed}/setup")
        state = GAME.setup(players, {"advanced": i % 2 == 1}, chance)
        digest.update(_dump(GAME.to_json(state)))
        rng = random.Random(seed)
        n = 0
        while waiting := GAME.waiting_for(state):
            assert n < 1000
            if recorded is None:
                seat = rng.choice(sorted(waiting))
                text = (GAME.default_order(state, seat) if rng.random() < 0.1
                        else GAME.random_order(state, seat, rng))
            else:
                seat, text = int(str(recorded[i][n][0])), str(recorded[i][n][1])
            digest.update(text.encode("utf-8"))
            order = GAME.parse(state, seat, text)
            digest.update(repr(order).encode("utf-8"))
            before = _dump(GAME.to_json(state))
            if n % 5 == 0:
                for refused in REFUSED:
                    digest.update(_answer(refused, state, seat).encode("utf-8"))
            try:
                applied = GAME.apply(state, seat, order, Chance(f"{seed}/{n}"))
            except IllegalOrder as err:  # a bot order must never be refused
                raise AssertionError(f"{seed} order {n}: {text!r}: {err}") from None
            assert _dump(GAME.to_json(state)) == before, "apply changed its input"
            state = applied.state
            digest.update(_dump([e.to_json() for e in applied.events]))
            digest.update(_dump(GAME.to_json(state)))
            if n % 7 == 0:
                for viewer in (None, 0, players - 1):
                    digest.update(_dump(GAME.view(state, viewer)))
            n += 1
        outcome = GAME.outcome(state)
        assert outcome is not None
        digest.update(_dump(outcome.to_json()))
        digest.update(_dump(GAME.to_json(GAME.from_json(json.loads(_dump(GAME.to_json(
            state)))))))
    return digest.hexdigest()


def test_seeded_games_play_exactly_as_before() -> None:
    assert play_digest(GAMES) == DIGEST


def test_recorded_orders_replay_byte_for_byte() -> None:
    recorded = json.loads(RECORDED.read_text(encoding="utf-8"))
    assert len(recorded) == GAMES
    assert play_digest(GAMES, recorded) == RECORDED_DIGEST
