"""What an operator types is checked before it is used: seat addresses (one valid address per
seat, no header tricks) and game tags, each refusal naming the problem, shown via the CLI."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from pbem.pipeline import operator_input
from tests.cli.test_cli import home, outbox, pbem  # noqa: F401  (home is a fixture)
from tests.cli.test_cli_admin import ALICE, BOB, new_game


def one_line(text: str) -> str:
    return " ".join(text.split())


def games_and_mail(home: Path) -> tuple[int, int]:  # noqa: F811
    with sqlite3.connect(home / "pbem.sqlite") as db:
        return (db.execute("SELECT count(*) FROM game").fetchone()[0],
                db.execute("SELECT count(*) FROM outboundmessage").fetchone()[0])


@pytest.mark.parametrize(("seat", "says"), [
    ("Evil\r\nBcc: victim@evil.test <a@players.test>",
     "seat 'Evil\\r\\nBcc: victim@evil.test <a@players.test>' holds a line break or control "
     "character; a name or address must be one plain line (it could otherwise add mail "
     "headers)"),
    ("new@x.test, victim@evil.test",
     "seat 'new@x.test, victim@evil.test' holds several addresses; give one per --seat"),
    ("A <new@x.test, victim@evil.test>",
     "seat 'new@x.test, victim@evil.test' holds several addresses; give exactly one"),
    ("A a@x.org", "seat 'A a@x.org': put the address in angle brackets, e.g. \"A <a@x.org>\""),
    ("victim@evil.test <a@players.test>",
     "the name holds an address; write one \"Name <address@example.org>\" per --seat"),
    ("A <a@x..org>", "seat 'a@x..org' is not a valid email address: An email address cannot "
     "have two periods in a row."),
    ("A <a@x.org> <b@y.org>", "seat 'A <a@x.org> <b@y.org>': write it as \"Name "
     "<address@example.org>\""),
    ("Ann <ann@myhost>", "seat 'ann@myhost' is not a valid email address: The part after the "
     "@-sign is not valid. It should have a period. A domain without a period works only as "
     "ann@localhost, for a trial on this machine."),
])
def test_game_new_refuses_a_bad_seat(home: Path, seat: str, says: str) -> None:  # noqa: F811
    pbem("init")
    out = pbem("game", "new", "testcards", "--seat", seat, "--seat", f"Bob <{BOB}>", code=1)
    assert says in one_line(out)
    assert games_and_mail(home) == (0, 0)


def test_game_new_refuses_one_address_on_two_seats(home: Path) -> None:  # noqa: F811
    pbem("init")
    out = pbem("game", "new", "testcards", "--seat", f"Alice <{ALICE}>",
               "--seat", f"Alice again <{ALICE.upper()}>", code=1)
    assert f"{ALICE} is given for two seats; each seat needs its own address" in one_line(out)
    assert games_and_mail(home) == (0, 0)


def test_game_new_takes_names_in_any_script_and_bare_addresses(home: Path) -> None:  # noqa: F811
    pbem("init")
    out = pbem("game", "new", "testcards", "--seat", f"Zoë Ünal <{ALICE}>",
               "--seat", '"Doe, John" <BOB@Players.Test>', "--seat", "carol@players.test")
    assert "Zoë Ünal" in out and "Doe, John" in out and "bob@players.test" in out
    pbem("process")
    assert [str(m["To"]) for m in outbox(home)] == [
        f"Zoë Ünal <{ALICE}>", f'"Doe, John" <{BOB}>',
        '"carol@players.test" <carol@players.test>']  # a bare address names itself


def test_a_local_trial_seats_addresses_at_localhost_as_its_own_from_address(
        home: Path) -> None:  # noqa: F811
    pbem("init")
    out = pbem("game", "new", "testcards", "--seat", "Ann <ann@localhost>",
               "--seat", "Ben <BEN@LocalHost>")
    assert "ann@localhost" in out and "ben@localhost" in out
    pbem("process")
    assert [str(m["To"]) for m in outbox(home)] == ["Ann <ann@localhost>", "Ben <ben@localhost>"]


@pytest.mark.parametrize(("address", "says"), [
    ("new@x.test, victim@evil.test",
     "--address 'new@x.test, victim@evil.test' holds several addresses; give exactly one"),
    ("Carol <carol@x.test>", "--address 'Carol <carol@x.test>': give the address alone"),
    ("carol\r\nBcc: v@evil.test", "holds a line break or control character"),
    ("carol", "--address 'carol' is not a valid email address: An email address must have "
     "an @-sign."),
    (BOB, f"{BOB} already holds seat 2 (Bob) of testcards-1; each seat needs its own address"),
])
def test_seat_takeover_refuses_a_bad_address(home: Path, address: str, says: str  # noqa: F811
                                             ) -> None:
    tag = new_game()
    pbem("process")
    out = pbem("seat", "takeover", tag, "1", "--name", "Carol", "--address", address, code=1)
    assert says in one_line(out)
    assert "takeover" not in pbem("game", "log", tag)


def test_seat_takeover_by_the_same_player_at_a_new_case_is_fine(home: Path) -> None:  # noqa: F811
    tag = new_game()
    assert "now holds seat 1" in pbem("seat", "takeover", tag, "1", "--name", "Alice",
                                      "--address", ALICE.upper())


def test_game_import_refuses_a_tag_that_could_hijack_replies(home: Path,  # noqa: F811
                                                              tmp_path: Path) -> None:
    tag = new_game()
    exported = tmp_path / "game.json"
    pbem("game", "export", tag, "-o", str(exported))
    out = pbem("game", "import", str(exported), "--tag", "x] [reef-1", code=1)
    assert ("import refused: tag 'x] [reef-1' must be 1-40 letters, digits, '.', '_' or '-', "
            "starting with a letter or digit, e.g. reef-12 (' ' '[' ']' not allowed)") in \
        one_line(out)
    assert "imported as moved-1" in pbem("game", "import", str(exported), "--tag", "moved-1")


@pytest.mark.parametrize("tag", ["", "-x", "a" * 41, "reef 1", "ré-1", "x]"])
def test_bad_tags(tag: str) -> None:
    with pytest.raises(operator_input.InputError, match="must be 1-40 letters"):
        operator_input.tag(tag)


def test_seat_takeover_refuses_a_name_that_could_add_headers(home: Path) -> None:  # noqa: F811
    tag = new_game()
    out = pbem("seat", "takeover", tag, "1", "--name", "Carol\r\nBcc: v@evil.test",
               "--address", "carol@players.test", code=1)
    assert ("give the newcomer's name (one plain line) and email address, e.g. --name "
            "\"Carol\" --address carol@example.org") in one_line(out)
