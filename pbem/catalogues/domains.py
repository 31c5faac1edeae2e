"""Translation domains: the host's, and one per game, found through the game registry.

A domain is the set of source files whose messages go into one catalogue. The host's holds
the host's Python code (everything in ``pbem`` but the games) and the shared templates at the
top of the templates folder; a game's holds its package's Python code and templates (its
package's ``templates/`` folder plus its ``template_dirs()``). No game is named here.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pbem
import pbem.games
from pbem.engine import registry
from pbem.engine.contract import GameRules
from pbem.i18n.translate import GAME_CATALOGUE, HOST_DOMAIN, host_locale_dir


@dataclass(frozen=True)
class Domain:
    """One catalogue: its name, where its ``.pot``/``.po`` files live and what feeds it."""

    name: str  # "pbem" for the host, else the game's ``name``
    catalogue: str  # the file name of its catalogues, without extension
    locale_dir: Path
    python: tuple[Path, ...]  # Python files to extract
    templates: tuple[Path, ...]  # Jinja templates to extract

    def pot(self) -> Path:
        return self.locale_dir / f"{self.catalogue}.pot"

    def po(self, lang: str) -> Path:
        return self.locale_dir / lang / "LC_MESSAGES" / f"{self.catalogue}.po"


def game_package_dir(game: GameRules) -> Path | None:
    """The folder of the package a game lives in (see :func:`pbem.engine.registry.package_dir`)."""
    return registry.package_dir(game)


def _templates_root() -> Path:
    from pbem.rendering import templates_dir

    return templates_dir()


def host_domain() -> Domain:
    root = Path(pbem.__file__).resolve().parent
    games_root = Path(pbem.games.__file__).resolve().parent
    python = tuple(sorted(p for p in root.rglob("*.py")
                          if games_root not in p.parents and p.parent.name != "versions"))
    templates = tuple(sorted(_templates_root().glob("*.j2")))
    return Domain(HOST_DOMAIN, HOST_DOMAIN, host_locale_dir(), python, templates)


def game_domain(game: GameRules) -> Domain | None:
    folder = game_package_dir(game)
    if folder is None:
        return None
    python = tuple(sorted(folder.rglob("*.py")))
    from pbem.engine.registry import templates_dir

    own = templates_dir(game)
    dirs = [*([] if own is None else [own]), *(Path(d) for d in game.template_dirs())]
    templates = tuple(sorted({p for d in dirs if d.is_dir() for p in d.rglob("*.j2")}))
    return Domain(game.name, GAME_CATALOGUE, folder / "locale", python, templates)


def domains() -> dict[str, Domain]:
    """Every domain by name: the host's first, then each game's (from the registry)."""
    found = {HOST_DOMAIN: host_domain()}
    for name, game in sorted(registry.games().items()):
        domain = game_domain(game)
        if domain is not None:
            found[name] = domain
    return found
