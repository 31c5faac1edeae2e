"""Three players who never touch the CLI find each other in the lobby and play a whole game of
each game by real mail (pymap IMAP in, aiosmtpd SMTP out), on every database under test: one
opens a table, the others join (the third of a two-seat game gets a table of its own), each
confirms by replying to the join mail; the full table starts, and bots play it to its end by
replying to their mail, with no secret typed."""

from __future__ import annotations

import contextlib
import dataclasses
import re
from email.message import EmailMessage
from email.utils import make_msgid
from typing import Any

import pytest
from sqlmodel import select

from pbem.engine import registry
from pbem.mail.inbound import ImapInbox
from pbem.mail.outbound import SmtpSender
from pbem.ops import api
from pbem.ops.bots import Mail, play_out
from pbem.settings.config import Lobby
from pbem.store import LogEntry, SessionFactory
from tests.support.botmail import ServerMailroom
from tests.support.seated import HOST, PLAYERS

pytestmark = pytest.mark.slow

LOBBY_HOST = dataclasses.replace(HOST, lobby=Lobby(enabled=True))
GAMES = ["reef-encounter", "reef-2018", "das-riff"]
CODE = re.compile(r"[A-Z2-9]{4}-[A-Z2-9]{4}")


class Lobbyist:
    """A person at a mail client: writes to the host, reads what comes back."""

    def __init__(self, name: str, address: str, room: ServerMailroom) -> None:
        self.name, self.address, self.room = name, address, room
        self.inbox: list[Mail] = []

    def write(self, body: str, subject: str = "a game") -> None:
        msg = EmailMessage()
        msg["From"] = f"{self.name} <{self.address}>"
        msg["To"] = HOST.mail.from_address
        msg["Subject"] = subject
        msg["Message-ID"] = make_msgid(domain="players.test")
        msg.set_content(body + "\n")
        self.room.post(bytes(msg))

    def last(self) -> Mail:
        return self.inbox[-1]


def deliver(room: ServerMailroom, people: list[Lobbyist]) -> None:
    by_address = {p.address: p for p in people}
    for mail in room.new_mail():
        by_address[mail.to_addr].inbox.append(mail)


@pytest.mark.timeout(900)
@pytest.mark.parametrize("name", GAMES)
def test_three_players_find_each_other_and_play_a_whole_game_by_mail(
        name: str, db_url: str, factory: SessionFactory, imap_server: Any,
        smtp_server: Any) -> None:
    if db_url.startswith("postgresql") and name != "reef-2018":
        # The lobby's SQL is the same whatever the game: one game covers PostgreSQL, and
        # CI's time goes to the games on SQLite.
        pytest.skip("one game covers the lobby on PostgreSQL")
    rules = registry.get(name)
    seats = min(3, rules.max_players)
    room = ServerMailroom(smtp_server, imap_server)
    inbox = ImapInbox(imap_server.settings)
    sender = SmtpSender(smtp_server.settings)
    people = [Lobbyist(n, a, room) for n, a in PLAYERS[:3]]

    def run(read: bool = True) -> None:
        with contextlib.closing(ImapInbox(imap_server.settings)) as fresh:
            api.process_inbox(factory, fresh, sender, LOBBY_HOST)
        if read:
            deliver(room, people)

    try:
        ann, *others = people
        ann.write(f"new {name} players {seats}")
        run()
        subject = str(ann.last().message["Subject"])
        tag = re.match(r"\[(\S+)\] Confirm your seat", subject)
        assert tag is not None, subject
        table = tag.group(1)
        for person in others:
            person.write(f"join {table}" if person is not others[-1] or seats == 3
                         else f"join {name}")
        run()
        if seats == 2:  # the third of a two-seat game: a seat not yet confirmed holds no
            # place, so matchmaking seats the third at the same table, until the first
            # confirmations fill it (and give the seats still waiting back)
            assert f"You took a seat at [{table}]" in " ".join(others[-1].last().text.split())
        players = people[:seats]
        for person in players[:-1]:  # a reply to the join mail, its subject kept
            person.write("yes, count me in", subject=f"Re: {person.last().message['Subject']}")
        run()
        for person in players[:-1]:
            assert str(person.last().message["Subject"]).endswith("Your seat is confirmed")
        with factory() as s:
            assert api.list_games(s) == []  # one seat is not confirmed yet
        last = players[-1]
        code = CODE.search(str(last.last().message["Subject"]))
        assert code is not None
        last.write(f"confirm {code.group(0)}")
        run(read=False)
        # The welcome mails of the full table are the bots' first mail: the game from here on
        # is played by bots through the same mail servers, each only replying to its latest
        # mail: no secret typed after the welcome, the reply address proves the seat.
        played = play_out(factory, table, inbox, sender, room, LOBBY_HOST, seed="lobby",
                          type_secret=False)
    finally:
        inbox.close()
    assert played.tag == table
    assert sorted(s for group in played.outcome.ranking for s in group) == list(range(seats))
    for bot in played.bots:
        assert "The game is over" in bot.received[-1].text
    with factory() as s:
        game = api.get_game(s, table)
        assert api.replay_game(s, game).entries == played.turns
        assert [x.name for x in api.queries.seats(s, game.id or 0)] == [
            p.name for p in players]


@pytest.mark.timeout(900)
def test_one_player_opens_a_table_with_a_bot_by_mail_and_plays_it_to_the_end(
        factory: SessionFactory, imap_server: Any, smtp_server: Any) -> None:
    """Ann asks for a game against the computer, confirms by replying to her seat's mail, and
    the game starts at once (the bot seat needs no confirmation); she plays it by mail (her
    orders chosen by a mail bot), the host plays its bot seat, to the game's end."""
    room = ServerMailroom(smtp_server, imap_server)
    inbox = ImapInbox(imap_server.settings)
    sender = SmtpSender(smtp_server.settings)
    ann = Lobbyist(*PLAYERS[0], room)

    def run() -> None:
        with contextlib.closing(ImapInbox(imap_server.settings)) as fresh:
            api.process_inbox(factory, fresh, sender, LOBBY_HOST)

    try:
        ann.write("new reef-2018 players 2 bots 1")
        run()
        deliver(room, [ann])
        subject = str(ann.last().message["Subject"])
        assert re.match(r"\[reef2018-t1\] Confirm your seat at .*: code ", subject), subject
        assert "Its last 1 seats are played by the computer (normal)" in " ".join(
            ann.last().text.split())
        ann.write("yes, let's play", subject=f"Re: {subject}")
        run()  # her confirmation starts the game: its welcome mail is her bot's first mail
        played = play_out(factory, "reef2018-t1", inbox, sender, room, LOBBY_HOST,
                          seed="lobby-bot")
    finally:
        inbox.close()
    assert sorted(s for group in played.outcome.ranking for s in group) == [0, 1]
    (person,) = [bot for bot in played.bots if bot.address == PLAYERS[0][1]]
    assert "Your secret is:" in person.received[0].text
    assert "The game is over" in person.received[-1].text
    assert all(mail.to_addr == PLAYERS[0][1] for mail in played.mails)  # none for the bot
    with factory() as s:
        game = api.get_game(s, "reef2018-t1")
        bot_moves = len(s.exec(select(LogEntry).where(LogEntry.game_id == game.id,
                                                      LogEntry.kind == "bot")).all())
        assert bot_moves > 0
        # Every move replays: Ann's by mail and the host's bot's.
        assert api.replay_game(s, game).entries == played.turns + bot_moves
        assert [(x.name, x.address, x.controller) for x in api.queries.seats(
            s, game.id or 0)] == [("Ann", PLAYERS[0][1], "human"), ("Bot 2", "", "bot:normal")]
