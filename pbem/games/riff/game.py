"""Das Riff behind the engine's Game contract (pbem/engine/contract.py)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from pbem.engine.chance import Chance, Draw
from pbem.engine.contract import Applied, Game, Outcome, Seat, View
from pbem.games.riff import bot, strategy
from pbem.games.riff.components import OptionError, default_options, option_alternatives, resolve
from pbem.games.riff.help import help_text
from pbem.games.riff.keywords import LINE_WORDS, canonical_order, localise_order
from pbem.games.riff.orders import Order
from pbem.games.riff.parse import parse_order
from pbem.games.riff.redeal import redeal
from pbem.games.riff.render import template_helpers
from pbem.games.riff.rules import apply_order
from pbem.games.riff.scoring import final_outcome
from pbem.games.riff.setup import setup
from pbem.games.riff.state import State
from pbem.games.riff.view import view
from pbem.i18n.msg import N_, Msg

PUBLIC_DRAWS = frozenset({"die 1", "die 2", "start player"})


class Riff(Game[State, Order]):
    """Christine & Wolfgang Lehmann's Das Riff for 2 players, by email."""

    name: ClassVar[str] = "das-riff"
    former_ids: ClassVar[tuple[str, ...]] = ("riff",)
    tag_prefix: ClassVar[str] = "riff"
    title: ClassVar[str] = "Das Riff"
    about: ClassVar[str] = N_(
        "Christine & Wolfgang Lehmann, Kosmos 2000; rules from the French rulebook. The card "
        "mix is a reconstruction: no public list of the reef cards exists, so the counts of "
        "each card, the 21 breeding cards and the colour names keep every known total but "
        "are our best guess (each is a game option).")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2

    def default_options(self) -> dict[str, Any]:
        return default_options()

    def option_alternatives(self) -> dict[str, list[Any]]:
        return option_alternatives()

    def check_options(self, options: Mapping[str, Any]) -> list[Msg]:
        """What the setup would refuse (the first thing :func:`resolve` finds)."""
        try:
            resolve(options)
        except OptionError as exc:
            return [exc.message]
        return []

    def setup(self, seats: int, options: Mapping[str, Any], chance: Chance) -> State:
        return setup(seats, options, chance)

    def waiting_for(self, state: State) -> frozenset[Seat]:
        return frozenset() if state.phase == "over" else frozenset({state.to_move})

    def draw_audience(self, draw: Draw, seats: int) -> frozenset[Seat] | None:
        """The dice and the start player land on the table; every other draw (the deal, a
        turned card's place among the unseen ones, shuffles) stays hidden in the archive."""
        return None if draw.label in PUBLIC_DRAWS else frozenset()

    def takes_orders_out_of_turn(self, state: State, seat: Seat) -> bool:
        """The seat not to move may always send its standing worm preference."""
        return state.phase != "over" and 0 <= seat < 2

    def parse(self, state: State, seat: Seat, text: str) -> Order:
        return parse_order(text, state.colours)

    def canonical_order(self, state: State, seat: Seat, text: str, lang: str) -> str:
        """The seat's words (colours, rows, commands) as the English ones, line for line."""
        return canonical_order(text, lang)

    def localise_order(self, text: str, lang: str) -> str:
        """An English order in ``lang``'s words (bots write in their seat's language)."""
        return localise_order(text, lang)

    def order_words(self) -> frozenset[str]:
        return LINE_WORDS

    def apply(self, state: State, seat: Seat, order: Order, chance: Chance) -> Applied[State]:
        new, events = apply_order(state, seat, order, chance)
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

    def redeal(self, state: State, seat: Seat, rng: random.Random) -> State:
        """The state as ``seat`` may know it (redeal.py)."""
        return redeal(state, seat, rng)

    def bot_order(self, state: State, seat: Seat, rng: random.Random, level: str,
                  budget: float) -> str:
        """The computer player's order (strategy.py)."""
        return strategy.bot_order(state, seat, rng, level, budget)

    def default_order(self, state: State, seat: Seat) -> str:
        return bot.default_order(state, seat)

    def example_order(self, state: State, seat: Seat) -> str:
        """An order worth copying for the mail's example line: the bot's turn for this seat
        (the same for every mail of this turn), where the default buys nothing."""
        for attempt in range(8):
            order = bot.random_order(state, seat, random.Random(f"{state.turn}:{attempt}"))
            if order.strip() and order.strip() != "pass":
                return order
        return bot.default_order(state, seat)

    def help_text(self, state: State | None = None, lang: str = "en") -> str:
        return help_text(state, lang)

    def template_dirs(self) -> Sequence[Path]:
        return []

    def template_helpers(self) -> Mapping[str, Any]:
        return template_helpers()


GAME = Riff()
