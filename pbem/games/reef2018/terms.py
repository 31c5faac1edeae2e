"""Reef's words as messages: colours, lists of cards, and the words a state keeps (each score
change's reason in a player's ``ledger``, why the game ended), for every language.

The state stores them in English, as it always has (so stored games, their hashes and replays
are unchanged); :func:`why` reads a stored reason back into its message for the view.
"""

from __future__ import annotations

import re

from pbem.i18n.msg import Msg, cmsg, msg, nmsg


def colour(name: str) -> Msg:
    return cmsg("colour", name)


def colours_and(names: list[str]) -> Msg:
    """'red', 'red and green' (a supply may run out of two colours with one card)."""
    if len(names) == 1:
        return colour(names[0])
    return msg("{first} and {last}", first=[colour(c) for c in names[:-1]],
               last=colour(names[-1]))


def either(cards: list[int], word: str) -> Msg:
    """'14 and 41', '14, 41 or 52': tied cards, listed as each language lists them."""
    first = [str(c) for c in cards[:-1]]
    if word == "and":
        return msg("{first} and {last}", first=first, last=cards[-1])
    return msg("{first} or {last}", first=first, last=cards[-1])


def numbers(cards: list[int]) -> str:
    return ", ".join(str(c) for c in cards)


START = "3 one-point tokens at the start"
DECK_OUT = "the deck ran out"
SUPPLY_OUT = "a coral supply ran out and the round is over"


def tokens_on(n: int, card: int) -> str:
    return f"{n} token{'s' if n > 1 else ''} on card {card}"


def token_onto(card: int) -> str:
    return f"a token onto card {card} for the deck's top card"


def card_scored(card: int, times: int, value: int) -> str:
    return f"card {card}: {times} × {value}"


def in_hand(card: int) -> str:
    return f"card {card} in hand at the end"


def end_reason(reason: str) -> Msg | str:
    """The message of a state's ``end_reason`` (an unknown one stays as stored)."""
    if reason == DECK_OUT:
        return msg("the deck ran out")
    if reason == SUPPLY_OUT:
        return msg("a coral supply ran out and the round is over")
    return reason


_READ: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^(\d+) one-point tokens at the start$"), "start"),
    (re.compile(r"^(\d+) tokens? on card (\d+)$"), "tokens_on"),
    (re.compile(r"^a token onto card (\d+) for the deck's top card$"), "token_onto"),
    (re.compile(r"^card (\d+): (\d+) × (\d+)$"), "scored"),
    (re.compile(r"^card (\d+) in hand at the end$"), "in_hand"),
]


def why(text: str) -> Msg | str:
    """A stored reason as its message (text written by an older version stays as it is)."""
    for pattern, kind in _READ:
        m = pattern.match(text)
        if m is None:
            continue
        n = [int(g) for g in m.groups()]
        if kind == "start":
            return msg("{n} one-point tokens at the start", n=n[0])
        if kind == "tokens_on":
            return nmsg("{n} token on card {card}", "{n} tokens on card {card}", n[0], card=n[1])
        if kind == "token_onto":
            return msg("a token onto card {card} for the deck's top card", card=n[0])
        if kind == "scored":
            return msg("card {card}: {times} × {value}", card=n[0], times=n[1], value=n[2])
        return msg("card {card} in hand at the end", card=n[0])
    return text
