"""A seated player on the host the guide set up: runs there, with pbem's own venv Python.

    guide_player.py play ADDRESS...     (as root: reads the players' mailboxes, sends by SMTP)
    guide_player.py seats TAG           (as the pbem user: who is waiting, and a legal order)

``play`` waits for each player's welcome mail in ``/var/mail/<user>`` (Postfix's local
delivery), asks the pbem user for the seat the game waits for and one legal order of it (the
game's ``random_order``, as pbem's own bots play), replies to the welcome mail with that order
and the seat's secret through Postfix on 127.0.0.1:25, and waits for the host's answer in the
same mailbox. It passes when the answer is a reply to the order and the move log grew by one.
Nothing here names a game.
"""

from __future__ import annotations

import json
import mailbox
import os
import random
import smtplib
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from pbem.ops.bots import TAG_RE, Bot, Mail

WAIT = 180.0
T = TypeVar("T")
AS_PBEM = ["runuser", "-u", "pbem", "--", "env", "PBEM_CONFIG=/etc/pbem/config.toml"]


def seats(tag: str) -> None:
    """Print, as JSON, the moves so far and each seat: address, language, and if the game
    waits for it, a legal order in the seat's language."""
    from pbem.engine import registry
    from pbem.engine.contract import localise_order
    from pbem.ops import api
    from pbem.ops.services import start
    from pbem.settings.config import load
    from pbem.store import queries

    start()  # the services `pbem` sets up before any command
    with api.connect(load(Path(os.environ["PBEM_CONFIG"])).database_url)() as s:
        game = api.get_game(s, tag)
        rules = registry.get(game.game_type)
        state = api.current_state(s, game)
        waiting = rules.waiting_for(state)
        out = {"moves": len(api.game_log(s, game)), "seats": [
            {"index": seat.index, "name": seat.name, "address": seat.address,
             "lang": seat.language,
             "order": localise_order(rules, rules.random_order(
                 state, seat.index, random.Random(f"guide/{seat.index}")), seat.language)
             if seat.index in waiting else None}
            for seat in queries.seats(s, game.id or 0)]}
    print(json.dumps(out))


def mails(address: str) -> list[Mail]:
    path = Path("/var/mail") / address.partition("@")[0]
    if not path.exists():
        return []
    box = mailbox.mbox(path, create=False)
    return [Mail(f"{path}#{key}", box.get_bytes(key)) for key in box.iterkeys()]


def wait_for(what: str, probe: Callable[[], T | None]) -> T:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        got = probe()
        if got:
            return got
        time.sleep(0.2)
    raise SystemExit(f"guide player: timed out waiting for {what}")


def ask(tag: str) -> dict[str, Any]:
    done = subprocess.run([*AS_PBEM, sys.executable, __file__, "seats", tag],
                          capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"guide player: asking the seats failed:\n{done.stderr}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def tagged(address: str) -> list[Mail] | None:
    return [m for m in mails(address) if TAG_RE.search(str(m.message["Subject"]))] or None


def play(addresses: list[str]) -> None:
    welcomes = {a: wait_for(f"the welcome mail to {a}", partial(tagged, a)) for a in addresses}
    first = welcomes[addresses[0]][0]
    found = TAG_RE.search(str(first.message["Subject"]))
    assert found is not None
    tag = found.group(1)
    before = ask(tag)
    seat = next(s for s in before["seats"] if s["order"])
    bot = Bot(seat["index"], seat["name"], seat["address"], random.Random(0), seat["lang"])
    for mail in welcomes[seat["address"]]:
        bot.read(mail)
    msg = bot.reply(seat["order"].splitlines(), domain="players.test")
    seen = len(mails(bot.address))
    start = time.monotonic()
    with smtplib.SMTP("127.0.0.1", 25, timeout=30) as smtp:
        smtp.send_message(msg)
    sent_id = str(msg["Message-ID"])
    reply = wait_for("the host's reply to the order", lambda: next(
        (m for m in mails(bot.address)[seen:] if str(m.message["In-Reply-To"]) == sent_id),
        None))
    took = time.monotonic() - start
    after = ask(tag)
    print(f"guide player: {bot.address} ordered {seat['order']!r} in [{tag}]; reply after "
          f"{took:.1f} s:\n{reply.text.strip()[:600]}")
    if after["moves"] != before["moves"] + 1:
        raise SystemExit(f"guide player: the move log went from {before['moves']} to "
                         f"{after['moves']} moves, not one more")


if __name__ == "__main__":
    if sys.argv[1] == "seats":
        seats(sys.argv[2])
    else:
        play(sys.argv[2:])
