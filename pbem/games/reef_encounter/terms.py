"""The words the engine's messages share: colours and players as translatable data.

Every sentence a player reads is one :class:`pbem.i18n.msg.Msg` (msgid = the English text);
colours go into its fields as ``cmsg("colour", ...)`` so each language names them in its own
words (the rulebooks' ``rose``, ``rosa``...). English puts "an" before "orange" and "a" before
the other colours, so a sentence with an article has two msgids, chosen by :func:`vowel`.
"""

from __future__ import annotations

from pbem.i18n.msg import Msg, cmsg


def vowel(word: str) -> bool:
    """Whether English writes "an" before ``word`` ("an orange", "a grey")."""
    return word[:1].lower() in "aeiou"


def colour(name: str) -> Msg:
    """A coral, alga or player colour, in the reader's language."""
    return cmsg("colour", name)


def colours(names: list[str]) -> list[Msg]:
    """Colours as a list field (the translator joins it the way its language writes lists)."""
    return [colour(c) for c in names]


# Every colour and player name, spelt out so that the catalogue extraction finds them (the
# code builds them from data). Players are named by their colour, capitalised.
COLOUR_WORDS: tuple[Msg, ...] = (
    cmsg("colour", "grey"), cmsg("colour", "orange"), cmsg("colour", "pink"),
    cmsg("colour", "white"), cmsg("colour", "yellow"), cmsg("colour", "blue"),
    cmsg("colour", "green"), cmsg("colour", "purple"), cmsg("colour", "red"),
)
PLAYER_WORDS: tuple[Msg, ...] = (
    cmsg("player", "Purple"), cmsg("player", "Green"), cmsg("player", "Red"),
    cmsg("player", "Yellow"),
)
