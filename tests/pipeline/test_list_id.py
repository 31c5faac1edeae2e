"""Every mail of a game carries the same List-Id, so a player's filter catches the whole game:
the welcome, the reply to an order, the others' status, and notes."""

from __future__ import annotations

import email
from email import policy

from sqlmodel import select

from pbem.ops import api
from pbem.store import SessionFactory
from pbem.store.tables import OutboundMessage
from tests.support.seated import HOST, PLAYERS, seat_table


def _list_ids(factory: SessionFactory, game_id: int) -> list[tuple[str, str]]:
    """Each queued mail of the game: its kind and its List-Id."""
    with factory() as s:
        rows = s.exec(select(OutboundMessage).where(OutboundMessage.game_id == game_id)).all()
        return [(row.kind, str(email.message_from_bytes(row.raw, policy=policy.default)
                               ["List-Id"])) for row in rows]


def test_every_mail_of_a_game_carries_its_one_list_id(factory: SessionFactory) -> None:
    with factory() as s:
        game, _ = api.create_game(s, "testcards", PLAYERS[:2], host=HOST, seed="list")
        s.commit()
        first, tag = game.id, game.tag
    assert first is not None
    table = seat_table(factory, "testcards")
    seat = min(table.rules.waiting_for(table.state()))
    table.send(seat, table.rules.default_order(table.state(), seat))
    table.send(seat, "no such order at all")
    assert _list_ids(factory, first) == [("welcome", f"{tag} <{tag}.host.test>")] * 2
    played = _list_ids(factory, table.game_id)
    assert len(played) >= 3  # the reply, the other seat's status, the refusal
    assert {list_id for _, list_id in played} == {f"{table.tag} <{table.tag}.host.test>"}
    assert tag != table.tag  # one List-Id per game, not one for the host
