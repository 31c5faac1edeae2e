"""Whole status emails of a real Reef game, against golden files: a fixed seed, orders from
seeded bots, every email built by the processor exactly as it is sent (plain text and HTML).

Regenerate the golden files with ``PBEM_UPDATE_GOLDEN=1 pytest tests/games/reef2018`` and
read the diff before committing it.
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Callable
from pathlib import Path
from xml.etree import ElementTree

import pytest

from pbem.engine.chance import Chance
from pbem.games.reef2018 import GAME
from pbem.games.reef2018.render import card_block, reef_grid
from pbem.games.reef2018.view import card_view, reef_view
from pbem.store import init, session_factory
from tests.games.reef2018.positions import reef
from tests.support.english_left import english_left, other_form_of_address, plural_slots
from tests.support.seated import ANN, BEN, seat_table

GOLDEN = Path(__file__).parent / "golden"
NAMES = ["game_begins_to_ann", "turn6_reply_to_mover", "turn6_status_to_other",
         "final_to_ann", "final_to_ben"]


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("PBEM_UPDATE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing golden file {path}; run with PBEM_UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8")


def play(tmp: Path, languages: list[str | None]) -> dict[str, tuple[str, str]]:
    """Named emails of one 2-player game from seed "table", played by seeded bots, each
    writing in its seat's language."""
    engine = init(f"sqlite:///{tmp / 'g.sqlite'}")
    table = seat_table(session_factory(engine), "reef2018", languages=languages)
    rng = random.Random(2026)
    picked: dict[str, tuple[str, str]] = {}
    turn = 0
    while GAME.waiting_for(state := table.state()):
        seat = min(GAME.waiting_for(state))
        order = GAME.random_order(state, seat, rng)
        lang = languages[seat] if seat < len(languages) else None
        result, reply = table.send(seat, GAME.localise_order(order, lang) if lang else order)
        assert result.status == "applied", reply
        mails = table.bodies(result)
        me, other = (ANN, BEN) if seat == 0 else (BEN, ANN)
        if state.phase == "setup" and table.state().phase == "play":
            picked["game_begins_to_ann"] = mails[ANN]
        turn += state.phase == "play"
        if turn == 6:
            picked["turn6_reply_to_mover"] = mails[me]
            picked["turn6_status_to_other"] = mails[other]
        if not GAME.waiting_for(table.state()):
            picked["final_to_ann"] = mails[ANN]
            picked["final_to_ben"] = mails[BEN]
    engine.dispose()
    return picked


@pytest.fixture(scope="module")
def emails(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[str, str]]:
    return play(tmp_path_factory.mktemp("golden"), [])


# Ann's language in the golden games besides English: each game's mails to her were read
# once, whole, as a native reader of that language reads them, before they were pinned.
OTHER_LANGUAGES = ("fr", "de", "it", "nl")
Mails = dict[str, tuple[str, str]]


@pytest.fixture(scope="module")
def emails_in(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Mails]:
    """The same game with Ann writing and reading ``lang`` (Ben English), played once."""
    made: dict[str, Mails] = {}

    def game(lang: str) -> Mails:
        if lang not in made:
            made[lang] = play(tmp_path_factory.mktemp(f"golden-{lang}"), [lang, None])
        return made[lang]
    return game


@pytest.fixture(scope="module")
def emails_fr(emails_in: Callable[[str], Mails]) -> Mails:
    return emails_in("fr")


@pytest.mark.parametrize("name", NAMES)
def test_the_emails_match_the_golden_files(emails: Mails, name: str) -> None:
    text, html = emails[name]
    check_golden(f"game2_{name}.txt", text)
    check_golden(f"game2_{name}.html", html)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_a_seats_emails_in_its_language_match_the_golden_files(
        emails_in: Callable[[str], Mails], lang: str, name: str) -> None:
    """Ann reads ``lang``, Ben English: the same game (the same orders, in her words), Ann's
    mails in her language, Ben's as in the English game but for the events Ann's orders
    made; Ann's hold no English sentence, no lazy plural and no other form of address."""
    text, html = emails_in(lang)[name]
    check_golden(f"game2{lang}_{name}.txt", text)
    check_golden(f"game2{lang}_{name}.html", html)
    if name.endswith("to_ann"):
        assert english_left(text, lang, "reef-2018") == []
        assert english_left(html, lang, "reef-2018") == []
        assert plural_slots(text) == [] and other_form_of_address(text, lang) == []


def test_the_french_golden_emails_say_what_matters(
        emails_fr: dict[str, tuple[str, str]]) -> None:
    final, final_html = emails_fr["final_to_ann"]
    assert "DÉCOMPTE FINAL  (chaque changement de chaque score)" in final
    assert final.count("    +3  3 jetons de 1 point au début") == 2
    assert "Décompte final" in final_html
    ben, _ = emails_fr["final_to_ben"]
    assert "FINAL SCORING" in ben and "DÉCOMPTE" not in ben


def test_the_golden_emails_say_what_matters(emails: dict[str, tuple[str, str]]) -> None:
    text, html = emails["turn6_status_to_other"]
    for part in ("THE REEFS", "      A   B   C   D", "THE MARKET", "tokens on it:",
                 "THE DECK: ", "its top card, face up:", "SUPPLY LEFT: red ",
                 "YOUR HAND (only you see this)", " points, "):
        assert part in text, part
    assert len(re.findall(r"^  Card \d+: gives ", text, flags=re.M)) >= 4  # market + deck top
    assert "<img src=\"cid:board." in html and "Your hand (only you see this)" in html
    final, final_html = emails["final_to_ann"]
    assert "The game is over" in final and "FINAL SCORING" in final
    assert final.count("    +3  3 one-point tokens at the start") == 2  # every score explained
    assert "Final scoring" in final_html


@pytest.mark.parametrize("name", ["game_begins_to_ann", "turn6_status_to_other", "final_to_ben"])
def test_the_pictures_travel_as_png(emails: dict[str, tuple[str, str]], name: str) -> None:
    """Each SVG (the reefs, each card's pattern) is an ``<img>`` of a PNG part; the parts are
    decoded against their SVG in tests/mail/test_pictures.py."""
    html = emails[name][1]
    assert "<svg" not in html
    images = re.findall(r'<img src="cid:board\.[0-9a-f]{20}@[^"]*" width="(\d+)" '
                        r'height="(\d+)" alt="([^"]*)"', html)
    # Each reef's picture says the reef in words: the mail draws it once, no text grid.
    assert re.fullmatch(r"Ann&#x27;s reef: (A1 .*|not placed yet|placed, "
                        r"shown when everyone has)", images[0][2]), images[0][2]
    assert len(images) > 1  # and the cards' patterns


def test_the_reefs_picture_is_well_formed_svg() -> None:
    state = GAME.setup(2, GAME.default_options(), Chance("svg"))
    markup = str(GAME.template_helpers()["reef_svg"](GAME.view(state, 0)))
    svg = "{http://www.w3.org/2000/svg}"
    pictures = ElementTree.fromstring(markup).findall("span")  # a picture per reef
    assert len(pictures) == 2
    for one in pictures:  # in bands: the name and column letters, then each row
        bands = one.findall(f"{svg}svg")
        assert len(bands) == 1 + 4
        assert sum(len(band.findall(f"{svg}rect")) for band in bands) == 16  # every square


def test_golden_files_are_all_used() -> None:
    names = {p.name for p in GOLDEN.glob("game2*")}
    assert names == {f"game2{lang}_{n}.{ext}" for lang in ("", *OTHER_LANGUAGES)
                     for n in NAMES for ext in ("txt", "html")}


def test_a_reef_grid_shows_top_colour_and_height() -> None:
    grid = reef_grid({"reef": reef_view(reef("""
    RRY . .  G
    .   P .  .
    .   . YYYY .
    .   . .  .
    """))})
    assert grid.splitlines() == [
        "      A   B   C   D",
        "  1   Y3  .   .   G1",
        "  2   .   P1  .   .",
        "  3   .   .   Y4  .",
        "  4   .   .   .   .",
    ]


def test_a_card_is_drawn_with_its_pattern() -> None:
    assert card_block(card_view(24)).splitlines() == [
        "Card 24: gives green + green; 5 points — 5 per diagonal pair: purple at least 2 "
        "high, red at least 2 high",
        "    P2+ .",
        "    .   R2+",
    ]
    assert card_block(card_view(19)).splitlines() == [
        "Card 19: gives red + red; 2 points — 2 per purple top next to your highest yellow "
        "stack (8 neighbours)",
        "    highest Y: +2 per P around it",
    ]
    assert card_block(card_view(36)).splitlines()[1] == "    *2  *2"
