"""The end-of-game mail says each thing once: the ranking, then the game's explanation of the
scores, unless the game's own templates already show the final scoring (Reef Encounter)."""

from __future__ import annotations

from pbem.engine.chance import Chance
from pbem.games.reef_encounter import GAME as REEF
from pbem.rendering import StatusMail, render_status
from tests.support.testgame import GAME as CARDS

RANKING = ["1. Ann (15)", "2. Ben (15)"]
EXPLANATION = [
    "Coral values (1 point plus 1 per coral tile showing the colour on top): grey 4.",
    "Purple: 15 points (1 grey x 4 = 4).",
    "Purple and Green tie on 15 points.",
    "Tie-breaker 1 (consumed polyps in front of the screen): Purple 3, Green 2.",
    "Final ranking: 1. Purple; 2. Green.",
]


def final_mail(view: dict[str, object]) -> StatusMail:
    return StatusMail("Game", "g-1", 0, "Ann", view, outcome=RANKING, explanation=EXPLANATION)


def test_a_game_without_its_own_final_section_gets_the_explanation() -> None:
    view = CARDS.view(CARDS.setup(2, CARDS.default_options(), Chance("end")), 0)
    text, html = render_status(CARDS, final_mail(dict(view)))
    assert "The game is over.\n" + "\n".join(RANKING + EXPLANATION) + "\n" in text
    assert "".join(f"<li>{line}</li>" for line in RANKING + EXPLANATION) in html


def test_reef_mail_repeats_only_the_words_on_ties() -> None:
    view = REEF.view(REEF.setup(2, REEF.default_options(), Chance("end")), 0)
    text, html = render_status(REEF, final_mail(dict(view)))
    ties = EXPLANATION[2:4]
    assert text.endswith("The game is over.\n" + "\n".join(RANKING + ties) + "\n")
    assert "".join(f"<li>{line}</li>" for line in RANKING + ties) + "</ul>" in html
    for said_above in (EXPLANATION[0], EXPLANATION[1], EXPLANATION[4]):
        assert said_above not in text and said_above not in html
