"""Whole games by real mail (pymap IMAP in, aiosmtpd SMTP out) with the host's bots: two
players and a bot seat; and a player who stops answering, whose seat a bot takes over at the
deadline and plays to the end. On every database under test; replayed from the log. (A few
seconds each: not marked slow.)"""

from __future__ import annotations

import random
from typing import Any

import pytest

from pbem.engine import registry
from pbem.mail.inbound import ImapInbox
from pbem.mail.outbound import SmtpSender
from pbem.ops import api
from pbem.ops.api import ClockSettings
from pbem.ops.bots import TAG_RE, Bot, play_out
from pbem.settings.config import MailConfig
from pbem.settings.host import Host
from pbem.store import SessionFactory
from tests.pipeline.clocked import FakeClock, flat
from tests.pipeline.conftest import ALICE, BOB
from tests.support.botmail import ServerMailroom


@pytest.mark.timeout(300)
def test_two_players_and_a_bot_seat_play_a_whole_game_by_mail(
        factory: SessionFactory, imap_server: Any, smtp_server: Any) -> None:
    host = Host(mail=MailConfig(from_address="games@host.test", from_name="Test Host"))
    with factory() as s:
        game, _ = api.create_game(s, "testcards", [("Alice", ALICE), ("Bob", BOB),
                                                   ("Bot 3", "")],
                                  options={"rounds": 3}, seed="mail-bots", host=host,
                                  bots={2: "normal"})
        s.commit()
        tag = game.tag
    inbox = ImapInbox(imap_server.settings)
    try:
        played = play_out(factory, tag, inbox, SmtpSender(smtp_server.settings),
                          ServerMailroom(smtp_server, imap_server), host, seed="mail-bots")
    finally:
        inbox.close()
    assert imap_server.messages() == []  # every player's mail was handled
    # Only the two players were ever mailed; each status named the bot seat.
    assert {m.to_addr for m in played.mails} == {ALICE, BOB}
    statuses = [m for m in played.mails if TAG_RE.search(str(m.message["Subject"] or ""))]
    assert statuses and all("Played by the computer: Bot 3." in flat(m.text)
                            for m in statuses if "The game is over" not in m.text)
    with factory() as s:
        row = api.get_game(s, tag)
        assert row.status == "finished"
        kinds = [e.kind for e in api.game_log(s, row)]
        assert kinds.count("bot") == 3 and kinds.count("order") == 6
        assert api.replay_game(s, row).entries == 9


@pytest.mark.timeout(300)
def test_a_player_stops_answering_and_a_bot_finishes_the_game_for_them_by_mail(
        factory: SessionFactory, imap_server: Any, smtp_server: Any) -> None:
    clock = FakeClock()
    host = Host(mail=MailConfig(from_address="games@host.test", from_name="Test Host"),
                clock=clock)
    rules = registry.get("testcards")
    with factory() as s:
        game, _ = api.create_game(s, "testcards", [("Alice", ALICE), ("Bob", BOB)],
                                  options={"rounds": 3}, seed="dropped", host=host,
                                  now=clock(), clocks=ClockSettings(
                                      deadline_hours=24, timeout_policy="bot"))
        s.commit()
        tag = game.tag
    inbox = ImapInbox(imap_server.settings)
    sender = SmtpSender(smtp_server.settings)
    room = ServerMailroom(smtp_server, imap_server)
    alice = Bot(0, "Alice", ALICE, random.Random("alice"))
    to_bob: list[str] = []
    try:
        for _ in range(40):
            api.process_inbox(factory, inbox, sender, host)
            for mail in room.new_mail():
                if mail.to_addr == ALICE and TAG_RE.search(str(mail.message["Subject"] or "")):
                    alice.read(mail)
                elif mail.to_addr == BOB:
                    to_bob.append(flat(mail.text))  # Bob reads nothing and answers nothing
            with factory() as s:
                state = api.current_state(s, api.get_game(s, tag))
            if rules.outcome(state) is not None:
                break
            waiting = rules.waiting_for(state)
            if 0 in waiting and alice.unanswered:
                order = rules.random_order(state, 0, alice.rng)
                alice.unanswered = False
                room.post(bytes(alice.reply(order.splitlines())))
            elif 0 not in waiting:
                clock.advance(hours=25)  # only Bob is waited for: his deadline passes
        else:
            pytest.fail("the game did not end")
    finally:
        inbox.close()
    assert any("a bot plays your seat from now on" in text for text in to_bob)
    assert any("Played by the computer: Bob (a bot stands in)." in flat(m.text)
               for m in alice.received)
    with factory() as s:
        row = api.get_game(s, tag)
        assert row.status == "finished"
        log = api.game_log(s, row)
        assert [e.seat for e in log if e.kind == "bot"] == [1, 1, 1]
        assert [e.seat for e in log if e.kind == "order"] == [0, 0, 0]
        assert any(e.kind == "admin" and e.text.startswith("stand-in seat 2") for e in log)
        api.replay_game(s, row)
