"""Every game has one shape: the same file names for the same roles, found through the registry.

A reader who knows one game finds the rules, the parser or the bot of another by name; a game
may add modules of its own (components, scoring...), but each role below has this one name.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import pbem.games
from pbem.engine import registry

GAMES_ROOT = Path(pbem.games.__file__).resolve().parent
HOST_TEMPLATES = GAMES_ROOT.parent.parent / "templates"
GAME_TESTS = Path(__file__).resolve().parent
SUITE = GAME_TESTS / "suite"

ROLES = {
    "game.py": "the contract adapter, exposing GAME",
    "state.py": "the state and its JSON",
    "orders.py": "the steps of an order, as data",
    "parse.py": "the order language: text -> orders",
    "keywords.py": "the order language's words in each seat's language",
    "view.py": "what a seat may see",
    "render.py": "drawing a view for the templates",
    "bot.py": "random and default orders",
    "help.py": "the help reply",
    "locale": "the game's catalogues",
    "templates": "the game's mail templates",
}
# Names a role had before it had one name: none may come back beside it.
FORMER = ("turn.py", "language.py", "localised.py", "moves.py", "words.py")

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
