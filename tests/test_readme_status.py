"""The README's player guide shows a real status mail: the golden plain-text part of a Reef
status, which tests/games/reef2018/test_render_game.py checks against the mail sent today."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).parent.parent
GOLDEN = ROOT / "tests/games/reef2018/golden/game2_turn6_status_to_other.txt"


def test_the_readme_shows_the_status_mail_the_host_sends() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    mail = GOLDEN.read_text(encoding="utf-8").rstrip("\n").split("\n")
    shown = "\n".join(f"    {line}" if line else "" for line in mail)
    assert shown in readme, "README's status mail is stale: paste the golden file again"
    assert "It is your turn." in mail[1] and "Your mail setting: mail every." in mail[-1]
