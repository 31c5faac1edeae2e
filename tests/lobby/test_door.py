"""The lobby as the host's front door, tried as an attacker would, through real mail (pymap
IMAP in, aiosmtpd SMTP out) on every database under test: a forged "never" silences no
player, forged tables and joins shut no one out, a forged join does not change a waiting
player's code, and no lobby code stays in clear once its mail is sent."""

from __future__ import annotations

import contextlib
import dataclasses
import re
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import select
from typer.testing import CliRunner

from pbem.cli import app
from pbem.mail.inbound import ImapInbox
from pbem.mail.outbound import SmtpSender
from pbem.ops import api
from pbem.settings.config import Lobby
from pbem.settings.host import Host
from pbem.store import OutboundMessage, SessionFactory
from pbem.store.tables import LobbySeat, LobbyTable, NeverMail
from tests.lobby.conftest import ANN, BEN, text
from tests.support.db import every_stored_byte
from tests.support.hostpost import parsed

CODE = re.compile(r"[A-Z2-9]{4}-[A-Z2-9]{4}")  # the shape of every lobby code


class Door:
    """People at mail clients and the host's passes, over the real servers."""

    def __init__(self, factory: SessionFactory, host: Host, imap: Any, smtp: Any) -> None:
        self.factory, self.host, self.imap, self.smtp = factory, host, imap, smtp
        self.read = 0

    def write(self, frm: str, body: str, subject: str = "a game") -> None:
        msg = EmailMessage()
        msg["From"] = frm
        msg["To"] = self.host.mail.from_address
        msg["Subject"] = subject
        msg["Message-ID"] = make_msgid(domain="players.test")
        msg.set_content(body + "\n")
        self.imap.deliver(bytes(msg))

    def run(self) -> list[EmailMessage]:
        """One pass of the host (as many as the inbox needs); the mails it sent."""
        with contextlib.closing(ImapInbox(self.imap.settings)) as inbox:
            while api.process_inbox(self.factory, inbox, SmtpSender(self.smtp.settings),
                                    self.host, limit=500).results:
                pass
        got = self.smtp.messages[self.read:]
        self.read = len(self.smtp.messages)
        return [parsed(raw) for raw in got]


def to(mails: list[EmailMessage], address: str) -> list[EmailMessage]:
    return [m for m in mails if address in str(m["To"])]


@pytest.fixture
def door(factory: SessionFactory, host: Host, imap_server: Any, smtp_server: Any) -> Door:
    return Door(factory, host, imap_server, smtp_server)


def test_a_forged_never_from_a_seated_address_silences_no_one(door: Door) -> None:
    """Ann plays a game the operator set up; someone writes "never" with her From line, and
    with the operator's: both are told what they can do instead, nothing is marked, and Ann
    still gets her status when she asks for it."""
    with door.factory() as s:
        game, secrets = api.create_game(s, "testcards", [("Ann", ANN), ("Ben", BEN)],
                                        host=door.host)
        s.commit()
    assert len(door.run()) == 2  # the welcome mails
    door.write(f"Ann <{ANN}>", "never")
    door.write(door.host.mail.operator_address or "", "never")
    sent = door.run()
    (answer,) = to(sent, ANN)
    assert answer["Subject"] == "This address still gets the host's mail"
    body = " ".join(text(answer).split())
    assert f"This address plays in [{game.tag}]" in body
    assert 'reply to one of your game\'s mails with the line "mail digest"' in body
    assert 'reply with the line "resign" and your secret' in body
    (operator,) = to(sent, "op@host.test")
    assert "change operator_address in the host's config" in " ".join(text(operator).split())
    with door.factory() as s:
        assert s.exec(select(NeverMail)).all() == []
    door.write(ANN, f"status\nsecret {secrets[0]}", subject=f"Re: [{game.tag}] Test Cards")
    (status,) = to(door.run(), ANN)
    assert str(status["Subject"]).startswith(f"[{game.tag}]")


def test_never_needs_proof_and_the_operator_lifts_it(door: Door, tmp_path: Path,
                                                     db_url: str) -> None:
    """A plain "never" only asks; the mail client's List-Unsubscribe answer (the code in its
    subject) marks the address; `pbem player show` shows it, `pbem player mail-again` lifts
    it."""
    cy = "cy@elsewhere.test"
    door.write(cy, "never")
    (asked,) = to(door.run(), cy)
    unsubscribe = str(asked["List-Unsubscribe"])
    found = re.fullmatch(r"<mailto:games@host\.test\?subject=never%20([A-Z2-9]{4}-[A-Z2-9]{4})>",
                         unsubscribe)
    assert found is not None, unsubscribe
    assert found.group(1) in str(asked["Subject"])
    assert asked["List-Unsubscribe-Post"] is None
    with door.factory() as s:
        assert s.exec(select(NeverMail)).all() == []  # asked, not yet marked
    door.write(cy, "", subject=f"never {found.group(1)}")  # what the mail client sends
    assert door.run() == []
    door.write(cy, "games")
    assert door.run() == []
    with door.factory() as s:
        assert len(s.exec(select(NeverMail)).all()) == 1
    out = cli(tmp_path, db_url, "player", "show", cy)
    assert "never:     since " in out and "pbem player mail-again" in out
    assert cli(tmp_path, db_url, "player", "mail-again", cy).strip() == f"{cy} gets mail again"
    assert "never:" not in cli(tmp_path, db_url, "player", "show", cy, code=1)
    again = cli(tmp_path, db_url, "player", "mail-again", cy, code=1)
    assert f"error: {cy} has no never mark: the host mails it already" in again
    assert f"fix: `pbem player show {cy}` shows the mark" in again
    door.write(cy, "games")
    assert len(to(door.run(), cy)) == 1


@pytest.mark.slow  # 361 mails through IMAP, the pipeline and SMTP: about a minute on 2 cores
def test_forged_tables_and_joins_shut_no_newcomer_out(door: Door) -> None:
    """60 tables opened by 20 forged addresses and 300 forged joins: the seats they hold keep
    no one out, spend no cap of the host's (here 50 tables a day, fewer than the forged
    ones), and the answers to them come from their own domains' budgets: a newcomer's "new"
    opens a table and is answered."""
    door.host = dataclasses.replace(door.host, lobby=Lobby(enabled=True, tables_per_day=50))
    for i in range(20):  # 5 addresses at each of 4 domains, 3 tables each
        for _ in range(3):
            door.write(f"squat{i}@forged{i % 4}.test", "new testcards players 4")
    for i in range(300):  # 30 addresses at each of 10 domains
        door.write(f"joiner{i}@joins{i % 10}.test", "join testcards")
    forged = door.run()
    with door.factory() as s:
        assert len(s.exec(select(LobbyTable)).all()) == 60
        assert len(s.exec(select(LobbySeat)).all()) == 60 + 300
    # Each domain's answers are bounded: at most [lobby] replies_per_domain_per_hour (30).
    domains = [str(m["To"]).rpartition("@")[2] for m in forged]
    assert max(domains.count(d) for d in set(domains)) <= 30
    door.write("newcomer@real.test", "new testcards players 2")
    (answer,) = to(door.run(), "newcomer@real.test")
    assert "You opened table [testcards-t61]" in text(answer)
    code = CODE.search(str(answer["Subject"]))
    assert code is not None
    # And a forged table takes a real player: the first confirmation wins a seat.
    door.write("dora@real.test", "join testcards-t1")
    (seat,) = to(door.run(), "dora@real.test")
    door.write("dora@real.test", "yes", subject=f"Re: {seat['Subject']}")
    (confirmed,) = to(door.run(), "dora@real.test")
    assert confirmed["Subject"] == "[testcards-t1] Your seat is confirmed"


def test_a_forged_join_does_not_change_a_waiting_players_code(door: Door) -> None:
    door.write(ANN, "new testcards players 3")
    door.run()
    door.write(BEN, "join testcards-t1")
    (joined,) = to(door.run(), BEN)
    first = CODE.search(str(joined["Subject"]))
    assert first is not None
    for _ in range(5):  # someone writes Ben's From line, again and again
        door.write(BEN, "join testcards-t1")
    later = to(door.run(), BEN)
    assert later  # answered within the limits, never with another code
    assert {c for m in later for c in CODE.findall(f"{m['Subject']} {text(m)}")} <= {
        first.group(0)}
    door.write(BEN, "yes", subject=f"Re: {joined['Subject']}")
    (confirmed,) = to(door.run(), BEN)
    assert confirmed["Subject"] == "[testcards-t1] Your seat is confirmed"


def test_no_lobby_code_stays_in_clear_once_sent(door: Door, tmp_path: Path,
                                                db_url: str) -> None:
    """Join mails, a confirmation, an invitation (its List-Unsubscribe), the mail that asks
    before a never: every code the servers carried, none in any stored row, no stored
    subject in the lobby's code shape, none in `pbem outbox list`."""
    door.write(ANN, "new testcards players 3")
    (opened,) = to(door.run(), ANN)
    door.write(ANN, "yes", subject=f"Re: {opened['Subject']}")
    door.write(BEN, "join testcards-t1")
    door.write("cy@elsewhere.test", "never")
    door.run()
    door.write(ANN, "invite dora@elsewhere.test", subject=f"Re: {opened['Subject']}")
    door.run()
    with door.factory() as s:
        subjects = list(s.exec(select(OutboundMessage.subject)))
    assert [x for x in subjects if CODE.search(x)] == []
    assert len(subjects) == 6
    carried = {c for raw in door.smtp.messages for c in CODE.findall(raw.decode())}
    # Ann's and Ben's seat codes, and the never codes of all four (List-Unsubscribe).
    assert len(carried) == 6
    stored = every_stored_byte(door.factory)
    assert [c for c in carried if c.encode() in stored] == []
    listed = cli(tmp_path, db_url, "outbox", "list")
    assert "Confirm your seat" in listed and not CODE.search(listed)


def cli(tmp_path: Path, db_url: str, *args: str, code: int = 0) -> str:
    """A `pbem` command on the test's database, as the operator runs it."""
    config = tmp_path / "pbem.toml"
    config.write_text(f'data_dir = "{tmp_path}"\n[database]\nurl = "{db_url}"\n'
                      '[mail]\nfrom_address = "games@host.test"\n')
    from pbem import cli as pbem_cli

    pbem_cli.console.width = 250  # one line per row
    try:
        result = CliRunner().invoke(app, ["--config", str(config), *args])
    finally:
        pbem_cli.console._width = None
    assert result.exit_code == code, result.output
    return result.output
