"""A Das Riff game seated in a real database, for tests that go through the processor.

``Table.put`` replaces the current position with a crafted one (the snapshot the pipeline reads
next), so a test can set up exactly the reef a bad order needs; ``Table.send`` posts one email
through the whole pipeline and returns the plain text of the reply to the sender.
"""

from __future__ import annotations

import email
import json
from collections.abc import Callable
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from email.utils import make_msgid
from typing import Any

from sqlmodel import col, select

from pbem.engine.hashing import canonical_json
from pbem.games.riff import GAME
from pbem.games.riff.state import State
from pbem.processor import api
from pbem.processor.host import Host
from pbem.processor.pipeline import Result, process_raw
from pbem.store import SessionFactory, queries
from pbem.store.tables import OutboundMessage, Snapshot

HOST = Host(from_address="games@host.test", from_name="Test Host")
ANN, BEN = "ann@players.test", "ben@players.test"
PLAYERS = [("Ann", ANN), ("Ben", BEN)]


@dataclass
class Table:
    factory: SessionFactory
    game_id: int
    tag: str
    secrets: list[str]

    def state(self) -> State:
        with self.factory() as s:
            result: State = api.current_state(s, api.get_game(s, self.game_id))
            return result

    def put(self, state: State) -> None:
        """Make ``state`` the position the next order is played against."""
        with self.factory() as s:
            snap = queries.latest_snapshot(s, self.game_id)
            snap.state_json = canonical_json(GAME.to_json(state))
            s.add(snap)
            s.commit()

    def send(self, seat: int, body: str, *, secret: str | None = None) -> tuple[Result, str]:
        """One email from ``seat`` (orders then its secret); the result and the reply's text."""
        msg = EmailMessage()
        msg["From"] = PLAYERS[seat][1]
        msg["To"] = HOST.from_address
        msg["Subject"] = f"Re: [{self.tag}] Das Riff"
        msg["Message-ID"] = make_msgid(domain="players.test")
        msg.set_content(f"{body}\nsecret {secret or self.secrets[seat]}\n")
        result = process_raw(self.factory, bytes(msg), HOST)
        return result, self.reply_text(result)

    def bodies(self, result: Result) -> dict[str, tuple[str, str]]:
        """Each queued mail's (plain text, HTML) by recipient."""
        out = {}
        with self.factory() as s:
            for q in result.queued:
                row = s.get(OutboundMessage, q)
                assert row is not None
                parsed = email.message_from_bytes(row.raw, policy=policy.default)
                assert isinstance(parsed, EmailMessage)
                text, html = ("" if p is None else str(p.get_content())
                              for p in (parsed.get_body(("plain",)), parsed.get_body(("html",))))
                out[row.to_addr] = (text, html)
        return out

    def reply_text(self, result: Result) -> str:
        with self.factory() as s:
            texts = []
            for q in result.queued:
                row = s.get(OutboundMessage, q)
                assert row is not None
                parsed = email.message_from_bytes(row.raw, policy=policy.default)
                assert isinstance(parsed, EmailMessage)
                if parsed["In-Reply-To"]:
                    part = parsed.get_body(("plain",))
                    assert part is not None
                    texts.append(str(part.get_content()))
            return "\n".join(texts)

    def snapshots(self) -> int:
        with self.factory() as s:
            return len(s.exec(select(Snapshot).where(Snapshot.game_id == self.game_id)
                              .order_by(col(Snapshot.id))).all())


def seat_table(factory: SessionFactory, position: Callable[[], State] | None = None,
               options: dict[str, Any] | None = None, seed: str = "table") -> Table:
    """Ann and Ben at a new game (no welcome mail), at ``position`` if given."""
    with factory() as s:
        game, secrets = api.create_game(s, "riff", PLAYERS[:2], options, seed=seed)
        s.commit()
        assert game.id is not None
        table = Table(factory, game.id, game.tag, secrets)
    if position is not None:
        table.put(position())
    return table


def state_json(state: State) -> str:
    return json.dumps(GAME.to_json(state), sort_keys=True)
