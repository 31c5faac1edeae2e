"""What the shared suite needs to know about a game, where games truly differ.

Every game's test folder may hold a ``suite.py`` exposing ``HOOKS`` (a :class:`Hooks`): its
invariants, the configurations its random games cover, two twin positions for the leak test, its
known error replies, its bot games, its games in every language. A game without one gets the
defaults: random games for every player count with no invariants beyond the contract's, bot
games, the demo and games in every language; the leak and error tests then have nothing to run.
The suite finds the folder by the game's package name (``pbem.games.<pkg>`` or any module
``<pkg>``: ``tests.games.<pkg>.suite``), never by game id.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pbem.engine.contract import Outcome

Seat = int
Mails = dict[str, tuple[str, str]]


@dataclass(frozen=True)
class Config:
    """One kind of random game: a player count and options; ``seed`` prefixes each game's."""

    id: str
    players: int
    options: Mapping[str, Any]
    seed: str


@dataclass
class Played:
    """One random game played to its end."""

    orders: int
    steps: int
    state: Any


def both_ways(option: str, players: Sequence[int], seed: str, off: str = "basic",
              on: str = "advanced") -> list[Config]:
    """Each player count with a yes/no ``option`` off and on; seeds ``<seed>-<players>-<mode>``."""
    return [Config(f"{p}p-{mode}", p, {option: mode == on}, f"{seed}-{p}-{mode}")
            for p in players for mode in (off, on)]


def any_waiting(state: Any, waiting: frozenset[Seat], rng: random.Random) -> Seat:
    return rng.choice(sorted(waiting))


@dataclass(frozen=True)
class Script:
    """Orders sent to both twins: the seats' languages and (seat, orders) in turn."""

    languages: Sequence[str | None]
    turns: Sequence[tuple[Seat, str]]
    # Mails sent back for bad lines, (seat, orders): the replies must be the same in both.
    refused: Sequence[tuple[Seat, str]] = ()
    help: tuple[Seat, str] = (0, "help")


@dataclass(frozen=True)
class Twins:
    """Two positions that differ only in hidden information, and what to send to both."""

    positions: tuple[Callable[[], Any], Callable[[], Any]]
    players: int
    # The seat whose own hidden holdings differ (its mails may differ); None: no seat's (e.g. a
    # face-down card), so every mail must be the same.
    holder: Seat | None
    scripts: Mapping[str, Script]
    # Game-specific looks: at the twins' states, at the mails after each turn (by script
    # and turn), at each refusal (the two seated tables and the reply) and at help.
    check_twins: Callable[[Any, Any], None] = lambda a, b: None
    check_turn: Callable[[str, int, Mails, Mails], None] = lambda script, turn, a, b: None
    check_refused: Callable[[str, Any, Any, str], None] = lambda script, a, b, reply: None
    check_help: Callable[[str, str], None] = lambda script, reply: None


@dataclass(frozen=True)
class ErrorCase:
    """A bad mail and the line of the reply that says why (``lang``: the sender's language)."""

    what: str
    orders: str
    why: str
    lang: str = "en"
    hint: str | None = None  # a whole line the reply must also hold


@dataclass(frozen=True)
class Errors:
    """A position with seat 0 to move, every class of bad order in it, and good ones."""

    position: Callable[[], Any]
    cases: Sequence[ErrorCase]
    check: tuple[str, Sequence[str]]  # a legal order and the lines ``check`` shows for it
    check_bad: tuple[str, Sequence[str]]  # a ``check`` mail of a bad order, lines it shows
    play: tuple[str, Sequence[str]]  # a legal order and lines of the reply once it is played
    help: Sequence[str]  # what the reply to ``help`` shows
    exact: bool = True  # the reason line is ``why`` exactly; else it starts with it
    always: Sequence[str] = ()  # what every refusal shows besides
    played: Callable[[Any], None] = lambda state: None  # looks at the state after ``play``


@dataclass(frozen=True)
class BotGame:
    """A whole game played by bots by mail; ``every_database`` or SQLite only."""

    players: int
    seed: str
    options: Mapping[str, Any] | None = None
    every_database: bool = False


@dataclass(frozen=True)
class Bots:
    games: Sequence[BotGame] | None = None  # default: the fewest players on every database
    seed: str = "bots"  # the bots' own seed
    showcase: bool = False
    more_turns_than: Callable[[int], int] = lambda players: players
    # Something mailed before the bots start: (factory, tag, secrets, imap server) -> log
    # entries it adds.
    before: Callable[[Any, str, list[str], Any], int] | None = None
    check_played: Callable[[Any], None] = lambda played: None
    check_final: Callable[[str, int, Outcome], None] = lambda final, players, outcome: None
    demo_args: Sequence[str] | None = None  # default: --game <name> --players <fewest>
    demo_final: str = ""  # what the last mail of the demo shows


@dataclass(frozen=True)
class Languages:
    """Whole bot games by mail whose seats speak every language: each bot writes its orders in
    its seat's language, and no English sentence is left in a non-English seat's mail."""

    # Each game's seats' languages; None: tables as large as the game allows, covering every
    # language, English last (its seat shows that the scan finds English where it is).
    tables: Sequence[Sequence[str]] | None = None
    seed: str = "languages"  # the bots' own seed
    every_database: bool = False  # on every database under test, or on SQLite only
    final: Mapping[str, str] = field(default_factory=dict)  # the end says this, by language
    # Game-specific looks: at each order a bot wrote (its language, the text), and at the
    # played game (its seats' languages, :class:`pbem.ops.bots.Played`).
    check_order: Callable[[str, str], None] = lambda lang, written: None
    check_played: Callable[[Sequence[str], Any], None] = lambda languages, played: None


@dataclass(frozen=True)
class Hooks:
    configs: Sequence[Config] | None = None  # default: each player count, default options
    games: int = 12  # random games in all (PBEM_CONFORMANCE_GAMES overrides)
    max_orders: int = 1000  # a game still going after this many orders is looping
    violations: Callable[..., list[str]] = lambda state: []
    choose_seat: Callable[[Any, frozenset[Seat], random.Random], Seat] = any_waiting
    # Re-checks one order step by step (state before it, seat, text); the steps checked.
    check_steps: Callable[[Any, Seat, str], int] = lambda state, seat, text: 0
    check_end: Callable[[Any, Outcome], None] = lambda state, outcome: None
    check_played: Callable[[Config, list[Played]], None] = lambda config, played: None
    # Looks at a whole game's records: (setup record, order records), e.g. where chance is.
    check_records: Callable[[Any, list[Any]], None] = lambda setup, orders: None
    twins: Twins | None = None
    # A state that differs from the given one only in what the seat cannot see (another
    # seat's hidden holdings, the order of decks and bags), for the bot fairness test.
    bot_twin: Callable[[Any, Seat, random.Random], Any] | None = None
    errors: Errors | None = None
    bots: Bots = field(default_factory=Bots)
    languages: Languages | None = field(default_factory=Languages)  # None: no catalogues


def hooks_for(game: Any) -> Hooks:
    """The game's ``tests/games/<pkg>/suite.py`` hooks, or the defaults."""
    package = type(game).__module__.split(".")
    pkg = package[2] if package[:2] == ["pbem", "games"] else package[-1]
    try:
        module = importlib.import_module(f"tests.games.{pkg}.suite")
    except ModuleNotFoundError as err:
        if err.name not in (f"tests.games.{pkg}", f"tests.games.{pkg}.suite"):
            raise
        return Hooks()
    hooks: Hooks = module.HOOKS
    return hooks


def configs(game: Any, hooks: Hooks) -> Sequence[Config]:
    if hooks.configs is not None:
        return hooks.configs
    return [Config(f"{p}p", p, game.default_options(), f"conformance-{p}p")
            for p in range(game.min_players, game.max_players + 1)]
