"""Through real mail (the IMAP and SMTP test servers) on SQLite and PostgreSQL: a stranger
watches a whole game of each game, from the confirmation to the end. Every mail it gets is
the spectators' view (no seat's screen, nothing to reply with); the last says the game ended
and is the spectators' view of the end, as ``pbem game show`` renders it; the watch is gone.
That no hidden holding reaches a watcher is proven move by move by the leak twins
(tests/games/suite/test_leaks.py)."""

from __future__ import annotations

import contextlib
import dataclasses
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
from pbem.settings.config import Watch as WatchSettings
from pbem.store import SessionFactory
from pbem.store.tables import Watch
from tests.support.botmail import ServerMailroom
from tests.support.seated import HOST, PLAYERS

pytestmark = pytest.mark.slow

WATCHING_HOST = dataclasses.replace(HOST, watch=WatchSettings(open="anyone"),
                                    key=bytes(range(32)))
GAMES = ["reef-encounter", "reef-2018", "das-riff"]
STRANGER = "stranger@elsewhere.test"


def stranger_writes(room: ServerMailroom, body: str, subject: str) -> None:
    msg = EmailMessage()
    msg["From"] = f"Sam <{STRANGER}>"
    msg["To"] = HOST.mail.from_address
    msg["Subject"] = subject
    msg["Message-ID"] = make_msgid(domain="elsewhere.test")
    msg.set_content(body + "\n")
    room.post(bytes(msg))


class Mailroom(ServerMailroom):
    """The servers' mailroom, handing the bots the players' mail the test read first."""

    def __init__(self, smtp: Any, imap: Any) -> None:
        super().__init__(smtp, imap)
        self.held: list[Mail] = []

    def stranger_mail(self) -> list[Mail]:
        got = super().new_mail()
        self.held += [m for m in got if m.to_addr != STRANGER]
        return [m for m in got if m.to_addr == STRANGER]

    def new_mail(self) -> list[Mail]:
        got, self.held = [*self.held, *super().new_mail()], []
        return got


def plain(mail: Mail) -> str:
    return mail.text


@pytest.mark.timeout(900)
@pytest.mark.parametrize("name", GAMES)
def test_a_stranger_watches_a_whole_game_by_mail(
        name: str, factory: SessionFactory, imap_server: Any, smtp_server: Any) -> None:
    rules = registry.get(name)
    with factory() as s:
        game, _ = api.create_game(s, name, PLAYERS[:rules.min_players], seed="watched",
                                  host=WATCHING_HOST)
        s.commit()
        tag = game.tag
    room = Mailroom(smtp_server, imap_server)
    inbox = ImapInbox(imap_server.settings)
    sender = SmtpSender(smtp_server.settings)

    def run() -> list[Mail]:
        with contextlib.closing(ImapInbox(imap_server.settings)) as fresh:
            api.process_inbox(factory, fresh, sender, WATCHING_HOST)
        return room.stranger_mail()

    try:
        stranger_writes(room, f"watch {tag}", "a game to watch")
        (asked,) = run()
        subject = str(asked.message["Subject"])
        assert subject.startswith(f"[{tag}] Watch this game? code "), subject
        stranger_writes(room, "> quoted", f"Re: {subject}")
        (confirmed,) = run()
        assert str(confirmed.message["Subject"]) == f"[{tag}] You watch this game"
        # Everything from here on (the welcome mails first) is played by bots through the
        # same servers; the watcher's mail rides along.
        played = play_out(factory, tag, inbox, sender, room, WATCHING_HOST, seed="watched")
    finally:
        inbox.close()
    watched = [m for m in played.mails if m.to_addr == STRANGER]
    assert len(watched) >= 2
    for mail in watched:
        text = " ".join(plain(mail).split())
        assert "— spectators" in text.split(".")[0] or "— spectators" in text[:200]
        assert "secret" not in text.lower()  # no word on replying with orders: no seat's
        assert "It is your turn" not in text
    for mail in watched[:-1]:
        assert mail.message["List-Unsubscribe"] is not None
        assert "You watch this game as a spectator" in " ".join(plain(mail).split())
    last = watched[-1]
    assert str(last.message["Subject"]).startswith(f"[{tag}] Game over")
    assert "The game has ended, so you no longer watch it." in plain(last)
    with factory() as s:
        shown, _ = api.show_game(s, api.get_game(s, tag), None)
        assert s.exec(select(Watch)).all() == []
    # The end as the spectators see it: every line of `pbem game show`'s view is in it.
    missing = set(shown.splitlines()) - set(plain(last).splitlines())
    assert not missing, missing
