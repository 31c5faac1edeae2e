"""A tiny card game for testing the host: hidden hands, a simultaneous step, chance, an end.

Each seat holds hidden cards dealt from a shuffled deck. Every round all seats secretly
``play N`` (simultaneous); when all have played, the cards are revealed, the highest card scores
the sum of all played cards, and each seat draws a new card (a chance draw). After ``rounds``
rounds the game ends.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from pbem.engine.chance import Chance, Draw
from pbem.engine.contract import Applied, Event, Game, Outcome, Seat, View
from pbem.engine.errors import IllegalOrder, OrderSyntaxError

TEMPLATES = Path(__file__).parent / "templates"


@dataclass
class CardsState:
    hands: list[list[int]]
    deck: list[int]
    played: dict[int, int] = field(default_factory=dict)
    scores: list[int] = field(default_factory=list)
    round: int = 1
    rounds: int = 2


class TestCards(Game[CardsState, int]):
    """The test game; registered under ``testcards`` by the test fixtures."""

    __test__ = False  # not a pytest class
    name: ClassVar[str] = "testcards"
    title: ClassVar[str] = "Test Cards"
    about: ClassVar[str] = "A tiny card game for the host's own tests."
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4

    def default_options(self) -> dict[str, Any]:
        return {"rounds": 2, "hand": 3}

    def setup(self, seats: int, options: Mapping[str, Any], chance: Chance) -> CardsState:
        deck = chance.shuffle("deck", list(range(1, 31)))
        hand = int(options.get("hand", 3))
        hands = [deck[i * hand:(i + 1) * hand] for i in range(seats)]
        return CardsState(hands=hands, deck=deck[seats * hand:], scores=[0] * seats,
                          rounds=int(options.get("rounds", 2)))

    def waiting_for(self, state: CardsState) -> frozenset[Seat]:
        if state.round > state.rounds:
            return frozenset()
        return frozenset(s for s in range(len(state.hands)) if s not in state.played)

    def parse(self, state: CardsState, seat: Seat, text: str) -> int:
        lines = [ln for ln in text.splitlines() if ln.strip()]
        if len(lines) != 1:
            raise OrderSyntaxError("write exactly one order", line=2 if lines else None,
                                   text=lines[1] if len(lines) > 1 else None,
                                   hint="one line: play N")
        words = lines[0].split()
        if len(words) != 2 or words[0].lower() != "play" or not words[1].isdigit():
            raise OrderSyntaxError("expected an order like \"play 7\"", line=1, column=1,
                                   text=lines[0], hint="play N, where N is a card in your hand")
        return int(words[1])

    def apply(self, state: CardsState, seat: Seat, order: int, chance: Chance
              ) -> Applied[CardsState]:
        if order not in state.hands[seat]:
            raise IllegalOrder(f"you have no card {order}; your hand is "
                               f"{', '.join(map(str, sorted(state.hands[seat])))}", step=1, line=1)
        hands = [list(h) for h in state.hands]
        hands[seat].remove(order)
        played = {**state.played, seat: order}
        new = CardsState(hands, list(state.deck), played, list(state.scores), state.round,
                         state.rounds)
        events = [Event(f"Seat {seat + 1} played a card."),
                  Event(f"You played {order}.", frozenset({seat}))]
        if len(played) == len(hands):
            best = max(played, key=lambda s: played[s])
            new.scores[best] += sum(played.values())
            shown = ", ".join(f"seat {s + 1}: {c}" for s, c in sorted(played.items()))
            events.append(Event(f"Round {state.round}: {shown}; seat {best + 1} scores "
                                f"{sum(played.values())}."))
            for s in range(len(hands)):
                if new.deck:
                    card = chance.choice(f"draw for seat {s + 1}", new.deck)
                    new.deck.remove(card)
                    hands[s].append(card)
                    events.append(Event(f"You drew {card}.", frozenset({s})))
            new.played = {}
            new.round += 1
        return Applied(new, events)

    def view(self, state: CardsState, seat: Seat | None) -> View:
        return {
            "hand": sorted(state.hands[seat]) if seat is not None else None,
            "hand_sizes": [len(h) for h in state.hands],
            "scores": list(state.scores),
            "round": state.round,
            "rounds": state.rounds,
            "has_played": [s in state.played for s in range(len(state.hands))],
            "deck_left": len(state.deck),
        }

    def draw_audience(self, draw: Draw, seats: int) -> frozenset[Seat] | None:
        """The deck's shuffle deals every hand: nobody may see it; a drawn card only its
        drawer."""
        if draw.label.startswith("draw for seat "):
            return frozenset({int(draw.label.rsplit(" ", 1)[1]) - 1})
        return frozenset()

    def outcome(self, state: CardsState) -> Outcome | None:
        if state.round <= state.rounds:
            return None
        order = sorted(set(state.scores), reverse=True)
        ranking = [[s for s, v in enumerate(state.scores) if v == score] for score in order]
        return Outcome(dict(enumerate(state.scores)), ranking, ["Highest score wins."])

    def to_json(self, state: CardsState) -> dict[str, Any]:
        return {"hands": state.hands, "deck": state.deck,
                "played": {str(k): v for k, v in state.played.items()},
                "scores": state.scores, "round": state.round, "rounds": state.rounds}

    def from_json(self, data: Mapping[str, Any]) -> CardsState:
        return CardsState([list(h) for h in data["hands"]], list(data["deck"]),
                          {int(k): int(v) for k, v in data["played"].items()},
                          list(data["scores"]), int(data["round"]), int(data["rounds"]))

    def random_order(self, state: CardsState, seat: Seat, rng: random.Random) -> str:
        return f"play {rng.choice(state.hands[seat])}"

    def default_order(self, state: CardsState, seat: Seat) -> str:
        return f"play {min(state.hands[seat])}"

    def order_words(self) -> frozenset[str]:
        return frozenset({"play"})

    def help_text(self, state: CardsState | None = None, lang: str = "en") -> str:
        # Hands are hidden and help needs no secret: the same example for every game.
        return "play N — play card N from your hand, e.g. \"play 7\"."

    def template_dirs(self) -> Sequence[Path]:
        return [TEMPLATES]

    def template_helpers(self) -> Mapping[str, Any]:
        return {"cards": lambda cs: ", ".join(map(str, cs)) if cs else "none"}


GAME = TestCards()
