"""The game contract: what the host needs from every game, and nothing more.

This file is the manual for adding a game. Shaped after boardgame.io (one object per game,
pure moves, a per-player view, defaults filled once) and OpenSpiel (rules vs. state, explicit
recorded chance). The host never looks inside a state: it stores ``to_json``, hashes it, and
hands templates only ``view`` output, so a seat's email can hold nothing that seat may not see.

Adding a game is adding its package, ``pbem/games/<pkg>/``; no other file of the host changes:

1. ``game.py`` holds a class deriving from :class:`Game` (``class Nim(Game[NimState,
   NimOrder])``) that implements every required member (those whose body below is ``...``;
   mypy refuses a game missing one) and overrides the optional hooks whose default does not
   fit; ``__init__.py`` exposes an instance as ``GAME``. The registry
   (:mod:`pbem.engine.registry`) finds it by that name and admits nothing else.
2. Orders the rules refuse raise :mod:`pbem.engine.errors`' ``OrderSyntaxError`` (cannot be
   read) or ``IllegalOrder`` (breaks a rule), with the line and a hint the player can act on.
   What happened is told as :class:`Event` s (``Event.of(kind, msg(...))``) in the
   :class:`Applied` result; the end as an :class:`Outcome`.
3. Every random outcome comes from the :class:`~pbem.engine.chance.Chance` given to
   ``setup`` and ``apply``, so a game replays from its log alone (:mod:`pbem.engine.replay`).
4. Words players read go through the game's catalogue, ``locale/`` (``pbem.i18n.translator(
   lang, self.name)``; ``python -m pbem.catalogues.manage update``); mail templates sit in
   ``templates/<name>/status.txt.j2`` and ``status.html.j2``.
5. A shipped game's modules carry the same names, functions and parameters in every game:
   ``state``, ``setup`` (``setup(seats, options, chance)``), ``rules`` (``apply_order(state,
   seat, order, chance)``), ``legal`` (``start``, ``next_steps``, ``play``: the legal steps,
   kept from candidates by the rules' own checks), ``scoring`` (``final_outcome(state)``),
   ``orders``, ``parse``, ``keywords``, ``terms``, ``view``, ``render``, ``bot``
   (``random_order``, ``default_order``), ``help`` (``help_text(state, lang)``), and
   ``strategy`` / ``redeal`` exactly when the game overrides :meth:`Game.bot_order` /
   :meth:`Game.redeal`; ``State.players`` lists each seat's holdings, a seat is its index
   (``tests/games/test_skeleton.py``). ``tests/games/suite`` runs every game through the same
   checks; ``tests/games/<pkg>/suite.py`` tells it what only that game knows. The smallest
   complete example is the host's test game, ``pbem_testkit/testgame.py``.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar, runtime_checkable

from pbem.engine.chance import Chance, Draw
from pbem.i18n.msg import Msg

if TYPE_CHECKING:
    from pbem.i18n.translate import Translator

Seat = int
"""Seats are numbered 0..n-1 in turn order as set up; the host maps them to people."""

View = dict[str, Any]
"""JSON-serialisable data a template may render. Holds only what its viewer may see."""

S = TypeVar("S")
Ord = TypeVar("Ord")


class Event:
    """Something that happened. ``visible_to`` None means everyone may read it.

    A game makes events with :meth:`of`: a stable snake_case ``kind`` (``polyp_placed``) and a
    :class:`~pbem.i18n.Msg` whose fields are the data (cells as "2F3", colours as
    ``cmsg("colour", "pink")``, seats as ``SeatRef``); each seat's mail renders ``msg`` in its
    language. ``text`` is the English sentence, kept for old readers; entries logged before
    events carried data have only ``text``, which every language shows as stored.

    Immutable. ``text`` is rendered from ``msg`` on first use: many events are only ever read
    from a log, in a seat's language, so the English sentence is made only when asked for.
    """

    __slots__ = ("_text", "kind", "msg", "visible_to")
    _text: str | None
    visible_to: frozenset[Seat] | None
    msg: Msg | None
    kind: str

    def __init__(self, text: str | None = None, visible_to: frozenset[Seat] | None = None,
                 msg: Msg | None = None, kind: str = "") -> None:
        if text is None and msg is None:
            raise ValueError("an event needs a text or a msg")
        # Set through object.__setattr__: this class's own refuses every assignment.
        set_slot = object.__setattr__
        set_slot(self, "_text", text)
        set_slot(self, "visible_to", visible_to)
        set_slot(self, "msg", msg)
        set_slot(self, "kind", kind)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Event is immutable")

    @property
    def text(self) -> str:
        if self._text is None:
            object.__setattr__(self, "_text", str(self.msg))
        assert self._text is not None
        return self._text

    def _key(self) -> tuple[Any, ...]:
        return (self.text, self.visible_to, self.msg, self.kind)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Event) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash((self.text, self.visible_to, self.kind))

    def __repr__(self) -> str:
        return (f"Event(text={self.text!r}, visible_to={self.visible_to!r}, "
                f"msg={self.msg!r}, kind={self.kind!r})")

    @classmethod
    def of(cls, kind: str, message: Msg, visible_to: Iterable[Seat] | None = None) -> Event:
        return cls(None, None if visible_to is None else frozenset(visible_to), message, kind)

    def visible(self, seat: Seat | None) -> bool:
        return self.visible_to is None or (seat is not None and seat in self.visible_to)

    def render(self, tr: Translator, names: Sequence[str] = ()) -> str:
        """This event in ``tr``'s language (its stored English text if it carries no msg)."""
        return self.text if self.msg is None else tr(self.msg, names)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "text": self.text,
            "visible_to": None if self.visible_to is None else sorted(self.visible_to),
        }
        if self.kind:
            out["kind"] = self.kind
        if self.msg is not None:
            out["msg"] = self.msg.to_json()
        return out

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Event:
        vis = d.get("visible_to")
        message = d.get("msg")
        return cls(str(d["text"]), None if vis is None else frozenset(int(s) for s in vis),
                   None if message is None else Msg.from_json(message), str(d.get("kind", "")))


@dataclass
class Applied(Generic[S]):
    """The result of a legal order: the new state and what happened, in words."""

    state: S
    events: list[Event] = field(default_factory=list)


@dataclass(frozen=True)
class Outcome:
    """The end of a game. ``ranking`` lists groups of tied seats, best first."""

    scores: dict[Seat, int]
    ranking: list[list[Seat]]
    # Sentences on the scoring; a Msg is rendered in each reader's language.
    explanation: Sequence[str | Msg] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "scores": {str(k): v for k, v in self.scores.items()},
            "ranking": self.ranking,
            "explanation": [str(line) for line in self.explanation],
        }
        if any(isinstance(line, Msg) for line in self.explanation):
            out["explanation_msgs"] = [line.to_json() if isinstance(line, Msg) else line
                                       for line in self.explanation]
        return out


@runtime_checkable
class Game(Protocol[S, Ord]):
    """Everything the host asks of a game, in one place (see this module's docstring for
    where a game's files go).

    Two kinds of member:

    - **Required** (their body here is ``...``): the rules. All are pure: they never change
      their inputs.
    - **Optional hooks** (their body or value here is their default): override one when the
      default does not fit the game. Each default is declared here only, once; the host calls
      every member directly and never asks whether a game has one.

    ``S`` and ``Ord`` are the game's own state and order types: the host never looks inside
    them.
    """

    # --- Who the game is (required) ---------------------------------------------------------

    name: ClassVar[str]
    """Short id used in subject tags, the CLI and the database, e.g. ``"nim"``."""
    title: ClassVar[str]
    """For people, e.g. ``"Reef Encounter"``."""
    about: ClassVar[str]
    """One or two sentences for people about this edition and its data's provenance (e.g.
    "the card list is a public transcription"); shown by ``pbem games``, in help and welcome
    mails, translated in the game's catalogue. May be empty."""
    min_players: ClassVar[int]
    max_players: ClassVar[int]

    # --- How people find it (optional) -----------------------------------------------------

    former_ids: ClassVar[tuple[str, ...]] = ()
    """Ids it was stored and exported under before; data carrying one still finds the game,
    and a person typing one does too unless another game claims it."""
    aliases: ClassVar[tuple[str, ...]] = ()
    """Other names people know it by (e.g. the box's short title). A name several games
    claim is refused with every choice named; names match whatever their case and
    punctuation."""
    tag_prefix: ClassVar[str] = ""
    """How its games' tags begin (``<prefix>-<number>``); empty: its :attr:`name`."""
    showcase: ClassVar[bool] = False
    """True for the game ``pbem demo`` plays when none is named."""

    # --- The rules (required) --------------------------------------------------------------

    def default_options(self) -> dict[str, Any]:
        """The options a new game gets unless the operator says otherwise."""
        ...

    def setup(self, seats: int, options: Mapping[str, Any], chance: Chance) -> S:
        """A new game for ``seats`` players; every random outcome drawn through ``chance``."""
        ...

    def waiting_for(self, state: S) -> frozenset[Seat]:
        """Seats whose orders the game needs now (several in a simultaneous step); empty at end."""
        ...

    def parse(self, state: S, seat: Seat, text: str) -> Ord:
        """Read an order from text. Raises :class:`OrderSyntaxError` with line and column.

        Reporting the first bad line is enough: the host asks again without it to find every
        bad line of a mail (pbem.engine.every_error). A game that knows them all at once may
        raise :class:`OrderSyntaxErrors`. Lines are numbered within ``text``.
        """
        ...

    def apply(self, state: S, seat: Seat, order: Ord, chance: Chance) -> Applied[S]:
        """Check the whole order and return the new state, or raise :class:`IllegalOrder`.

        Atomic: ``state`` is never changed, whatever happens. ``IllegalOrder.line`` is the
        order text's line and ``step`` counts within that line, as the player wrote it. A game
        whose later lines can be checked without the bad one may raise
        :class:`IllegalOrders` with every bad line (its docstring says when it does).
        """
        ...

    def view(self, state: S, seat: Seat | None) -> View:
        """What ``seat`` may see (None: a spectator). The only data templates receive.

        JSON-serialisable. The host reads one key of it, which a game may give: ``"turn"``,
        an int counting the game's own turns from 0, as its status names them (a move that
        does not advance it is not a new turn; see :func:`view_turn`). Without it every move
        counts as a turn.
        """
        ...

    def outcome(self, state: S) -> Outcome | None:
        """Scores and ranking once the game is over, else None."""
        ...

    def to_json(self, state: S) -> dict[str, Any]:
        """An exact, JSON-serialisable copy of the state (hidden parts included)."""
        ...

    def from_json(self, data: Mapping[str, Any]) -> S:
        """Inverse of :meth:`to_json`: ``to_json(from_json(d)) == d``."""
        ...

    def random_order(self, state: S, seat: Seat, rng: random.Random) -> str:
        """A legal order for ``seat`` as text a player could have typed (bots, fuzzing)."""
        ...

    def default_order(self, state: S, seat: Seat) -> str:
        """The safe order played for a seat whose deadline passed."""
        ...

    def help_text(self, state: S | None = None, lang: str = "en") -> str:
        """The full order language with examples, sent in reply to ``help``.

        With ``state`` (the player's game, when the host knows it) the examples name this
        game's own places and pieces; without it, generic ones. Examples may show only what
        every seat may see: help is answered without a secret. ``lang`` is the player's
        language: build the text with ``pbem.i18n.translator(lang, self.name)`` or a
        ``{% trans %}`` template.
        """
        ...

    def template_dirs(self) -> Sequence[Path]:
        """Extra template search folders (games outside this repo, test games); usually empty.

        The host looks for ``<name>/status.txt.j2`` and ``<name>/status.html.j2`` in the
        project's ``templates/`` folder first, then in these.
        """
        ...

    def template_helpers(self) -> Mapping[str, Any]:
        """Functions templates may call (e.g. drawing a board from a view). They see only views."""
        ...

    # --- Options (optional) ----------------------------------------------------------------

    def check_options(self, options: Mapping[str, Any]) -> Sequence[Msg]:
        """Why the rules cannot play with ``options``, as messages of the game's catalogue;
        empty when they can (the default: every option the host accepts is playable).

        ``options`` holds every option, the defaults included, each of its default's type
        (the host checked names and types). The host asks (see :func:`option_problems`)
        before it opens a table, so a player hears it then and not when the table starts;
        ``setup`` must refuse the same options.
        """
        return []

    def option_alternatives(self) -> Mapping[str, Sequence[Any]]:
        """Options that take a value of another kind beside their default's (default: none).

        Each name with an example value of every other kind it takes (a table per colour
        beside one number for all, say). The host reads and checks such an option as its
        default's kind or any of these (see :func:`option_alternatives`);
        :meth:`check_options` then judges the value.
        """
        return {}

    # --- Orders (optional) -----------------------------------------------------------------

    def takes_orders_out_of_turn(self, state: S, seat: Seat) -> bool:
        """Whether ``seat``, though not in :meth:`waiting_for`, may send orders now (default:
        never): standing orders that hold up no one (e.g. a preference the rules read later).
        :meth:`apply` then decides which of its orders such a seat may give, and the host logs
        and mails it as any order (see :func:`takes_orders`)."""
        return False

    def example_order(self, state: S, seat: Seat) -> str:
        """An order to copy, shown at the top of the mover's mail (only its first line).
        Default: :meth:`default_order`; override it where the safe order does nothing and a
        turn that does something teaches more."""
        return self.default_order(state, seat)

    def one_tap_orders(self, state: S, seat: Seat) -> Sequence[str]:
        """The whole orders ``seat`` may give now, when they are few enough to choose from (a
        colour to take, a pass, a setup answer): each a complete canonical order, offered in
        the seat's own HTML status as a link that opens a reply with it written in. Default:
        none (a turn of many possible orders is typed)."""
        return ()

    # --- Languages (optional) --------------------------------------------------------------

    def canonical_order(self, state: S, seat: Seat, text: str, lang: str) -> str:
        """Orders in the seat's language made canonical (English); default: unchanged.

        The same lines (line for line, so the line numbers of errors stay right) with
        ``lang``'s words (colours, keywords, commands) replaced by the English ones; English
        words are always accepted too. The host calls it (see :func:`canonical_order`) before
        :meth:`parse` when the seat's language is not English, and logs the canonical text,
        so history and replay read the same in every language. Localised keywords come from
        the game's catalogue with context "order keyword" (``pgettext("order keyword",
        "take")``); a msgstr may list alternatives with "|", and accents are optional when
        matching.
        """
        return text

    def localise_order(self, text: str, lang: str) -> str:
        """The inverse of :meth:`canonical_order`: a canonical (English) order written in
        ``lang``'s words, so bots and help examples "write in the seat's language" (see
        :func:`localise_order`); default: unchanged."""
        return text

    def order_words(self) -> Collection[str]:
        """The English words an order line begins with, and the names of the colours (as the
        parser reads them, lower case); default: none.

        A line of a mail that begins with one (in the seat's language, through
        :meth:`canonical_order`, or in English), is made of them only, or holds a digit (a
        cell, a count), is always read as an order, never set aside as a greeting or a
        closing: a typo in it is refused with its line number, never dropped. A game without
        them has only its digits' lines kept so (see :func:`order_words`).
        """
        return ()

    # --- Computer players (optional) -------------------------------------------------------

    def redeal(self, state: S, seat: Seat, rng: random.Random) -> S:
        """A state ``seat`` cannot tell from ``state``: all it may see kept (the public board,
        its own holdings, what it has seen leave the deck), every other hidden part (other
        seats' hidden holdings, the order of bags and decks) drawn afresh from what it cannot
        see. Two states that differ only in what ``seat`` cannot see give the same answer
        for the same ``rng``.

        The host hands a bot only this answer, never the real state (see :func:`bot_order`),
        so a bot is fair by construction. The default, ``state`` itself, is right only for a
        game without hidden information: a game that hides anything must override it.
        """
        return state

    def bot_order(self, state: S, seat: Seat, rng: random.Random, level: str,
                  budget: float) -> str:
        """A whole legal order for ``seat`` as a player would type it (English), chosen at
        ``level`` (see :data:`BOT_LEVELS`, never ``random``), within ``budget`` seconds of
        CPU. ``state`` is a :meth:`redeal`: any further determinisation redeals it again.

        The default plays :meth:`random_order` at every level: a game without a strategy
        still fills a seat."""
        return self.random_order(state, seat, rng)

    # --- The archive (optional) ------------------------------------------------------------

    def draw_audience(self, draw: Draw, seats: int) -> frozenset[Seat] | None:
        """Who may read a recorded chance draw's outcome in the game archive (``pbem game
        export --format html``, ``pbem site build``), which shows every draw's label.

        None: everyone (it lands on the table); else these seats (e.g. a card dealt to one
        hand). ``seats`` is the game's player count. The default, nobody, is safe for any
        game: a draw may have dealt a hidden holding.
        """
        return frozenset()

    # --- Start-up (optional) ---------------------------------------------------------------

    def warm_up(self) -> None:
        """Build what the game otherwise builds on its first order (a parser, tables); ``pbem
        serve`` calls it before its first pass (pbem.pipeline.warmup), so no player's order
        pays for it. Default: nothing to build."""
        return None


GameRules = Game[Any, Any]
"""Any game's rules, as the host holds them: the host never looks inside a state or an order."""


def canonical_order(game: GameRules, state: Any, seat: Seat, text: str, lang: str) -> str:
    """``text`` with the seat's-language words made English (English text is left alone)."""
    return text if lang == "en" else str(game.canonical_order(state, seat, text, lang))


def order_words(game: GameRules) -> frozenset[str]:
    """The words an order line begins with and the colour names (see
    :meth:`Game.order_words`), lower case."""
    return frozenset(w.lower() for w in game.order_words())


def localise_order(game: GameRules, text: str, lang: str) -> str:
    """A canonical order in ``lang``'s words (English text is left alone)."""
    return text if lang == "en" else str(game.localise_order(text, lang))


def help_text(game: GameRules, state: Any = None, lang: str = "en") -> str:
    """A game's help in ``lang`` (see :meth:`Game.help_text`)."""
    return str(game.help_text(state, lang))


def option_problems(game: GameRules, options: Mapping[str, Any]) -> list[Msg]:
    """What the game's own check finds wrong with ``options`` (see
    :meth:`Game.check_options`)."""
    return list(game.check_options(options))


def option_alternatives(game: GameRules) -> Mapping[str, Sequence[Any]]:
    """The other kinds of value each option takes (see :meth:`Game.option_alternatives`)."""
    return dict(game.option_alternatives())


def takes_orders(game: GameRules, state: Any, seat: Seat) -> bool:
    """Whether the host should hand ``seat``'s orders to ``game`` now: its turn, or a game
    that reads standing orders out of turn (see :meth:`Game.takes_orders_out_of_turn`)."""
    return seat in game.waiting_for(state) or bool(game.takes_orders_out_of_turn(state, seat))


def view_turn(view: Mapping[str, Any] | None) -> int | None:
    """The game's own turn count a view gives (see :meth:`Game.view`), else None."""
    turn = view.get("turn") if isinstance(view, Mapping) else None
    return turn if isinstance(turn, int) and not isinstance(turn, bool) else None


BOT_LEVELS = ("random", "normal", "strong")
"""How hard a computer seat plays: ``random`` (any legal order: tests, the demo), ``normal``
(the game's strategy within the host's budget), ``strong`` (the same with about four times
the thinking)."""


def bot_order(game: GameRules, state: Any, seat: Seat, rng: random.Random,
              level: str = "normal", budget: float = 1.0) -> str:
    """``seat``'s order chosen by a computer at ``level``, from what the seat may see only
    (the game's :meth:`Game.redeal` of ``state``)."""
    if level not in BOT_LEVELS:
        raise ValueError(f"unknown bot level {level!r}; known: {', '.join(BOT_LEVELS)}")
    seen = game.redeal(state, seat, rng)
    if level == "random":
        return str(game.random_order(seen, seat, rng))
    return str(game.bot_order(seen, seat, rng, level, budget))


def draw_audience(game: GameRules, draw: Draw, seats: int) -> frozenset[Seat] | None:
    """Who may read ``draw``'s outcome (see :meth:`Game.draw_audience`)."""
    audience = game.draw_audience(draw, seats)
    return None if audience is None else frozenset(audience)
