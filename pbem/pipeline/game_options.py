"""A game's options as the operator gives them (``-o rounds=3 -o advanced=yes``), checked for
every game alike against its ``default_options()``: the names it knows, and each value read
as the type of its default (bool, int, float or str), so ``advanced=yes`` is True and not the
string "yes", and a typo is refused with the list of valid options instead of being stored.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
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


def valid_list(defaults: Mapping[str, Any]) -> list[Msg]:
    """``advanced (yes/no, default no), rounds (a whole number, default 2)``: a list field,
    which each language joins its own way (English with commas only)."""
    return [msg("{name} ({kind}, default {default})", name=name, kind=_kind(d),
                default=_shown(d) or msg("(empty)"))
            for name, d in sorted(defaults.items())]


def _unknown(name: str, title: str, defaults: Mapping[str, Any]) -> OptionError:
    if not defaults:
        return OptionError(msg("{title} takes no options, so {name} is not one", title=title,
                               name=repr(name)))
    return OptionError(msg("{title} has no option {name}; its options: {options}",
                           title=title, name=repr(name), options=valid_list(defaults)))


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


def from_text(title: str, defaults: Mapping[str, Any], items: Iterable[str]) -> dict[str, Any]:
    """``["rounds=3", "advanced=yes"]`` as typed options; each name at most once."""
    options: dict[str, Any] = {}
    for item in items:
        name, eq, text = item.partition("=")
        name = name.strip()
        if name not in defaults:
            raise _unknown(name, title, defaults)
        if not eq:
            raise OptionError(msg("option {name} needs a value: -o {name}=VALUE ({kind}, "
                                  "default {default})", name=name, kind=_kind(defaults[name]),
                                  default=_shown(defaults[name])))
        if name in options:
            raise OptionError(msg("option {name} is given twice", name=name))
        options[name] = _value(name, text, defaults[name])
    return options


def check(title: str, defaults: Mapping[str, Any], options: Mapping[str, Any]) -> None:
    """Options given as values (not text) must be known and of their default's type."""
    for name, value in options.items():
        if name not in defaults:
            raise _unknown(name, title, defaults)
        default = defaults[name]
        same = (isinstance(value, bool) if isinstance(default, bool)
                else isinstance(value, int) and not isinstance(value, bool)
                if isinstance(default, int)
                else isinstance(value, int | float) and not isinstance(value, bool)
                if isinstance(default, float)
                else isinstance(value, type(default)))
        if not same:
            raise OptionError(msg("option {name} is {kind}, not {value}", name=name,
                                  kind=_kind(default), value=repr(value)))


def split(title: str, defaults: Mapping[str, Any], items: Iterable[str]
          ) -> tuple[dict[str, Any], dict[str, Any]]:
    """``-o`` items as typed options: the game's (checked against ``defaults``) and the host's
    (:data:`HOST_OPTIONS`, the same for every game; given ones only)."""
    both = from_text(title, {**defaults, **HOST_OPTIONS}, items)
    return ({k: v for k, v in both.items() if k not in HOST_OPTIONS},
            {k: v for k, v in both.items() if k in HOST_OPTIONS})
