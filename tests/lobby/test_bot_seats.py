"""Bot seats at a lobby table, through the real pipeline: ``new GAME players N bots N
[level]`` opens a table whose last seats the host's bots play; they need no confirmation, the
table starts when its seats for people are confirmed, and ``games`` lists them as bots."""

from __future__ import annotations

import dataclasses

import pytest
from sqlmodel import col, select

from pbem.store import Game, LogEntry, Seat, SessionFactory
from pbem.store.tables import LobbyTable
from tests.lobby.conftest import ANN, BEN, CY, Post


def table(factory: SessionFactory) -> LobbyTable:
    with factory() as s:
        return s.exec(select(LobbyTable)).one()


def game_seats(factory: SessionFactory) -> list[tuple[str, str, str]]:
    with factory() as s:
        return [(x.name, x.address, x.controller)
                for x in s.exec(select(Seat).order_by(col(Seat.index)))]


def test_one_person_and_two_bots_start_on_the_openers_confirmation(
        post: Post, factory: SessionFactory) -> None:
    code, subject = post.seat(ANN, "new testcards players 3 bots 2", name="Ann")
    assert subject.startswith("[testcards-t1] Confirm your seat at Test Cards: code ")
    _, body = post.answer(post.send(BEN, "games"))
    flat = " ".join(body.split())
    # Taken means confirmed: Ann's seat waits for her confirmation and keeps nobody out.
    assert ("[testcards-t1] Test Cards: 0 of 1 seats for players taken, 1 free, and 2 bot "
            "seats (normal); options: —; opened by Ann") in flat
    started = post.send(ANN, "", subject=f"Re: {subject}")  # a reply to the seat's mail
    assert started.status == "applied"
    assert [to for to, _ in post.answers(started)] == [ANN]  # her welcome; nothing for bots
    assert game_seats(factory) == [("Ann", ANN, "human"), ("Bot 2", "", "bot:normal"),
                                   ("Bot 3", "", "bot:normal")]
    with factory() as s:
        assert s.exec(select(Game)).one().tag == "testcards-t1"
        # The game waits for every seat at once: both bots played as it was created.
        assert sorted(e.seat or 0 for e in s.exec(select(LogEntry)) if e.kind == "bot") == [1, 2]
    assert table(factory).status == "started"
    del code


def test_the_opening_mail_says_which_seats_are_bots(post: Post) -> None:
    result = post.send(ANN, "new testcards players 3 bots 1 strong", name="Ann")
    _, body = post.answer(result)
    flat = " ".join(body.split())
    assert ("[testcards-t1] Test Cards for 3 players: 0 seats confirmed (—), 1 waiting for "
            "confirmation, 2 free.") in flat
    assert ("Its last 1 seats are played by the computer (strong) and need no confirmation: "
            "it starts when its other 2 seats are taken and confirmed; its opener may start it "
            'earlier with "start testcards-t1 CODE" once 2 seats, the bots\' included, are '
            "ready.") in flat


def test_a_table_with_a_strong_bot_waits_for_its_people(post: Post,
                                                       factory: SessionFactory) -> None:
    ann, _ = post.seat(ANN, "new testcards players 3 bots 1 strong", name="Ann")
    assert (table(factory).bots, table(factory).bot_level) == (1, "strong")
    assert post.send(ANN, f"confirm {ann}").status == "applied"
    with factory() as s:
        assert s.exec(select(Game)).all() == []  # Ben's seat is still free
    ben, _ = post.seat(BEN, "join testcards bots 1", name="Ben")  # matchmaking finds it
    subject, _ = post.answer(post.send(BEN, "join testcards-t1"))
    assert subject == "[testcards-t1] Your seat waits for confirmation"
    started = post.send(BEN, f"confirm {ben}")
    assert sorted(to for to, _ in post.answers(started)) == [ANN, BEN]
    assert game_seats(factory) == [("Ann", ANN, "human"), ("Ben", BEN, "human"),
                                   ("Bot 3 (strong)", "", "bot:strong")]


def test_matchmaking_keeps_tables_with_and_without_bots_apart(post: Post,
                                                             factory: SessionFactory) -> None:
    post.seat(ANN, "new testcards players 3")
    _, subject = post.seat(BEN, "join testcards bots 1")
    assert subject.startswith("[testcards-t2] ")
    _, subject = post.seat(CY, "join testcards")  # people seek people
    assert subject.startswith("[testcards-t1] ")
    with factory() as s:
        assert [(t.players, t.bots) for t in s.exec(select(LobbyTable).order_by(
            col(LobbyTable.id)))] == [(3, 0), (2, 1)]  # the least seats, one more than bots


def test_without_players_a_table_has_one_seat_more_than_its_bots(
        post: Post, factory: SessionFactory) -> None:
    post.seat(ANN, "new testcards bots 3")
    assert (table(factory).players, table(factory).bots) == (4, 3)


def test_the_opener_starts_early_with_the_bots_counted(post: Post,
                                                      factory: SessionFactory) -> None:
    ann, _ = post.seat(ANN, "new testcards players 4 bots 1", name="Ann")
    post.send(ANN, f"confirm {ann}")
    started = post.send(ANN, f"start testcards-t1 {ann}")
    assert started.status == "applied", started.reason
    assert game_seats(factory) == [("Ann", ANN, "human"), ("Bot 2", "", "bot:normal")]


def test_the_last_person_leaving_closes_a_table_of_bots(post: Post,
                                                       factory: SessionFactory) -> None:
    ann, _ = post.seat(ANN, "new testcards players 3 bots 2")
    _, body = post.answer(post.send(ANN, f"leave testcards-t1 {ann}"))
    assert "Nobody else was seated, so the table is closed." in body
    assert table(factory).status == "closed"


@pytest.mark.parametrize(("line", "says"), [
    ("new testcards players 2 bots 2", "A table needs at least one seat for a person: Test "
                                       "Cards takes 2 to 4 players, bots included, and 2 bots "
                                       "leave none of 2 seats."),
    ("new testcards bots 4", 'Write how many seats the computer plays, from 0 to 3, not "4": '
                             "bots 1 [random | normal | strong]"),
    ("new testcards bots many", 'Write how many seats the computer plays, from 0 to 3, not '
                                '"many": bots 1'),
    ("new testcards bots", 'Write how many seats the computer plays, from 0 to 3, not "":'),
    ("new testcards bots 1 clever", '"clever" is not understood here. Write: new testcards '
                                    "players N [bots N [strong]] [option=value ...]"),
])
def test_bot_seats_refused_say_why_and_open_nothing(post: Post, factory: SessionFactory,
                                                    line: str, says: str) -> None:
    result = post.send(ANN, line)
    assert result.status == "rejected"
    subject, body = post.answer(result)
    assert subject == "Your new table was not opened"
    assert says in " ".join(body.split()), body
    with factory() as s:
        assert s.exec(select(LobbyTable)).all() == []


@pytest.mark.parametrize(("lang", "line", "level", "says"), [
    ("fr", "nouveau testcards joueurs 3 robots 2 fort", "strong",
     "et 2 places de robots (fort)"),
    ("de", "neu testcards spieler 3 bots 2 stark", "strong", "und 2 Bot-Plätze (stark)"),
    ("it", "nuovo testcards giocatori 3 bot 2 forte", "strong", "e 2 posti di bot (forte)"),
    ("nl", "nieuw testcards spelers 3 bots 2 sterk", "strong", "en 2 botplaatsen (sterk)"),
    ("en", "new testcards players 3 bots 2 random", "random", "and 2 bot seats (random)"),
])
def test_bot_seats_in_every_language(post: Post, factory: SessionFactory, lang: str,
                                     line: str, level: str, says: str) -> None:
    assert post.send(ANN, line, lang=lang, name="Ann").status == "applied"
    assert (table(factory).bots, table(factory).bot_level) == (2, level)
    limits = dataclasses.replace(post.host.limits, unverified_replies_per_hour=50)
    mine = Post(factory, dataclasses.replace(post.host, limits=limits))
    _, body = mine.answer(mine.send(BEN, "games", lang=lang))
    assert says in " ".join(body.split()), body


def test_a_code_on_the_line_is_kept_nowhere_in_clear(post: Post, factory: SessionFactory) -> None:
    from pbem.store import InboundMessage

    ann, _ = post.seat(ANN, "new testcards players 2 bots 1")
    post.send(ANN, f"leave testcards-t1 {ann}")
    with factory() as s:
        for row in s.exec(select(InboundMessage)):
            assert ann not in row.subject and ann.encode() not in row.raw
