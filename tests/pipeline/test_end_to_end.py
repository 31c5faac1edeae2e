"""A whole short game on real servers: orders arrive by IMAP (pymap), replies are read back
from the SMTP server (aiosmtpd), then the log replays to the same state."""

from __future__ import annotations

import email
import re
from email import policy
from email.message import EmailMessage
from typing import Any

import pytest

from pbem.ops import api
from pbem.settings.config import MailConfig
from pbem.settings.host import Host
from pbem.store import SessionFactory
from tests.pipeline.conftest import ALICE, BOB
from tests.support.playermail import mail

pytestmark = pytest.mark.slow


def servers(request: pytest.FixtureRequest) -> tuple[Any, Any]:
    try:
        return request.getfixturevalue("imap_server"), request.getfixturevalue("smtp_server")
    except pytest.FixtureLookupError:
        pytest.skip("the mail test servers (tests/support/mailservers.py) are not there yet")


def as_message(item: Any) -> EmailMessage:
    raw = item if isinstance(item, bytes | EmailMessage) else getattr(item, "raw", item)
    if isinstance(raw, EmailMessage):
        return raw
    msg = email.message_from_bytes(raw, policy=policy.default)
    assert isinstance(msg, EmailMessage)
    return msg


def text_of(msg: EmailMessage) -> str:
    body = msg.get_body(("plain",))
    assert body is not None
    return str(body.get_content())


def latest_to(smtp: Any, address: str) -> str:
    for item in reversed(list(smtp.messages)):
        msg = as_message(item)
        if address in str(msg["To"]):
            return text_of(msg)
    raise AssertionError(f"no mail to {address}")


def test_whole_game_over_imap_and_smtp(request: pytest.FixtureRequest,
                                       factory: SessionFactory) -> None:
    imap, smtp = servers(request)
    from pbem.mail.inbound import ImapInbox
    from pbem.mail.outbound import SmtpSender

    host = Host(mail=MailConfig(from_address="games@host.test"))
    with factory() as s:
        game, _ = api.create_game(s, "testcards", [("Alice", ALICE), ("Bob", BOB)], host=host)
        s.commit()
        tag = game.tag
    api.deliver_outbox(factory, SmtpSender(smtp.settings), host)
    secrets = {}
    for who in (ALICE, BOB):
        found = re.search(r"Your secret is: (\S+)", latest_to(smtp, who))
        assert found is not None
        secrets[who] = found.group(1)

    for _ in range(2):
        for who in (ALICE, BOB):
            hand = re.search(r"Your hand: ([\d, ]+)", latest_to(smtp, who))
            assert hand is not None
            card = hand.group(1).split(",")[0].strip()
            imap.deliver(mail(who, f"Re: [{tag}] Test Cards",
                              f"play {card}\nsecret {secrets[who]}"))
            done = api.process_inbox(factory, ImapInbox(imap.settings),
                                     SmtpSender(smtp.settings), host)
            assert [r.status for r in done.results] == ["applied"]
            assert done.delivery.sent == 2
            assert f"Done. Your orders were played:\n> play {card}" in latest_to(smtp, who)

    for who in (ALICE, BOB):
        assert "The game is over." in latest_to(smtp, who)
    with factory() as s:
        report = api.replay_game(s, api.get_game(s, tag))
    assert report.entries == 4
