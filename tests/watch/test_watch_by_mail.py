"""Watching a game by mail: asked, confirmed by a reply, mailed the spectators' view as the
watcher chose, stopped by ``unwatch`` (or its ``List-Unsubscribe``), by the game's end, by
``never`` and by ``player forget``; every refusal's words."""

from __future__ import annotations

import dataclasses
import re
from urllib.parse import unquote

from sqlmodel import select

from pbem.ops import player_data
from pbem.settings.config import Watch as WatchSettings
from pbem.store import SessionFactory
from pbem.store.tables import Watch
from tests.support.seated import ANN, BEN, Table
from tests.watch.conftest import WATCH_CODE, ZOE, Post, text


def watches(factory: SessionFactory) -> list[tuple[str, str]]:
    with factory() as s:
        return [(w.address, w.mode) for w in s.exec(select(Watch))]


def test_a_stranger_watches_once_they_answer_the_confirmation(
        post: Post, table: Table, factory: SessionFactory) -> None:
    subject, body = post.answer(post.send(ZOE, f"watch {table.tag}"))
    assert re.fullmatch(rf"\[{table.tag}\] Watch this game\? code {WATCH_CODE.pattern}",
                        subject), subject
    assert f"A mail from this address asked to watch [{table.tag}] (Test Cards)" in body
    assert "If it was you, reply to this mail keeping its subject" in body
    assert watches(factory) == []  # nothing on a From line alone
    result = post.send(ZOE, "yes", subject=f"Re: {subject}")
    assert result.status == "applied"
    subject, body = post.answer(result)
    assert subject == f"[{table.tag}] You watch this game"
    assert f"You now watch [{table.tag}]: the game as its spectators see it, a full status " \
           "after every move." in body
    assert f"Send \"unwatch {table.tag}\" to stop" in body
    assert watches(factory) == [(ZOE, "every")]
    assert post.watchers_pass() == []  # nothing new since the confirmation


def test_the_watcher_gets_the_spectators_view_after_a_move_and_unsubscribes(
        post: Post, table: Table, factory: SessionFactory) -> None:
    assert post.watch(ZOE, f"watch {table.tag}").status == "applied"
    table.send(0, "play 3" if 3 in table.state().hands[0] else
               f"play {table.state().hands[0][0]}")
    (mail,) = post.watchers_pass()
    body = text(mail)
    assert f"Test Cards [{table.tag}] — spectators" in body
    assert "You watch this game as a spectator" in body
    assert "secret" not in body.lower()  # no word on orders, no seat's screen
    assert "Your hand: none" in body  # the test game's words for a view with no hand
    unsubscribe = str(mail["List-Unsubscribe"])
    found = re.fullmatch(r"<mailto:games@host\.test\?subject=(.*)>", unsubscribe)
    assert found, unsubscribe
    line = unquote(found.group(1))
    assert line.startswith(f"unwatch {table.tag} ")
    assert post.watchers_pass() == []  # told once
    # The mail client's unsubscribe: the subject alone, no body.
    result = post.send(ZOE, "", subject=line)
    assert result.status == "applied"
    subject, body = post.answer(result)
    assert subject == f"[{table.tag}] You no longer watch this game"
    assert watches(factory) == []


def test_unwatch_from_the_from_line_alone_asks_first(post: Post, table: Table,
                                                     factory: SessionFactory) -> None:
    post.watch(ZOE, f"watch {table.tag}")
    subject, body = post.answer(post.send(ZOE, f"unwatch {table.tag}"))
    assert subject.startswith(f"[{table.tag}] Stop watching this game? code ")
    assert "Anyone can write any sender, so the host asks first." in body
    assert watches(factory) == [(ZOE, "every")]
    result = post.send(ZOE, "", subject=f"Re: {subject}")
    assert post.answer(result)[0] == f"[{table.tag}] You no longer watch this game"
    assert watches(factory) == []


def test_a_forged_watch_costs_its_victim_one_mail_a_day(post: Post, table: Table) -> None:
    assert len(post.answers(post.send(ZOE, f"watch {table.tag}"))) == 1
    again = post.send(ZOE, f"watch {table.tag} digest")
    assert post.answers(again) == []
    assert "asked already today" in again.reason


def test_refusals_say_what_is_wrong(post: Post, table: Table, factory: SessionFactory) -> None:
    def refusal(frm: str, line: str) -> str:
        result = post.send(frm, line)
        assert result.status == "rejected", result.reason
        return post.answer(result)[1]

    assert "Write the game's tag after \"watch\", as in: watch name-12" in refusal(
        "a@x.test", "watch")
    assert "No game here has the tag [nosuch-1]." in refusal("b@x.test", "watch nosuch-1")
    assert "\"weekly\" is not understood: write \"watch TAG\", then \"every\", \"turn\" or " \
           "\"digest\" if you like." in refusal("c@x.test", f"watch {table.tag} turn weekly")
    assert f"You play in [{table.tag}]: your seat's mail tells you every move already." in \
        refusal(ANN, f"watch {table.tag}")
    assert f"This address does not watch [{table.tag}], so nothing changed." in refusal(
        "d@x.test", f"unwatch {table.tag}")
    # A code that is not this address's: not confirmed.
    subject, _ = post.answer(post.send(ZOE, f"watch {table.tag}"))
    stolen = post.send("e@x.test", "", subject=f"Re: {subject}")
    assert stolen.status == "rejected"
    assert f"This code confirms no watch of [{table.tag}] by this address, so nothing " \
           "changed." in post.answer(stolen)[1]
    post.send(ZOE, "", subject=f"Re: {subject}")
    assert f"You already watch [{table.tag}] (mail every)." in refusal(
        ZOE, f"watch {table.tag}")


def test_who_may_watch_and_the_caps(post: Post, table: Table, factory: SessionFactory) -> None:
    def refusal(frm: str, line: str) -> str:
        result = post.send(frm, line)
        assert result.status == "rejected", result.reason
        return post.answer(result)[1]

    post.host = dataclasses.replace(post.host, watch=WatchSettings(open="off"))
    assert "This game host has no watchers: its operator turned watching off." in refusal(
        "a@x.test", f"watch {table.tag}")
    post.host = dataclasses.replace(post.host, watch=WatchSettings(open="players"))
    assert "Only the players of this game host may watch its games, and b@x.test has " \
           "played none here." in refusal("b@x.test", f"watch {table.tag}")
    post.host = dataclasses.replace(post.host, watch=WatchSettings(
        open="anyone", max_per_game=1, max_per_address=1))
    assert post.watch(ZOE, f"watch {table.tag}").status == "applied"
    assert f"[{table.tag}] has as many watchers as this host allows (1)." in refusal(
        "c@x.test", f"watch {table.tag}")
    other = Table(factory, table.game_name, *_second_game(factory))
    assert "You watch as many games as this host allows (1)." in refusal(
        ZOE, f"watch {other.tag}")


def _second_game(factory: SessionFactory) -> tuple[int, str, list[str]]:
    from pbem.ops import api
    from tests.support.seated import PLAYERS

    with factory() as s:
        game, secrets = api.create_game(s, "testcards", PLAYERS[2:4], seed="second")
        s.commit()
        return game.id or 0, game.tag, secrets


def test_never_and_forget_end_every_watch(post: Post, table: Table,
                                          factory: SessionFactory) -> None:
    post.watch(ZOE, f"watch {table.tag}")
    post.watch("yan@watchers.test", f"watch {table.tag}")
    subject, _ = post.answer(post.send(ZOE, "never"))
    post.send(ZOE, "", subject=f"Re: {subject}")
    assert watches(factory) == [("yan@watchers.test", "every")]
    with factory() as s:
        player_data.forget(s, "yan@watchers.test")
        s.commit()
    assert watches(factory) == []


def test_the_end_of_the_game_is_told_and_ends_the_watch(post: Post, table: Table,
                                                        factory: SessionFactory) -> None:
    assert post.watch(ZOE, f"watch {table.tag} digest").status == "applied"
    assert watches(factory) == [(ZOE, "digest")]
    while (state := table.state()) and table.rules.outcome(state) is None:
        seat = min(table.rules.waiting_for(state))
        table.send(seat, f"play {state.hands[seat][0]}")
    mails = post.watchers_pass()
    assert len(mails) == 1
    body = text(mails[0])
    assert str(mails[0]["Subject"]).startswith(f"[{table.tag}] Game over")
    assert "The game has ended, so you no longer watch it." in body
    assert "List-Unsubscribe" not in mails[0]
    assert watches(factory) == []
    assert BEN not in {to for to, _ in post.new_mail()}


def test_a_subject_that_says_watch_starts_nothing(post: Post, table: Table) -> None:
    result = post.send(ZOE, "hello there", subject=f"Watch {table.tag} for me")
    assert not result.reason.startswith("watch")
