"""Jinja's i18n extension fed per render: one cached environment serves every language.

``{% trans %}``/``_()`` in a template resolve ``gettext``/``ngettext``/… from the render
context first, so each render passes its seat's functions (thread-safe: nothing global
changes); the environment's own, installed once, are English.
"""

from __future__ import annotations

from typing import Any

import jinja2
from jinja2.ext import (  # jinja's own wrappers: autoescape and %(name)s filling (newstyle)
    _make_new_gettext,
    _make_new_ngettext,
    _make_new_npgettext,
    _make_new_pgettext,
)

from pbem.i18n.translate import ENGLISH, Translator


def install(env: jinja2.Environment) -> None:
    """Add the i18n extension with English (identity) translations as the default."""
    env.add_extension("jinja2.ext.i18n")
    env.globals.update(functions(ENGLISH))
    env.newstyle_gettext = True  # type: ignore[attr-defined]


def functions(tr: Translator) -> dict[str, Any]:
    """The context entries that make a template speak ``tr``'s language. ``tr`` (the translator
    itself) renders a Msg: ``{{ tr(event) }}``."""
    gettext = _make_new_gettext(tr.gettext)
    return {
        "gettext": gettext,
        "_": gettext,
        "ngettext": _make_new_ngettext(tr.ngettext),
        "pgettext": _make_new_pgettext(tr.pgettext),
        "npgettext": _make_new_npgettext(tr.npgettext),
        "tr": tr,
        "lang": tr.lang,
    }
