"""Das Riff's box: the known facts and the reconstructed card mix (data/components.toml).

No public card list exists, so the reef-card counts, the breeding cards and the colour names
are a reconstruction that keeps every known total. Each is a game option (``pbem game new riff
-o coral=9 -o water=7``), as is each open question of the rules; :func:`resolve` checks a
group's own numbers against the known totals before a game starts.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from importlib import resources
from itertools import combinations
from typing import Any

from pbem.i18n.msg import Msg, msg

KINDS = ("coral", "pearl", "shark", "water")
SEXES = {"m": "male", "f": "female"}
# Words of the order language a colour may not be called.
RESERVED = {"male", "female", "fish", "coral", "pearl", "shark", "water", "near", "middle",
            "far", "boat", "buy", "flip", "attach", "prefer", "pass", "if", "or", "and", "to",
            "my", "own", "paying", "with", "on", "any"}


@cache
def data() -> dict[str, Any]:
    text = resources.files("pbem.games.riff.data").joinpath("components.toml").read_text(
        encoding="utf-8")
    return tomllib.loads(text)


def known() -> dict[str, Any]:
    return dict(data()["known"])


def default_breeding(colours: list[str]) -> list[str]:
    """15 two-colour crosses and 6 one-colour crosses (the reconstruction), as card ids."""
    return [f"{a}+{b}" for a, b in combinations(colours, 2)] + list(colours)


def default_options() -> dict[str, Any]:
    """Every reconstructed count and open question, with the shipped defaults."""
    d = data()
    rec = d["reconstructed"]
    colours = list(rec["colour_names"])
    return {
        "colour_names": colours,
        **{k: int(v) for k, v in rec["reef_cards"].items()},
        "breeding_cards": default_breeding(colours),
        # Each die's six faces; empty: the reconstruction, each colour once on each die.
        "die_faces": [],
        **{k: bool(v) for k, v in d["open_questions"].items()},
        # The rules are silent when neither player can get on; see RULINGS-ADDENDUM.md.
        "turn_limit": 160,
    }


def option_alternatives() -> dict[str, list[Any]]:
    """Fish may be counted per colour (by sex too: ``{"m": 4, "f": 2}``), not only one
    number for all; the example is the default box written that way."""
    defaults = default_options()
    each = defaults["fish_per_colour_per_sex"]
    return {"fish_per_colour_per_sex": [{c: each for c in defaults["colour_names"]}]}


class OptionError(ValueError):
    """A game option the rules cannot use; ``message`` says which and why (translatable),
    ``str(exc)`` in English."""

    def __init__(self, message: Msg) -> None:
        super().__init__(str(message))
        self.message = message


def _count(options: Mapping[str, Any], key: str) -> int:
    value = options[key]
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise OptionError(msg("option {key} must be a whole number of cards, not {value}",
                              key=key, value=repr(value)))
    return value


def _fish_counts(options: Mapping[str, Any], colours: list[str]) -> dict[tuple[str, str], int]:
    """Copies of each fish, by (colour, sex): one number for all; or one per colour, either a
    number for both sexes or ``{"m": 4, "f": 2}`` (males and females may differ)."""
    value = options["fish_per_colour_per_sex"]
    if not isinstance(value, Mapping):
        n = _count(options, "fish_per_colour_per_sex")
        return {(c, s): n for c in colours for s in SEXES}
    if set(value) != set(colours):
        raise OptionError(msg("option fish_per_colour_per_sex needs a count for each colour: "
                              "{colours}", colours=", ".join(colours)))
    out: dict[tuple[str, str], int] = {}
    for c in colours:
        each = value[c]
        if isinstance(each, Mapping):
            if set(each) != set(SEXES):
                raise OptionError(msg('option fish_per_colour_per_sex: {colour} needs a count '
                                      'for males and females, as {{"m": 3, "f": 3}}, not '
                                      '{value}', colour=c, value=repr(each)))
            out |= {(c, s): _count(each, s) for s in SEXES}
        else:
            out |= {(c, s): _count(value, c) for s in SEXES}
    return out


def _fish_option(fish: Mapping[tuple[str, str], int], colours: list[str]) -> dict[str, Any]:
    """Per-colour fish counts as stored: a number where both sexes have it, else by sex."""
    return {c: fish[(c, "m")] if fish[(c, "m")] == fish[(c, "f")]
            else {s: fish[(c, s)] for s in SEXES} for c in colours}


def _die_faces(value: Any, colours: list[str], dice: int, faces: int) -> list[list[str]]:
    """Each die's faces, checked against the box: ``dice`` dice of ``faces`` coloured faces."""
    if (not isinstance(value, list) or len(value) != dice
            or any(not isinstance(d, list) or len(d) != faces or not set(d) <= set(colours)
                   for d in value)):
        raise OptionError(msg("option die_faces must list {dice} dice of {faces} faces, each "
                              "face one of {colours}; not {value}", dice=dice, faces=faces,
                              colours=", ".join(colours), value=repr(value)))
    return [list(d) for d in value]


def die_faces(options: Mapping[str, Any], colours: list[str]) -> list[list[str]]:
    """The faces of each die: the option's, else each colour once on each die."""
    given: list[list[str]] = options.get("die_faces") or []
    return given or [list(colours) for _ in range(int(known()["dice"]))]


def resolve(options: Mapping[str, Any]) -> dict[str, Any]:
    """The defaults overridden by ``options``, checked; raises OptionError on anything wrong."""
    base = default_options()
    unknown = set(options) - set(base)
    if unknown:
        raise OptionError(msg("unknown Das Riff options: {names}; known: {known}",
                              names=", ".join(sorted(unknown)), known=", ".join(sorted(base))))
    merged = {**base, **dict(options)}
    colours = merged["colour_names"]
    k = known()
    if (not isinstance(colours, list) or len(colours) != k["colours"]
            or len(set(colours)) != len(colours)
            or not all(isinstance(c, str) and c.isalpha() and c.islower() and
                       c not in RESERVED for c in colours)):
        raise OptionError(msg("option colour_names must be {count} different lower-case "
                              "words (not order words), not {value}", count=k["colours"],
                              value=repr(colours)))
    # Breeding cards not given (or the shipped ones, as a copy of every default holds them)
    # follow the game's own colours.
    if merged["breeding_cards"] == base["breeding_cards"] and colours != base["colour_names"]:
        merged["breeding_cards"] = default_breeding(colours)
    fish = _fish_counts(merged, colours)
    total = sum(fish.values()) + sum(_count(merged, kind) for kind in KINDS)
    if total != k["reef_cards"]:
        raise OptionError(msg("the reef cards add up to {total}, but the box holds {box} "
                              "(fish of both sexes + coral + pearl + shark + water)",
                              total=total, box=k["reef_cards"]))
    if _count(merged, "coral") < 1 or any(
            sum(n for (_, s), n in fish.items() if s == sex) < 1 for sex in SEXES):
        raise OptionError(msg("the reef needs at least one coral and one fish of each sex"))
    faces = _die_faces(merged["die_faces"], colours, k["dice"], k["faces_per_die"]) \
        if merged["die_faces"] else []
    if faces and faces != [list(colours)] * k["dice"]:
        merged["die_faces"] = faces
    else:  # the reconstruction: not stored, so the games before the option keep their state
        del merged["die_faces"]
    cards = merged["breeding_cards"]
    if not isinstance(cards, list) or len(cards) != k["breeding_cards"]:
        raise OptionError(msg("option breeding_cards must list {count} cards",
                              count=k["breeding_cards"]))
    for card in cards:
        parts = str(card).split("+")
        if len(parts) not in (1, 2) or not set(parts) <= set(colours):
            raise OptionError(msg("breeding card {card}: write one colour or two joined by "
                                  "'+' (e.g. red+yellow), from: {colours}", card=repr(card),
                                  colours=", ".join(colours)))
    merged["breeding_cards"] = [canonical_cross(str(c), colours) for c in cards]
    for flag in ("face_down_at_sea_edge_counts_as_water", "completed_corals_count_toward_limit",
                 "may_buy_fish_without_a_free_coral"):
        if not isinstance(merged[flag], bool):
            raise OptionError(msg("option {flag} must be true or false, not {value}",
                                  flag=flag, value=repr(merged[flag])))
    limit = merged["turn_limit"]
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 2:
        raise OptionError(msg("option turn_limit must be a whole number of turns (2 or "
                              "more), not {value}", value=repr(limit)))
    if isinstance(merged["fish_per_colour_per_sex"], Mapping):
        merged["fish_per_colour_per_sex"] = _fish_option(fish, colours)
    return merged


def canonical_cross(card: str, colours: list[str]) -> str:
    """A breeding card id with its colours in the game's colour order ("red+yellow")."""
    parts = sorted(set(card.split("+")), key=colours.index)
    if len(card.split("+")) == 2 and len(parts) == 1:  # "red+red" is the one-colour cross
        return parts[0]
    return "+".join(parts)


def reef_deck(options: Mapping[str, Any]) -> list[str]:
    """The 60 reef cards as ids: "fish:red:m", "coral", "pearl", "shark", "water"."""
    colours = options["colour_names"]
    fish = _fish_counts(options, colours)
    deck = [f"fish:{c}:{s}" for c in colours for s in SEXES for _ in range(fish[(c, s)])]
    for kind in KINDS:
        deck += [kind] * int(options[kind])
    return deck


def cross_colours(card: str) -> tuple[str, ...]:
    """The colours of a breeding card: one (both parents that colour) or two."""
    return tuple(card.split("+"))


def card_name(card: str) -> str:
    """A reef card for people: "red male fish", "coral", "water"."""
    if card.startswith("fish:"):
        _, colour, sex = card.split(":")
        return f"{colour} {SEXES[sex]} fish"
    return card


def cross_name(card: str) -> str:
    parts = cross_colours(card)
    return f"{parts[0]} x {parts[0]}" if len(parts) == 1 else f"{parts[0]} x {parts[1]}"
