"""Reef (2018) behind the engine's Game contract (pbem/engine/contract.py)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from pbem.engine.chance import Chance
from pbem.engine.contract import Applied, Game, Outcome, Seat, View
from pbem.games.reef2018 import bot, keywords, rules, strategy
from pbem.games.reef2018.help import help_text
from pbem.games.reef2018.orders import Order
from pbem.games.reef2018.parse import ORDER_WORDS, parse_order
from pbem.games.reef2018.redeal import redeal
from pbem.games.reef2018.render import template_helpers
from pbem.games.reef2018.scoring import final_outcome
from pbem.games.reef2018.setup import setup
from pbem.games.reef2018.state import State
from pbem.games.reef2018.view import view
from pbem.i18n.msg import N_, Msg, msg

_ONLY = tuple(frozenset({seat}) for seat in range(4))  # whose turn it is: asked before each order


class Reef(Game[State, Order]):
    """Emerson Matsuuchi's Reef (Next Move Games, 2018) for 2-4 players, by email."""

    name: ClassVar[str] = "reef-2018"
    former_ids: ClassVar[tuple[str, ...]] = ("reef2018",)
    aliases: ClassVar[tuple[str, ...]] = ("reef",)  # the box's title: shared, so refused
    tag_prefix: ClassVar[str] = "reef2018"
    title: ClassVar[str] = "Reef"
    # N_: in the catalogue, for the host's help and welcome mails in other languages.
    about: ClassVar[str] = N_(
        "Emerson Matsuuchi, Next Move Games 2018; rules from the French rulebook. The 60 "
        "cards are a public transcription (GitHub ethomas2/reef, python/reef/_types.py), "
        "not checked against the printed cards.")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4

    def default_options(self) -> dict[str, Any]:
        return {"advanced": False}

    def check_options(self, options: Mapping[str, Any]) -> list[Msg]:
        """Only this game's own options (the host checked each value's kind)."""
        unknown = sorted(set(options) - set(self.default_options()))
        if not unknown:
            return []
        return [msg("unknown Reef options: {names}", names=", ".join(unknown))]

    def setup(self, seats: int, options: Mapping[str, Any], chance: Chance) -> State:
        problems = self.check_options(options)
        if problems:
            raise ValueError(str(problems[0]))
        return setup(seats, options, chance)

    def waiting_for(self, state: State) -> frozenset[Seat]:
        if state.phase == "setup":
            return frozenset(i for i, s in enumerate(state.players) if not s.answered_setup)
        if state.phase == "over":
            return frozenset()
        return _ONLY[state.to_move]

    def parse(self, state: State, seat: Seat, text: str) -> Order:
        return parse_order(text)

    def apply(self, state: State, seat: Seat, order: Order, chance: Chance) -> Applied[State]:
        new, events = rules.apply_order(state, seat, order, chance)
        return Applied(new, events)

    def view(self, state: State, seat: Seat | None) -> View:
        return view(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        return final_outcome(state) if state.phase == "over" else None

    def to_json(self, state: State) -> dict[str, Any]:
        return state.to_dict()

    def from_json(self, data: Mapping[str, Any]) -> State:
        return State.from_dict(dict(data))

    def random_order(self, state: State, seat: Seat, rng: random.Random) -> str:
        return bot.random_order(state, seat, rng)

    def default_order(self, state: State, seat: Seat) -> str:
        return bot.default_order(state, seat)

    def one_tap_orders(self, state: State, seat: Seat) -> Sequence[str]:
        """Each card the seat may take (action A), a whole turn (bot.py)."""
        return bot.one_tap_orders(state, seat)

    def redeal(self, state: State, seat: Seat, rng: random.Random) -> State:
        return redeal(state, seat, rng)

    def bot_order(self, state: State, seat: Seat, rng: random.Random, level: str,
                  budget: float) -> str:
        return strategy.bot_order(state, seat, rng, level, budget)

    def help_text(self, state: State | None = None, lang: str = "en") -> str:
        return help_text(state, lang)

    def canonical_order(self, state: State, seat: Seat, text: str, lang: str) -> str:
        return keywords.canonical_order(text, lang)

    def localise_order(self, text: str, lang: str) -> str:
        return keywords.localise_order(text, lang)

    def order_words(self) -> frozenset[str]:
        return ORDER_WORDS

    def template_dirs(self) -> Sequence[Path]:
        return []

    def template_helpers(self) -> Mapping[str, Any]:
        return template_helpers()


GAME = Reef()
