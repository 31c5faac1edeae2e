"""Bots play whole games through the real mail path: Maildirs, and real IMAP/SMTP servers."""

from __future__ import annotations

import mailbox
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import col, select

from pbem.engine import registry
from pbem.mail.inbound import ImapInbox
from pbem.mail.outbound import MaildirSender, SmtpSender
from pbem.ops import api
from pbem.ops.bots import BotGameError, maildir_table, play_out
from pbem.settings.config import MailConfig
from pbem.settings.host import Host
from pbem.store import SessionFactory
from pbem.store.tables import InboundMessage
from tests.support.botmail import ServerMailroom
from tests.support.testgame import GAME, TestCards

HOST = Host(mail=MailConfig(from_address="games@host.test"))
SEATS = [("Ann", "ann@players.test"), ("Ben", "ben@players.test"), ("Cy", "cy@players.test")]


class CheatingCards(TestCards):
    """Test Cards whose bots propose a card they do not hold: the rules must refuse it."""

    def random_order(self, state: Any, seat: int, rng: random.Random) -> str:
        return "play 99"


@pytest.fixture(autouse=True)
def games() -> Iterator[None]:
    registry.register(GAME)
    yield
    registry.unregister(GAME.name)


def new_game(factory: SessionFactory, players: int) -> str:
    with factory() as s:
        game, _ = api.create_game(s, "testcards", SEATS[:players], seed="bots", host=HOST)
        s.commit()
        return game.tag


def statuses(factory: SessionFactory) -> list[str]:
    with factory() as s:
        return [m.status for m in s.exec(select(InboundMessage).order_by(col(InboundMessage.id)))]


def test_bots_play_a_whole_game_through_maildirs(factory: SessionFactory,
                                                 tmp_path: Path) -> None:
    tag = new_game(factory, 3)
    inbox, room = maildir_table(tmp_path / "inbox", tmp_path / "outbox")
    played = play_out(factory, tag, inbox, MaildirSender(tmp_path / "outbox"), room, HOST)
    assert played.turns == 6  # two rounds of three simultaneous plays
    assert statuses(factory) == ["applied"] * 6
    assert sorted(played.outcome.scores) == [0, 1, 2]
    for bot in played.bots:  # each learnt its secret from its welcome and saw the end
        assert bot.secret and "Your secret is: " + bot.secret in bot.received[0].text
        assert "The game is over." in bot.received[-1].text
        assert Path(bot.received[-1].ref).is_file()
    with factory() as s:
        assert api.replay_game(s, api.get_game(s, tag)).entries == 6


def test_showcase_sends_a_dry_run_and_an_unreadable_order_first(factory: SessionFactory,
                                                                tmp_path: Path) -> None:
    tag = new_game(factory, 2)
    inbox, room = maildir_table(tmp_path / "inbox", tmp_path / "outbox")
    played = play_out(factory, tag, inbox, MaildirSender(tmp_path / "outbox"), room, HOST,
                      showcase=True)
    assert statuses(factory)[:2] == ["ignored", "applied"]  # Ann's check, Ben's real order
    assert statuses(factory).count("rejected") == 1
    assert "check: these orders are legal. Nothing was played." in played.showcase["check"].text
    refused = played.showcase["nonsense"].text
    assert "Your orders were NOT played; nothing changed." in refused
    assert "dance the macarena" in refused
    assert played.turns == 4


def test_a_refused_bot_order_stops_the_game_with_the_reply(factory: SessionFactory,
                                                           tmp_path: Path) -> None:
    registry.register(CheatingCards())  # in place of the honest Test Cards
    tag = new_game(factory, 2)
    inbox, room = maildir_table(tmp_path / "inbox", tmp_path / "outbox")
    with pytest.raises(BotGameError, match="you have no card 99") as err:
        play_out(factory, tag, inbox, MaildirSender(tmp_path / "outbox"), room, HOST)
    assert "was rejected, not applied" in str(err.value)


@pytest.mark.slow
def test_bots_play_a_whole_game_over_imap_and_smtp(factory: SessionFactory, imap_server: Any,
                                                   smtp_server: Any) -> None:
    tag = new_game(factory, 3)
    inbox = ImapInbox(imap_server.settings)
    try:
        played = play_out(factory, tag, inbox, SmtpSender(smtp_server.settings),
                          ServerMailroom(smtp_server, imap_server), HOST)
    finally:
        inbox.close()
    assert played.turns == 6
    assert len(smtp_server.messages) == 3 + 6 * 3  # welcomes, then every seat after each order
    assert imap_server.messages() == []  # every bot mail was handled and moved away
    with factory() as s:
        assert api.replay_game(s, api.get_game(s, tag)).entries == 6


def test_maildir_mail_is_read_in_the_order_it_was_written(tmp_path: Path) -> None:
    # Maildir keys hold unpadded microseconds ("M5" is earlier than "M123"): sorted as text,
    # mail written in one second would come out of order.
    mailbox.Maildir(tmp_path / "outbox", create=True)
    _, mailroom = maildir_table(tmp_path / "inbox", tmp_path / "outbox")
    for key in ("1700000000.M123P1Q2.host", "1700000000.M5P1Q1.host",
                "1699999999.M999999P1Q3.host"):
        (tmp_path / "outbox" / "new" / key).write_bytes(f"Subject: {key}\n\nx\n".encode())
    assert [Path(m.ref).name for m in mailroom.new_mail()] == [
        "1699999999.M999999P1Q3.host", "1700000000.M5P1Q1.host", "1700000000.M123P1Q2.host"]
    assert mailroom.new_mail() == []  # each mail is read once
