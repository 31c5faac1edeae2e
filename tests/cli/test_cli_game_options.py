"""Game options from the CLI: names checked against the game's defaults, values read as the
type of the default, every refusal naming the valid options or the expected kind."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

from pbem.engine import registry
from pbem.i18n import translator
from pbem.pipeline import game_options
from tests.cli.test_cli import home, pbem  # noqa: F401  (home is a fixture)
from tests.support.testgame import GAME, TestCards


class OptionCards(TestCards):
    """The test game with one option of each kind (under the test game's name, so its mail
    templates serve)."""

    title: ClassVar[str] = "Option Cards"

    def default_options(self) -> dict[str, Any]:
        return {"rounds": 2, "hand": 3, "advanced": False, "variant": "classic", "speed": 1.5}


@pytest.fixture
def options_game(home: Path) -> Iterator[Path]:  # noqa: F811
    registry.register(OptionCards())  # in place of the plain test game for this test
    pbem("init")  # only init makes the data folder
    yield home
    registry.register(GAME)


SEATS = ("--seat", "A <a@players.test>", "--seat", "B <b@players.test>")


def stored_options(home: Path) -> dict[str, Any]:  # noqa: F811
    with sqlite3.connect(home / "pbem.sqlite") as db:
        [(text,)] = db.execute("SELECT options_json FROM game").fetchall()
    options: dict[str, Any] = json.loads(text)
    return options


def new(*options: str, code: int = 0) -> str:
    args: list[str] = ["game", "new", "testcards", *SEATS]
    for o in options:
        args += ["-o", o]
    return " ".join(pbem(*args, code=code).split())


@pytest.mark.parametrize(("given", "stored"), [
    ("advanced=yes", True), ("advanced=ON", True), ("advanced=1", True), ("advanced=true", True),
    ("advanced=no", False), ("advanced=off", False), ("advanced=0", False),
])
def test_a_yes_no_option_is_stored_as_a_bool(options_game: Path, given: str,
                                             stored: bool) -> None:
    new(given)
    assert stored_options(options_game)["advanced"] is stored


def test_each_value_takes_its_defaults_type(options_game: Path) -> None:
    new("rounds=3", "speed=2", "variant=fast one")
    assert stored_options(options_game) == {"rounds": 3, "hand": 3, "advanced": False,
                                            "variant": "fast one", "speed": 2.0}


@pytest.mark.parametrize(("given", "says"), [
    (["advnced=yes"], "Option Cards has no option 'advnced'; its options: advanced (yes/no, "
     "default no), hand (a whole number, default 3), hidden_for_good (yes/no, default no), "
     "rounds (a whole number, default 2), speed (a number, default 1.5), variant (text, "
     "default classic)"),
    (["hidden_for_good=later"], "option hidden_for_good is yes or no (also true/false, on/off, "
     "1/0), not 'later'"),
    (["advanced"], "option advanced needs a value: -o advanced=VALUE (yes/no, default no)"),
    (["advanced=maybe"], "option advanced is yes or no (also true/false, on/off, 1/0), not "
     "'maybe'"),
    (["rounds=three"], "option rounds is a whole number, not 'three'"),
    (["speed=fast"], "option speed is a number, not 'fast'"),
    (["rounds=3", "rounds=4"], "option rounds is given twice"),
])
def test_a_wrong_option_is_refused_and_nothing_created(options_game: Path, given: list[str],
                                                        says: str) -> None:
    assert says in new(*given, code=1)
    assert not (options_game / "pbem.sqlite").exists() or "testcards" not in pbem(
        "game", "list")


def stored_hidden_for_good(home: Path) -> bool:  # noqa: F811
    with sqlite3.connect(home / "pbem.sqlite") as db:
        [(hidden,)] = db.execute("SELECT hidden_for_good FROM game").fetchall()
    return bool(hidden)


@pytest.mark.parametrize(("given", "hidden"), [((), False), (("hidden_for_good=yes",), True),
                                               (("hidden_for_good=no", "rounds=3"), False)])
def test_hidden_for_good_is_the_hosts_option_for_every_game_kept_apart_from_the_games(
        options_game: Path, given: tuple[str, ...], hidden: bool) -> None:
    new(*given)
    assert stored_hidden_for_good(options_game) is hidden
    assert "hidden_for_good" not in stored_options(options_game)  # the rules never see it


def test_a_game_without_options_says_so() -> None:
    with pytest.raises(game_options.OptionError,
                       match="Plain takes no options, so 'advanced' is not one"):
        game_options.from_text("Plain", {}, ["advanced=yes"])


def test_options_given_as_values_are_checked_too() -> None:
    defaults = OptionCards().default_options()
    game_options.check("Option Cards", defaults, {"rounds": 4, "advanced": True, "speed": 2})
    cases: list[tuple[dict[str, Any], str]] = [
                      ({"rounds": "3"}, "option rounds is a whole number, not '3'"),
                      ({"advanced": "yes"}, "option advanced is yes/no, not 'yes'"),
                      ({"rounds": True}, "option rounds is a whole number, not True"),
                      ({"colour": "red"}, "Option Cards has no option 'colour'")]
    for bad, says in cases:
        with pytest.raises(game_options.OptionError, match=says):
            game_options.check("Option Cards", defaults, bad)


def refusal(call: Callable[[], object]) -> game_options.OptionError:
    """The OptionError ``call`` raises."""
    with pytest.raises(game_options.OptionError) as caught:
        call()
    return caught.value


def test_a_refusal_is_english_as_text_and_translatable_as_its_message() -> None:
    """The command line shows ``str(exc)``; a lobby reply renders ``exc.message`` in the
    player's language, with the option names and the values to type as written."""
    plain = refusal(lambda: game_options.from_text("Plain", {}, ["advanced=yes"]))
    assert translator("de")(plain.message) == "Plain hat keine Optionen, also ist 'advanced' keine"
    empty = refusal(lambda: game_options.from_text(
        "Option Cards", {"variant": "", "rounds": 2}, ["colour=red"]))
    assert str(empty) == ("Option Cards has no option 'colour'; its options: rounds (a whole "
                          "number, default 2), variant (text, default (empty))")
    assert translator("nl")(empty.message) == (
        "Option Cards heeft geen optie 'colour'; de opties: rounds (een geheel getal, "
        "standaard 2) en variant (tekst, standaard (leeg))")
    twice = refusal(lambda: game_options.from_text(
        "Option Cards", {"rounds": 2}, ["rounds=3", "rounds=4"]))
    assert translator("it")(twice.message) == "l'opzione rounds è indicata due volte"
    valued = refusal(lambda: game_options.check(
        "Option Cards", {"advanced": False}, {"advanced": "yes"}))
    assert str(valued) == "option advanced is yes/no, not 'yes'"
    assert translator("fr")(valued.message) == "l'option advanced attend oui/non, pas 'yes'"
    bare = refusal(lambda: game_options.from_text(
        "Option Cards", {"advanced": False}, ["advanced"]))
    assert translator("de")(bare.message) == (
        "Die Option advanced braucht einen Wert: -o advanced=VALUE (ja/nein, Vorgabe no)")


TABLE = {"red": 3, "blue": 3}


def test_an_option_with_an_alternative_takes_either_kind_and_names_both() -> None:
    """A game may let an option take another kind beside its default's (a table per colour
    beside one number for all): read as the default's kind first, then as the other."""
    defaults, others = {"fish": 3}, {"fish": [TABLE]}
    assert game_options.from_text("Option Cards", defaults, ["fish=4"], others) == {"fish": 4}
    assert game_options.from_text("Option Cards", defaults, ['fish={"red": 4, "blue": 2}'],
                                  others) == {"fish": {"red": 4, "blue": 2}}
    game_options.check("Option Cards", defaults, {"fish": {"red": 1}}, others)
    text = refusal(lambda: game_options.from_text("Option Cards", defaults, ["fish=lots"],
                                                  others))
    assert str(text) == ('option fish is a whole number or JSON dict (like {"red": 3, "blue": '
                         '3}), not \'lots\'')
    assert translator("de")(text.message) == (
        'Die Option fish verlangt eine ganze Zahl oder JSON dict (wie {"red": 3, "blue": 3}), '
        "nicht 'lots'")
    value = refusal(lambda: game_options.check("Option Cards", defaults, {"fish": [3]}, others))
    assert str(value) == "option fish is a whole number or JSON dict, not [3]"
    with pytest.raises(game_options.OptionError, match="option fish is a whole number, not"):
        game_options.from_text("Option Cards", defaults, ['fish={"red": 4}'])  # none declared
