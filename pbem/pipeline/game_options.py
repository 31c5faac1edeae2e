"""A game's options as the operator gives them (``-o rounds=3 -o advanced=yes``), checked for
every game alike against its ``default_options()``: the names it knows, and each value read
as the type of its default (bool, int, float or str), so ``advanced=yes`` is True and not the
string "yes", and a typo is refused with the list of valid options instead of being stored.
An option may also take the kinds of the examples the game gives as its alternatives (a
JSON table beside a number, say): it is read as its default's kind first, then as those.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pbem.i18n import Msg, cmsg, msg

_TRUE = {"yes", "true", "on", "1"}
_FALSE = {"no", "false", "off", "0"}


# Options the host keeps for every game alike, beside the game's own and never passed to its
# rules (so no game's setup or replay depends on them): each with its default.
# hidden_for_good: the archive keeps every seat's holdings and every draw hidden even after
# the game's end (by default it shows them then).
HOST_OPTIONS: dict[str, Any] = {"hidden_for_good": False}


class OptionError(ValueError):
    """An option the game does not know, or a value of the wrong kind; the message says which.

    ``message`` is the sentence to translate (a lobby reply speaks the player's language);
    ``str(exc)`` is its English text, as the command line shows it."""

    def __init__(self, message: Msg) -> None:
        super().__init__(str(message))
        self.message = message


def _kind(default: Any) -> Msg:
    if isinstance(default, bool):
        return cmsg("option kind", "yes/no")
    if isinstance(default, int):
        return cmsg("option kind", "a whole number")
    if isinstance(default, float):
        return cmsg("option kind", "a number")
    if isinstance(default, str):
        return cmsg("option kind", "text")
    return cmsg("option kind", "JSON {kind}", kind=type(default).__name__)


def _shown(default: Any) -> str:
    if isinstance(default, bool):
        return "yes" if default else "no"
    return json.dumps(default, ensure_ascii=False) if not isinstance(default, str) else default


def valid_list(defaults: Mapping[str, Any], alternatives: Alternatives | None = None
               ) -> list[Msg]:
    """``advanced (yes/no, default no), rounds (a whole number, default 2)``: a list field,
    which each language joins its own way (English with commas only)."""
    return [msg("{name} ({kind}, default {default})", name=name,
                kind=_kinds(name, d, alternatives), default=_shown(d) or msg("(empty)"))
            for name, d in sorted(defaults.items())]


def _unknown(name: str, title: str, defaults: Mapping[str, Any],
             alternatives: Alternatives | None) -> OptionError:
    if not defaults:
        return OptionError(msg("{title} takes no options, so {name} is not one", title=title,
                               name=repr(name)))
    return OptionError(msg("{title} has no option {name}; its options: {options}",
                           title=title, name=repr(name),
                           options=valid_list(defaults, alternatives)))


Alternatives = Mapping[str, Sequence[Any]]
"""Per option, an example value of each other kind it takes (see the module's docstring)."""


def _kinds(name: str, default: Any, alternatives: Alternatives | None) -> Msg:
    """``a whole number or JSON dict``: the default's kind, then each alternative's."""
    kind = _kind(default)
    for other in (alternatives or {}).get(name, ()):
        kind = cmsg("option kind", "{first} or {other}", first=kind, other=_kind(other))
    return kind


def _read(name: str, text: str, default: Any, alternatives: Alternatives | None) -> Any:
    """``text`` read as the type of ``default``, else as the first alternative it fits."""
    try:
        return _value(name, text, default)
    except OptionError as refused:
        others = (alternatives or {}).get(name, ())
        for other in others:
            try:
                return _value(name, text, other)
            except OptionError:
                continue
        if not others:
            raise
        raise OptionError(msg("option {name} is {kind} (like {example}), not {value}",
                              name=name, kind=_kinds(name, default, alternatives),
                              example=_shown(others[0]), value=repr(text))) from refused


def _same_kind(value: Any, default: Any) -> bool:
    if isinstance(default, bool):
        return isinstance(value, bool)
    if isinstance(default, int):
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(default, float):
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, type(default))


def _value(name: str, text: str, default: Any) -> Any:
    """``text`` read as the type of ``default``."""
    word = text.strip()
    if isinstance(default, bool):
        if word.lower() in _TRUE:
            return True
        if word.lower() in _FALSE:
            return False
        raise OptionError(msg("option {name} is yes or no (also true/false, on/off, 1/0), "
                              "not {value}", name=name, value=repr(text)))
    if isinstance(default, int):
        try:
            return int(word)
        except ValueError:
            raise OptionError(msg("option {name} is a whole number, not {value}", name=name,
                                  value=repr(text))) from None
    if isinstance(default, float):
        try:
            return float(word)
        except ValueError:
            raise OptionError(msg("option {name} is a number, not {value}", name=name,
                                  value=repr(text))) from None
    if isinstance(default, str):
        return text
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        value = None
    if not isinstance(value, type(default)):
        raise OptionError(msg("option {name} is {kind} (like {example}), not {value}",
                              name=name, kind=_kind(default), example=_shown(default),
                              value=repr(text)))
    return value


def from_text(title: str, defaults: Mapping[str, Any], items: Iterable[str],
              alternatives: Alternatives | None = None) -> dict[str, Any]:
    """``["rounds=3", "advanced=yes"]`` as typed options; each name at most once."""
    options: dict[str, Any] = {}
    for item in items:
        name, eq, text = item.partition("=")
        name = name.strip()
        if name not in defaults:
            raise _unknown(name, title, defaults, alternatives)
        if not eq:
            raise OptionError(msg("option {name} needs a value: -o {name}=VALUE ({kind}, "
                                  "default {default})", name=name, kind=_kind(defaults[name]),
                                  default=_shown(defaults[name])))
        if name in options:
            raise OptionError(msg("option {name} is given twice", name=name))
        options[name] = _read(name, text, defaults[name], alternatives)
    return options


def check(title: str, defaults: Mapping[str, Any], options: Mapping[str, Any],
          alternatives: Alternatives | None = None) -> None:
    """Options given as values (not text) must be known and of their default's type (or of
    one of their alternatives')."""
    for name, value in options.items():
        if name not in defaults:
            raise _unknown(name, title, defaults, alternatives)
        kinds = [defaults[name], *(alternatives or {}).get(name, ())]
        if not any(_same_kind(value, kind) for kind in kinds):
            raise OptionError(msg("option {name} is {kind}, not {value}", name=name,
                                  kind=_kinds(name, defaults[name], alternatives),
                                  value=repr(value)))


def split(title: str, defaults: Mapping[str, Any], items: Iterable[str],
          alternatives: Alternatives | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    """``-o`` items as typed options: the game's (checked against ``defaults``) and the host's
    (:data:`HOST_OPTIONS`, the same for every game; given ones only)."""
    both = from_text(title, {**defaults, **HOST_OPTIONS}, items, alternatives)
    return ({k: v for k, v in both.items() if k not in HOST_OPTIONS},
            {k: v for k, v in both.items() if k in HOST_OPTIONS})
