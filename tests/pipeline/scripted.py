"""Whole games scripted in advance, and helpers to read Maildirs, for the proof tests.

In the test game the state after each round does not depend on which seat moved first within
the round (draws happen at the round's second log entry, whose seed is fixed by its index),
so every legal order of a game can be computed before any worker runs.
"""

from __future__ import annotations

import email
import mailbox
import random
from email import policy
from pathlib import Path

from pbem.engine.replay import play, start
from pbem.ops import api
from pbem.settings.host import Host
from pbem.store import SessionFactory
from tests.support.testgame import GAME


def scripted_orders(seed: str, rounds: int, hand: int = 3) -> list[tuple[str, str]]:
    """(seat 0's order, seat 1's order) for every round of a two-seat game with ``seed``."""
    options = {**GAME.default_options(), "rounds": rounds, "hand": hand}
    state, _ = start(GAME, 2, options, seed)
    rng = random.Random(seed)
    out = []
    for r in range(rounds):
        first, second = (GAME.random_order(state, s, rng) for s in (0, 1))
        state = play(GAME, state, 0, first, f"{seed}/{2 * r + 1}")[0].state
        state = play(GAME, state, 1, second, f"{seed}/{2 * r + 2}")[0].state
        out.append((first, second))
    return out


def message_ids(folder: Path) -> list[str]:
    """The Message-ID of every mail in a Maildir (new/ and cur/)."""
    return [str(email.message_from_bytes(m.as_bytes(), policy=policy.default)["Message-ID"])
            for m in mailbox.Maildir(folder, create=True)]


def waiting(folder: Path) -> int:
    """How many mails still sit in a Maildir inbox (not moved to a subfolder)."""
    return len(mailbox.Maildir(folder, create=True))


ScriptedGame = tuple[int, str, list[tuple[str, str]], list[str], list[tuple[str, str]]]


def scripted_games(factory: SessionFactory, host: Host, seed: str, games: int,
                   rounds: int) -> list[ScriptedGame]:
    """``games`` two-seat test games, each with the orders that play it out: (id, tag, seats,
    secrets, orders); the seeds are ``<seed>-<n>``."""
    made: list[ScriptedGame] = []
    with factory() as s:
        for g in range(games):
            seats = [("Alice", f"alice{g}@players.test"), ("Bob", f"bob{g}@players.test")]
            game, secrets = api.create_game(s, "testcards", seats, {"rounds": rounds},
                                            seed=f"{seed}-{g}", host=host)
            made.append((game.id or 0, game.tag, seats, secrets,
                         scripted_orders(f"{seed}-{g}", rounds)))
        s.commit()
    return made
