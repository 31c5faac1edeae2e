"""A game's options as the operator gives them (``-o rounds=3 -o advanced=yes``), checked for
every game alike against its ``default_options()``: the names it knows, and each value read
as the type of its default (bool, int, float or str), so ``advanced=yes`` is True and not the
string "yes", and a typo is refused with the list of valid options instead of being stored.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

_TRUE = {"yes", "true", "on", "1"}
_FALSE = {"no", "false", "off", "0"}


# Options the host keeps for every game alike, beside the game's own and never passed to its
# rules (so no game's setup or replay depends on them): each with its default.
# hidden_for_good: the archive keeps every seat's holdings and every draw hidden even after
# the game's end (by default it shows them then).
HOST_OPTIONS: dict[str, Any] = {"hidden_for_good": False}


class OptionError(ValueError):
    """An option the game does not know, or a value of the wrong kind; the message says which."""


def _kind(default: Any) -> str:
    if isinstance(default, bool):
        return "yes/no"
    if isinstance(default, int):
        return "a whole number"
    if isinstance(default, float):
        return "a number"
    if isinstance(default, str):
        return "text"
    return f"JSON {type(default).__name__}"


def _shown(default: Any) -> str:
    if isinstance(default, bool):
        return "yes" if default else "no"
    return json.dumps(default, ensure_ascii=False) if not isinstance(default, str) else default


def valid_list(defaults: Mapping[str, Any]) -> str:
    """``advanced (yes/no, default no), rounds (a whole number, default 2)``."""
    return ", ".join(f"{name} ({_kind(d)}, default {_shown(d) or '(empty)'})"
                     for name, d in sorted(defaults.items())) or "none"


def _unknown(name: str, title: str, defaults: Mapping[str, Any]) -> OptionError:
    if not defaults:
        return OptionError(f"{title} takes no options, so {name!r} is not one")
    return OptionError(f"{title} has no option {name!r}; its options: {valid_list(defaults)}")


def _value(name: str, text: str, default: Any) -> Any:
    """``text`` read as the type of ``default``."""
    word = text.strip()
    if isinstance(default, bool):
        if word.lower() in _TRUE:
            return True
        if word.lower() in _FALSE:
            return False
        raise OptionError(f"option {name} is yes or no (also true/false, on/off, 1/0), "
                          f"not {text!r}")
    if isinstance(default, int):
        try:
            return int(word)
        except ValueError:
            raise OptionError(f"option {name} is a whole number, not {text!r}") from None
    if isinstance(default, float):
        try:
            return float(word)
        except ValueError:
            raise OptionError(f"option {name} is a number, not {text!r}") from None
    if isinstance(default, str):
        return text
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        value = None
    if not isinstance(value, type(default)):
        raise OptionError(f"option {name} is {_kind(default)} (like {_shown(default)}), "
                          f"not {text!r}")
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
            raise OptionError(f"option {name} needs a value: -o {name}=VALUE "
                              f"({_kind(defaults[name])}, default {_shown(defaults[name])})")
        if name in options:
            raise OptionError(f"option {name} is given twice")
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
            raise OptionError(f"option {name} is {_kind(default)}, not {value!r}")


def split(title: str, defaults: Mapping[str, Any], items: Iterable[str]
          ) -> tuple[dict[str, Any], dict[str, Any]]:
    """``-o`` items as typed options: the game's (checked against ``defaults``) and the host's
    (:data:`HOST_OPTIONS`, the same for every game; given ones only)."""
    both = from_text(title, {**defaults, **HOST_OPTIONS}, items)
    return ({k: v for k, v in both.items() if k not in HOST_OPTIONS},
            {k: v for k, v in both.items() if k in HOST_OPTIONS})
