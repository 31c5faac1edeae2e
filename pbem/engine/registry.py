"""Finding games: every ``pbem.games.<pkg>`` exposing ``GAME``, plus ``pbem.games`` entry points.

Discovery keeps the host free of game names: adding a game is adding a package.
"""

from __future__ import annotations

import importlib
import pkgutil
from importlib.metadata import entry_points
from typing import Any

import pbem.games

_registered: dict[str, Any] = {}


def register(game: Any) -> None:
    """Make ``game`` available by its ``name`` (tests register their own small games)."""
    _registered[game.name] = game


def unregister(name: str) -> None:
    _registered.pop(name, None)


def _discover() -> dict[str, Any]:
    found: dict[str, Any] = {}
    for mod in pkgutil.iter_modules(pbem.games.__path__):
        if not mod.ispkg:
            continue
        module = importlib.import_module(f"pbem.games.{mod.name}")
        game = getattr(module, "GAME", None)
        if game is not None:
            found[game.name] = game
    for ep in entry_points(group="pbem.games"):
        game = ep.load()
        found[game.name] = game
    return found


_discovered: dict[str, Any] | None = None


def games() -> dict[str, Any]:
    """All known games by name."""
    global _discovered
    if _discovered is None:
        _discovered = _discover()
    return {**_discovered, **_registered}


def get(name: str) -> Any:
    """The game called ``name``; raises KeyError listing the known ones."""
    known = games()
    if name not in known:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(sorted(known)) or 'none'}")
    return known[name]
