"""Fixtures for the pipeline: a migrated database, the test game registered, a seated table."""

from __future__ import annotations

import email
from collections.abc import Iterator
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage

import pytest
from sqlmodel import col, select

from pbem.engine import registry
from pbem.settings.config import MailConfig
from pbem.settings.host import Host
from pbem.store import OutboundMessage, SessionFactory
from tests.support.testgame import GAME

try:  # the pipeline needs pbem.mail; until it exists these tests cannot run at all
    from pbem.ops import api
except ImportError:  # pragma: no cover
    collect_ignore_glob = ["test_*.py"]

ALICE = "alice@players.test"
BOB = "bob@players.test"


@pytest.fixture(autouse=True)
def testcards() -> Iterator[None]:
    registry.register(GAME)
    yield
    registry.unregister(GAME.name)


@pytest.fixture
def host() -> Host:
    return Host(mail=MailConfig(from_address="games@host.test", from_name="Test Host"))


@dataclass
class Table:
    game_id: int
    tag: str
    secrets: list[str]


@pytest.fixture
def table(factory: SessionFactory, host: Host) -> Table:
    with factory() as s:
        game, secrets = api.create_game(s, "testcards", [("Alice", ALICE), ("Bob", BOB)],
                                        seed="fixed-seed")
        s.commit()
        assert game.id is not None
        return Table(game.id, game.tag, secrets)


def hand(factory: SessionFactory, table: Table, seat: int) -> list[int]:
    with factory() as s:
        state = api.current_state(s, api.get_game(s, table.game_id))
        return sorted(state.hands[seat])


def queued_mails(factory: SessionFactory) -> list[tuple[str, EmailMessage]]:
    """(to, parsed mail) of every queued outbound mail, oldest first."""
    with factory() as s:
        rows = s.exec(select(OutboundMessage).order_by(col(OutboundMessage.id))).all()
        out = []
        for r in rows:
            msg = email.message_from_bytes(r.raw, policy=policy.default)
            assert isinstance(msg, EmailMessage)
            out.append((r.to_addr, msg))
        return out


def plain_text(msg: EmailMessage) -> str:
    body = msg.get_body(("plain",))
    assert body is not None
    return str(body.get_content())


def queued(factory: SessionFactory) -> list[tuple[str, str]]:
    """(to, plain text) of every queued outbound mail, oldest first."""
    return [(to, plain_text(msg)) for to, msg in queued_mails(factory)]
