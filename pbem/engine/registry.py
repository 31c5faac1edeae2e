"""Finding games: every ``pbem.games.<pkg>`` exposing ``GAME``, plus ``pbem.games`` entry points.

Discovery keeps the host free of game names: adding a game is adding a package.

A game is an instance of a :class:`~pbem.engine.contract.Game` subclass: that class declares
every member the host calls, each optional one with its default, so a game is complete once it
is admitted here (:func:`admit`) and the host never asks what it has. Its ``name`` is the id
operators type and the database stores; ``former_ids``, ``aliases``, ``tag_prefix`` and
``showcase`` say how else it is found (see the contract). Names match whatever their case and
punctuation (``Tic_Tac_Toe`` = ``tictactoe`` = ``tic-tac-toe``). A name several games claim is
refused with every choice named.

The games sit above the engine (they implement its contract), so the registry finds their
package by name, as it finds entry points, and imports nothing of theirs statically. Where
each game's catalogues are (:func:`locale_dir`) is handed to :mod:`pbem.i18n` at start-up
(:func:`pbem.ops.services.start`): i18n sits below the games and cannot look them up itself.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import sys
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType

from pbem.engine.contract import Game, GameRules

GAMES_PACKAGE = "pbem.games"


def _games_package() -> ModuleType:
    return importlib.import_module(GAMES_PACKAGE)

_registered: dict[str, GameRules] = {}


class UnknownGame(KeyError):
    """A game name that names no game, or more than one: what happened and what to type."""

    def __init__(self, message: str, fix: str) -> None:
        super().__init__(message)
        self.message = message
        self.fix = fix

    def __str__(self) -> str:
        return self.message


class InvalidGame(TypeError):
    """Something offered as a game that does not keep the contract: what and how to fix it."""

    def __init__(self, message: str, fix: str) -> None:
        super().__init__(message)
        self.message = message
        self.fix = fix


def admit(game: object) -> GameRules:
    """``game`` as the host holds it, or :class:`InvalidGame`: the one check made of a game.

    A game derives from :class:`~pbem.engine.contract.Game`, whose defaults fill every hook it
    leaves out, so this is the only place its members are looked at.
    """
    where = f"{type(game).__module__}.{type(game).__qualname__}"
    if not isinstance(game, Game):
        raise InvalidGame(f"{where} is not a pbem game",
                          "derive its class from pbem.engine.contract.Game and implement "
                          "the members that contract leaves as `...`")
    if not game.name or not game.title:
        raise InvalidGame(f"{where} has no name or title", "set both class attributes")
    if not 1 <= game.min_players <= game.max_players:
        raise InvalidGame(f"{game.name}: players {game.min_players}–{game.max_players}",
                          "set 1 <= min_players <= max_players")
    return game


def register(game: GameRules) -> None:
    """Make ``game`` available by its ``name`` (tests register their own small games)."""
    _registered[game.name] = admit(game)


def unregister(name: str) -> None:
    _registered.pop(name, None)


def _discover() -> dict[str, GameRules]:
    found: dict[str, GameRules] = {}
    for mod in pkgutil.iter_modules(_games_package().__path__):
        if not mod.ispkg:
            continue
        module = importlib.import_module(f"{GAMES_PACKAGE}.{mod.name}")
        offered = getattr(module, "GAME", None)  # a package without one is not a game
        if offered is not None:
            game = admit(offered)
            found[game.name] = game
    for ep in entry_points(group="pbem.games"):
        game = admit(ep.load())
        found[game.name] = game
    return found


_discovered: dict[str, GameRules] | None = None


def games() -> dict[str, GameRules]:
    """All known games by name."""
    global _discovered
    if _discovered is None:
        _discovered = _discover()
    return {**_discovered, **_registered}


def _key(name: str) -> str:
    return re.sub(r"[^0-9a-z]", "", name.lower())


def _names(game: GameRules) -> set[str]:
    """Every key a person may type for ``game``."""
    words = [game.name, *game.former_ids, *game.aliases]
    return {_key(w) for w in words}


def player_range(game: GameRules) -> str:
    """How many players ``game`` takes, as the operator reads it: ``2``, ``2–4``."""
    low, high = game.min_players, game.max_players
    return str(low) if low == high else f"{low}–{high}"


def get(name: str) -> GameRules:
    """The game called ``name`` (its id, a former id or an alias no other game claims).

    Raises :class:`UnknownGame` (a KeyError) naming the known games, or every game a shared
    name could mean.
    """
    known = games()
    if name in known:
        return known[name]
    key = _key(name)
    matches = [g for _, g in sorted(known.items()) if key and key in _names(g)]
    if len(matches) == 1:
        return matches[0]
    if matches:
        choices = " or ".join(f"{g.name} ({g.title})" for g in matches)
        raise UnknownGame(f"{name!r} could mean several games: {choices}",
                          f"name the game by its id: {' or '.join(g.name for g in matches)}")
    raise UnknownGame(f"unknown game {name!r}; known: {', '.join(sorted(known)) or 'none'}",
                      "name one of the games `pbem games` lists")


def stored(name: str) -> GameRules:
    """The game a stored or exported id names: its id, else the one game that had it before.

    Unlike :func:`get`, a former id is never ambiguous here: data written under it meant the
    game that then had it.
    """
    known = games()
    if name in known:
        return known[name]
    for _, game in sorted(known.items()):
        if name in game.former_ids:
            return game
    return get(name)


def showcase() -> GameRules:
    """The game to show when none is named: the first marked ``showcase``, else the first by
    name; raises UnknownGame when no game is installed."""
    known = sorted(games().items())
    if not known:
        raise UnknownGame("no game is installed", "install a game package (see `pbem games`)")
    marked = [g for _, g in known if g.showcase]
    return (marked or [known[0][1]])[0]


def tag_prefix(game: GameRules) -> str:
    """How the tags of ``game``'s games begin (``<prefix>-<number>``)."""
    return game.tag_prefix or game.name


def package_dir(game: GameRules) -> Path | None:
    """The folder of the package a game lives in: its package right under ``pbem.games``,
    or the top package of a game installed from elsewhere (an entry point)."""
    module = sys.modules.get(type(game).__module__)
    if module is None or module.__file__ is None:
        return None
    path = Path(module.__file__).resolve().parent
    games_root = Path(str(_games_package().__file__)).resolve().parent
    if games_root in path.parents or path == games_root:
        if path == games_root:
            return None  # a game defined in pbem/games/__init__.py itself: none are
        rel = path.relative_to(games_root)
        return games_root / rel.parts[0]
    while (path.parent / "__init__.py").is_file():
        path = path.parent
    return path


def templates_dir(game: GameRules) -> Path | None:
    """The game's own mail templates: the ``templates/`` folder of its package, if it has one.

    The host reaches them as ``<game name>/<file>`` (e.g. ``nim/status.txt.j2``).
    """
    folder = package_dir(game)
    if folder is None or not (folder / "templates").is_dir():
        return None
    return folder / "templates"


def locale_dir(name: str) -> Path | None:
    """The ``locale`` folder of the game called ``name``; None for no such game."""
    try:
        game = get(name)
    except KeyError:
        return None
    folder = package_dir(game)
    return None if folder is None else folder / "locale"

