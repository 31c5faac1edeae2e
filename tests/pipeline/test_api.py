"""The operator API: a whole game, replay and its audit, secrets, no leaks between seats."""

from __future__ import annotations

import re

import pytest
from sqlmodel import select

from pbem.engine.replay import ReplayMismatch
from pbem.ops import api
from pbem.pipeline.one_mail import process_raw
from pbem.rendering import StatusMail, render_status
from pbem.settings.host import Host
from pbem.store import LogEntry, SessionFactory
from tests.pipeline.conftest import ALICE, BOB, Table, hand, queued
from tests.support.playermail import mail
from tests.support.testgame import GAME


def play_whole_game(factory: SessionFactory, host: Host, table: Table) -> None:
    for _ in range(2):
        for seat, addr in ((0, ALICE), (1, BOB)):
            card = hand(factory, table, seat)[0]
            raw = mail(addr, f"[{table.tag}]", f"play {card}\nsecret {table.secrets[seat]}")
            assert process_raw(factory, raw, host).status == "applied"


def test_whole_game_ends_and_replays(factory: SessionFactory, host: Host, table: Table) -> None:
    play_whole_game(factory, host, table)
    with factory() as s:
        game = api.get_game(s, table.tag)
        assert game.status == "finished"
        report = api.replay_game(s, game)
        assert report.entries == 4
    last_alice = [t for to, t in queued(factory) if to == ALICE][-1]
    assert "The game is over." in last_alice
    assert "How to reply" not in last_alice
    result = process_raw(factory, mail(ALICE, f"[{table.tag}]",
                                       f"play 1\nsecret {table.secrets[0]}"), host)
    assert result.reason == "game finished"
    assert f"Game [{table.tag}] is finished; it takes no orders now." in queued(factory)[-1][1]


def test_replay_detects_a_tampered_log(factory: SessionFactory, host: Host, table: Table) -> None:
    play_whole_game(factory, host, table)
    with factory() as s:
        entry = s.exec(select(LogEntry).where(LogEntry.index == 2)).one()
        entry.state_hash = "0" * 64
        s.add(entry)
        s.commit()
        with pytest.raises(ReplayMismatch, match="entry 2"):
            api.replay_game(s, api.get_game(s, table.game_id))


def test_reissued_secret_replaces_the_old(factory: SessionFactory, host: Host,
                                          table: Table) -> None:
    with factory() as s:
        new = api.reissue_secret(s, api.get_game(s, table.game_id), 0)
        s.commit()
    card = hand(factory, table, 0)[0]
    old = process_raw(factory, mail(ALICE, f"[{table.tag}]",
                                    f"play {card}\nsecret {table.secrets[0]}"), host)
    assert old.reason == "wrong secret"
    ok = process_raw(factory, mail(ALICE, f"[{table.tag}]", f"play {card}\nsecret {new}"), host)
    assert ok.status == "applied"


def test_secrets_are_stored_hashed(factory: SessionFactory, table: Table) -> None:
    from pbem.store import Seat

    with factory() as s:
        for seat in s.exec(select(Seat)).all():
            assert table.secrets[seat.index] not in seat.secret_hash


def test_welcome_mail_carries_the_secret(factory: SessionFactory, host: Host) -> None:
    with factory() as s:
        _, secrets = api.create_game(s, "testcards", [("A", ALICE), ("B", BOB)], host=host)
        s.commit()
    texts = [t for _, t in queued(factory)]
    assert f"Welcome to Test Cards! Your secret is: {secrets[0]}" in texts[0]
    assert secrets[1] not in texts[0]


def test_show_game_is_what_the_seat_gets(factory: SessionFactory, host: Host,
                                         table: Table) -> None:
    with factory() as s:
        text, html = api.show_game(s, api.get_game(s, table.game_id), 1)
    assert f"Your hand: {', '.join(map(str, hand(factory, table, 1)))}" in text
    assert "It is your turn." in text
    assert re.search(r"<h1 style=\"[^\"]*\">Test Cards", html)


def test_an_opponents_secrets_never_change_my_email() -> None:
    from pbem.engine.chance import Chance

    state = GAME.setup(2, GAME.default_options(), Chance("leak"))
    other = GAME.from_json(GAME.to_json(state))
    other.hands[1] = [99, 98, 97]  # only the opponent's hidden hand differs
    other.deck = list(reversed(other.deck))  # and the hidden deck order

    def email_of(st: object) -> tuple[str, str]:
        view = GAME.view(st, 0)  # type: ignore[arg-type]
        return render_status(GAME, StatusMail("Test Cards", "t-1", 0, "Alice", view))

    assert email_of(state) == email_of(other)


def test_html_is_escaped_and_text_is_not() -> None:
    from pbem.engine.chance import Chance

    view = GAME.view(GAME.setup(2, GAME.default_options(), Chance("esc")), 0)
    text, html = render_status(GAME, StatusMail("Test Cards", "t-1", 0, "<Al & Bo>", view,
                                                events=["<b>bold</b>"]))
    assert "&lt;Al &amp; Bo&gt;" in html and "&lt;b&gt;bold&lt;/b&gt;" in html
    assert "<Al & Bo>" in text and "<b>bold</b>" in text
