"""The game contract: what the host needs from every game, and nothing more.

Shaped after boardgame.io (one object per game, pure moves, a per-player view) and OpenSpiel
(rules vs. state, explicit recorded chance). The host never looks inside a state: it stores
``to_json``, hashes it, and hands templates only ``view`` output, so a seat's email can hold
nothing that seat may not see.
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Iterable, Mapping, Sequence
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
    """What every game implements. All methods are pure: they never change their inputs."""

    name: ClassVar[str]  # short id used in subject tags and the CLI, e.g. "nim"
    title: ClassVar[str]  # for people, e.g. "Reef Encounter"
    # One or two sentences for people about this edition and its data's provenance (e.g. "the
    # card list is a public transcription"); shown by `pbem games`, in help and welcome mails.
    about: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]

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
        """What ``seat`` may see (None: a spectator). The only data templates receive."""
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

    # Optional (looked up by :func:`takes_orders`, so games without it need not define it):
    #   def takes_orders_out_of_turn(self, state: S, seat: Seat) -> bool
    # Whether ``seat``, though not in ``waiting_for``, may send orders now: standing orders
    # that hold up no one (e.g. a preference the rules read later). ``apply`` then decides
    # which of its orders such a seat may give, and the host logs and mails it as any order.
    #
    #   def canonical_order(self, state: S, seat: Seat, text: str, lang: str) -> str
    # Orders in the seat's language: the same lines (line for line, so the line numbers of
    # errors stay right) with that language's words (colours, keywords, commands) replaced by
    # the English canonical ones; English words are always accepted too. The host calls it
    # (see :func:`canonical_order`) before ``parse`` when the seat's language is not English,
    # and logs the canonical text, so history and replay read the same in every language.
    # Localized keywords come from the game's catalogue with context "order keyword"
    # (``pgettext("order keyword", "take")``); a msgstr may list alternatives with "|", and
    # accents are optional when matching.
    #
    #   def localise_order(self, text: str, lang: str) -> str
    # The inverse: a canonical (English) order written in ``lang``'s words, so bots and help
    # examples can "write in the seat's language" (see :func:`localise_order`).
    #
    #   def check_options(self, options: Mapping[str, Any]) -> list[Msg]
    # Why the rules cannot play with ``options`` (every option, the defaults included, each
    # of its default's type: the host checked names and types), as messages of the game's
    # catalogue; empty when they can. The host asks (see :func:`option_problems`) before it
    # opens a table, so a player hears it then and not when the table starts; ``setup`` must
    # refuse the same options.
    #
    #   def option_alternatives(self) -> Mapping[str, Sequence[Any]]
    # Options that take a value of another kind beside their default's: each name with an
    # example value of every other kind it takes (a table per colour beside one number for
    # all, say). The host reads and checks such an option as its default's kind or any of
    # these (see :func:`option_alternatives`); ``check_options`` then judges the value.
    #
    #   def order_words(self) -> Collection[str]
    # The English words an order line begins with, and the names of the colours (as the
    # parser reads them, lower case). A line of a mail that begins with one (in the seat's
    # language, through ``canonical_order``, or in English), is made of them only, or holds a
    # digit (a cell, a count), is always read as an order, never set aside as a greeting or
    # a closing: a typo in it is refused with its line number, never dropped. A game without
    # it has only its digits' lines kept so (see :func:`order_words`).
    #
    #   def warm_up(self) -> None
    # Build what the game otherwise builds on its first order (a parser, tables): ``pbem
    # serve`` calls it before its first pass (pbem.pipeline.warmup), so no player's order
    # pays for it.


GameRules = Game[Any, Any]
"""Any game's rules, as the host holds them: the host never looks inside a state or an order."""


def canonical_order(game: Any, state: Any, seat: Seat, text: str, lang: str) -> str:
    """``text`` with the seat's-language words made English, if the game knows how."""
    hook = getattr(game, "canonical_order", None)
    if hook is None or lang == "en":
        return text
    return str(hook(state, seat, text, lang))


def order_words(game: Any) -> frozenset[str]:
    """The words an order line begins with and the colour names (see ``order_words`` above);
    none for a game that does not say."""
    hook = getattr(game, "order_words", None)
    return frozenset() if hook is None else frozenset(w.lower() for w in hook())


def localise_order(game: Any, text: str, lang: str) -> str:
    """A canonical order in ``lang``'s words, if the game knows how; else unchanged."""
    hook = getattr(game, "localise_order", None)
    if hook is None or lang == "en":
        return text
    return str(hook(text, lang))


def help_text(game: Any, state: Any = None, lang: str = "en") -> str:
    """A game's help in ``lang``, whichever of the contract's help signatures it has (games
    written before ``state`` and ``lang`` existed take no arguments)."""
    params = _help_params(type(game))
    kwargs: dict[str, Any] = {}
    if "state" in params:
        kwargs["state"] = state
    if "lang" in params:
        kwargs["lang"] = lang
    return str(game.help_text(**kwargs))


_help_signatures: dict[Any, frozenset[str]] = {}


def _help_params(cls: Any) -> frozenset[str]:
    found = _help_signatures.get(cls)
    if found is None:
        sig = inspect.signature(cls.help_text)
        found = _help_signatures[cls] = frozenset(sig.parameters) - {"self"}
    return found


def option_problems(game: Any, options: Mapping[str, Any]) -> list[Msg]:
    """What the game's own check finds wrong with ``options`` (see ``check_options`` above);
    nothing when the game has no check."""
    hook = getattr(game, "check_options", None)
    return [] if hook is None else list(hook(options))


def option_alternatives(game: Any) -> Mapping[str, Sequence[Any]]:
    """The other kinds of value each option takes (see ``option_alternatives`` above); none
    when the game declares none."""
    hook = getattr(game, "option_alternatives", None)
    return {} if hook is None else dict(hook())


def takes_orders(game: Any, state: Any, seat: Seat) -> bool:
    """Whether the host should hand ``seat``'s orders to ``game`` now: its turn, or a game
    that reads standing orders out of turn (see ``takes_orders_out_of_turn`` above)."""
    if seat in game.waiting_for(state):
        return True
    out_of_turn = getattr(game, "takes_orders_out_of_turn", None)
    return bool(out_of_turn is not None and out_of_turn(state, seat))


BOT_LEVELS = ("random", "normal", "strong")
"""How hard a computer seat plays: ``random`` (any legal order: tests, the demo), ``normal``
(the game's strategy within the host's budget), ``strong`` (the same with about four times
the thinking)."""


class Strategy(Protocol[S]):
    """An optional part of the contract: a computer player worth playing against.

    Fair by construction: the host never hands the strategy the real state, only
    :meth:`redeal`'s answer, so nothing the seat may not see can steer its choice.
    """

    def redeal(self, state: S, seat: Seat, rng: random.Random) -> S:
        """A state ``seat`` cannot tell from ``state``: all it may see kept (the public board,
        its own holdings, what it has seen leave the deck), every other hidden part (other
        seats' hidden holdings, the order of bags and decks) drawn afresh from what it cannot
        see. Two states that differ only in what ``seat`` cannot see give the same answer
        for the same ``rng``."""
        ...

    def bot_order(self, state: S, seat: Seat, rng: random.Random, level: str,
                  budget: float) -> str:
        """A whole legal order for ``seat`` as a player would type it (English), chosen at
        ``level`` (see :data:`BOT_LEVELS`, never ``random``), within ``budget`` seconds of
        CPU. ``state`` is a :meth:`redeal`: any further determinisation redeals it again."""
        ...


def bot_order(game: Any, state: Any, seat: Seat, rng: random.Random, level: str = "normal",
              budget: float = 1.0) -> str:
    """``seat``'s order chosen by a computer at ``level``, from what the seat may see only.

    A game without a :class:`Strategy` plays its random bot at every level.
    """
    if level not in BOT_LEVELS:
        raise ValueError(f"unknown bot level {level!r}; known: {', '.join(BOT_LEVELS)}")
    redeal = getattr(game, "redeal", None)
    seen = state if redeal is None else redeal(state, seat, rng)
    strategy = getattr(game, "bot_order", None)
    if level == "random" or strategy is None:
        return str(game.random_order(seen, seat, rng))
    return str(strategy(seen, seat, rng, level, budget))


class DrawAudience(Protocol):
    """An optional part of the contract: who may read each recorded chance draw.

    The game archive (``pbem game export --format html``, ``pbem site build``) shows every
    draw's label; its outcome only to the seats this returns. A game without it keeps every
    outcome hidden (see :func:`draw_audience`), which is safe for any game.
    """

    def draw_audience(self, draw: Draw, seats: int) -> frozenset[Seat] | None:
        """None: everyone sees ``draw``'s outcome (it lands on the table); else these seats
        (e.g. a card dealt to one hand). ``seats`` is the game's player count."""
        ...


def draw_audience(game: Any, draw: Draw, seats: int) -> frozenset[Seat] | None:
    """The game's answer if it has one, else nobody: a draw may have dealt a hidden holding."""
    hook = getattr(game, "draw_audience", None)
    if hook is None:
        return frozenset()
    audience = hook(draw, seats)
    return None if audience is None else frozenset(audience)
