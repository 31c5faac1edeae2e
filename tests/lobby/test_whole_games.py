"""Three players who never touch the CLI find each other in the lobby and play a whole game of
each game by real mail (pymap IMAP in, aiosmtpd SMTP out), on every database under test: one
opens a table, the others join (the third of a two-seat game gets a table of its own), each
confirms by replying to the join mail; the full table starts, and bots play it to its end."""

from __future__ import annotations

import contextlib
import dataclasses
import re
from email.message import EmailMessage
from email.utils import make_msgid
from typing import Any

import pytest

from pbem.engine import registry
from pbem.mail.inbound import ImapInbox
from pbem.mail.outbound import SmtpSender
from pbem.ops import api
from pbem.ops.bots import Mail, play_out
from pbem.settings.config import Lobby
from pbem.store import SessionFactory
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
        msg["To"] = HOST.from_address
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
        name: str, factory: SessionFactory, imap_server: Any, smtp_server: Any) -> None:
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
        if seats == 2:  # the third of a two-seat game: matchmaking opens a new table
            assert "No table of Das Riff had a free seat" in " ".join(others[-1].last().text
                                                                    .split())
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
        # is played by bots through the same mail servers.
        played = play_out(factory, table, inbox, sender, room, LOBBY_HOST, seed="lobby")
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
