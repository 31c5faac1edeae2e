"""The lobby through `pbem serve` as a real process on real servers: two players who never
touch the CLI open and join a table by mail, confirm their seats, and play the game it starts
to its end, every mail answered by the running service."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import pytest

from pbem.engine import registry
from pbem.engine.contract import localise_order
from pbem.ops import api
from pbem.ops.bots import Bot, Mail
from pbem.store import init, session_factory
from tests.service.test_serve import eventually, write_config
from tests.support.mailservers import PymapServer, SmtpTestServer
from tests.support.testgame import GAME

pytestmark = pytest.mark.slow
ANN, BEN = "ann@players.test", "ben@players.test"
CODE = re.compile(r"[A-Z2-9]{4}-[A-Z2-9]{4}")


@pytest.fixture
def serving(tmp_path: Path, imap_server: PymapServer, smtp_server: SmtpTestServer
            ) -> Iterator[subprocess.Popen[str]]:
    config = write_config(tmp_path, imap_server, smtp_server)
    config.write_text(config.read_text() + "[lobby]\nenabled = true\n")
    env = {**os.environ, "TEST_IMAP_PASSWORD": imap_server.password,
           "TEST_SMTP_PASSWORD": smtp_server.password or "", "PBEM_CONFIG": str(config)}
    subprocess.run([sys.executable, "-m", "tests.service.cli_with_testgame", "init"], env=env,
                   check=True, capture_output=True)
    proc = subprocess.Popen([sys.executable, "-m", "tests.service.cli_with_testgame", "serve",
                             "--interval", "300"], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    registry.register(GAME)
    yield proc
    registry.unregister(GAME.name)
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()


def write(imap: PymapServer, frm: str, body: str, subject: str = "a game") -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = frm, "games@host.test", subject
    msg["Message-ID"] = make_msgid(domain="players.test")
    msg.set_content(body + "\n")
    imap.deliver(bytes(msg))


def test_serve_runs_the_lobby_and_the_game_it_starts(
        serving: subprocess.Popen[str], imap_server: PymapServer,
        smtp_server: SmtpTestServer, tmp_path: Path) -> None:
    def sent() -> list[bytes]:  # a copy of what the SMTP server has received so far
        return list(smtp_server.messages)

    def answered(count: int, what: str) -> list[Mail]:
        try:
            eventually(lambda: len(sent()) >= count, timeout=120, what=what)
        except AssertionError:
            serving.terminate()
            assert serving.stdout is not None
            raise AssertionError(f"{what}: serve said {serving.stdout.read()}") from None
        return [Mail(f"#{i}", raw) for i, raw in enumerate(sent())]

    write(imap_server, f"Ann <{ANN}>", "new testcards players 2")
    opened = answered(1, "Ann's join mail")[0]
    subject = str(opened.message["Subject"])
    assert opened.to_addr == ANN and "Confirm your seat at Test Cards" in subject
    tag = subject[1:subject.index("]")]
    write(imap_server, f"Ben <{BEN}>", f"join {tag}")
    joined = answered(2, "Ben's join mail")[1]
    write(imap_server, f"Ann <{ANN}>", "yes", subject=f"Re: {subject}")
    assert answered(3, "Ann's confirmation")[2].message["Subject"] == (
        f"[{tag}] Your seat is confirmed")
    code = CODE.search(str(joined.message["Subject"]))
    assert code is not None
    write(imap_server, f"Ben <{BEN}>", f"confirm {code.group(0)}")
    welcomes = answered(5, "the welcome mails")[3:]
    assert sorted(m.to_addr for m in welcomes) == [ANN, BEN]

    factory = session_factory(init(f"sqlite:///{tmp_path / 'pbem.sqlite'}"))
    rules = registry.get("testcards")
    bots = {a: Bot(i, n, a, random.Random(f"serve/{i}")) for i, (n, a) in
            enumerate([("Ann", ANN), ("Ben", BEN)])}
    for mail in welcomes:
        bots[mail.to_addr].read(mail)
    read = len(sent())

    def read_new() -> bool:
        nonlocal read
        mails = [Mail(f"#{i}", raw) for i, raw in enumerate(sent())]
        for mail in mails[read:]:
            bots[mail.to_addr].read(mail)
        read = len(mails)
        return True

    for _ in range(400):
        with factory() as s:
            state = api.current_state(s, api.get_game(s, tag))
        if rules.outcome(state) is not None:
            break
        for seat in sorted(rules.waiting_for(state)):
            bot = next(b for b in bots.values() if b.seat == seat)
            if bot.unanswered:  # a mail came since it last wrote: its orders
                order = localise_order(rules, rules.random_order(state, seat, bot.rng), "en")
                imap_server.deliver(bytes(bot.reply(order.splitlines())))
                bot.unanswered = False
        answered(read + 1, "the move's mails")
        read_new()
    else:
        raise AssertionError("the game did not end in 400 rounds")
    eventually(lambda: read_new() and all(
        any("Game over" in str(m.message["Subject"]) and "The game is over." in m.text
            for m in b.received) for b in bots.values()),
               timeout=120, what="the final mails")
    assert serving.poll() is None
