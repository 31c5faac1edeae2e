"""Translators: gettext catalogues (Babel ``.po`` files read at run time) per language and domain.

The host's catalogue is ``pbem/locale/<lang>/LC_MESSAGES/pbem.po``; a game's is
``<its package>/locale/<lang>/LC_MESSAGES/game.po``, merged over the host's. The ``.po`` files
are compiled in memory (Babel ``read_po`` then ``write_mo``) once per process, so no binary
``.mo`` is committed and a catalogue edit needs no build step.

Which folder holds a game's catalogues is the game registry's to say, and i18n sits below the
games and never imports them: the host hands the registry's lookup to :class:`Catalogues` once,
at start-up (:func:`pbem.ops.services.start`). Until then only the host's own words are known,
and asking for a game's is an error that says so.
"""

from __future__ import annotations

import gettext as gettext_module
import io
import threading
from collections.abc import Callable
from functools import cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

import pbem
from pbem.i18n.msg import ENGLISH, Translator
from pbem.i18n.zones import ZONE_NAME_MAX, valid_zone, zone

# Importable from here too: the translator (msg.py) and time zones (zones.py) belong with it.
__all__ = [
    "ENGLISH",
    "GAME_CATALOGUE",
    "HOST_DOMAIN",
    "LANGUAGES",
    "ZONE_NAME_MAX",
    "Catalogues",
    "Translator",
    "catalogues",
    "game_locale_dir",
    "host_locale_dir",
    "reset_cache",
    "translator",
    "use_catalogues",
    "valid_zone",
    "zone",
]

LANGUAGES: tuple[str, ...] = ("en", "fr", "it", "nl", "de")
"""Every language a seat may choose; English is the source language (msgids are English)."""

HOST_DOMAIN = "pbem"
GAME_CATALOGUE = "game"  # a game's catalogue file name: <pkg>/locale/<lang>/LC_MESSAGES/game.po


def host_locale_dir() -> Path:
    return Path(pbem.__file__).parent / "locale"


def _compile(po: Path, lang: str) -> bytes | None:
    """The ``.mo`` bytes of one ``.po`` file, translated entries only (an empty msgstr would
    otherwise translate to the empty string)."""
    if not po.is_file():
        return None
    with po.open("rb") as f:
        catalog = read_po(f, locale=lang)
    for message in list(catalog):
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy or not all(strings):
            catalog.delete(message.id, context=message.context)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


@cache
def _mo(path: str, lang: str) -> bytes | None:
    return _compile(Path(path), lang)


def _translations(path: Path, lang: str) -> Translations | None:
    data = _mo(str(path), lang)
    return None if data is None else Translations(io.BytesIO(data))


GameLocales = Callable[[str], Path | None]
"""A game's ``locale`` folder from its name (None: no such game, or one without catalogues)."""


class Catalogues:
    """The translators of one process, each made once: the host's catalogue in a language,
    with one game's catalogue merged over it when that game's domain is asked for."""

    def __init__(self, game_locales: GameLocales | None = None) -> None:
        self.game_locales = game_locales  # None: no game's words (before start-up)
        self._translators: dict[tuple[str, str | None], Translator] = {}
        self._lock = threading.Lock()

    def translator(self, lang: str, domain: str | None = None) -> Translator:
        key = (lang, domain)
        found = self._translators.get(key)
        if found is not None:
            return found
        with self._lock:
            found = self._translators.get(key)
            if found is None:
                found = self._translators[key] = self._build(
                    lang if lang in LANGUAGES else "en", domain)
        return found

    def made(self) -> frozenset[tuple[str, str | None]]:
        """The (language, domain) of every translator made so far."""
        return frozenset(self._translators)

    def locale_dir(self, domain: str) -> Path | None:
        """The ``locale`` folder of the game called ``domain``."""
        if self.game_locales is None:
            raise RuntimeError(f"the words of game {domain!r} cannot be found before start-up: "
                               "call pbem.ops.services.start() first")
        return self.game_locales(domain)

    def _build(self, lang: str, domain: str | None) -> Translator:
        merged: gettext_module.NullTranslations
        host = _translations(host_locale_dir() / lang / "LC_MESSAGES" / f"{HOST_DOMAIN}.po",
                             lang)
        game = None
        if domain is not None:
            folder = self.locale_dir(domain)
            if folder is not None:
                game = _translations(folder / lang / "LC_MESSAGES" / f"{GAME_CATALOGUE}.po",
                                     lang)
        if host is None and game is None:
            merged = gettext_module.NullTranslations()
        elif host is None:
            merged = game  # type: ignore[assignment]
        else:
            merged = host
            if game is not None:
                merged.merge(game)  # the game's words win over the host's
        return Translator(lang, merged)

    def reset(self) -> None:
        """Forget the translators and compiled catalogues (tests that edit a catalogue)."""
        with self._lock:
            self._translators.clear()
            _mo.cache_clear()


_catalogues = Catalogues()  # the host's words alone, until start-up names the games'


def use_catalogues(found: Catalogues) -> Catalogues:
    """Make ``found`` the process's catalogues: done once, at start-up
    (:func:`pbem.ops.services.start`)."""
    global _catalogues
    _catalogues = found
    return found


def catalogues() -> Catalogues:
    """The process's catalogues (see :func:`use_catalogues`)."""
    return _catalogues


def translator(lang: str, domain: str | None = None) -> Translator:
    """The translator for ``lang`` (one of :data:`LANGUAGES`; others fall back to English):
    the host's catalogue, with game ``domain``'s catalogue (its ``name``) merged over it."""
    return _catalogues.translator(lang, domain)


def game_locale_dir(domain: str) -> Path | None:
    """The ``locale`` folder of the game called ``domain`` (found through the registry)."""
    return _catalogues.locale_dir(domain)


def reset_cache() -> None:
    """Forget compiled catalogues (tests that edit a catalogue; a process reads them once)."""
    _catalogues.reset()
