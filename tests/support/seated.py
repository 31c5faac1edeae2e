"""Any game seated in a real database, for tests that go through the processor.

``Table.put`` replaces the current position with a crafted one (the snapshot the pipeline reads
next); ``Table.send`` posts one email through the whole pipeline and returns the result and the
plain text of the reply to the sender; ``Table.bodies`` every queued mail by recipient.
"""

from __future__ import annotations

import email
import json
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from email.utils import make_msgid
from typing import Any

from sqlmodel import col, select

from pbem.engine import registry
from pbem.engine.contract import localise_order
from pbem.engine.hashing import canonical_json
from pbem.ops import api
from pbem.pipeline.one_mail import Result, process_raw
from pbem.settings.config import MailConfig
from pbem.settings.host import Host
from pbem.store import SessionFactory, queries
from pbem.store.tables import OutboundMessage, Snapshot

HOST = Host(mail=MailConfig(from_address="games@host.test", from_name="Test Host"))
ANN, BEN, CY, DI = "ann@players.test", "ben@players.test", "cy@players.test", "di@players.test"
PLAYERS = [("Ann", ANN), ("Ben", BEN), ("Cy", CY), ("Di", DI)]


@dataclass
class Table:
    factory: SessionFactory
    game_name: str
    game_id: int
    tag: str
    secrets: list[str]

    @property
    def rules(self) -> Any:
        return registry.get(self.game_name)

    def state(self) -> Any:
        with self.factory() as s:
            return api.current_state(s, api.get_game(s, self.game_id))

    def put(self, state: Any) -> None:
        """Make ``state`` the position the next order is played against."""
        with self.factory() as s:
            snap = queries.latest_snapshot(s, self.game_id)
            snap.state_json = canonical_json(self.rules.to_json(state))
            s.add(snap)
            s.commit()

    def state_json(self) -> str:
        return json.dumps(self.rules.to_json(self.state()), sort_keys=True)

    def send(self, seat: int, body: str, *, secret: str | None = None,
             sender: str | None = None) -> tuple[Result, str]:
        """One email from ``seat`` (orders then its secret; from ``sender``, else the seat's
        player of PLAYERS); the result and the reply's text."""
        msg = EmailMessage()
        msg["From"] = sender or PLAYERS[seat][1]
        msg["To"] = HOST.mail.from_address
        msg["Subject"] = f"Re: [{self.tag}] {self.rules.title}"
        msg["Message-ID"] = make_msgid(domain="players.test")
        msg.set_content(f"{body}\nsecret {secret or self.secrets[seat]}\n")
        result = process_raw(self.factory, bytes(msg), HOST)
        return result, self.reply_text(result)

    def _parsed(self, result: Result) -> list[tuple[str, EmailMessage]]:
        out = []
        with self.factory() as s:
            for q in result.queued:
                row = s.get(OutboundMessage, q)
                assert row is not None
                parsed = email.message_from_bytes(row.raw, policy=policy.default)
                assert isinstance(parsed, EmailMessage)
                out.append((row.to_addr, parsed))
        return out

    def bodies(self, result: Result) -> dict[str, tuple[str, str]]:
        """Each queued mail's (plain text, HTML) by recipient, its reply address's token
        (one-tap links) written as ``<token>``: a credential of the seat, drawn from its
        secret, not from the game, so two twin tables' differ."""
        return {to: tuple("" if p is None else REPLY_TOKEN.sub(  # type: ignore[misc]
                              "+<token>@", str(p.get_content()))
                          for p in (m.get_body(("plain",)), m.get_body(("html",))))
                for to, m in self._parsed(result)}

    def reply_text(self, result: Result) -> str:
        texts = []
        for _, parsed in self._parsed(result):
            if parsed["In-Reply-To"]:
                part = parsed.get_body(("plain",))
                assert part is not None
                texts.append(str(part.get_content()))
        return "\n".join(texts)

    def snapshots(self) -> int:
        with self.factory() as s:
            return len(s.exec(select(Snapshot).where(Snapshot.game_id == self.game_id)
                              .order_by(col(Snapshot.id))).all())


# A reply address's token (pbem.pipeline.reply_tokens), as the one-tap links write it.
REPLY_TOKEN = re.compile(r"\+[a-z2-7]{31}@")


def seat_table(factory: SessionFactory, game_name: str, position: Callable[[], Any] | None = None,
               players: int = 2, options: dict[str, Any] | None = None,
               seed: str = "table", languages: Sequence[str | None] = ()) -> Table:
    """Ann, Ben (, Cy, Di) at a new game (no welcome mail), at ``position`` if given;
    ``languages`` are the seats' own languages, by seat (None: the game's, English)."""
    with factory() as s:
        game, secrets = api.create_game(s, game_name, PLAYERS[:players], seed=seed,
                                        options=options, languages=languages)
        s.commit()
        assert game.id is not None
        table = Table(factory, game_name, game.id, game.tag, secrets)
    if position is not None:
        table.put(position())
    return table


def play_moves(factory: SessionFactory, name: str, rules: Any, moves: int,
               players: Sequence[tuple[str, str]] = ()) -> tuple[Table, int]:
    """A new game of ``rules`` (welcome mails queued) between ``players`` (default: as few
    of Ann, Ben... as it takes) and up to ``moves`` orders by mail, each the game's random
    order of the first seat it waits for (fewer if it ends first); returns the table and
    how many were played."""
    seated = list(players) or PLAYERS[:rules.min_players]
    with factory() as s:
        game, secrets = api.create_game(s, name, seated, seed="played", host=HOST)
        s.commit()
        assert game.id is not None
        table = Table(factory, name, game.id, game.tag, secrets)
    rng = random.Random(name)
    for played in range(moves):
        state = table.state()
        waiting = sorted(rules.waiting_for(state))
        if not waiting:
            return table, played
        order = localise_order(rules, rules.random_order(state, waiting[0], rng), "en")
        result, _ = table.send(waiting[0], order, sender=seated[waiting[0]][1])
        assert result.status == "applied", result.reason
    return table, moves
