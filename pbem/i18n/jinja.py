"""Jinja's i18n extension fed per render: one cached environment serves every language.

``{% trans %}``/``_()`` in a template resolve ``gettext``/``ngettext``/… from the render
context first, so each render passes its seat's functions (thread-safe: nothing global
changes); the environment's own, installed once, are English.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import jinja2
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup

from pbem.i18n.translate import ENGLISH, Translator


def install(env: jinja2.Environment) -> None:
    """Add the i18n extension with English (identity) translations as the default."""
    env.add_extension("jinja2.ext.i18n")
    env.globals.update(functions(ENGLISH))
    env.newstyle_gettext = True  # type: ignore[attr-defined]


@lru_cache(maxsize=256)  # translators are kept (pbem.i18n.translate.translator): a few dozen
def functions(tr: Translator) -> dict[str, Any]:
    """The context entries that make a template speak ``tr``'s language. ``tr`` (the translator
    itself) renders a Msg: ``{{ tr(event) }}``. Made once per translator; a render copies
    them into its own context and changes nothing in them."""
    gettext = _gettext(tr)
    return {
        "gettext": gettext,
        "_": gettext,
        "ngettext": _ngettext(tr),
        "pgettext": _pgettext(tr),
        "npgettext": _npgettext(tr),
        "tr": tr,
        "lang": tr.lang,
    }


# Jinja's own newstyle wrappers (jinja2.ext._make_new_gettext and co.), less their inner
# ``context.call`` of the translator's method: that is a plain method, which Context.call
# only calls, after looking for a pass_context mark on it; a status mail makes some hundred
# of these calls. Autoescape and %(name)s filling as there: the text is made Markup in an
# autoescaped template, so the values it is filled with get escaped.


def _filled(context: Context, text: str, variables: dict[str, Any]) -> str:
    if context.eval_ctx.autoescape:
        return Markup(text) % variables
    return text % variables


def _gettext(tr: Translator) -> Any:
    @pass_context
    def gettext(__context: Context, __string: str, **variables: Any) -> str:
        return _filled(__context, tr.gettext(__string), variables)
    return gettext


def _ngettext(tr: Translator) -> Any:
    @pass_context
    def ngettext(__context: Context, __singular: str, __plural: str, __num: int,
                 **variables: Any) -> str:
        variables.setdefault("num", __num)
        return _filled(__context, tr.ngettext(__singular, __plural, __num), variables)
    return ngettext


def _pgettext(tr: Translator) -> Any:
    @pass_context
    def pgettext(__context: Context, __string_ctx: str, __string: str,
                 **variables: Any) -> str:
        variables.setdefault("context", __string_ctx)
        return _filled(__context, tr.pgettext(__string_ctx, __string), variables)
    return pgettext


def _npgettext(tr: Translator) -> Any:
    @pass_context
    def npgettext(__context: Context, __string_ctx: str, __singular: str, __plural: str,
                  __num: int, **variables: Any) -> str:
        variables.setdefault("context", __string_ctx)
        variables.setdefault("num", __num)
        return _filled(__context, tr.npgettext(__string_ctx, __singular, __plural, __num),
                       variables)
    return npgettext
