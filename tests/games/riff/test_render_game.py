"""Whole status emails of a real Das Riff game against golden files: a fixed seed, orders from
seeded bots, every email built by the processor exactly as it is sent (text and HTML).

Regenerate with ``PBEM_UPDATE_GOLDEN=1 pytest tests/games/riff/test_render_game.py`` and read
the diff before committing it.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from pbem.games.riff import GAME
from pbem.games.riff.render import area_grid
from pbem.store import init, session_factory
from tests.games.riff.mailtable import ANN, BEN, seat_table, speak
from tests.games.riff.positions import FULL, build

GOLDEN = Path(__file__).parent / "golden"
NAMES = ["first_reply_to_mover", "first_status_to_other", "turn6_reply_to_mover",
         "turn6_status_to_other", "preference_reply", "final_to_ann", "final_to_ben"]
BEN_SPEAKS = ["en", "fr"]  # the same game with Ben's seat in English, then in French
PREFIX = {"en": "game_", "fr": "game_fr_"}  # golden file names by Ben's language


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("PBEM_UPDATE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing golden file {path}; run with PBEM_UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8")


@pytest.fixture(scope="module", params=BEN_SPEAKS)
def emails(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, tuple[str, str]]]:
    """Named emails of one game from seed "table", played by seeded bots; Ben's seat in the
    language of the parameter (his bot writes its orders in it), under "lang"."""
    lang: str = request.param
    engine = init(f"sqlite:///{tmp_path_factory.mktemp('golden') / 'g.sqlite'}")
    table = seat_table(session_factory(engine))
    speak(table, 1, lang)
    langs = ("en", lang)
    rng = random.Random(2026)
    picked: dict[str, tuple[str, str]] = {}
    turn = 0
    while GAME.waiting_for(state := table.state()):
        seat = state.to_move
        if turn == 3 and "preference_reply" not in picked:  # the other seat, out of turn
            result, reply = table.send(1 - seat, GAME.localise_order("prefer purple pink",
                                                                       langs[1 - seat]))
            assert result.status == "applied", reply
            picked["preference_reply"] = table.bodies(result)[(ANN, BEN)[1 - seat]]
        result, reply = table.send(seat, GAME.localise_order(
            GAME.random_order(state, seat, rng), langs[seat]))
        assert result.status == "applied", reply
        mails = table.bodies(result)
        me, other = (ANN, BEN) if seat == 0 else (BEN, ANN)
        turn += 1
        if turn in (1, 6):
            key = "first" if turn == 1 else "turn6"
            picked[f"{key}_reply_to_mover"] = mails[me]
            picked[f"{key}_status_to_other"] = mails[other]
        if not GAME.waiting_for(table.state()):
            picked["final_to_ann"] = mails[ANN]
            picked["final_to_ben"] = mails[BEN]
    yield {**picked, "lang": (lang, lang)}
    engine.dispose()


@pytest.mark.parametrize("name", NAMES)
def test_emails_of_a_fixed_seed_game_match_the_golden_files(
        emails: dict[str, tuple[str, str]], name: str) -> None:
    text, html = emails[name]
    prefix = PREFIX[emails["lang"][0]]
    check_golden(f"{prefix}{name}.txt", text)
    check_golden(f"{prefix}{name}.html", html)


def test_the_golden_emails_say_what_matters(emails: dict[str, tuple[str, str]]) -> None:
    if emails["lang"][0] == "fr":
        pytest.skip("Ben's French mails: test_the_french_seats_golden_emails_are_french")
    text, html = emails["turn6_status_to_other"]
    assert "THE FISHING AREA" in text and "[##]" in text
    assert "(sea end)" in text and "P1 boats" in text and "P2 boats" in text
    assert "OPEN BREEDING CROSSES" in text and "Dice for this turn: " in text
    assert "worm preference: " in text and "The card mix is a reconstruction" in text
    assert "Rulings in this game:" in text
    # The HTML draws the area, the open crosses and the corals as pictures (PNG parts), with
    # a legend in words; a table would run off a phone's screen.
    assert "? a face-down card" in html and "<table" not in html
    for picture in ("The fishing area", "The open breeding crosses", "Corals"):
        assert f'alt="{picture}"' in html
    assert "for example: pass" not in text  # an example that does something
    final, _ = emails["final_to_ann"]
    assert "The game is over." in final and "Scores are completed crosses." in final


def test_the_french_seats_golden_emails_are_french(
        emails: dict[str, tuple[str, str]]) -> None:
    if emails["lang"][0] != "fr":
        pytest.skip("the game with Ben in English: see the test above")
    final, html = emails["final_to_ben"]
    assert "LA ZONE DE PÊCHE" in final and "Les points sont les élevages réussis." in final
    assert "face cachée" in html or "Le contenu des cartes" in html
    ann, _ = emails["final_to_ann"]  # Ann's seat stays English in the same game
    assert "Scores are completed crosses." in ann


def test_golden_files_are_all_used() -> None:
    names = {p.name for p in GOLDEN.glob("game_*")}
    assert names == {f"{PREFIX[lang]}{n}.{ext}" for lang in BEN_SPEAKS for n in NAMES
                     for ext in ("txt", "html")}


def test_the_area_is_drawn_from_the_readers_side() -> None:
    state = build(FULL, players=[{"boats": 3}, {"boats": 2}])
    ann = area_grid(GAME.view(state, 0)).splitlines()
    ben = area_grid(GAME.view(state, 1)).splitlines()
    assert ann[2:] == [
        "P2 boats        B     B",
        "far (3)         pinM  purF  ~~~~  coral greF  bluM  yelF  redM",
        "far middle (2)  [##]  [##]  [##]  [##]  [##]  [##]  [##]  [##]",
        "middle (2)      [##]  [##]  [##]  [##]  [##]  [##]  [##]  [##]",
        "near (1)        redF  greM  coral pearl yelM  bluF  purM  pinF",
        "P1 boats        B     B     B",
    ]
    assert ben[3] == "far (3)         redF  greM  coral pearl yelM  bluF  purM  pinF"
    assert ben[-1] == "P2 boats        B     B"
