"""The steps of a Das Riff turn, as data (what the order language produces).

Places are a column (0 = sea end) and a distance from the ordering player (0 near, 1 middle,
2 far middle, 3 far). ``paying`` is None when the rules choose the worms (see worms.pay).
"""

from __future__ import annotations

from dataclasses import dataclass

ROW_WORDS = ("near", "middle", "far middle", "far")


@dataclass(frozen=True)
class Place:
    column: int
    distance: int

    def __str__(self) -> str:
        return f"{self.column + 1} {ROW_WORDS[self.distance]}"


@dataclass(frozen=True)
class Describe:
    """A card description in an ``if`` clause: kind, and for fish maybe colour and sex."""

    kind: str  # fish | coral | pearl | shark | water
    colour: str | None = None
    sex: str | None = None  # "m" | "f"

    def matches(self, card: str) -> bool:
        if not card.startswith("fish:"):
            return self.kind == card
        _, colour, sex = card.split(":")
        return (self.kind == "fish" and self.colour in (None, colour)
                and self.sex in (None, sex))


@dataclass(frozen=True)
class Prefer:
    colours: tuple[str, ...]


@dataclass(frozen=True)
class Buy:
    place: Place
    paying: tuple[str, ...] | None = None
    condition: tuple[Describe, ...] | None = None


@dataclass(frozen=True)
class Flip:
    place: Place
    paying: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Boat:
    paying: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Attach:
    fish: tuple[tuple[str, str], ...]  # (colour, sex), one or two
    coral: int  # 0-based


@dataclass(frozen=True)
class SharkArea:
    place: Place


@dataclass(frozen=True)
class SharkOwn:
    colour: str
    sex: str


@dataclass(frozen=True)
class Pass:
    pass


Step = Prefer | Buy | Flip | Boat | Attach | SharkArea | SharkOwn | Pass


@dataclass(frozen=True)
class Order:
    steps: tuple[Step, ...]
    lines: tuple[int, ...] = ()  # 1-based line of the order text each step came from


_SEX_WORDS = {"m": "male", "f": "female"}


def _described(d: Describe) -> str:
    if d.kind != "fish":
        return d.kind
    return " ".join(x for x in (d.colour, _SEX_WORDS.get(d.sex or ""),
                                None if d.sex else "fish") if x)


def step_text(step: Step) -> str:
    """A step as a player would type it (English; the rules choose the worms)."""
    if isinstance(step, Buy):
        cond = "" if not step.condition else " if " + " or ".join(
            _described(d) for d in step.condition)
        return f"buy {step.place}{cond}"
    if isinstance(step, Flip):
        return f"flip {step.place}"
    if isinstance(step, Boat):
        return "boat"
    if isinstance(step, Attach):
        parts = " and ".join(f"{c} {_SEX_WORDS[s]}" for c, s in step.fish)
        return f"attach {parts} to coral {step.coral + 1}"
    if isinstance(step, SharkArea):
        return f"shark {step.place}"
    if isinstance(step, SharkOwn):
        return f"shark my {step.colour} {_SEX_WORDS[step.sex]}"
    if isinstance(step, Prefer):
        return "prefer " + " ".join(step.colours)
    return "pass"
