"""The host's command words in every language: ``aide`` = ``help``, ``langue`` = ``language``.

A player may write a command in any of the host's languages (or in English) whatever their
seat's language: the seat is not known until the secret is checked, and the words of the
languages do not collide with one another's commands. A translation may list alternatives
with "|" ("langue|langage"); accents are optional ("verifier" = "vérifier").
"""

from __future__ import annotations

from functools import cache

from pbem.i18n import LANGUAGES, cmsg, translator
from pbem.i18n.wordforms import fold, forms

CONTEXT = "host command"

# Listed so the extractor finds every word (context "host command"); the host reads them.
WORDS = [
    cmsg("host command", "help"),
    cmsg("host command", "check"),
    cmsg("host command", "status"),
    cmsg("host command", "log"),
    cmsg("host command", "waiting"),
    cmsg("host command", "vacation"),
    cmsg("host command", "until"),
    cmsg("host command", "off"),
    cmsg("host command", "resign"),
    cmsg("host command", "back"),
    cmsg("host command", "forget"),
    cmsg("host command", "secret"),
    cmsg("host command", "new"),
    cmsg("host command", "mail"),
    cmsg("host command", "every"),
    cmsg("host command", "turn"),
    cmsg("host command", "digest"),
    cmsg("host command", "say"),
    cmsg("host command", "to"),
    cmsg("host command", "orders"),
    cmsg("host command", "end"),
    cmsg("host command", "game"),
    cmsg("host command", "language"),
    cmsg("host command", "timezone"),
    cmsg("host command", "calendar"),
    # the lobby's
    cmsg("host command", "games"),
    cmsg("host command", "join"),
    cmsg("host command", "leave"),
    cmsg("host command", "start"),
    cmsg("host command", "invite"),
    cmsg("host command", "never"),
    cmsg("host command", "confirm"),
    cmsg("host command", "players"),
    cmsg("host command", "bots"),
    # a bot seat's level (pbem.engine.contract.BOT_LEVELS), after "bots N"
    cmsg("host command", "random"),
    cmsg("host command", "normal"),
    cmsg("host command", "strong"),
    cmsg("host command", "name"),
    cmsg("host command", "standings"),
    cmsg("host command", "watch"),
    cmsg("host command", "unwatch"),
    cmsg("host command", "history"),
]
ENGLISH_WORDS = frozenset(w.id for w in WORDS)


def plain(word: str) -> str:
    """How command words are compared: folded as every game's order words are."""
    return fold(word.strip())


@cache
def variants(english: str) -> frozenset[str]:
    """Every way to write the command ``english`` (in plain form)."""
    found = {plain(english)}
    for lang in LANGUAGES:
        found |= {plain(alt) for alt in forms(translator(lang), CONTEXT, english)}
    return frozenset(found)


def is_word(typed: str, english: str) -> bool:
    """Whether ``typed`` is the command ``english`` in some language."""
    return plain(typed) in variants(english)


def canonical(typed: str) -> str | None:
    """The English command ``typed`` stands for, if it is one."""
    low = plain(typed)
    for english in ENGLISH_WORDS:
        if low in variants(english):
            return english
    return None


def word(english: str, lang: str) -> str:
    """The command ``english`` as a seat of ``lang`` is told to write it (its first form)."""
    return forms(translator(lang), CONTEXT, english)[0]
