"""The archive page speaks one language: the one asked for, else the seat's, else the game's;
its events are rendered from their data in it, with the players' names."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlmodel import select

from pbem.engine.contract import Event
from pbem.i18n import translator
from pbem.ops import api
from pbem.ops.archive import Viewer, page_language
from pbem.store.tables import Game, Seat
from tests.ops.archive_support import Played, play, step_boards, text_of
from tests.support.english_left import english_left


@pytest.fixture(scope="module")
def reef(tmp_path_factory: pytest.TempPathFactory) -> Played:
    return play(tmp_path_factory.mktemp("reef"), "reef2018", 2, seed="archive-language")


def public_events(played: Played, lang: str) -> list[str]:
    """Every public event of the log in ``lang``, rendered from its data with the names."""
    export = played.exported_json()
    names = [s["name"] for s in export["seats"]]
    tr = translator(lang, "reef2018")
    return [Event.from_json(ev).render(tr, names) for e in export["log"]
            for ev in e["events"] if ev["visible_to"] is None]


def test_a_page_asked_for_in_french_is_french_throughout(reef: Played, tmp_path: Path) -> None:
    page = reef.export(tmp_path / "fr.html", "--lang", "fr")
    text = text_of(page)
    assert '<html lang="fr">' in page
    assert "Joueurs :" in text and "Vu par les spectateurs." in text
    assert "Rejeu vérifié : la mise en place et les" in text
    assert "Étape 0 : mise en place" in text and "Toutes les étapes" in text
    assert 'data-position="Étape {n} sur {last}"' in page  # the script's own words
    events = public_events(reef, "fr")
    assert len(events) > 10 and all(e in text for e in events)
    assert set(events).isdisjoint(public_events(reef, "en"))  # the events are French ones
    assert english_left(page, "fr", "reef-2018") == []
    boards = [b for step in step_boards(page).values() for b in step]
    assert len(boards) > 10  # the viewer's and, the game being over, each seat's
    assert [english_left(b, "fr", "reef-2018") for b in boards] == [[]] * len(boards)
    # ... where the English page is full of what the scan looks for.
    english = reef.export(tmp_path / "en.html")
    assert '<html lang="en">' in english and len(english_left(english, "fr", "reef-2018")) > 10


def test_the_default_is_the_seats_language_then_the_games(reef: Played, tmp_path: Path) -> None:
    with reef.factory() as s:
        game = s.exec(select(Game).where(Game.tag == reef.tag)).one()
        seats = s.exec(select(Seat).where(Seat.game_id == game.id)).all()
        game.language = "it"
        [second] = [seat for seat in seats if seat.index == 1]
        second.language = "de"
        s.add(game)
        s.add(second)
        s.commit()
    try:
        public = text_of(reef.export(tmp_path / "public.html"))
        seat2 = text_of(reef.export(tmp_path / "seat2.html", "--as", "2"))
        asked = text_of(reef.export(tmp_path / "nl.html", "--as", "2", "--lang", "nl"))
    finally:
        with reef.factory() as s:
            game = api.get_game(s, reef.tag)
            game.language = "en"
            for seat in s.exec(select(Seat).where(Seat.game_id == game.id)).all():
                seat.language = "en"
                s.add(seat)
            s.add(game)
            s.commit()
    assert "Punto di vista: gli spettatori." in public and "Passo 0: preparazione" in public
    assert "(Platz 2)" in seat2 and "Schritt 0: Aufbau" in seat2
    assert "(plaats 2)" in asked and "Stap 0: opzet" in asked


def test_an_unknown_language_or_one_without_html_is_refused(reef: Played, tmp_path: Path) -> None:
    out = reef.pbem("game", "export", reef.tag, "--format", "html", "--lang", "xx",
                    "-o", str(tmp_path / "x.html"), code=1)
    assert "unknown language 'xx'; known: en, fr, it, nl, de" in out
    out = reef.pbem("game", "export", reef.tag, "--lang", "fr", code=1)
    assert "--as, --addresses and --lang go with --format html" in out


def test_a_stored_language_we_do_not_speak_gives_an_english_page() -> None:
    # Rows written by hand or by an older version: the page must say the language its words
    # are in, and the translator speaks English for any code it lacks.
    game = Game(game_type="reef2018", tag="g", options_json="{}", seed="s", language="xx")
    seats = [Seat(game_id=1, index=i, name=name, address=f"{name}@example.org", language=lang,
                  secret_salt="", secret_hash="") for i, (name, lang) in enumerate(
                      [("a", "tlh"), ("b", "")])]
    assert page_language(game, seats, Viewer(), None) == "en"
    assert page_language(game, seats, Viewer(seat=0), None) == "en"
    assert page_language(game, seats, Viewer(seat=1), None) == "en"
    game.language = "it"
    assert page_language(game, seats, Viewer(seat=0), None) == "it"
    seats[0].language = "de"
    assert page_language(game, seats, Viewer(seat=0), None) == "de"
