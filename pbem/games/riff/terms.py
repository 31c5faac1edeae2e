"""Das Riff's words as messages: colours, places, cards, fish, crosses (pbem.i18n.msg).

Events, errors and the status email name things through these, so each language gets whole
sentences with translated fields ("le poisson mâle rouge") instead of English fragments.
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.games.riff.orders import ROW_WORDS, Place
from pbem.i18n.msg import Msg, SeatRef, cmsg, msg

_SEATS = (SeatRef(0), SeatRef(1))


def seat(n: int) -> SeatRef:
    """The seat as messages name it (one shared instance each)."""
    return _SEATS[n]


def colour(name: str) -> Msg:
    """A worm, fish or die colour; a colour the catalogue lacks (an option's own) stays as is."""
    return cmsg("colour", name)


def colours(names: Sequence[str]) -> list[Msg]:
    return [colour(c) for c in names]


def row(distance: int) -> Msg:
    """near, middle, far middle, far: the words a player writes in a place."""
    return cmsg("row", ROW_WORDS[distance])


def place(p: Place) -> Msg:
    return msg("{column} {row}", column=p.column + 1, row=row(p.distance))


def sex(code: str) -> Msg:
    word = "male" if code == "m" else "female"  # (a variable: not a msgid to extract)
    return cmsg("sex", word)


# A colour next to a fish agrees with it where a language inflects colours: with "female"
# ("femelle violette", "femmina rossa"), or with "male" and "fish" ("mâle violet", "gelbes
# Männchen", "gelbes Fischweibchen"). An option's own colour names stay as they are.
OF_A_FEMALE = "colour of a female"
OF_A_FISH = "colour of a male or a fish"


def fish(colour_name: str, code: str) -> Msg:
    """A fish without the word fish: "red male"."""
    if code == "m":
        return msg("{colour} male", colour=cmsg(OF_A_FISH, colour_name))
    return msg("{colour} female", colour=cmsg(OF_A_FEMALE, colour_name))


def card(card_id: str) -> Msg:
    """A reef card: "red male fish", "coral", "pearl", "shark", "water"."""
    if card_id.startswith("fish:"):
        _, colour_name, code = card_id.split(":")
        if code == "m":
            return msg("{colour} male fish", colour=cmsg(OF_A_FISH, colour_name))
        return msg("{colour} female fish", colour=cmsg(OF_A_FISH, colour_name))
    return cmsg("card", card_id)


def cross(card_id: str) -> Msg:
    """A breeding card: "red x yellow", or "red x red" for a one-colour cross."""
    parts = card_id.split("+")
    return msg("{a} x {b}", a=colour(parts[0]), b=colour(parts[-1]))


def cross_card(card_id: str) -> Msg:
    """A breeding card as an order names it: "red+yellow", or "pink" (one colour)."""
    parts = card_id.split("+")
    if len(parts) == 1:
        return colour(parts[0])
    return msg("{a}+{b}", a=colour(parts[0]), b=colour(parts[1]))


def joined(items: Sequence[Msg]) -> Msg:
    """Two or more things joined by "and" (one: the thing itself)."""
    if len(items) == 1:
        return items[0]
    return msg("{first} and {second}", first=items[0] if len(items) == 2 else list(items[:-1]),
               second=items[-1])


# Every word above as a literal message, so the catalogue extraction finds each one (the
# functions above build them from variables).
VOCABULARY: tuple[Msg, ...] = (
    cmsg("colour", "red"), cmsg("colour", "yellow"), cmsg("colour", "blue"),
    cmsg("colour", "green"), cmsg("colour", "pink"), cmsg("colour", "purple"),
    cmsg("colour of a female", "red"), cmsg("colour of a female", "yellow"),
    cmsg("colour of a female", "blue"), cmsg("colour of a female", "green"),
    cmsg("colour of a female", "pink"), cmsg("colour of a female", "purple"),
    cmsg("colour of a male or a fish", "red"), cmsg("colour of a male or a fish", "yellow"),
    cmsg("colour of a male or a fish", "blue"), cmsg("colour of a male or a fish", "green"),
    cmsg("colour of a male or a fish", "pink"), cmsg("colour of a male or a fish", "purple"),
    cmsg("colour abbreviation", "red"), cmsg("colour abbreviation", "yellow"),
    cmsg("colour abbreviation", "blue"), cmsg("colour abbreviation", "green"),
    cmsg("colour abbreviation", "pink"), cmsg("colour abbreviation", "purple"),
    cmsg("sex abbreviation", "M"), cmsg("sex abbreviation", "F"),
    cmsg("row", "near"), cmsg("row", "middle"), cmsg("row", "far middle"), cmsg("row", "far"),
    cmsg("sex", "male"), cmsg("sex", "female"),
    cmsg("card", "coral"), cmsg("card", "pearl"), cmsg("card", "shark"), cmsg("card", "water"),
    cmsg("card abbreviation", "coral"), cmsg("card abbreviation", "pearl"),
    cmsg("card abbreviation", "shark"),
    # The words that start an order, as the seat's language writes them (for "orders start
    # with ..."; the order keywords' msgstrs list alternatives, these one word each).
    cmsg("order verb", "prefer"), cmsg("order verb", "buy"), cmsg("order verb", "flip"),
    cmsg("order verb", "boat"), cmsg("order verb", "attach"), cmsg("order verb", "shark"),
    cmsg("order verb", "pass"),
)
