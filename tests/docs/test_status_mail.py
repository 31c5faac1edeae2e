"""The players' guide shows a real status mail: the golden plain-text part of a Reef status,
which tests/games/reef2018/test_render_game.py checks against the mail sent today; and the
same status in French, on the page about languages."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).parents[2]
PLAYING = ROOT / "docs" / "players" / "index.md"
LANGUAGE = ROOT / "docs" / "players" / "language.md"
GOLDEN = ROOT / "tests/games/reef2018/golden/game2_turn6_status_to_other.txt"


def test_the_guide_shows_the_status_mail_the_host_sends() -> None:
    readme = PLAYING.read_text(encoding="utf-8")
    mail = GOLDEN.read_text(encoding="utf-8").rstrip("\n").split("\n")
    shown = "\n".join(f"    {line}" if line else "" for line in mail)
    assert shown in readme, f"{PLAYING}'s status mail is stale: paste the golden file again"
    assert "It is your turn." in mail[1] and "Your mail setting: mail every." in mail[-1]


FRENCH_START = "<!-- a French status mail: tests/docs/test_status_mail.py writes it -->\n"
FRENCH_END = "<!-- end of the French status mail -->\n"


def french_status_mail(tmp: Path) -> str:
    """The same Reef game as the golden files, with Ben's seat in French: the plain text of
    the status Ben gets after Ann's sixth turn."""
    import random

    from pbem.engine import registry
    from pbem.store import init, session_factory
    from tests.support.seated import ANN, BEN, seat_table

    rules = registry.get("reef2018")
    engine = init(f"sqlite:///{tmp / 'fr.sqlite'}")
    try:
        table = seat_table(session_factory(engine), "reef2018")
        result, _ = table.send(1, "language fr")
        assert result.status == "applied"
        rng = random.Random(2026)
        turn = 0
        while rules.waiting_for(state := table.state()):
            seat = min(rules.waiting_for(state))
            result, reply = table.send(seat, rules.random_order(state, seat, rng))
            assert result.status == "applied", reply
            turn += state.phase == "play"
            if turn == 6 and seat == 0:
                return table.bodies(result)[BEN][0]
        del ANN
        raise AssertionError("the game ended before Ann's sixth turn")
    finally:
        engine.dispose()


def test_the_guide_shows_a_french_status_mail(tmp_path: Path) -> None:
    import os

    readme_path = LANGUAGE
    readme = readme_path.read_text(encoding="utf-8")
    mail = french_status_mail(tmp_path).rstrip("\n").split("\n")
    shown = "".join(f"    {line}\n" if line else "\n" for line in mail)
    assert FRENCH_START in readme and FRENCH_END in readme
    before, rest = readme.split(FRENCH_START)
    current, after = rest.split(FRENCH_END)
    if os.environ.get("PBEM_UPDATE_GOLDEN"):
        readme_path.write_text(f"{before}{FRENCH_START}\n{shown}\n{FRENCH_END}{after}",
                               encoding="utf-8")
        current = f"\n{shown}\n"
    assert current == f"\n{shown}\n", ("the guide's French status mail is stale: run "
                                      "PBEM_UPDATE_GOLDEN=1 pytest tests/docs/test_status_mail.py")
    assert "    C'est votre tour." in shown or "    En attente de" in shown


def test_the_readme_and_the_home_page_show_a_picture_of_a_status_mail() -> None:
    from PIL import Image

    picture = ROOT / "docs" / "images" / "status-mail.png"
    with Image.open(picture) as image:  # made by python -m tests.docs.status_picture
        assert image.format == "PNG" and image.width == 390 and image.height > 600
    assert 'src="docs/images/status-mail.png"' in (ROOT / "README.md").read_text("utf-8")
    assert "](images/status-mail.png)" in (ROOT / "docs" / "index.md").read_text("utf-8")
    assert len((ROOT / "README.md").read_text("utf-8").splitlines()) <= 300
