"""Messages as data: a sentence's English msgid and its named fields, and the
:class:`Translator` that renders them in one language.

A game or the host never builds a sentence by joining translated fragments: it makes one
:class:`Msg` per sentence, with ``{name}`` placeholders (``str.format``) filled from ``fields``.
``str(msg)`` is the English sentence (:data:`ENGLISH`, which needs no catalogue), so code and
tests that read text keep working; the translator of another language
(:func:`pbem.i18n.translator`, with that language's catalogues) renders the same message
there. A message and its translator live in one module because each needs the other: the
message renders itself in English, the translator reads the message's fields. The extraction
keywords (see ``pbem.catalogues.manage``) are ``msg``, ``nmsg:1,2`` and ``cmsg:1c,2``.
"""

from __future__ import annotations

import gettext as gettext_module
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from babel import Locale
from babel.dates import format_date, format_datetime, format_time
from babel.lists import format_list

from pbem.i18n.zones import aware, zone


@dataclass(frozen=True)
class SeatRef:
    """A seat named in a message: rendered as that seat's player name (the host knows the
    names), or "Player N" (1-based) when no names are given."""

    seat: int


@dataclass(frozen=True, init=False)
class Msg:
    """A translatable sentence with named fields; ``str(msg)`` is its English form."""

    id: str  # the English msgid, with {name} placeholders (str.format)
    # JSON-able values: str, int, Msg, SeatRef, or lists of these. Not hashed (a dict is not
    # hashable); equal messages still compare equal.
    fields: Mapping[str, Any] = field(default_factory=dict, hash=False)
    plural: str | None = None  # the English plural msgid; fields["n"] chooses the form
    context: str | None = None  # msgctxt (pgettext), e.g. "colour", "order keyword"

    def __init__(self, id: str, fields: Mapping[str, Any] | None = None,
                 plural: str | None = None, context: str | None = None) -> None:
        # The dataclass's own __init__, written straight into the instance's dict: a frozen
        # dataclass sets each field through object.__setattr__, and the rules of a game make
        # a message or more per step (a third of the time, bench/engine.py --game reef).
        own = self.__dict__
        own["id"] = id
        own["fields"] = {} if fields is None else fields
        own["plural"] = plural
        own["context"] = context

    def __str__(self) -> str:
        return ENGLISH(self)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id,
                               "fields": {k: _encode(v) for k, v in self.fields.items()}}
        if self.plural is not None:
            out["plural"] = self.plural
        if self.context is not None:
            out["context"] = self.context
        return out

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Msg:
        return cls(str(d["id"]), {str(k): _decode(v) for k, v in d.get("fields", {}).items()},
                   d.get("plural"), d.get("context"))


def _encode(value: Any) -> Any:
    if isinstance(value, Msg):
        return {"$msg": value.to_json()}
    if isinstance(value, SeatRef):
        return {"$seat": value.seat}
    if isinstance(value, list | tuple):
        return [_encode(v) for v in value]
    return value


def _decode(value: Any) -> Any:
    if isinstance(value, dict):
        if "$msg" in value:
            return Msg.from_json(value["$msg"])
        if "$seat" in value:
            return SeatRef(int(value["$seat"]))
    if isinstance(value, list):
        return [_decode(v) for v in value]
    return value


# Messages without fields (a colour, a piece's name) are made thousands of times per game by
# the rules and bots: one shared instance each (they are immutable). Bounded, in case an id
# ever comes from input.
_PLAIN: dict[tuple[str | None, str], Msg] = {}
_PLAIN_MAX = 4096


def _plain(context: str | None, id: str) -> Msg:
    m = _PLAIN.get((context, id))
    if m is None:
        m = Msg(id, {}, context=context)
        if len(_PLAIN) < _PLAIN_MAX:
            _PLAIN[(context, id)] = m
    return m


def msg(id: str, /, **fields: Any) -> Msg:
    """A sentence to translate: ``msg("{seat} took {colour}.", seat=SeatRef(0), colour=...)``."""
    return Msg(id, fields) if fields else _plain(None, id)


def nmsg(singular: str, plural: str, n: int, /, **fields: Any) -> Msg:
    """A sentence with plural forms chosen by ``n`` (available to the text as ``{n}``)."""
    return Msg(singular, {**fields, "n": n}, plural=plural)


def cmsg(context: str, id: str, /, **fields: Any) -> Msg:
    """A word or sentence whose translation depends on ``context`` (gettext's msgctxt), e.g.
    ``cmsg("colour", "pink")``."""
    return Msg(id, fields, context=context) if fields else _plain(context, id)


def N_(text: str, /) -> str:
    """Marks ``text`` for the catalogue without translating it here (gettext's "noop"): for
    English texts kept as data and translated where shown, e.g. a game's ``about``."""
    return text


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
        local = aware(when).astimezone(zone(tz))
        if self.lang == "en":
            return local.strftime("%Y-%m-%d")
        return format_date(local, "long", locale=self.locale)

    def datetime(self, when: datetime, tz: str | None = None) -> str:
        """A moment in this language and the seat's time zone, with the zone's abbreviation
        (English keeps the host's long-standing ``2026-11-23 16:12 UTC``)."""
        local = aware(when).astimezone(zone(tz))
        abbrev = local.strftime("%Z") or (tz or "UTC")
        if self.lang == "en":
            return f"{local:%Y-%m-%d %H:%M} {abbrev}"
        day = format_date(local, "long", locale=self.locale)
        clock = format_time(local, "HH:mm", locale=self.locale)
        pattern = _AT.get(self.lang) or self.locale.datetime_formats.get("long") or "{1} {0}"
        return f"{pattern.format(clock, day)} {abbrev}"


    def short_datetime(self, when: Moment, tz: str | None = None) -> str:
        """A moment short enough for a subject line: ``Thu 26 Nov 18:00 UTC``."""
        local = aware(when).astimezone(zone(tz))
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


ENGLISH = Translator("en", gettext_module.NullTranslations())
"""English needs no catalogue: msgids are the English text."""
