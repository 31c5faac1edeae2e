"""One mail in, at most one mail out per recipient, through real mail (orders by IMAP from
pymap, answers read back from aiosmtpd), on each database: a ``resign`` is answered once to
its sender and tells every other seat once; a seat a bot plays is never told "your move",
its player's updates say in their subject that a bot plays for them, and the game's archive
labels those moves as a bot's standing in for a player who resigned."""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

import pytest

from pbem.ops import api, archive
from pbem.ops.api import ClockSettings
from pbem.settings.config import Bots
from pbem.store import SessionFactory
from tests.pipeline.clocked import OPERATOR, FakeClock, clocked_host, flat
from tests.pipeline.conftest import ALICE, BOB, Table, hand
from tests.support.playermail import mail
from tests.support.testgame import GAME
from tests.support.wire import Wire, parsed

CY = "cy@players.test"


def test_a_resign_mails_its_sender_once_and_no_later_pass_says_your_move(
        factory: SessionFactory, imap_server: Any, smtp_server: Any) -> None:
    clock = FakeClock()
    # One bot move per game and pass: the stand-in's later moves come in later passes.
    host = dataclasses.replace(clocked_host(clock), bots=Bots(moves_per_pass=1))
    with factory() as s:
        game, secrets = api.create_game(
            s, "testcards", [("Alice", ALICE), ("Bob", BOB), ("Cy", CY)], seed="resign",
            host=host, options={"rounds": 4}, now=clock(),
            clocks=ClockSettings(timeout_policy="bot"))
        s.commit()
        tag, game_id = game.tag, game.id
    wire = Wire(factory, host, imap_server, smtp_server)
    wire.run()  # the welcomes
    table = Table(game_id or 0, tag, secrets)
    alice_card = hand(factory, table, 0)[0]
    wire.run(mail(ALICE, f"Re: [{tag}]", f"play {alice_card}\nsecret {secrets[0]}"))

    sent = wire.run(mail(BOB, f"Re: [{tag}]", f"resign\nsecret {secrets[1]}"))
    per = Counter(to for to, _ in sent)
    assert per[BOB] == 1, sent
    assert all(n == 1 for n in per.values()), sent  # Alice, Cy and the operator: once each
    assert per[OPERATOR] == 1
    (bob_subject,) = [subj for to, subj in sent if to == BOB]
    assert "You resigned" in bob_subject

    # Later passes: Alice and Cy play on, the bot plays Bob's seat; Bob never reads "your
    # move", and what he gets says a bot plays for him.
    bob: list[str] = []
    for _ in range(6):
        clock.advance(minutes=5)
        later = wire.run()
        for seat, who in ((0, ALICE), (2, CY)):
            cards = hand(factory, table, seat)
            if cards:
                later += wire.run(mail(who, f"Re: [{tag}]",
                                       f"play {cards[0]}\nsecret {secrets[seat]}"))
        bob += [subj for to, subj in later if to == BOB]
    assert bob and not [subj for subj in bob if "your move" in subj], bob
    assert all("a bot plays for you" in subj for subj in bob if "Game over" not in subj), bob
    with factory() as s:
        finished = api.get_game(s, game_id or 0)
        assert finished.status == "finished"
        page = archive.render_page(archive.build(s, finished))
    # The archive says who played Bob's seat after he resigned, not that he missed deadlines.
    assert "Bob (resigned: played by a bot standing in)" in page
    assert "Bob (deadline passed" not in page and "Bob (played by a bot)" not in page


def test_a_resign_whose_default_order_fails_still_mails_each_seat_once(
        factory: SessionFactory, imap_server: Any, smtp_server: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FakeClock()
    host = clocked_host(clock)
    with factory() as s:
        game, secrets = api.create_game(s, "testcards", [("Alice", ALICE), ("Bob", BOB)],
                                        seed="pause", host=host, now=clock())
        s.commit()
        tag = game.tag
    wire = Wire(factory, host, imap_server, smtp_server)
    wire.run()
    monkeypatch.setattr(GAME, "default_order", lambda state, seat: "play 99")  # illegal
    sent = wire.run(mail(BOB, f"Re: [{tag}]", f"resign\nsecret {secrets[1]}"))
    per = Counter(to for to, _ in sent)
    assert (per[BOB], per[ALICE]) == (1, 1), sent
    bodies = {r.rcpt_tos[0]: parsed(r.raw) for r in smtp_server.received[-len(sent):]}
    alice = flat(str(bodies[ALICE].get_body(("plain",)).get_content()))  # type: ignore[union-attr]
    bob = flat(str(bodies[BOB].get_body(("plain",)).get_content()))  # type: ignore[union-attr]
    assert f"Bob has resigned from [{tag}]" in alice and f"Game [{tag}] is paused" in alice
    assert f"Game [{tag}] is paused" in bob and f"You have resigned from [{tag}]" in bob
