"""Every game has one shape: the same file names for the same roles, found through the registry,
and in each the same function with the same parameters.

A reader who knows one game finds the rules, the parser or the bot of another by name, and
calls them alike; a game may add modules of its own (components, board...), but each role
below has this one name. A role the contract gives a default for (the redeal, the strategy)
may be left out only by a game that keeps that default: the contract says what it then is.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import pbem.games
from pbem.engine import registry
from pbem.engine.contract import Game
from pbem_testkit.testgame import GAME as TEST_GAME

GAMES_ROOT = Path(pbem.games.__file__).resolve().parent
HOST_TEMPLATES = GAMES_ROOT.parent.parent / "templates"
GAME_TESTS = Path(__file__).resolve().parent
SUITE = GAME_TESTS / "suite"

ROLES = {
    "game.py": "the contract adapter, exposing GAME",
    "state.py": "the state and its JSON",
    "setup.py": "a new game",
    "orders.py": "the steps of an order, as data",
    "parse.py": "the order language: text -> orders",
    "keywords.py": "the order language's words in each seat's language",
    "terms.py": "the game's words as messages (colours...)",
    "legal.py": "the legal steps, from the rules' own checks",
    "scoring.py": "the end: scores and ranking",
    "view.py": "what a seat may see",
    "render.py": "drawing a view for the templates",
    "bot.py": "random and default orders",
    "help.py": "the help reply",
    "locale": "the game's catalogues",
    "templates": "the game's mail templates",
}
# Roles the contract has a default for: the file is there exactly when the game overrides it.
DEFAULTED = {
    "strategy.py": ("bot_order", "the computer player"),
    "redeal.py": ("redeal", "what a seat may know, for its bot"),
}
# Names a role had before it had one name: none may come back beside it.
FORMER = ("turn.py", "language.py", "localised.py", "moves.py", "words.py", "botplay.py",
          "judge.py", "ledger.py")

# Each role's function, with the parameters every game gives it in this order.
SIGNATURES: dict[str, dict[str, tuple[str, ...]]] = {
    "setup": {"setup": ("seats", "options", "chance")},
    "rules": {"apply_order": ("state", "seat", "order", "chance")},
    "scoring": {"final_outcome": ("state",)},
    "view": {"view": ("state", "seat")},
    "bot": {"random_order": ("state", "seat", "rng"), "default_order": ("state", "seat")},
    "strategy": {"bot_order": ("state", "seat", "rng", "level", "budget")},
    "redeal": {"redeal": ("state", "seat", "rng")},
    "help": {"help_text": ("state", "lang")},
    "keywords": {"canonical_order": ("text", "lang"), "localise_order": ("text", "lang")},
    "terms": {"colour": ("name",)},
    "render": {"template_helpers": ()},
    "legal": {"start": ("state", "seat"), "next_steps": ("progress",),
              "play": ("progress", "step", "chance")},
}
# The parser reads the order text first; Das Riff's also takes the colour names its options
# chose, so its parameters after the text differ (the text is what every game reads).
FIRST_PARAMETER = {"parse": {"parse_order": "text"}}

OWN = sorted(name for name, game in registry.games().items()
             if (registry.package_dir(game) or Path("/")).parent == GAMES_ROOT)


def test_every_game_package_is_in_the_registry() -> None:
    packages = {p.parent.name for p in GAMES_ROOT.glob("*/__init__.py")}
    assert {registry.package_dir(registry.get(n)).name for n in OWN} == packages  # type: ignore[union-attr]
    assert len(OWN) >= 3


@pytest.mark.parametrize("name", OWN)
def test_each_role_has_its_one_name(name: str) -> None:
    game = registry.get(name)
    folder = registry.package_dir(game)
    assert folder is not None
    missing = [f"{role} ({why})" for role, why in ROLES.items() if not (folder / role).exists()]
    if not ((folder / "rules.py").is_file() or (folder / "rules").is_dir()):
        missing.append("rules.py or rules/ (the rules: one order -> the next state)")
    assert not missing, f"{name} lacks {missing}"
    assert [f for f in FORMER if (folder / f).exists()] == []
    assert type(game).__module__ == f"pbem.games.{folder.name}.game"


@pytest.mark.parametrize("name", OWN)
def test_a_role_with_a_default_has_its_file_exactly_when_the_game_overrides_it(name: str) -> None:
    game = registry.get(name)
    folder = registry.package_dir(game)
    assert folder is not None
    for role, (member, why) in DEFAULTED.items():
        overrides = member in vars(type(game))
        assert (folder / role).is_file() == overrides, (
            f"{name}: {role} ({why}) is there exactly when the game overrides {member}")


def _parameters(function: Callable[..., Any]) -> tuple[str, ...]:
    return tuple(p for p in inspect.signature(function).parameters if p != "self")


def _present(folder: Path, module: str) -> bool:
    return (folder / f"{module}.py").is_file() or (folder / module).is_dir()


@pytest.mark.parametrize("name", OWN)
def test_each_roles_functions_take_the_same_parameters_in_every_game(name: str) -> None:
    folder = registry.package_dir(registry.get(name))
    assert folder is not None
    wrong = []
    for module, functions in SIGNATURES.items():
        if not _present(folder, module):
            continue  # a missing file is the test above's
        loaded = importlib.import_module(f"pbem.games.{folder.name}.{module}")
        for function, parameters in functions.items():
            found = getattr(loaded, function, None)
            if not callable(found):
                wrong.append(f"{module}.{function} is missing")
            elif _parameters(found) != parameters:
                wrong.append(f"{module}.{function}{_parameters(found)}, not {parameters}")
    for module, firsts in FIRST_PARAMETER.items():
        loaded = importlib.import_module(f"pbem.games.{folder.name}.{module}")
        for function, first in firsts.items():
            found = getattr(loaded, function, None)
            if not callable(found) or _parameters(found)[:1] != (first,):
                wrong.append(f"{module}.{function} does not read {first!r} first")
    assert wrong == []


def _contract_members() -> dict[str, tuple[str, ...]]:
    return {name: _parameters(member) for name, member in vars(Game).items()
            if inspect.isfunction(member) and not name.startswith("_")}


@pytest.mark.parametrize("game", [*(registry.get(n) for n in OWN), TEST_GAME],
                         ids=[*OWN, TEST_GAME.name])
def test_every_games_members_take_the_contracts_parameters(game: Any) -> None:
    """The test game included: its one module is its package, so the file names above do not
    apply to it, but the contract's members do."""
    contract = _contract_members()
    assert {"setup", "apply", "view", "help_text", "redeal", "bot_order"} <= set(contract)
    wrong = [f"{name}{_parameters(member)}, not {contract[name]}"
             for name, member in vars(type(game)).items()
             if name in contract and callable(member) and _parameters(member) != contract[name]]
    assert wrong == []


@pytest.mark.parametrize("name", OWN)
def test_each_games_templates_live_in_its_package(name: str) -> None:
    game = registry.get(name)
    own = registry.templates_dir(game)
    assert own is not None and own == registry.package_dir(game) / "templates"  # type: ignore[operator]
    assert {"status.txt.j2", "status.html.j2"} <= {p.name for p in own.glob("*.j2")}
    assert not (HOST_TEMPLATES / name).exists()


def test_the_host_templates_folder_holds_no_game() -> None:
    assert [p.name for p in HOST_TEMPLATES.iterdir() if p.is_dir()] == []


def _test_names(path: Path) -> set[str]:
    return {node.name for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            and node.name.startswith("test_")}


def test_no_game_test_folder_repeats_what_the_suite_runs_for_every_game() -> None:
    """A test the suite runs over every game is written once, in tests/games/suite: a game's
    folder gives its hooks in suite.py and tests only what is its own, under other names."""
    suite_files = {p.name for p in SUITE.glob("test_*.py")}
    suite_tests: set[str] = set().union(*(_test_names(p) for p in SUITE.glob("test_*.py")))
    assert "test_languages_by_mail.py" in suite_files and suite_tests
    folders = sorted(p for p in GAME_TESTS.iterdir()
                     if (p / "__init__.py").is_file() and p != SUITE)
    assert {"reef2018", "reef_encounter", "riff", "testgame"} <= {p.name for p in folders}
    repeated = [f"{path.relative_to(GAME_TESTS)}"
                + (f" (named like suite/{path.name})" if path.name in suite_files else "")
                + "".join(f" {name}()" for name in sorted(_test_names(path) & suite_tests))
                for folder in folders for path in sorted(folder.rglob("test_*.py"))
                if path.name in suite_files or _test_names(path) & suite_tests]
    assert repeated == [], "the suite already runs these for every game"
