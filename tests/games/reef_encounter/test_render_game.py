"""Whole status emails of a real game, against golden files: a fixed seed, orders from seeded
bots, every email built by the processor exactly as it is sent (plain text and HTML parts).

Regenerate the golden files with ``PBEM_UPDATE_GOLDEN=1 pytest tests/games/reef_encounter``
and read the diff before committing it.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from pbem.games.reef_encounter import GAME
from pbem.store import init, session_factory
from tests.games.reef_encounter.mailtable import ANN, BEN, seat_table, speaks
from tests.games.reef_encounter.test_render import check_golden


def play(tmp: Path, langs: dict[int, str] | None = None) -> dict[str, tuple[str, str]]:
    """Named emails of one 2-player game from seed "table", played by seeded bots; ``langs``
    gives seats their language (their bots then write orders in it)."""
    engine = init(f"sqlite:///{tmp / 'g.sqlite'}")
    table = seat_table(session_factory(engine))
    for seat, lang in (langs or {}).items():
        speaks(table, seat, lang)
    rng = random.Random(2026)
    picked: dict[str, tuple[str, str]] = {}
    turn = 0
    while GAME.waiting_for(state := table.state()):
        seat = min(GAME.waiting_for(state))
        order = GAME.random_order(state, seat, rng)
        result, reply = table.send(seat, GAME.localise_order(order, (langs or {}).get(seat, "en")))
        assert result.status == "applied", reply
        mails = table.bodies(result)
        me, other = (ANN, BEN) if seat == 0 else (BEN, ANN)
        if state.phase == "setup" and GAME.view(table.state(), None)["phase"] == "play":
            picked["game_begins_to_ann"] = mails[ANN]
            picked["game_begins_to_ben"] = mails[BEN]
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
def emails(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, tuple[str, str]]]:
    """The fixed-seed game in English."""
    yield play(tmp_path_factory.mktemp("golden"))


@pytest.fixture(scope="module")
def french_emails(tmp_path_factory: pytest.TempPathFactory
                  ) -> Iterator[dict[str, tuple[str, str]]]:
    """The same game with Ben's seat in French: his bot writes French orders."""
    yield play(tmp_path_factory.mktemp("golden-fr"), {1: "fr"})


@pytest.mark.parametrize("name", ["game_begins_to_ben", "turn6_reply_to_mover",
                                  "turn6_status_to_other", "final_to_ann", "final_to_ben"])
def test_a_french_seats_emails_match_the_golden_files(
        french_emails: dict[str, tuple[str, str]], name: str) -> None:
    text, html = french_emails[name]
    check_golden(f"game2_fr_{name}.txt", text)
    check_golden(f"game2_fr_{name}.html", html)


def test_the_french_seat_reads_french_and_the_english_seat_english(
        emails: dict[str, tuple[str, str]], french_emails: dict[str, tuple[str, str]]) -> None:
    assert french_emails["final_to_ann"] == emails["final_to_ann"]  # Ann's mail is unchanged
    ben = french_emails["final_to_ben"][0]
    assert "La partie est terminée." in ben and "DÉCOMPTE FINAL" in ben
    assert "The game is over." not in ben


@pytest.mark.parametrize("name", ["game_begins_to_ann", "turn6_reply_to_mover",
                                  "turn6_status_to_other", "final_to_ann", "final_to_ben"])
def test_emails_of_a_fixed_seed_game_match_the_golden_files(
        emails: dict[str, tuple[str, str]], name: str) -> None:
    text, html = emails[name]
    check_golden(f"game2_{name}.txt", text)
    check_golden(f"game2_{name}.html", html)


def _extra_growth(line: str) -> bool:
    return line.startswith("  - Extra growth: ")


def test_the_golden_emails_say_what_matters(emails: dict[str, tuple[str, str]]) -> None:
    text, html = emails["turn6_status_to_other"]
    assert "What happened since your last turn:" in text
    happened = text.split("What happened since your last turn:\n")[1].split("\n\n")[0]
    # "  - Green placed ...": the player who did it; an extra growth is part of the turn
    # that placed the polyp next to it and names no player.
    movers = {line.split()[1] for line in happened.splitlines() if not _extra_growth(line)}
    assert len(movers) == 1  # only the other player's turn: this seat read of its own before
    reply, _ = emails["turn6_reply_to_mover"]
    done = [line for line in reply.splitlines()
            if line.startswith("  - ") and not _extra_growth(line)]
    assert done and all(line.split()[1] in movers for line in done)  # the reply: its own turn
    assert "THE REEFS" in text and "     A  B  C  D  E  F  G" in text and "THE OPEN SEA" in text
    assert "CORAL TILES" in text and "Coral values now:" in text
    assert "YOUR SCREEN (only you see this)" in text
    assert '<img src="cid:board.' in html and "<svg" not in html  # the PNG every client shows
    final, final_html = emails["final_to_ann"]
    assert "The game is over." in final and "FINAL SCORING" in final
    assert "Ties are broken by, in order" in final
    assert final.count("    parrotfish: ") == 2  # every parrotfish revealed, to all
    assert "Final scoring" in final_html


@pytest.mark.parametrize("name", ["game_begins_to_ann", "turn6_status_to_other", "final_to_ben"])
def test_the_pictures_are_one_png_per_board_and_one_of_the_sea(
        emails: dict[str, tuple[str, str]], name: str) -> None:
    """Each board's picture, then the open sea's, then the tiles' (well-formed:
    tests/games/reef_encounter/test_render.py), travels as a PNG part of its own, so a move
    redraws only the parts it changed; tests/mail/test_pictures.py decodes them against the
    SVGs' sizes. A 2-player game plays on boards 1 and 3. A board is drawn in bands (its title
    and column letters; then each of its 6 rows), the sea in three (its title and names; the
    spaces; the alga row), so a move redraws one band (tests/support/bands.py checks that they
    show the picture); the mail carries them pasted into one PNG per picture."""
    html = emails[name][1]
    alts = re.findall(r'<img src="cid:board\.[0-9a-f]{20}@[^"]*" width="\d+" height="\d+" '
                      r'alt="([^"]*)"', html)
    assert alts == ["Board 1", "Board 3", "Open sea", "Coral tiles"]


def test_golden_files_are_all_used() -> None:
    """A renamed email must not leave its old golden file behind."""
    golden = Path(__file__).parent / "golden"
    names = {p.name for p in golden.glob("game2_*")}
    expected = {f"game2_{n}.{ext}" for n in ["game_begins_to_ann", "turn6_reply_to_mover",
                                             "turn6_status_to_other", "final_to_ann",
                                             "final_to_ben"] for ext in ("txt", "html")}
    expected |= {f"game2_fr_{n}.{ext}" for n in ["game_begins_to_ben", "turn6_reply_to_mover",
                                                 "turn6_status_to_other", "final_to_ann",
                                                 "final_to_ben"] for ext in ("txt", "html")}
    assert names == expected
