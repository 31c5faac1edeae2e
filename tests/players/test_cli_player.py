"""`pbem player`: list, show, ban, unban, and the ratings rebuilt from the games."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ops.archive_support import Played, play
from tests.players.support import testcards

__all__ = ["testcards"]

ANN, BEN = "ann@example.org", "ben@example.org"  # the demo's first two players


@pytest.fixture
def host(tmp_path: Path) -> Played:
    """A host whose demo game (Ann and Ben) has finished."""
    return play(tmp_path / "home", "testcards", 2, seed="players")


def lines(text: str) -> str:
    return " ".join(text.split())


def test_list_and_show(host: Played) -> None:
    out = lines(host.pbem("player", "list"))
    assert "ann@example.org │ Ann │ 1 │" in out and "ben@example.org │ Ben │ 1 │" in out
    shown = host.pbem("player", "show", "ANN@example.org")
    assert "address:   ann@example.org" in shown and "shown as:  Ann" in shown
    assert "name:      (not set)" in shown and "banned:    no" in shown
    assert "testcards-1" in shown and "finished" in shown
    assert lines(shown).count("testcards │") == 1  # one rating row


def test_ban_and_unban(host: Played) -> None:
    assert "banned ann@example.org" in host.pbem("player", "ban", ANN, "--reason", "spam")
    out = lines(host.pbem("player", "list", "--banned"))
    assert "ann@example.org" in out and "spam" in out and "ben@example.org" not in out
    assert "banned:    20" in host.pbem("player", "show", ANN)
    again = host.pbem("player", "ban", ANN, code=1)
    assert "error: ann@example.org is banned already" in lines(again)
    assert "fix: `pbem player show ann@example.org` shows the player" in lines(again)
    made = host.pbem("game", "new", "testcards", "-s", f"Ann <{ANN}>", "-s", f"Ben <{BEN}>",
                     code=1)
    assert "ann@example.org is banned from this host" in lines(made)
    assert "unbanned ann@example.org" in host.pbem("player", "unban", ANN)
    out = lines(host.pbem("player", "unban", ANN, code=1))
    assert "error: ann@example.org is not banned" in out
    assert "fix: `pbem player list --banned` lists the banned" in out


def test_a_stranger_may_be_banned_before_writing(host: Played) -> None:
    assert "banned spam@elsewhere.test" in host.pbem("player", "ban", "spam@elsewhere.test")


@pytest.mark.parametrize(("args", "error", "fix"), [
    (["show", "nobody@example.org"], "error: no player with the address nobody@example.org",
     "fix: `pbem player list` lists the players"),
    (["ban", "not an address"], "error: player address 'not an address' is not a valid email",
     "fix: give the address alone, e.g. ann@example.org"),
    (["ban", ANN, "--reason", "x" * 201], "error: the reason is 201 characters; at most 200",
     "fix: `pbem player show ann@example.org` shows the player"),
    (["unban", "nobody@example.org"], "error: no player with the address nobody@example.org",
     "fix: `pbem player list --banned` lists the banned"),
])
def test_each_error_is_one_line_and_a_fix(host: Played, args: list[str], error: str,
                                          fix: str) -> None:
    out = lines(host.pbem("player", *args, code=1))
    assert error in out and fix in out and "Traceback" not in out


def test_ratings_rebuild_gives_the_numbers_stored(host: Played) -> None:
    before = [host.pbem("player", "show", a) for a in (ANN, BEN)]
    out = host.pbem("player", "ratings", "rebuild")
    assert "testcards: 1 rated game" in out.splitlines()
    assert [host.pbem("player", "show", a) for a in (ANN, BEN)] == before
