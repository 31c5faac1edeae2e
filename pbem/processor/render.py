"""Turning views into email text with jinja2: the shared layout wraps each game's status.

Templates receive only ``view`` output (never a raw state), so a seat's email can hold nothing
that seat may not see. A game supplies ``<game>/status.*.j2`` (and optionally ``prompt.*.j2``);
it may also replace the end-of-game part, ``outcome.*.j2``, when its status already shows the
final scoring (see templates/outcome.txt.j2).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import css_inline
import jinja2

import pbem
from pbem.i18n import jinja as i18n_jinja
from pbem.i18n.translate import ENGLISH, Translator, translator


def templates_dir() -> Path:
    """The mail templates: PBEM_TEMPLATES if set, else the copy an installed wheel carries
    inside the package (setup.py puts it there), else the checkout's templates/ folder."""
    env = os.environ.get("PBEM_TEMPLATES")
    if env:
        return Path(env)
    installed = Path(pbem.__file__).parent / "templates"
    return installed if installed.is_dir() else Path(pbem.__file__).parent.parent / "templates"


_environments: dict[tuple[str, int], jinja2.Environment] = {}


def environment(game: Any | None = None) -> jinja2.Environment:
    """One environment per template folder and game, kept: compiling templates per email
    cost more than the rest of the pipeline (bench/pipeline.py)."""
    key = (str(templates_dir()), id(game))
    env = _environments.get(key)
    if env is None:
        env = _environments[key] = _new_environment(game)
    return env


def _new_environment(game: Any | None) -> jinja2.Environment:
    dirs = [templates_dir()]
    if game is not None:
        dirs += [Path(d) for d in game.template_dirs()]
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([str(d) for d in dirs]),
        autoescape=jinja2.select_autoescape(enabled_extensions=("html", "html.j2"),
                                            default_for_string=False),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    i18n_jinja.install(env)  # {% trans %} and _(); each render passes its seat's language
    if game is not None:
        env.globals.update(game.template_helpers())
    return env


def language_context(tr: Translator) -> dict[str, Any]:
    """What a render adds to its context to speak ``tr``'s language (see pbem.i18n.jinja)."""
    return i18n_jinja.functions(tr)


@dataclass
class StatusMail:
    """Everything one seat's email says besides the game's own status block."""

    title: str
    tag: str
    seat: int
    seat_name: str
    view: dict[str, Any]
    intro: list[str] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    waiting: list[str] = field(default_factory=list)
    your_turn: bool = False
    deadline: str | None = None  # when this seat's orders are due, if the game has a deadline
    outcome: list[str] = field(default_factory=list)  # the final ranking, once the game ends
    # The game's words on its scoring; see templates/outcome.txt.j2 for who prints them.
    explanation: list[str] = field(default_factory=list)
    secret: str | None = None
    names: list[str] = field(default_factory=list)  # every seat's player name, by seat index
    waiting_names: list[str] = field(default_factory=list)  # names only, for the subject
    example_order: str | None = None  # a legal order, shown first in the mover's mail
    mail_mode: str = "every"  # the seat's mail setting, shown in every status
    lang: str = "en"  # the seat's language: the whole mail is rendered in it
    timezone: str = "UTC"  # the seat's time zone, for the dates it reads
    footer: str = ""  # the seat's language and how to change it (pbem.processor.lang.footer)


def render_status(game: Any, mail: StatusMail) -> tuple[str, str]:
    """The plain-text and HTML bodies of one seat's status email, in the seat's language."""
    env = environment(game)
    ctx = {**mail.__dict__, "game_name": game.name,
           **language_context(translator(mail.lang, game.name))}
    text = env.get_template("layout.txt.j2").render(ctx)
    html = _INLINER.inline(env.get_template("layout.html.j2").render(ctx))
    return text, html


# Mail clients (Gmail, Outlook) drop <style>: css-inline moves each rule onto its elements.
_INLINER = css_inline.CSSInliner(keep_style_tags=False, load_remote_stylesheets=False)


def render_notice(lines: list[str], tag: str | None = None, tr: Translator = ENGLISH,
                  footer: str | None = None) -> str:
    """A short plain note (unknown sender, help, errors before any game is known); a seat's
    note ends with its language ``footer``."""
    return environment().get_template("notice.txt.j2").render(
        lines=lines, tag=tag, footer=footer, **language_context(tr))
