"""Reef Encounter behind the engine's Game contract (pbem/engine/contract.py)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from pbem.engine.chance import Chance, Draw
from pbem.engine.contract import Applied, Game, Outcome, Seat, View
from pbem.games.reef_encounter import bot, strategy
from pbem.games.reef_encounter.components import components
from pbem.games.reef_encounter.help import help_text
from pbem.games.reef_encounter.keywords import LINE_WORDS, canonical_order, localise_order
from pbem.games.reef_encounter.orders import Order
from pbem.games.reef_encounter.parse import parse_order, warm_parser
from pbem.games.reef_encounter.redeal import redeal
from pbem.games.reef_encounter.render import template_helpers
from pbem.games.reef_encounter.rules import apply_order
from pbem.games.reef_encounter.scoring import final_outcome
from pbem.games.reef_encounter.setup import setup
from pbem.games.reef_encounter.state import State
from pbem.games.reef_encounter.view import view
from pbem.i18n.msg import N_, Msg, msg


class ReefEncounter(Game[State, Order]):
    """Richard Breese's Reef Encounter for 2-4 players, by email."""

    name: ClassVar[str] = "reef-encounter"
    former_ids: ClassVar[tuple[str, ...]] = ("reef",)  # stored games were migrated
    tag_prefix: ClassVar[str] = "reef"  # tags made before the rename stay as they were
    showcase: ClassVar[bool] = True  # what `pbem demo` plays unless told otherwise
    title: ClassVar[str] = "Reef Encounter"
    # A msgid of the game's catalogue too: the host shows it translated (gettext(about)).
    about: ClassVar[str] = N_("Richard Breese, 2004; rules from the French, Italian and "
                              "English rulebooks, board layouts and coral tiles as printed.")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4

    def default_options(self) -> dict[str, Any]:
        return {"advanced": False}

    def check_options(self, options: Mapping[str, Any]) -> list[Msg]:
        """Only this game's own options (the host checked each value's kind)."""
        unknown = sorted(set(options) - set(self.default_options()))
        if not unknown:
            return []
        return [msg("unknown Reef Encounter options: {names}", names=", ".join(unknown))]

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
        return frozenset({state.to_move})

    def parse(self, state: State, seat: Seat, text: str) -> Order:
        return parse_order(text)

    def apply(self, state: State, seat: Seat, order: Order, chance: Chance) -> Applied[State]:
        new, events = apply_order(state, seat, order, chance)
        return Applied(new, events)

    def view(self, state: State, seat: Seat | None) -> View:
        return view(state, seat)

    def draw_audience(self, draw: Draw, seats: int) -> frozenset[Seat] | None:
        """The setup's polyps go behind their seat's screen; every other draw (boards, tile
        toss, start player, open sea and its refills) lands on the table for all to see."""
        if draw.label.startswith("seat ") and draw.label.endswith(" polyps"):
            colour = draw.label.removeprefix("seat ").removesuffix(" polyps")
            colours = components().player_colours[:seats]
            return frozenset({colours.index(colour)}) if colour in colours else frozenset()
        return None

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over":
            return None
        return final_outcome(state)

    def to_json(self, state: State) -> dict[str, Any]:
        return state.to_dict()

    def from_json(self, data: Mapping[str, Any]) -> State:
        return State.from_dict(dict(data))

    def random_order(self, state: State, seat: Seat, rng: random.Random) -> str:
        return bot.random_order(state, seat, rng)

    def redeal(self, state: State, seat: Seat, rng: random.Random) -> State:
        """What ``seat`` cannot see (the bag, the other screens, the others' setup polyps and
        picks) drawn afresh (redeal.py); the host hands bots only this."""
        return redeal(state, seat, rng)

    def bot_order(self, state: State, seat: Seat, rng: random.Random, level: str,
                  budget: float) -> str:
        """A computer player's whole turn at ``level`` (strategy.py), within ``budget``."""
        return strategy.bot_order(state, seat, rng, level, budget)

    def default_order(self, state: State, seat: Seat) -> str:
        return bot.default_order(state, seat)

    def one_tap_orders(self, state: State, seat: Seat) -> Sequence[str]:
        """A colour to take, a pass, a setup answer (bot.py)."""
        return bot.one_tap_orders(state, seat)

    def help_text(self, state: State | None = None, lang: str = "en") -> str:
        return help_text(state, lang)

    def canonical_order(self, state: State, seat: Seat, text: str, lang: str) -> str:
        """The order with ``lang``'s words (colours, keywords) in English, line for line."""
        return canonical_order(text, lang)

    def localise_order(self, text: str, lang: str) -> str:
        """An English order (a bot's, a default) in ``lang``'s order words."""
        return localise_order(text, lang)

    def order_words(self) -> frozenset[str]:
        return LINE_WORDS

    def template_dirs(self) -> Sequence[Path]:
        return []

    def template_helpers(self) -> Mapping[str, Any]:
        return template_helpers()

    def warm_up(self) -> None:
        """The order grammar's parser, built before the first order needs it (lark takes some
        150 ms; pbem.engine.contract)."""
        warm_parser()


GAME = ReefEncounter()
