"""The players' guide as web pages: one per installed game and language, beside the archive
(``guide/<game-id>/<lang>.html``), made from exactly what the ``help`` mail says — the game's
help text, how to reply, the host's commands — so the page and the mail never disagree.

The guide shows no game in progress: its examples are each game's generic ones (help's
examples for a state of None), the same for every host.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pbem.engine import registry
from pbem.engine.contract import GameRules, help_text
from pbem.i18n import LANGUAGES, Msg, msg, translator
from pbem.pipeline.handlers.help import help_lines, how_to_reply
from pbem.pipeline.seat_language import language_name, render_lines
from pbem.rendering import environment, language_context
from pbem.settings.guide_links import guide_path
from pbem.settings.host import Host


@dataclass
class GuideLink:
    """A game's guide pages, as the site's index lists them."""

    title: str
    pages: list[tuple[str, str, str]]  # (href, language code, the language's own name)


@dataclass
class LanguageLink:
    href: str
    code: str
    name: str


def render_guide(rules: GameRules, lang: str, host: Host | None = None) -> str:
    """One game's guide page in ``lang``."""
    tr = translator(lang)
    others = [LanguageLink(f"{code}.html", code, language_name(code))
              for code in LANGUAGES if code != lang]
    page = environment().get_template("site-guide.html.j2").render(
        title=tr(msg("Help for {title}", title=rules.title)),
        about=translator(lang, rules.name)(Msg(rules.about)) if rules.about else "",
        game_help=help_text(rules, None, lang).rstrip("\n"),
        how_to_reply=render_lines(how_to_reply(tr), tr),
        host_help="\n".join(help_lines(tr, host)), others=others,
        index_href="../../index.html", **language_context(tr))
    return str(page)


def write_guides(folder: Path, write: Callable[[Path, str], Path],
                 host: Host | None = None) -> tuple[list[GuideLink], list[Path]]:
    """Every installed game's guide in every language under ``folder``; the index's links and
    the pages written."""
    links, written = [], []
    for name, rules in sorted(registry.games().items()):
        pages = []
        for lang in LANGUAGES:
            path = folder / guide_path(name, lang)
            path.parent.mkdir(parents=True, exist_ok=True)
            written.append(write(path, render_guide(rules, lang, host)))
            pages.append((guide_path(name, lang), lang, language_name(lang)))
        links.append(GuideLink(rules.title, pages))
    return links, written
