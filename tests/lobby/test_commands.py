"""Each lobby command through the real pipeline, and each answer a player can get, with its
words: what happened and what to do next, its subject saying what it is."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any, ClassVar

import pytest
from sqlmodel import col, select

from pbem.engine import registry
from pbem.settings.config import Lobby
from pbem.store import Game, SessionFactory
from pbem.store.tables import LobbySeat, LobbyTable
from tests.lobby.conftest import ANN, BEN, CY, Clock, Post, text
from tests.support.testgame import TestCards


def opened(post: Post, players: int = 3) -> str:
    """Ann opens a table; returns her code."""
    code, _ = post.seat(ANN, f"new testcards players {players}", name="Ann")
    return code


def confirm(post: Post, who: str, code: str) -> tuple[str, str]:
    return post.answer(post.send(who, f"confirm {code}"))


def tables(factory: SessionFactory) -> list[LobbyTable]:
    with factory() as s:
        return list(s.exec(select(LobbyTable)).all())


# --- new ----------------------------------------------------------------------------------


def test_new_tells_how_to_confirm_and_how_others_join(post: Post) -> None:
    result = post.send(ANN, "new testcards players 3 rounds=2", name="Ann")
    assert result.status == "applied"
    subject, body = post.answer(result)
    assert subject.startswith("[testcards-t1] Confirm your seat at Test Cards: code ")
    code = subject.rsplit(" ", 1)[1]
    assert "You opened table [testcards-t1]: Test Cards for 3 players. You take seat 1." in body
    assert f"or send a mail with the line: confirm {code}" in body
    assert "held for you until 2026-11-28 21:00 UTC" in body  # 12 hours by default
    assert "1 waiting for confirmation, 3 free." in body  # held, it keeps nobody out
    assert 'Others join with the line "join testcards-t1"' in body


@pytest.mark.parametrize(("line", "says"), [
    ("new", 'Name the game: new GAME players N [option=value ...]'),
    ("new chess", 'This host has no game called "chess".'),
    ("new testcards players 9", "Test Cards takes 2 to 4 players, not 9."),
    ("new testcards players three", "Test Cards takes 2 to 4 players, not three."),
    ("new testcards colour=red", "The options were not accepted: Test Cards has no option "
                                 "'colour'"),
    ("new testcards rounds=many", "The options were not accepted: option rounds is a whole "
                                  "number, not 'many'."),
    ("new testcards quickly", '"quickly" is not understood here. Write: new testcards '
                              'players N [bots N [strong]] [option=value ...]'),
])
def test_new_refused_says_why_and_opens_nothing(post: Post, factory: SessionFactory,
                                                 line: str, says: str) -> None:
    result = post.send(ANN, line)
    assert result.status == "rejected"
    subject, body = post.answer(result)
    assert subject == "Your new table was not opened"
    assert says in " ".join(body.split()), body
    assert tables(factory) == []


class OptionCards(TestCards):
    """The test game with an option of each kind the host reads from text (under the test
    game's name, so its mail templates serve)."""

    title: ClassVar[str] = "Option Cards"

    def default_options(self) -> dict[str, Any]:
        return {"rounds": 2, "advanced": False, "speed": 1.5, "variant": "classic"}


@pytest.fixture
def option_cards() -> None:
    registry.register(OptionCards())  # the lobby's fixture unregisters it by its name


NOT_OPENED = {"en": "Your new table was not opened",
              "de": "Dein neuer Tisch wurde nicht eröffnet",
              "fr": "Votre nouvelle table n'a pas été ouverte",
              "it": "Il tuo nuovo tavolo non è stato aperto",
              "nl": "Je nieuwe tafel is niet geopend"}
NOT_ACCEPTED = {"en": "The options were not accepted:",
                "de": "Die Optionen wurden nicht angenommen:",
                "fr": "Les options n'ont pas été acceptées :",
                "it": "Le opzioni non sono state accettate:",
                "nl": "De opties zijn niet aanvaard:"}


@pytest.mark.parametrize(("lang", "line", "says"), [
    ("en", "new testcards colour=red", "Option Cards has no option 'colour'; its options: "
     "advanced (yes/no, default no), rounds (a whole number, default 2), speed (a number, "
     "default 1.5), variant (text, default classic)."),
    ("de", "new testcards colour=red", "Option Cards hat keine Option 'colour'; verfügbare "
     "Optionen: advanced (ja/nein, Vorgabe no), rounds (eine ganze Zahl, Vorgabe 2), speed "
     "(eine Zahl, Vorgabe 1.5) und variant (Text, Vorgabe classic)."),
    ("fr", "new testcards colour=red", "Option Cards n'a pas d'option 'colour' ; ses options : "
     "advanced (oui/non, par défaut no), rounds (un nombre entier, par défaut 2), speed (un "
     "nombre, par défaut 1.5) et variant (texte, par défaut classic)."),
    ("it", "new testcards colour=red", "Option Cards non ha l'opzione 'colour'; le sue opzioni: "
     "advanced (sì/no, predefinito no), rounds (un numero intero, predefinito 2), speed (un "
     "numero, predefinito 1.5) e variant (testo, predefinito classic)."),
    ("nl", "new testcards colour=red", "Option Cards heeft geen optie 'colour'; de opties: "
     "advanced (ja/nee, standaard no), rounds (een geheel getal, standaard 2), speed (een "
     "getal, standaard 1.5) en variant (tekst, standaard classic)."),
    ("de", "new testcards advanced=vielleicht", "Die Option advanced verlangt yes oder no (auch "
     "true/false, on/off, 1/0), nicht 'vielleicht'."),
    ("de", "new testcards rounds=viele", "Die Option rounds verlangt eine ganze Zahl, nicht "
     "'viele'."),
    ("de", "new testcards speed=schnell", "Die Option speed verlangt eine Zahl, nicht "
     "'schnell'."),
    ("de", "new testcards rounds=3 rounds=4", "Die Option rounds ist zweimal angegeben."),
    ("fr", "new testcards advanced=jamais", "l'option advanced attend yes ou no (ou aussi "
     "true/false, on/off, 1/0), pas 'jamais'."),
    ("it", "new testcards rounds=molti", "l'opzione rounds richiede un numero intero, non "
     "'molti'."),
    ("nl", "new testcards speed=snel", "de optie speed verwacht een getal, niet 'snel'."),
])
def test_an_option_refusal_is_in_the_senders_language_throughout(
        post: Post, factory: SessionFactory, option_cards: None, lang: str, line: str,
        says: str) -> None:
    """The option names and the values to type stay as they are written; the rest is the
    sender's language, down to the kinds and the list's last "and"."""
    refused_at_once(post, factory, lang, line, says)


def refused_at_once(post: Post, factory: SessionFactory, lang: str, line: str,
                    says: str) -> None:
    """``line`` opens no table; the one answer, in ``lang``, says the options were not
    accepted and ``says`` why."""
    result = post.send(ANN, line, lang=lang)
    assert result.status == "rejected"
    subject, body = post.answer(result)
    assert subject == NOT_OPENED[lang]
    assert f"{NOT_ACCEPTED[lang]} {says}" in " ".join(body.split()), body
    assert tables(factory) == []


@pytest.mark.parametrize(("lang", "line", "says"), [
    ("en", "new das-riff coral=12", "the reef cards add up to 62, but the box holds 60 (fish "
     "of both sexes + coral + pearl + shark + water)."),
    ("de", "new das-riff coral=12", "Die Riffkarten ergeben zusammen 62, in der Schachtel sind "
     "aber 60 (Fische beider Geschlechter + Korallen + Perlen + Haie + Wasser)."),
    ("fr", "new das-riff coral=12", "les cartes récif font 62 en tout, mais la boîte en "
     "contient 60 (poissons des deux sexes + corail + perle + requin + eau)."),
    ("it", "new das-riff coral=12", "le carte scogliera sommano a 62, ma la scatola ne contiene "
     "60 (pesci di entrambi i sessi + corallo + perla + squalo + acqua)."),
    ("nl", "new das-riff coral=12", "de rifkaarten tellen op tot 62, maar de doos bevat er 60 "
     "(vissen van beide geslachten + koraal + parel + haai + water)."),
    ("en", "new das-riff die_faces=red", "option die_faces is JSON list (like []), not 'red'."),
    ("de", "new das-riff die_faces=rot", "Die Option die_faces verlangt JSON list (wie []), "
     "nicht 'rot'."),
    ("de", 'new das-riff die_faces=[["red"]]', "Die Option die_faces muss 2 Würfel mit je 6 "
     "Seiten auflisten, jede Seite eine von red, yellow, blue, green, pink, purple; nicht "
     "[['red']]."),
    ("de", 'new das-riff colour_names=["red"]', "Die Option colour_names muss 6 verschiedene "
     "kleingeschriebene Wörter enthalten (keine Befehlswörter), nicht ['red']."),
    ("de", "new das-riff coral=0 water=16", "Im Riff muss mindestens eine Koralle und ein "
     "Fisch jedes Geschlechts sein."),
    ("de", "new das-riff turn_limit=1", "Die Option turn_limit muss eine ganze Zahl von Zügen "
     "sein (2 oder mehr), nicht 1."),
    ("de", "new das-riff coral=-1 water=17", "Die Option coral muss eine ganze Zahl von Karten "
     "sein, nicht -1."),
    ("de", 'new das-riff breeding_cards=["red"]', "Die Option breeding_cards muss 21 Karten "
     "auflisten."),
    ("de", 'new das-riff breeding_cards=["red+orange"' + ',"red"' * 20 + "]",
     "Zuchtkarte 'red+orange': schreib eine Farbe oder zwei, verbunden mit '+' (z. B. "
     "red+yellow), aus: red, yellow, blue, green, pink, purple."),
])
def test_a_games_own_option_check_refuses_the_table_at_once(
        post: Post, factory: SessionFactory, lang: str, line: str, says: str) -> None:
    """What the game's setup would refuse when the table starts, after everyone joined, is
    refused when it is opened, in the game's words in the sender's language."""
    refused_at_once(post, factory, lang, line, says)


def test_a_join_that_would_open_a_table_checks_its_options_too(
        post: Post, factory: SessionFactory) -> None:
    result = post.send(ANN, "join das-riff turn_limit=1", lang="nl")
    assert result.status == "rejected"
    _, body = post.answer(result)
    assert (f"{NOT_ACCEPTED['nl']} de optie turn_limit moet een geheel aantal beurten zijn (2 "
            "of meer), niet 1.") in " ".join(body.split()), body
    assert tables(factory) == []


def test_a_table_of_das_riff_with_its_own_colours_starts(post: Post,
                                                        factory: SessionFactory) -> None:
    """Colours of the group's own: the breeding cards (not given) follow them, so the game's
    check and its setup at the start both take the table."""
    names = '["red","yellow","blue","green","orange","violet"]'
    ann, _ = post.seat(ANN, f"new das-riff colour_names={names}", name="Ann")
    ben, _ = post.seat(BEN, "join riff-t1", name="Ben")
    confirm(post, ANN, ann)
    result = post.send(BEN, f"confirm {ben}")
    assert result.status == "applied", result
    with factory() as s:
        assert s.exec(select(Game)).one().tag == "riff-t1"


def test_a_json_option_written_with_spaces_is_read_whole(post: Post,
                                                        factory: SessionFactory) -> None:
    """A mail client's user writes JSON as people do, with spaces after commas and colons:
    the words of one value are joined again until its brackets close. Das Riff's fish may be
    counted per colour, and by sex, beside one number for all."""
    fish = ('{"red": {"m": 4, "f": 2}, "yellow": 3, "blue": 3, "green": 3, "pink": 3, '
            '"purple": 3}')
    ann, _ = post.seat(ANN, f"new das-riff fish_per_colour_per_sex={fish} players 2",
                       name="Ann")
    ben, _ = post.seat(BEN, "join riff-t1", name="Ben")
    confirm(post, ANN, ann)
    assert post.send(BEN, f"confirm {ben}").status == "applied"
    with factory() as s:
        options = json.loads(s.exec(select(Game)).one().options_json)
    assert options["fish_per_colour_per_sex"]["red"] == {"m": 4, "f": 2}
    assert options["fish_per_colour_per_sex"]["blue"] == 3


@pytest.mark.parametrize(("lang", "says"), [
    ("en", "option fish_per_colour_per_sex is a whole number or JSON dict (like {\"red\": 3, "),
    ("nl", "de optie fish_per_colour_per_sex verwacht een geheel getal of JSON dict (zoals "
     "{\"red\": 3, "),
])
def test_an_option_of_two_kinds_refused_names_both(post: Post, factory: SessionFactory,
                                                   lang: str, says: str) -> None:
    refused_at_once(post, factory, lang, "new das-riff fish_per_colour_per_sex=lots", says)


def test_an_unknown_game_lists_the_hosts_games(post: Post) -> None:
    _, body = post.answer(post.send(ANN, "new chess"))
    assert "The games of this host:" in body and "testcards (Test Cards)" in body


def test_a_sender_has_at_most_three_open_tables(post: Post, factory: SessionFactory) -> None:
    for _ in range(3):
        post.send(BEN, "new testcards")
    limits = dataclasses.replace(post.host.limits, unverified_replies_per_hour=10)
    host = dataclasses.replace(post.host, limits=limits)
    again = Post(factory, host).send(BEN, "new testcards")
    assert again.status == "rejected"
    _, body = Post(factory, host).answer(again)
    assert "You already have 3 open tables, the most this host allows." in body
    assert 'Start one ("start TAG") or leave one ("leave TAG") first.' in body
    assert len(tables(factory)) == 3


def test_tables_per_address_per_day_and_per_host(factory: SessionFactory, post: Post) -> None:
    """The host's cap counts the tables a confirmed seat holds: tables only held unconfirmed
    (anyone can open those for any From line) do not spend it."""
    host = dataclasses.replace(post.host, lobby=Lobby(
        enabled=True, tables_per_address_per_day=1, tables_per_day=2))
    mine = Post(factory, host)
    code, _ = mine.seat(ANN, "new testcards")
    mine.send(ANN, f"leave testcards-t1 {code}")
    _, body = mine.answer(mine.send(ANN, "new testcards"))
    assert "You opened 1 tables in the last 24 hours, the most this host allows." in body
    for who in ("dora@players.test", "eve@players.test"):  # held, never confirmed
        mine.seat(who, "new testcards")
    for who in (BEN, CY):
        confirm(mine, who, mine.seat(who, "new testcards")[0])
    _, body = mine.answer(mine.send("fay@players.test", "new testcards"))
    assert "This host opened as many tables today as it takes (2)." in body
    assert len(tables(factory)) == 5


def test_only_the_operator_opens_tables_when_so_configured(factory: SessionFactory,
                                                           post: Post) -> None:
    host = dataclasses.replace(post.host, lobby=Lobby(enabled=True, open="operator"))
    mine = Post(factory, host)
    _, body = mine.answer(mine.send(ANN, "new testcards"))
    assert "On this host only its operator opens tables." in body
    assert mine.send("op@host.test", "new testcards").status == "applied"


def test_only_known_players_open_tables_when_so_configured(factory: SessionFactory,
                                                           post: Post) -> None:
    host = dataclasses.replace(post.host, lobby=Lobby(enabled=True, open="players"))
    mine = Post(factory, host)
    _, body = mine.answer(mine.send(ANN, "new testcards"))
    assert "only players who have played here before open tables" in body
    code, _ = mine.seat(BEN, "new testcards") if False else ("", "")
    del code
    # Ann joins the operator's table and confirms: she is known from then on.
    opener = mine.send("op@host.test", "new testcards")
    assert opener.status == "applied"
    ann, _ = mine.seat(ANN, "join testcards-t1")
    mine.send(ANN, f"confirm {ann}")
    assert mine.send(ANN, "new testcards").status == "applied"


# --- join ---------------------------------------------------------------------------------


def test_join_refusals(post: Post) -> None:
    subject, body = post.answer(post.send(BEN, "join"))
    assert subject == "You did not get a seat"
    assert '"join TAG" takes a seat at that table, "join GAME" the first free seat' in body
    _, body = post.answer(post.send(BEN, "join nothing-9"))
    assert 'This host has no game called "nothing-9".' in body
    code = opened(post, players=2)
    confirm(post, ANN, code)
    _, body = post.answer(post.send(ANN, "join testcards-t1"))
    assert "You already hold a confirmed seat at [testcards-t1]." in body
    post.send(BEN, "join testcards-t1")  # the last seat, unconfirmed: it keeps nobody out
    assert post.send(CY, "join testcards-t1").status == "applied"


def test_join_again_mails_the_same_code_at_most_once_a_day(post: Post, clock: Clock) -> None:
    """A forged join from a waiting player's address must not make the code she has useless:
    the same code goes again, once a day at most (here holds last two days)."""
    mine = Post(post.factory, dataclasses.replace(post.host, lobby=Lobby(
        enabled=True, confirm_hours=48)))
    confirm(mine, ANN, mine.seat(ANN, "new testcards players 3")[0])
    first, _ = mine.seat(BEN, "join testcards-t1")
    subject, body = mine.answer(mine.send(BEN, "join testcards-t1"))
    assert subject == "[testcards-t1] Your seat waits for confirmation"
    assert ("Its code was mailed to this address on 2026-11-28 09:00 UTC; the host mails it "
            "again at most once a day, the same code each time.") in " ".join(body.split())
    assert first not in body
    clock.advance(hours=25)
    again, subject = mine.seat(BEN, "join testcards-t1")
    assert again == first and subject.startswith("[testcards-t1] Confirm your seat")
    assert confirm(mine, BEN, first)[0] == "[testcards-t1] Your seat is confirmed"


def test_matchmaking_opens_a_table_when_none_has_a_seat(post: Post) -> None:
    _, body = post.answer(post.send(CY, "join testcards players 4"))
    assert ("No table of Test Cards had a free seat, so you opened table [testcards-t1] for "
            "4 players, and took seat 1.") in " ".join(body.split())


def test_a_started_table_takes_no_more_players(post: Post) -> None:
    code = opened(post, players=2)
    ben, _ = post.seat(BEN, "join testcards-t1")
    confirm(post, ANN, code)
    post.send(BEN, f"confirm {ben}")
    _, body = post.answer(post.send(CY, "join testcards-t1"))
    assert ("Table [testcards-t1] has started: it is game [testcards-t1] now, and takes no more "
            "players.") in " ".join(body.split())


# --- confirm ------------------------------------------------------------------------------


def test_a_wrong_code_confirms_nothing(post: Post, factory: SessionFactory) -> None:
    opened(post)
    subject, body = post.answer(post.send(ANN, "confirm ABCD-EFGH"))
    assert subject == "Your seat was not confirmed"
    assert "No seat of yours waits for this code." in body
    assert 'Send "join TAG" to take a seat again' in body
    with factory() as s:
        assert s.exec(select(LobbySeat)).one().confirmed_at is None


def test_another_address_cannot_use_a_code(post: Post, factory: SessionFactory) -> None:
    code = opened(post)
    assert post.send(BEN, f"confirm {code}").status == "rejected"
    with factory() as s:
        assert s.exec(select(LobbySeat)).one().confirmed_at is None


def test_the_code_is_kept_nowhere_in_clear(post: Post, factory: SessionFactory) -> None:
    code = opened(post)
    post.send(ANN, "", subject=f"Re: [testcards-t1] Confirm your seat: code {code}")
    with factory() as s:
        from pbem.store import InboundMessage

        for row in s.exec(select(InboundMessage)):
            assert code not in row.subject and code.encode() not in row.raw


# --- leave, start -------------------------------------------------------------------------


def test_leave(post: Post, factory: SessionFactory) -> None:
    subject, body = post.answer(post.send(BEN, "leave"))
    assert subject == "You did not leave the table" and "Name the table: leave TAG" in body
    ann = opened(post)
    _, body = post.answer(post.send(BEN, "leave testcards-t1"))
    assert "You hold no seat at [testcards-t1]." in body
    ben, _ = post.seat(BEN, "join testcards-t1")
    confirm(post, BEN, ben)
    # A reply to the seat's mail: its subject carries the code and names the table.
    subject, body = post.answer(post.send(
        ANN, "leave", subject=f"Re: [testcards-t1] Confirm your seat at Test Cards: code {ann}"))
    assert subject == "[testcards-t1] You left the table"
    assert "You left table [testcards-t1]; your seat is free again." in body
    assert tables(factory)[0].opener == BEN  # the next confirmed seat opens it now
    _, body = post.answer(post.send(BEN, f"leave testcards-t1 {ben.lower()}"))  # on the line
    assert "Nobody else was seated, so the table is closed." in body
    assert tables(factory)[0].status == "closed"


def test_leave_start_and_invite_need_the_seats_code(post: Post, factory: SessionFactory) -> None:
    limits = dataclasses.replace(post.host.limits, unverified_replies_per_hour=50)
    post = Post(factory, dataclasses.replace(post.host, limits=limits))
    ann = opened(post)
    confirm(post, ANN, ann)
    ben, _ = post.seat(BEN, "join testcards-t1")
    confirm(post, BEN, ben)
    for sent, line, subject in (
            ("leave testcards-t1", "leave testcards-t1", "You did not leave the table"),
            ("start testcards-t1", "start testcards-t1", "The table did not start"),
            ("invite testcards-t1 dora@players.test", "invite testcards-t1 name@example.org",
             "No invitation was sent")):
        for wrong in ("", f" {ben}", " ABCD-EFGH"):  # none, another seat's, a guess
            result = post.send(ANN, sent + wrong)
            assert result.status == "rejected", (line, wrong)
            got, body = post.answer(result)
            assert got == f"[testcards-t1] {subject}"
            assert ("Only the holder of the seat at [testcards-t1] can do this, and anyone can "
                    "write any sender: reply to your seat's mail (its subject carries your "
                    f"seat's code) with the line \"{line}\", or add the code to the line: "
                    f"{line} CODE") in " ".join(body.split())
    with factory() as s:
        assert len(s.exec(select(LobbySeat)).all()) == 2
        assert s.exec(select(Game)).all() == []
        assert tables(factory)[0].status == "open"


def test_start_early(post: Post, factory: SessionFactory) -> None:
    code = opened(post, players=4)
    subject, body = post.answer(post.send(ANN, f"start testcards-t1 {code}"))
    assert subject == "[testcards-t1] The table did not start"
    assert "Only the player who opened [testcards-t1] starts it early" in " ".join(body.split())
    confirm(post, ANN, code)
    _, body = post.answer(post.send(ANN, f"start testcards-t1 {code}"))
    assert ("Test Cards needs at least 2 players; [testcards-t1] has 1 confirmed seats."
            in " ".join(body.split()))
    ben, _ = post.seat(BEN, "join testcards-t1")
    _, body = post.answer(post.send(BEN, f"start testcards-t1 {ben}"))
    assert "Only the player who opened" in body
    post.send(BEN, f"confirm {ben}")
    post.seat(CY, "join testcards-t1")  # never confirmed: left out of the game
    started = post.send(ANN, "start", subject=f"Re: [testcards-t1] code {code}")
    assert started.status == "applied"
    assert sorted(to for to, _ in post.answers(started)) == [ANN, BEN]  # welcome mails only
    with factory() as s:
        game = s.exec(select(Game)).one()
        assert game.tag == "testcards-t1"
        assert s.exec(select(LobbySeat.address)).all() == [ANN, BEN]


def as_opened_before_the_check(factory: SessionFactory, options: dict[str, Any]) -> None:
    """The table's stored options, changed to ones its game refuses: a table opened before
    the host asked the game at ``new`` (today ``new`` refuses them at once)."""
    with factory() as s:
        table = s.exec(select(LobbyTable)).one()
        table.options_json = json.dumps(options)
        s.add(table)
        s.commit()


def test_a_full_table_its_game_refuses_is_closed_and_everyone_told(
        post: Post, factory: SessionFactory) -> None:
    """Not a confirmation stuck in quarantine for good: the last confirmer's answer and the
    other players' one note each say why, each in the player's language."""
    ann, _ = post.seat(ANN, "new das-riff", name="Ann")
    ben, _ = post.seat(BEN, "join riff-t1", name="Ben", lang="de")
    assert post.send(BEN, f"confirm {ben}", lang="de").status == "applied"
    as_opened_before_the_check(factory, {"coral": 12})
    result = post.send(ANN, f"confirm {ann}")
    assert result.status == "applied"
    got = {to: (str(m["Subject"]), " ".join(text(m).split())) for to, m in post.answers(result)}
    assert sorted(got) == [ANN, BEN]
    assert got[ANN][0] == "[riff-t1] The table was closed"
    assert ("Table [riff-t1] cannot start: Das Riff refuses its options: the reef cards add up "
            "to 62, but the box holds 60" in got[ANN][1]), got[ANN][1]
    assert 'It is closed. Send "games" to find another table, or "new" to open one.' in got[ANN][1]
    assert got[BEN][0] == "[riff-t1] Der Tisch wurde geschlossen"
    assert "Der Tisch [riff-t1] kann nicht beginnen: Das Riff lehnt seine Optionen ab:" in (
        got[BEN][1]), got[BEN][1]
    with factory() as s:
        assert s.exec(select(Game)).all() == []
        assert s.exec(select(LobbyTable)).one().status == "closed"


def test_starting_early_a_table_its_game_refuses_closes_it(
        post: Post, factory: SessionFactory) -> None:
    ann, _ = post.seat(ANN, "new reef-2018 players 3", name="Ann")
    tag = tables(factory)[0].tag
    ben, _ = post.seat(BEN, f"join {tag}", name="Ben")
    post.send(BEN, f"confirm {ben}")
    confirm(post, ANN, ann)
    as_opened_before_the_check(factory, {"colour": "red"})
    result = post.send(ANN, f"start {tag} {ann}")
    assert result.status == "applied"
    got = {to: " ".join(text(m).split()) for to, m in post.answers(result)}
    assert sorted(got) == [ANN, BEN]
    assert (f"Table [{tag}] cannot start: Reef refuses its options: unknown Reef options: "
            "colour." in got[ANN]), got[ANN]
    with factory() as s:
        assert s.exec(select(Game)).all() == []
        assert s.exec(select(LobbyTable)).one().status == "closed"


# --- games, help, never, the lobby off ----------------------------------------------------


def test_games_lists_open_tables_and_ones_own(post: Post) -> None:
    subject, body = post.answer(post.send(CY, "games"))
    assert subject == "Open tables and your games"
    assert "No table is open right now." in body
    opened(post)
    _, body = post.answer(post.send(BEN, "games"))
    assert "Open tables you can join:" in body
    assert ("[testcards-t1] Test Cards: 0 of 3 seats taken, 3 free; options: —; opened by Ann "
            "on 2026-11-28 09:00 UTC") in " ".join(body.split())
    code = opened(post, players=2) if False else None
    del code


def test_games_shows_ones_games_with_whose_turn(post: Post) -> None:
    code = opened(post, players=2)
    ben, _ = post.seat(BEN, "join testcards-t1", name="Ben")
    confirm(post, ANN, code)
    post.send(BEN, f"confirm {ben}")
    limits = dataclasses.replace(post.host.limits, unverified_replies_per_hour=50)
    host = dataclasses.replace(post.host, limits=limits)
    mine = Post(post.factory, host)
    _, body = mine.answer(mine.send(BEN, "games"))
    assert "Your games:" in body
    assert "[testcards-t1] Test Cards: waiting for Ann" in body


def test_help_without_a_game_lists_the_lobby(post: Post) -> None:
    subject, body = post.answer(post.send(CY, "help"))
    assert subject == "How to find a game here"
    for line in ("games", "new GAME players N [option=value ...]", "join TAG", "confirm CODE",
                 "leave TAG CODE", "start TAG CODE", "invite TAG ADDRESS CODE", "never"):
        assert f"  {line}" in body, line
    flat = " ".join(body.split())
    assert ("CODE is your seat's code, in the subject of the mail that gave you the seat: "
            "simply reply to that mail with the line, and leave out TAG and CODE.") in flat
    assert ('Playing against the computer: "new GAME players N bots N strong" opens a table '
            "whose last N seats are bots (random, normal, strong; normal if not said)") in flat


def test_never_gets_no_answer_and_no_mail_after(post: Post) -> None:
    result = post.never(CY)
    before = post.sent_count()
    assert result.status == "applied" and result.queued == []
    for body in ("games", "new testcards", "join testcards", "help"):
        assert post.send(CY, body).queued == []
    assert post.sent_count() == before


def test_a_lobby_that_is_off_says_so(factory: SessionFactory, post: Post) -> None:
    host = dataclasses.replace(post.host, lobby=Lobby(enabled=False))
    mine = Post(factory, host)
    result = mine.send(ANN, "new testcards")
    assert result.status == "rejected"
    subject, body = mine.answer(result)
    assert subject == "About your mail to the game host"
    assert "This game host does not open tables by mail" in body
    assert tables(factory) == []


def test_senders_outside_the_allowed_domains_get_nothing(factory: SessionFactory,
                                                         post: Post) -> None:
    host = dataclasses.replace(post.host, lobby=Lobby(enabled=True, domains=("club.test",)))
    mine = Post(factory, host)
    assert mine.send(ANN, "new testcards").queued == []
    assert tables(factory) == []
    assert mine.send("dora@club.test", "new testcards").status == "applied"


def test_replies_are_in_the_senders_language(post: Post) -> None:
    subject, body = post.answer(post.send(ANN, "nouveau testcards joueurs 3", lang="fr"))
    assert subject.startswith("[testcards-t1] Confirmez votre place à Test Cards : code ")
    assert "Vous avez ouvert la table [testcards-t1]" in body
    assert "confirmer " in body
    _, body = post.answer(post.send(BEN, "spiele", lang="de"))
    assert "Offene Tische, denen du beitreten kannst:" in body


def test_seats_expire_and_the_table_reopens_them(post: Post, clock: Clock,
                                                 factory: SessionFactory) -> None:
    opened(post, players=2)
    ben, _ = post.seat(BEN, "join testcards-t1")
    clock.advance(hours=13)
    _, body = post.answer(post.send(BEN, f"confirm {ben}"))
    assert "No seat of yours waits for this code." in body
    with factory() as s:  # both unconfirmed seats were given back: the table was closed
        assert s.exec(select(LobbyTable)).one().status == "closed"


def test_a_sent_join_mail_keeps_no_code(post: Post, factory: SessionFactory,
                                        tmp_path: object) -> None:
    """The code is in the mail only until it is sent: the copy kept is blanked."""
    from pathlib import Path

    from pbem.mail.outbound import MaildirSender
    from pbem.outbox.delivery import deliver_outbox
    from pbem.store import OutboundMessage

    code = opened(post)
    assert isinstance(tmp_path, Path)
    assert deliver_outbox(factory, MaildirSender(tmp_path / "out"), post.host).sent == 1
    with factory() as s:
        row = s.exec(select(OutboundMessage)).one()
        assert row.status == "sent" and code.encode() not in row.raw
    assert any(code.encode() in p.read_bytes() for p in (tmp_path / "out").rglob("*")
               if p.is_file())  # the player got it


# --- the player's profile -------------------------------------------------------------------


def test_a_profile_names_the_seat_and_speaks_its_language(post: Post,
                                                          factory: SessionFactory) -> None:
    """What a player set by mail (``name``, ``language``) decides over the mail's From name."""
    from pbem.store import players

    with factory() as s:
        ann = players.ensure(s, ANN)
        ann.name, ann.language = "Ann Example", "fr"
        s.commit()
    subject, _ = post.answer(post.send(ANN, "new testcards players 2", name="annie"))
    assert subject.startswith("[testcards-t1] Confirmez")
    with factory() as s:
        assert [seat.name for seat in s.exec(select(LobbySeat))] == ["Ann Example"]


def test_two_players_of_one_name_get_seats_of_two_names(post: Post,
                                                       factory: SessionFactory) -> None:
    """Talk goes to a seat by its name: a second Ann at the table is Ann 2, not a second Ann
    (and no address is shown to tell them apart)."""
    post.send(ANN, "new testcards players 3", name="Ann")
    post.send(BEN, "join testcards-t1", name="ann")
    post.send(CY, "join testcards-t1", name="Ann")
    with factory() as s:
        names = [seat.name for seat in s.exec(select(LobbySeat).order_by(col(LobbySeat.id)))]
    assert names == ["Ann", "ann 2", "Ann 3"]


def test_a_banned_address_gets_no_answer_from_the_lobby(post: Post,
                                                       factory: SessionFactory) -> None:
    from datetime import UTC, datetime

    from pbem.store import players

    with factory() as s:
        players.ensure(s, BEN).banned_at = datetime(2026, 11, 1, tzinfo=UTC)
        s.commit()
    before = post.sent_count()
    post.send(BEN, "new testcards players 2")
    assert post.sent_count() == before and tables(factory) == []


# --- the front door: holds per domain, never with proof ------------------------------------


def test_a_domain_holds_at_most_so_many_waiting_seats(factory: SessionFactory,
                                                      post: Post) -> None:
    host = dataclasses.replace(post.host, lobby=Lobby(enabled=True, holds_per_domain=2))
    mine = Post(factory, host)
    mine.seat(ANN, "new testcards players 4")
    mine.seat(BEN, "join testcards-t1")
    result = mine.send(CY, "join testcards-t1")
    assert result.status == "rejected"
    _, body = mine.answer(result)
    assert ("Addresses at players.test hold 2 seats that wait for confirmation, the most this "
            "host keeps for one domain. Please try again in a few hours, when seats not "
            "confirmed in time are given back.") in " ".join(body.split())
    _, body = mine.answer(mine.send(CY, "new testcards"))
    assert "Addresses at players.test hold 2 seats" in " ".join(body.split())
    assert mine.send("dora@elsewhere.test", "join testcards-t1").status == "applied"


def test_a_plain_never_asks_once_a_day_and_a_seats_code_proves_it(post: Post) -> None:
    result = post.send(CY, "never")
    assert result.status == "ignored"
    subject, body = post.answer(result)
    assert subject.startswith("No more mail from this host? code ")
    flat = " ".join(body.split())
    assert ("A mail from this address asked this game host never to write to it again. Anyone "
            "can write any sender, so the host asks first.") in flat
    assert "If it was not you, do nothing: nothing changes." in flat
    again = post.send(CY, "never")
    assert again.queued == [] and again.reason.endswith("no answer: asked already today")
    # The code of a seat the address holds proves the mail is its own, too.
    ben, _ = post.seat(BEN, "new testcards")
    assert post.send(BEN, f"never {ben}").queued == []
    assert post.send(BEN, "games").queued == []


def test_a_confirmed_seats_code_sent_again_is_no_never(post: Post) -> None:
    """Replying once more to the join mail (its code in the subject) confirms nothing more and
    marks nothing: only the address's never code, or the word never, asks for that."""
    ann, subject = post.seat(ANN, "new testcards players 3")
    confirm(post, ANN, ann)
    result = post.send(ANN, "yes", subject=f"Re: {subject}")
    assert result.status == "rejected"
    assert post.send(ANN, "games").queued != []


def test_a_note_to_a_stranger_carries_list_unsubscribe(post: Post) -> None:
    """Mail to someone who holds no seat can end the host's mail with one click: its
    List-Unsubscribe mail is a proven never (mailto only: no web endpoint to post to)."""
    from pbem.ops import api

    with post.factory() as s:
        game, _ = api.create_game(s, "testcards", [("Ann", ANN), ("Ben", BEN)], host=post.host)
        s.commit()
    result = post.send("zed@elsewhere.test", "hello", subject=f"[{game.tag}] hi")
    ((_, note),) = post.answers(result)
    found = re.fullmatch(r"<mailto:games@host\.test\?subject=never%20([A-Z2-9]{4}-[A-Z2-9]{4})>",
                         str(note["List-Unsubscribe"]))
    assert found is not None and note["List-Unsubscribe-Post"] is None
    assert post.send("zed@elsewhere.test", "", subject=f"never {found.group(1)}").queued == []
    assert post.send("zed@elsewhere.test", "games").queued == []


def test_a_new_host_key_gives_a_waiting_seat_a_new_code_once(post: Post, clock: Clock) -> None:
    """A code derived under the host's old key cannot be written again: the seat takes the
    one derived now, and the old one stops working."""
    mine = Post(post.factory, dataclasses.replace(post.host, lobby=Lobby(
        enabled=True, confirm_hours=48)))
    old, _ = mine.seat(BEN, "new testcards")
    clock.advance(hours=25)
    rekeyed = Post(post.factory, dataclasses.replace(mine.host, key=bytes(32)))
    new, _ = rekeyed.seat(BEN, "join testcards-t1")
    assert new != old
    _, body = rekeyed.answer(rekeyed.send(BEN, f"confirm {old}"))
    assert "No seat of yours waits for this code." in body
    assert confirm(rekeyed, BEN, new)[0] == "[testcards-t1] Your seat is confirmed"


def test_a_pass_over_the_mail_reads_the_host_key_lobby_or_not(tmp_path: Path) -> None:
    """The lobby's and the watchers' codes come from the host's key, and so does every
    seat's reply address (pbem.pipeline.reply_tokens): a host without either reads it too."""
    from pbem.ops import hostkey
    from pbem.settings.config import from_dict

    on = from_dict({"data_dir": str(tmp_path), "lobby": {"enabled": True}})
    assert hostkey.mail_host(on).key == hostkey.load(on.host_key_path).secret
    # Watching (on by default, for players) derives its codes from the key too.
    watching = from_dict({"data_dir": str(tmp_path / "watching")})
    watching.host_key_path.parent.mkdir(parents=True)
    assert hostkey.mail_host(watching).key == hostkey.load(watching.host_key_path).secret
    # With neither, the seats' reply addresses still need it.
    off = from_dict({"data_dir": str(tmp_path / "off"), "watch": {"open": "off"}})
    off.host_key_path.parent.mkdir(parents=True)
    key = hostkey.mail_host(off).key
    assert key is not None and key == hostkey.load(off.host_key_path).secret
    assert len({key, hostkey.mail_host(on).key, hostkey.mail_host(watching).key}) == 3
