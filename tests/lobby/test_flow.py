"""The lobby through the real pipeline: open, join, confirm, start; each reply's words."""

from __future__ import annotations

from sqlmodel import col, select

from pbem.store import Game, Seat
from pbem.store.tables import LobbySeat, LobbyTable
from tests.lobby.conftest import ANN, BEN, CY, Post


def test_a_table_opened_joined_and_confirmed_starts_its_game(post: Post) -> None:
    code, subject = post.seat(ANN, "new testcards players 3", name="Ann")
    assert subject.startswith("[testcards-t1] Confirm your seat at Test Cards: code ")
    ben, _ = post.seat(BEN, "join testcards-t1", name="Ben")
    cy, _ = post.seat(CY, "join testcards", name="Cy")  # matchmaking finds the same table
    for who, c in ((ANN, code), (BEN, ben)):
        subj, body = post.answer(post.send(who, "", subject=f"Re: [testcards-t1] code {c}"))
        assert subj == "[testcards-t1] Your seat is confirmed"
        assert "Your seat at [testcards-t1] is confirmed." in body
    with post.factory() as s:
        assert s.exec(select(Game)).all() == []
    last = post.send(CY, f"confirm {cy}")
    assert last.status == "applied"
    got = post.answers(last)
    assert sorted(to for to, _ in got) == [ANN, BEN, CY]  # the welcome mails, one each
    assert all("Your secret is:" in str(m.get_body(("plain",)).get_content())  # type: ignore[union-attr]
               for _, m in got)
    with post.factory() as s:
        game = s.exec(select(Game)).one()
        assert game.tag == "testcards-t1"
        assert [x.name for x in s.exec(select(Seat).order_by(col(Seat.index))).all()] == [
            "Ann", "Ben", "Cy"]
        assert s.exec(select(LobbyTable)).one().status == "started"
        assert all(x.code_hash.startswith("hmac-sha256$") for x in s.exec(select(LobbySeat)))
