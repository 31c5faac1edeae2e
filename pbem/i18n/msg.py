"""Messages as data: a sentence's English msgid and its named fields, rendered per language.

A game or the host never builds a sentence by joining translated fragments: it makes one
:class:`Msg` per sentence, with ``{name}`` placeholders (``str.format``) filled from ``fields``.
``str(msg)`` is the English sentence, so code and tests that read text keep working; a
:class:`pbem.i18n.Translator` renders the same message in another language. The extraction
keywords (see ``pbem.catalogues.manage``) are ``msg``, ``nmsg:1,2`` and ``cmsg:1c,2``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


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
        return _english(self)

    def render(self, lang: str = "en", names: Sequence[str] = (),
               domain: str | None = None) -> str:
        """This message in ``lang`` (a shortcut for ``translator(lang, domain)(self, names)``)."""
        return _translated(self, lang, names, domain)

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


def _unset(*args: Any) -> str:
    raise RuntimeError("pbem.i18n.translate is not loaded (import pbem.i18n)")


# How a message becomes text, set by pbem.i18n.translate as it loads (importing any module of
# pbem.i18n loads it first): this module is the data the translators read, and imports none.
_english: Callable[[Msg], str] = _unset
_translated: Callable[[Msg, str, Sequence[str], str | None], str] = _unset


def use_translators(english: Callable[[Msg], str],
                    translated: Callable[[Msg, str, Sequence[str], str | None], str]) -> None:
    """Say how ``str(msg)`` (English, no catalogue) and ``msg.render`` make their text."""
    global _english, _translated
    _english, _translated = english, translated


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
