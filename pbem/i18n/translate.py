"""Translators: gettext catalogues (Babel ``.po`` files read at run time) per language and domain.

The host's catalogue is ``pbem/locale/<lang>/LC_MESSAGES/pbem.po``; a game's is
``<its package>/locale/<lang>/LC_MESSAGES/game.po``, merged over the host's. The ``.po`` files
are compiled in memory (Babel ``read_po`` then ``write_mo``) once per process, so no binary
``.mo`` is committed and a catalogue edit needs no build step.
"""

from __future__ import annotations

import gettext as gettext_module
import io
import threading
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, tzinfo
from functools import cache
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel import Locale
from babel.dates import format_date, format_datetime, format_time
from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

import pbem
from pbem.i18n.msg import Msg, SeatRef, msg, use_translators

LANGUAGES: tuple[str, ...] = ("en", "fr", "it", "nl", "de")
"""Every language a seat may choose; English is the source language (msgids are English)."""

HOST_DOMAIN = "pbem"
GAME_CATALOGUE = "game"  # a game's catalogue file name: <pkg>/locale/<lang>/LC_MESSAGES/game.po


def host_locale_dir() -> Path:
    return Path(pbem.__file__).parent / "locale"


Moment = datetime  # (inside Translator, ``datetime`` names its method)
_WORDS_KEPT = 4096  # messages without fields each translator keeps, looked up
_LONGEST_KEPT = 400  # characters of the longest sentence kept (events and board words are short)


class Translator:
    """Renders messages, words and dates in one language (with one game's words, if any)."""

    def __init__(self, lang: str, translations: gettext_module.NullTranslations) -> None:
        self.lang = lang
        self._translations = translations
        self.locale = Locale.parse(lang)
        self._words: dict[Msg, str] = {}  # messages without fields, as looked up
        self._filled: dict[tuple[Any, ...], str] = {}  # messages with fields, as rendered

    def __repr__(self) -> str:
        return f"Translator({self.lang!r})"

    # -- words -------------------------------------------------------------------------------
    def gettext(self, s: str) -> str:
        return self._translations.gettext(s)

    def ngettext(self, s: str, p: str, n: int) -> str:
        return self._translations.ngettext(s, p, n)

    def pgettext(self, ctx: str, s: str) -> str:
        """A word in context as it is written to players: a catalogue's word may list the
        forms a player may type ("tout|chaque"), the first being the written one."""
        return self.alternatives(ctx, s).split("|", 1)[0]

    def alternatives(self, ctx: str, s: str) -> str:
        """The catalogue's text itself, every "|"-separated form a player may type."""
        return self._translations.pgettext(ctx, s)

    def npgettext(self, ctx: str, s: str, p: str, n: int) -> str:
        return self._translations.npgettext(ctx, s, p, n)

    # -- sentences ---------------------------------------------------------------------------
    def __call__(self, m: Msg | str, names: Sequence[str] = ()) -> str:
        """``m`` in this language; a plain string is looked up as a msgid (old English texts,
        not in the catalogue, come back unchanged). ``names`` are the players' names by seat,
        for :class:`SeatRef` fields."""
        if isinstance(m, str):
            return self.gettext(m) if m else m
        if not m.fields:  # nothing to fill: a text with braces of its own stays whole
            return self._word(m)
        if "secret" in m.fields:  # a player's secret is never kept in memory past its mail
            return self._fill(m, names)
        try:  # the same sentence, with the same values, in each of a move's mails
            key = (_typed(m), tuple(names))
            found = self._filled.get(key)
        except TypeError:  # an unhashable value: not kept
            return self._fill(m, names)
        if found is None:
            found = self._fill(m, names)
            if len(found) <= _LONGEST_KEPT:  # a player's text may be long: not kept
                if len(self._filled) >= _WORDS_KEPT:
                    self._filled.clear()
                self._filled[key] = found
        return found

    def _fill(self, m: Msg, names: Sequence[str]) -> str:
        pattern = self._pattern(m)
        values = {k: self._value(v, names) for k, v in m.fields.items()}
        try:
            return pattern.format_map(values)
        except (KeyError, IndexError, ValueError):
            # A translation naming a field the message lacks: the English sentence is safer
            # than a crash or a half-filled one (the catalogue check catches most of these).
            return self._english_pattern(m).format_map(_Lenient(values))

    def _word(self, m: Msg) -> str:
        """A message without fields (a colour, a heading), looked up once: a move's mails and
        its board ask for the same few hundred words again and again."""
        found = self._words.get(m)
        if found is None:
            found = self._pattern(m)
            if len(self._words) < _WORDS_KEPT:  # bounded, in case an id ever comes from input
                self._words[m] = found
        return found

    def _pattern(self, m: Msg) -> str:
        if m.plural is not None:
            n = int(m.fields.get("n", 1))
            if m.context is not None:
                return self.npgettext(m.context, m.id, m.plural, n)
            return self.ngettext(m.id, m.plural, n)
        if m.context is not None:
            return self.pgettext(m.context, m.id)
        return self.gettext(m.id)

    @staticmethod
    def _english_pattern(m: Msg) -> str:
        if m.plural is not None and int(m.fields.get("n", 1)) != 1:
            return m.plural
        return m.id

    def _value(self, value: Any, names: Sequence[str]) -> Any:
        if isinstance(value, Msg):
            return self(value, names)
        if isinstance(value, SeatRef):
            return self.seat_name(value.seat, names)
        if isinstance(value, list | tuple):
            return self.join([str(self._value(v, names)) for v in value])
        return value

    def seat_name(self, seat: int, names: Sequence[str] = ()) -> str:
        if 0 <= seat < len(names):
            return names[seat]
        return self(msg("Player {n}", n=seat + 1))

    def join(self, items: Sequence[str]) -> str:
        """A list as this language writes it ("a, b and c"; "a, b et c")."""
        if not items:
            return ""
        if self.lang == "en":
            return ", ".join(items)  # the English texts have always listed with commas
        return format_list(list(items), locale=self.locale)

    # -- dates -------------------------------------------------------------------------------
    def date(self, when: datetime, tz: str | None = None) -> str:
        """A day in this language, in the seat's time zone (e.g. "23 novembre 2026")."""
        local = _aware(when).astimezone(zone(tz))
        if self.lang == "en":
            return local.strftime("%Y-%m-%d")
        return format_date(local, "long", locale=self.locale)

    def datetime(self, when: datetime, tz: str | None = None) -> str:
        """A moment in this language and the seat's time zone, with the zone's abbreviation
        (English keeps the host's long-standing ``2026-11-23 16:12 UTC``)."""
        local = _aware(when).astimezone(zone(tz))
        abbrev = local.strftime("%Z") or (tz or "UTC")
        if self.lang == "en":
            return f"{local:%Y-%m-%d %H:%M} {abbrev}"
        day = format_date(local, "long", locale=self.locale)
        clock = format_time(local, "HH:mm", locale=self.locale)
        pattern = _AT.get(self.lang) or self.locale.datetime_formats.get("long") or "{1} {0}"
        return f"{pattern.format(clock, day)} {abbrev}"


    def short_datetime(self, when: Moment, tz: str | None = None) -> str:
        """A moment short enough for a subject line: ``Thu 26 Nov 18:00 UTC``."""
        local = _aware(when).astimezone(zone(tz))
        abbrev = local.strftime("%Z") or (tz or "UTC")
        if self.lang == "en":
            return f"{local:%a} {local.day} {local:%b %H:%M} {abbrev}"
        pattern = _SHORT.get(self.lang, "EEE d MMM HH:mm")
        return f"{format_datetime(local, pattern, locale=self.locale)} {abbrev}"


# A day and its hour as each language joins them ("5. Dezember 2026 um 18:00"), and a short
# moment as it is written there ("Sa., 5. Dez., 18:00"): CLDR's own patterns join with a comma.
_AT = {"fr": "{1} à {0}", "de": "{1} um {0}", "it": "{1} alle {0}", "nl": "{1} om {0}"}
_SHORT = {"de": "EEE, d. MMM, HH:mm"}


def _typed(value: Any) -> Any:
    """``value`` as a key that tells apart what renders apart though equal (1, True and 1.0;
    a list and a tuple), at any depth: a Msg compares its fields only with ``==``."""
    if isinstance(value, Msg):
        return (value.id, value.plural, value.context,
                tuple([(k, _typed(v)) for k, v in value.fields.items()]))
    if isinstance(value, list | tuple):
        return (type(value), tuple([_typed(v) for v in value]))
    return (type(value), value)


class _Lenient(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


ZONE_NAME_MAX = 64  # the longest IANA name is 32 characters


def zone(name: str | None) -> tzinfo:
    """The IANA time zone ``name`` (UTC when None); raises ValueError for an unknown name."""
    if not name or name == "UTC":
        return UTC
    if len(name) > ZONE_NAME_MAX:  # zoneinfo imports one package per "/": "A/"*400 recurses
        raise ValueError(f"unknown time zone {name[:ZONE_NAME_MAX]!r}...")
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as e:
        raise ValueError(f"unknown time zone {name!r}") from e


def valid_zone(name: str) -> bool:
    try:
        zone(name)
    except ValueError:
        return False
    return True


# -- loading -----------------------------------------------------------------------------------
_lock = threading.Lock()


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


def _no_game_locales(domain: str) -> Path | None:
    return None


_game_locales: Callable[[str], Path | None] = _no_game_locales


def find_game_locales(finder: Callable[[str], Path | None]) -> None:
    """Say how a game's ``locale`` folder is found from its name. The game registry does, as
    it is imported (the engine package imports it): i18n sits below the games and the
    registry, and never imports them."""
    global _game_locales
    _game_locales = finder
    reset_cache()  # a translator built before knew no game's words


def game_locale_dir(domain: str) -> Path | None:
    """The ``locale`` folder of the game called ``domain`` (found through the registry)."""
    return _game_locales(domain)


_translators: dict[tuple[str, str | None], Translator] = {}


def translator(lang: str, domain: str | None = None) -> Translator:
    """The translator for ``lang`` (one of :data:`LANGUAGES`; others fall back to English):
    the host's catalogue, with game ``domain``'s catalogue (its ``name``) merged over it."""
    key = (lang, domain)
    found = _translators.get(key)
    if found is not None:
        return found
    with _lock:
        found = _translators.get(key)
        if found is None:
            found = _translators[key] = _build(lang if lang in LANGUAGES else "en", domain)
    return found


def _build(lang: str, domain: str | None) -> Translator:
    merged: gettext_module.NullTranslations
    host = _translations(host_locale_dir() / lang / "LC_MESSAGES" / f"{HOST_DOMAIN}.po", lang)
    game = None
    if domain is not None:
        folder = game_locale_dir(domain)
        if folder is not None:
            game = _translations(folder / lang / "LC_MESSAGES" / f"{GAME_CATALOGUE}.po", lang)
    if host is None and game is None:
        merged = gettext_module.NullTranslations()
    elif host is None:
        merged = game  # type: ignore[assignment]
    else:
        merged = host
        if game is not None:
            merged.merge(game)  # the game's words win over the host's
    return Translator(lang, merged)


def reset_cache() -> None:
    """Forget compiled catalogues (tests that edit a catalogue; a process reads them once)."""
    with _lock:
        _translators.clear()
        _mo.cache_clear()


ENGLISH = Translator("en", gettext_module.NullTranslations())
"""English needs no catalogue: msgids are the English text."""


def _rendered(m: Msg, lang: str, names: Sequence[str], domain: str | None) -> str:
    return translator(lang, domain)(m, names)


use_translators(ENGLISH, _rendered)
