"""Turning views into email text with jinja2: the shared layout wraps each game's status.

Templates receive only ``view`` output (never a raw state), so a seat's email can hold nothing
that seat may not see. A game supplies ``<game>/status.*.j2`` (and optionally ``prompt.*.j2``);
it may also replace the end-of-game part, ``outcome.*.j2``, when its status already shows the
final scoring (see templates/outcome.txt.j2).

A game may also supply ``<game>/public.*.j2``: the part of its status every seat sees alike
(the board, the scores). It is rendered from the spectator's view (``view(state, None)``, never
a seat's) once per distinct view, language and player names, and its status template shows it
as ``public_txt`` / ``public_html``: a move's four mails draw the board once, not four times.
What the public part says to one reader only (the " — you" after its own player) it wraps in
:func:`for_reader`: kept as a mark naming the seat, and each seat's mail keeps its own marks'
words and drops the others' (:func:`for_seat`).
"""

from __future__ import annotations

import json
import os
import re
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import css_inline
import jinja2
from jinja2 import nodes, pass_context
from jinja2.runtime import Context
from markupsafe import Markup, escape

import pbem
from pbem.drawing.pictures import swap_pictures
from pbem.engine import registry
from pbem.engine.contract import GameRules
from pbem.i18n import jinja as i18n_jinja
from pbem.i18n.translate import ENGLISH, Translator, translator


def templates_dir() -> Path:
    """The host's mail templates: PBEM_TEMPLATES if set, else ``pbem/templates`` (in a
    checkout a link to the top-level templates/ folder; a wheel carries the files). Each
    game's own templates come from its package (:func:`pbem.engine.registry.templates_dir`)."""
    env = os.environ.get("PBEM_TEMPLATES")
    return Path(env) if env else _packaged_templates()


@cache
def _packaged_templates() -> Path:
    """Looked up once: the package does not move while it runs, and the check's stat came
    several times in every mail (each render finds its environment by this folder)."""
    installed = Path(pbem.__file__).parent / "templates"
    return installed if installed.is_dir() else Path(pbem.__file__).parent.parent / "templates"


_KEPT_MAX = 512  # parts kept (a game, a language, a mail setting each); then started again
_PUBLIC_KEPT = 16  # distinct public parts kept: a few moves' worth, in every language


class MailTemplates:
    """What rendering mail keeps between mails: one jinja environment per template folder and
    game (compiling templates per email cost more than the rest of the pipeline,
    bench/pipeline.py), and the parts its renders keep (:func:`kept`, :func:`public_parts`).

    Everything is keyed by the game and the environment themselves, never by their ``id()``:
    an id is reused once its object is gone, and would then find another game's templates.
    """

    def __init__(self) -> None:
        self.environments: dict[tuple[str, GameRules | None], jinja2.Environment] = {}
        self.kept: dict[tuple[Any, ...], str] = {}
        self.public: OrderedDict[tuple[jinja2.Environment, str, tuple[str, ...], str],
                                 dict[str, Any]] = OrderedDict()
        self.public_lock = threading.Lock()

    def environment(self, game: GameRules | None = None) -> jinja2.Environment:
        key = (str(templates_dir()), game)
        env = self.environments.get(key)
        if env is None:
            env = self.environments[key] = _new_environment(game)
        return env


TEMPLATES = MailTemplates()  # this process's; tests look into it


def environment(game: GameRules | None = None) -> jinja2.Environment:
    """The environment of ``game``'s mail (the host's alone for None), made once."""
    return TEMPLATES.environment(game)


def _new_environment(game: GameRules | None) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=_loader(game),
        autoescape=jinja2.select_autoescape(enabled_extensions=("html", "html.j2"),
                                            default_for_string=False),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    i18n_jinja.install(env)  # {% trans %} and _(); each render passes its seat's language
    env.globals["for_reader"] = for_reader
    env.globals["kept"] = kept
    if game is not None:
        env.globals.update(game.template_helpers())
    return env


def _loader(game: GameRules | None) -> jinja2.BaseLoader:
    """The host's folder first (an operator's PBEM_TEMPLATES may replace a game's template
    as ``<game>/<file>``), then the game's extra folders, then its package's own templates
    under the game's name."""
    dirs = [templates_dir()]
    if game is not None:
        dirs += [Path(d) for d in game.template_dirs()]
    folders = jinja2.FileSystemLoader([str(d) for d in dirs])
    own = None if game is None else registry.templates_dir(game)
    if game is None or own is None:
        return folders
    return jinja2.ChoiceLoader([folders,
                                jinja2.PrefixLoader({game.name: jinja2.FileSystemLoader(own)})])


def language_context(tr: Translator) -> dict[str, Any]:
    """What a render adds to its context to speak ``tr``'s language (see pbem.i18n.jinja)."""
    return i18n_jinja.functions(tr)


@dataclass
class StatusMail:
    """Everything one seat's email says besides the game's own status block."""

    title: str
    tag: str
    seat: int | None  # None: a spectator's (the operator's look at the game)
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
    footer: str = ""  # the seat's language and how to change it (seat_language.footer)
    # The spectator's view (seat None): the part every seat's mail shares is drawn from it.
    # None: the game's status template draws that part from this seat's own ``view``.
    public: dict[str, Any] | None = None
    # The seats a bot plays (a bot seat's name, or a player's with a bot standing in).
    bots: list[str] = field(default_factory=list)
    # A watcher's mail: the spectators' view, with no word on replying with orders.
    watcher: bool = False
    # One-tap orders: (the order in the seat's words, a mailto: link that opens a reply to
    # the seat's reply address with it written in), in this seat's mail only.
    one_tap: list[tuple[str, str]] = field(default_factory=list)


# A reader's words in a part drawn for every seat: mark, seat number, words, end. Private-use
# characters (no template writes them, and the CSS inliner passes them through as text), and a
# word drawn at random per process: a player's name or words holding such characters cannot
# forge a mark, which would show text in one seat's mail only.
MARK = f"\ue000{secrets.token_hex(8)}:"
_READER = re.compile(re.escape(MARK) + "(\\d+)\ue001(.*?)\ue002", re.S)


@pass_context
def for_reader(ctx: Context, seat: int, words: str) -> str:
    """``words`` in the mail of ``seat`` only. Rendered for one seat (a ``seat`` in the
    context; None: a spectator), it decides at once; in the public part (no ``seat``: it is
    drawn once for every seat) it leaves a mark that :func:`for_seat` settles per mail."""
    if "seat" in ctx:
        reader = ctx["seat"]
        shown = words if reader is not None and reader == seat else ""
    else:
        shown = f"{MARK}{int(seat)}\ue001{escape(words) if ctx.eval_ctx.autoescape else words}" \
            "\ue002"
    return Markup(shown) if ctx.eval_ctx.autoescape else shown


def for_seat(part: str, seat: int | None) -> str:
    """``part`` (public, marked by :func:`for_reader`) as ``seat``'s mail shows it."""
    if MARK not in part:
        return part
    return _READER.sub(lambda m: m.group(2) if seat is not None and int(m.group(1)) == seat
                       else "", part)


_MISSING = object()


@cache
def _reads(env: jinja2.Environment, name: str) -> tuple[str, ...] | None:
    """Every name template ``name`` reads (globals too: a render passes its own language's
    ``_`` and ``pgettext`` over the English ones); None if it reads another template."""
    assert env.loader is not None
    tree = env.parse(env.loader.get_source(env, name)[0])
    if any(tree.find_all((nodes.Include, nodes.Import, nodes.FromImport, nodes.Extends))):
        return None
    return tuple(sorted({n.name for n in tree.find_all(nodes.Name) if n.ctx == "load"}))


@pass_context
def kept(ctx: Context, name: str) -> str:
    """Template ``name`` rendered with this render's context, kept by every value it reads:
    a part the same in many mails (how to reply: a game's tag, a language, a mail setting)
    is rendered once. Never kept while a ``secret`` is in the context (no secret stays in
    memory past its mail), nor when a value it reads cannot be a key."""
    env = ctx.environment
    values = ctx.get_all()
    key: tuple[Any, ...] | None = None
    reads = _reads(env, name)
    if values.get("secret") is None and reads is not None:
        key = (env, name, ctx.eval_ctx.autoescape,
               *(values.get(n, _MISSING) for n in reads))
        try:
            found = TEMPLATES.kept.get(key)
        except TypeError:  # a list, a dict: drawn each time
            found, key = None, None
        if found is not None:
            return Markup(found) if ctx.eval_ctx.autoescape else found
    done = env.get_template(name).render(values)
    if key is not None:
        if len(TEMPLATES.kept) >= _KEPT_MAX:
            TEMPLATES.kept.clear()
        TEMPLATES.kept[key] = done
    return Markup(done) if ctx.eval_ctx.autoescape else done


def render_status(game: GameRules, mail: StatusMail) -> tuple[str, str]:
    """The plain-text and HTML bodies of one seat's status email, in the seat's language."""
    env = environment(game)
    speech = language_context(translator(mail.lang, game.name))
    ctx = {**mail.__dict__, "game_name": game.name, **speech}
    if mail.public is not None:
        ctx.update(public_parts(env, game.name, mail.public, mail.names, speech))
        if "public_txt" in ctx:  # the kept part stays unsettled: every seat's mail reads it
            ctx["public_txt"] = for_seat(ctx["public_txt"], mail.seat)
    text = env.get_template("layout.txt.j2").render(ctx)
    public_html = ctx.get("public_html")
    if public_html is None:
        return text, styled(env.get_template("layout.html.j2").render(ctx))
    # The shared part has its styles inlined once too: this mail's own HTML is inlined with a
    # mark in its place, then the part (kept, styled) goes where the mark is.
    html = env.get_template("layout.html.j2").render({**ctx, "public_html": Markup(_SLOT)})
    styles = _STYLE.findall(html)
    if html.count(_SLOT) != 1 or len(styles) != 1:  # not the layout this expects: the long way
        return text, styled(html.replace(_SLOT, for_seat(public_html, mail.seat)))
    parts = ctx["public_parts"]
    part = parts.get(styles[0])
    if part is None:
        part = parts[styles[0]] = styled(public_html, styles[0])
    own = styled(html)
    if own.count(_SLOT) != 1:  # the inliner lost or copied the mark: the long way
        return text, styled(html.replace(_SLOT, for_seat(public_html, mail.seat)))
    return text, own.replace(_SLOT, for_seat(part, mail.seat), 1)


_SLOT = "<!--pbem-public-part-->"
_STYLE = re.compile(r"<style>(.*?)</style>", re.S)


def styled(html: str, style: str | None = None) -> str:
    """``html`` with its style sheet (or ``style``, for a fragment) moved onto its elements,
    its pictures left out of it: no rule of a mail's sheet styles an SVG's shapes, and the
    inliner took nine tenths of its time parsing and writing out a board's thousands (1.4 ms
    a move), rewriting each ``<rect/>`` as ``<rect></rect>``. Each picture (an SVG, or the
    bands of one) stands aside as a mark while the rest is styled, then goes back where its
    mark is, as the game wrote it."""
    pictures: list[str] = []
    marks: list[str] = []

    def set_aside(picture: str) -> str:
        pictures.append(picture)
        marks.append(f"<!--pbem-picture-{len(marks)}-->")
        return marks[-1]

    done = _inline(swap_pictures(html, set_aside), style)
    if any(done.count(mark) != 1 for mark in marks):  # a mark the inliner moved: as it was
        return _inline(html, style)
    for picture, mark in zip(pictures, marks, strict=True):
        done = done.replace(mark, picture, 1)
    return done


def _inline(html: str, style: str | None) -> str:
    return _INLINER.inline(html) if style is None else _INLINER.inline_fragment(html, style)


def _public_templates(env: jinja2.Environment, game_name: str
                      ) -> tuple[jinja2.Template, jinja2.Template] | None:
    try:
        return (env.get_template(f"{game_name}/public.txt.j2"),
                env.get_template(f"{game_name}/public.html.j2"))
    except jinja2.TemplateNotFound:
        return None


def has_public_part(game: GameRules) -> bool:
    """Whether ``game``'s status has a public part (so its mails want the spectator's view)."""
    return _public_templates(environment(game), game.name) is not None


class PublicView(dict[str, Any]):
    """A spectator's view with the JSON :func:`public_parts` keeps its part by, written once:
    a move's mails all show the same view, and writing it cost a tenth of a millisecond a
    mail. Made from a view no one changes afterwards (pbem.pipeline.move_mails)."""

    def __init__(self, view: dict[str, Any]) -> None:
        super().__init__(view)
        # Underscored: a template's ``view.name`` finds an attribute before a key.
        self._json_key = _as_key(self)


def _as_key(public: dict[str, Any]) -> str | None:
    """``public`` as the JSON its part is kept by; None if it is not JSON (a game's own
    types): then its part is drawn for each mail."""
    try:
        return json.dumps(public, sort_keys=True, ensure_ascii=False)
    except (TypeError, ValueError):
        return None


def public_parts(env: jinja2.Environment, game_name: str, public: dict[str, Any],
                 names: list[str], speech: dict[str, Any]) -> dict[str, Any]:
    """``public_txt`` and ``public_html``: the game's public part (``<game>/public.*.j2``) drawn
    from the spectator's view ``public``, or nothing if the game has none.

    Kept by its whole input (the view as JSON, the language, the names): a render reads
    nothing else, so a kept part is the part this mail would have drawn itself."""
    templates = _public_templates(env, game_name)
    if templates is None:
        return {}
    seen = public._json_key if isinstance(public, PublicView) else _as_key(public)
    key = (env, str(speech["lang"]), tuple(names), seen or "")
    drawn = TEMPLATES.public
    if seen is not None:
        with TEMPLATES.public_lock:
            found = drawn.get(key)
            if found is not None:
                drawn.move_to_end(key)
                return found
    ctx = {"view": public, "names": names, "game_name": game_name, **speech}
    text, html = (t.render(ctx) for t in templates)
    # public_parts: the HTML part with its styles inlined, by style sheet (render_status)
    parts = {"public_txt": text, "public_html": Markup(html), "public_parts": {}}
    if seen is not None:
        with TEMPLATES.public_lock:
            drawn[key] = parts
            while len(drawn) > _PUBLIC_KEPT:
                drawn.popitem(last=False)
    return parts


# Mail clients (Gmail, Outlook) drop <style>: css-inline moves each rule onto its elements.
_INLINER = css_inline.CSSInliner(keep_style_tags=False, load_remote_stylesheets=False)


def render_notice(lines: list[str], tag: str | None = None, tr: Translator = ENGLISH,
                  footer: str | None = None) -> str:
    """A short plain note (unknown sender, help, errors before any game is known); a seat's
    note ends with its language ``footer``."""
    return environment().get_template("notice.txt.j2").render(
        lines=lines, tag=tag, footer=footer, **language_context(tr))
