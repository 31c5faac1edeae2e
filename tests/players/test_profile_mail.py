"""The commands to the host itself (no game's tag): a player's profile, proved by the secret
of any of their seats, the defaults of their later seats; and a game's standings."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlmodel import select

from pbem.ops import api
from pbem.pipeline.one_mail import Result, process_raw
from pbem.settings.host import Host
from pbem.store import SessionFactory
from pbem.store.tables import Player, Seat
from tests.pipeline.clocked import Sent, flat, last_id, outbound
from tests.players.support import ANN, BEN, CY, finish, host, testcards
from tests.support.playermail import mail

__all__ = ["testcards"]


@pytest.fixture
def seated(factory: SessionFactory) -> Iterator[list[str]]:
    """Ann and Ben hold a seat each in a game under way; their secrets."""
    with factory() as s:
        _, secrets = api.create_game(s, "testcards", [("Ann", ANN), ("Ben", BEN)], seed="p")
        s.commit()
    yield secrets


def send(factory: SessionFactory, frm: str, body: str, subject: str = "hello",
         headers: dict[str, str] | None = None, to_host: Host | None = None) -> Result:
    return process_raw(factory, mail(frm, subject, body, headers=headers), to_host or host())


def answer(factory: SessionFactory, before: int, to: str) -> Sent:
    (sent,) = [m for m in outbound(factory, before) if m.to == to]
    return sent


def profile(factory: SessionFactory, address: str) -> Player:
    with factory() as s:
        player = s.exec(select(Player).where(Player.address == address)).one()
        s.expunge(player)
        return player


def test_name_with_a_seat_secret_sets_the_profile(factory: SessionFactory,
                                                  seated: list[str]) -> None:
    before = last_id(factory)
    result = send(factory, ANN, f"name   Ann  Example\nsecret {seated[0]}")
    assert (result.status, result.reason) == ("applied", "name set")
    sent = answer(factory, before, ANN)
    assert sent.msg["Subject"] == "Your profile" and sent.kind == "reply"
    assert ('Your name is now "Ann Example": the standings and the game pages show you by it, '
            'never by your address.') in flat(sent.text)
    assert profile(factory, ANN).name == "Ann Example"


@pytest.mark.parametrize(("body", "reason", "told"), [
    ("name Ann", "profile: no secret",
     'Your mail had no "secret" line, so your profile did not change. Add the line "secret '
     '<your secret>" of any of your seats'),
    ("name Ann\nsecret not-my-secret", "profile: wrong secret",
     "The secret in your mail matches none of your seats, so your profile did not change."),
])
def test_a_profile_command_needs_a_seat_secret(factory: SessionFactory, seated: list[str],
                                               body: str, reason: str, told: str) -> None:
    before = last_id(factory)
    result = send(factory, ANN, body)
    assert (result.status, result.reason) == ("rejected", reason)
    sent = answer(factory, before, ANN)
    assert sent.kind == "auth" and told in flat(sent.text)
    assert profile(factory, ANN).name == ""


def test_a_profile_command_from_an_address_without_a_seat_is_a_strangers(
        factory: SessionFactory, seated: list[str]) -> None:
    before = last_id(factory)
    result = send(factory, "eve@elsewhere.test", f"name Eve\nsecret {seated[0]}")
    assert (result.status, result.reason) == ("rejected", "profile: no seat")
    sent = answer(factory, before, "eve@elsewhere.test")
    assert sent.kind == "stranger"
    assert ("The address eve@elsewhere.test holds no seat in any game here, so it has no "
            "profile to change yet: join a game first.") in flat(sent.text)
    with factory() as s:
        assert s.exec(select(Player).where(Player.address == "eve@elsewhere.test")).first() \
            is None


def test_unproven_profile_mail_is_answered_within_the_limits(factory: SessionFactory,
                                                             seated: list[str]) -> None:
    results = [send(factory, ANN, "language fr") for _ in range(5)]
    assert [r.reason for r in results] == ["profile: no secret"] * 3 + [
        "profile: no secret; no answer: reply limit reached"] * 2


def test_the_profile_is_the_default_of_later_seats_only(factory: SessionFactory,
                                                        seated: list[str]) -> None:
    for line in ("language fr", "timezone Europe/Paris", "mail digest"):
        before = last_id(factory)
        result = send(factory, ANN, f"{line}\nsecret {seated[0]}")
        assert result.status == "applied", result.reason
    sent = answer(factory, before, ANN)
    assert sent.msg["Subject"] == "Votre profil"  # the new language speaks at once
    assert "Le réglage de courriel de votre profil est désormais « courrier résumé »" in flat(
        sent.text)
    player = profile(factory, ANN)
    assert (player.language, player.timezone, player.mail_mode) == ("fr", "Europe/Paris",
                                                                    "digest")
    with factory() as s:
        game, _ = api.create_game(s, "testcards", [("Ann", ANN), ("Cy", CY)], seed="later")
        s.commit()
        new = list(s.exec(select(Seat).where(Seat.game_id == game.id)))
        old = s.exec(select(Seat).where(Seat.address == ANN, Seat.game_id != game.id)).one()
    assert (old.language, old.timezone, old.mail_mode) == ("en", "UTC", "every")
    ann = next(x for x in new if x.address == ANN)
    cy = next(x for x in new if x.address == CY)
    assert (ann.language, ann.timezone, ann.mail_mode) == ("fr", "Europe/Paris", "digest")
    assert ann.digest_at is not None
    assert (cy.language, cy.timezone, cy.mail_mode) == ("en", "UTC", "every")


@pytest.mark.parametrize(("body", "reason", "told"), [
    ("language klingon", "bad language",
     '"language klingon" is not a language this game host speaks. Write one of:'),
    ("timezone Mars/Olympus", "bad time zone",
     '"timezone Mars/Olympus" is not a time zone: write an IANA name such as "timezone '
     'Europe/Paris"'),
    ("mail sometimes", "bad mail setting", '"mail sometimes" is not understood. Write one of:'),
    ("name ann@players.test", "bad name",
     'Write the name others should see after "name", for example "name Ann Example": at most '
     "40 characters, and no email address (the standings are public)."),
    ("name " + "A" * 41, "bad name", 'Write the name others should see after "name"'),
    ("name " + "A" * 70, "name: argument too long",
     'The text after "name" is too long (70 characters; at most 64), so nothing changed.'),
])
def test_each_bad_profile_value_is_told_and_changes_nothing(
        factory: SessionFactory, seated: list[str], body: str, reason: str, told: str) -> None:
    before = last_id(factory)
    result = send(factory, ANN, f"{body}\nsecret {seated[0]}")
    assert (result.status, result.reason) == ("rejected", reason)
    assert told in flat(answer(factory, before, ANN).text)
    player = profile(factory, ANN)
    assert (player.name, player.language, player.timezone, player.mail_mode) == (
        "", None, None, None)


def test_profile_words_in_another_language(factory: SessionFactory, seated: list[str]) -> None:
    result = send(factory, BEN, f"naam Ben de Bouwer\ngeheim {seated[1]}")
    assert (result.status, result.reason) == ("applied", "name set")
    assert profile(factory, BEN).name == "Ben de Bouwer"


def test_the_standings_answer_anyone_with_the_top_and_their_place(
        factory: SessionFactory) -> None:
    finish(factory, [ANN, BEN], "s1")
    finish(factory, [ANN, BEN, CY], "s2")
    before = last_id(factory)
    result = send(factory, CY, "standings testcards")
    assert (result.status, result.reason) == ("ignored", "standings testcards")
    sent = answer(factory, before, CY)
    assert sent.msg["Subject"] == "Standings: Test Cards" and sent.kind == "help"
    text = flat(sent.text)
    assert "Standings of Test Cards, best first." in text
    assert "1. " in text and " (2 games, " in text and " (1 game, " in text
    assert "Your place: " in text and " of 3, rating " in text
    assert "@" not in text.replace("games@host.test", "")  # names, never addresses
    before = last_id(factory)
    send(factory, "eve@elsewhere.test", "standings testcards")
    assert ("You have no rating in Test Cards yet: it comes with your first finished game."
            in flat(answer(factory, before, "eve@elsewhere.test").text))


def test_standings_in_the_senders_language(factory: SessionFactory,
                                           seated: list[str]) -> None:
    finish(factory, [ANN, BEN], "fr")
    send(factory, ANN, f"langue fr\nsecret {seated[0]}")
    before = last_id(factory)
    send(factory, ANN, "classement testcards")
    sent = answer(factory, before, ANN)
    assert sent.msg["Subject"] == "Classement : Test Cards"
    assert "Votre place : " in flat(sent.text) and " (1 partie, " in flat(sent.text)


@pytest.mark.parametrize(("body", "told"), [
    ("standings chess", '"standings chess" names no game of this host. Write one of:'),
    ("standings", 'Write the game after "standings", one of:'),
])
def test_standings_of_no_game_list_the_games(factory: SessionFactory, body: str,
                                             told: str) -> None:
    before = last_id(factory)
    result = send(factory, ANN, body)
    assert (result.status, result.reason) == ("rejected", "unknown game")
    assert answer(factory, before, ANN).msg["Subject"] == "Standings"
    text = answer(factory, before, ANN).text
    assert flat(text).startswith(told)
    assert "  standings testcards   Test Cards" in text.splitlines()  # every installed game


def test_no_standings_before_a_rated_game(factory: SessionFactory) -> None:
    before = last_id(factory)
    send(factory, ANN, "standings testcards")
    assert ("No game of Test Cards has finished with a rated result yet, so it has no "
            "standings.") in flat(answer(factory, before, ANN).text)


def test_in_a_games_mail_standings_and_name_speak_for_the_seat(
        factory: SessionFactory, seated: list[str]) -> None:
    with factory() as s:
        tag = api.list_games(s)[0].tag
    finish(factory, [ANN, BEN], "g")
    before = last_id(factory)
    result = send(factory, ANN, f"standings\nsecret {seated[0]}", subject=f"[{tag}]")
    assert (result.status, result.reason) == ("ignored", "standings testcards")
    assert "Your place: " in flat(answer(factory, before, ANN).text)
    result = send(factory, BEN, f"name Ben B.\nsecret {seated[1]}", subject=f"Re: [{tag}]")
    assert (result.status, result.reason) == ("applied", "name set")
    assert profile(factory, BEN).name == "Ben B."


def test_a_banned_address_is_kept_and_never_answered(factory: SessionFactory,
                                                     seated: list[str]) -> None:
    from pbem.ops import players

    with factory() as s:
        players.ban(s, ANN, "abuse")
        s.commit()
    before = last_id(factory)
    with factory() as s:
        tag = api.list_games(s)[0].tag
    for subject, body in ((f"[{tag}]", f"status\nsecret {seated[0]}"), ("hi", "help"),
                          ("hi", "standings testcards")):
        result = send(factory, ANN, body, subject=subject)
        assert (result.status, result.reason) == ("ignored", "banned sender")
    assert outbound(factory, before) == []
    with factory() as s, pytest.raises(ValueError, match="is banned from this host"):
        api.create_game(s, "testcards", [("Ann", ANN), ("Cy", CY)])


def test_a_kept_profile_mail_run_again_is_proved_by_the_seat_it_named(
        factory: SessionFactory, seated: list[str]) -> None:
    """A kept mail's secret is blanked: run again (as from quarantine), the seat whose secret
    it carried on arrival proves it."""
    from pbem.pipeline.one_mail import reprocess
    from pbem.store.tables import InboundMessage

    result = send(factory, BEN, f"name Ben Kept\nsecret {seated[1]}")
    assert result.status == "applied" and result.inbound_id is not None
    with factory() as s:
        row = s.get(InboundMessage, result.inbound_id)
        assert row is not None and seated[1].encode() not in row.raw
        row.status = "quarantined"
        player = s.exec(select(Player).where(Player.address == BEN)).one()
        player.name = ""
        s.add_all([row, player])
        s.commit()
    again = reprocess(factory, result.inbound_id, host())
    assert (again.status, again.reason) == ("applied", "name set")
    assert profile(factory, BEN).name == "Ben Kept"
