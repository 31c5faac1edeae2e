"""Reading a mail's body: the host's own lines (game, secret, a command, table talk) apart
from the game's order lines."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pbem.i18n.wordforms import fold
from pbem.pipeline import command_words as words
from pbem.pipeline.command_registry import in_scope
from pbem.pipeline.commands.base import Scope
from pbem.pipeline.courtesy import GREETINGS, SIGN_OFFS

# The commands a mail to a game or to the host itself starts with: the chain's own (help,
# status), then the registry's, alone on their line or followed by the rest of it.
_HEARD = in_scope(Scope.SEAT, Scope.PROFILE, Scope.PUBLIC)
ALONE = ("help", "status", *dict.fromkeys(c.word for c in _HEARD if c.form == "alone"))
WITH_ARGUMENT = tuple(dict.fromkeys(c.word for c in _HEARD if c.form == "argument"))
GAME_LINE_MAX = 100  # what a "game" line may name: a tag is at most 40 (operator_input)


@dataclass
class Letter:
    """An email body split into the host's own lines and the game's order lines."""

    game_tag: str | None = None
    secret: str | None = None
    # check | help | status | log | waiting | vacation | resign | back | secret (new) | mail |
    # language | timezone | calendar | name | standings
    command: str | None = None
    argument: str = ""  # the rest of a command's line ("until 2026-12-24" for vacation)
    orders: list[tuple[int, str]] = field(default_factory=list)  # (line number in body, text)
    marked: bool = False  # the orders stand between a line "orders" and a line "end"
    talk: list[str] = field(default_factory=list)  # "say" lines, without their "say"
    ignored: int = 0  # lines outside those markers, left unread

    @property
    def order_text(self) -> str:
        return "\n".join(t for _, t in self.orders)


def read_letter(body: str) -> Letter:
    """Split a body into host lines (game, secret, a command) and order lines.

    With a line ``orders``, only the lines after it up to a line ``end`` (or the signature or
    quoted text, already cut by the mail reader) are orders; greetings and notes around them
    are left alone (counted in ``ignored``). Without it every line must be an order or a
    host line, so nothing a player meant as an order is silently skipped.
    """
    letter = Letter()
    lines = body.splitlines()
    letter.marked = any(_orders_start(raw) for raw in lines)
    inside = done = False
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line:
            continue
        if letter.marked and not done and (_orders_end(line) if inside
                                           else _orders_start(line)):
            inside, done = not inside, inside
            continue
        if _host_line(letter, line):
            continue
        first, _, said = line.partition(" ")
        if (inside or not letter.marked) and said.strip() and words.is_word(first, "say"):
            letter.talk.append(said)
        elif inside or not letter.marked:
            letter.orders.append((number, line))
        else:
            letter.ignored += 1
    return letter


def _orders_start(line: str) -> bool:
    """A line ``orders`` (``orders:``; ``ordres``, ``Befehle``… in the other languages)."""
    return words.is_word(line.strip().rstrip(":"), "orders")


def _orders_end(line: str) -> bool:
    """A line ``end`` (``end.``, ``end orders``; ``fin``, ``Ende``… in the other languages)."""
    parts = line.strip().rstrip(".").split()
    return bool(parts) and words.is_word(parts[0], "end") and (
        len(parts) == 1 or (len(parts) == 2 and words.is_word(parts[1], "orders")))


def looks_like_prose(line: str) -> bool:
    """A greeting, sign-off or sentence rather than an order (orders never end in . ! ? ,)."""
    words = fold(line).replace(",", " ").replace("!", " ").split()
    return bool(words) and (line.rstrip()[-1] in ".!?,;" or words[0] in GREETINGS | SIGN_OFFS)


# A secret line in any spelling: "secret x", "secret: x", "SECRET:x", "Secret = x" (any case,
# any whitespace; the word in any of the host's languages).
_SECRET_HEAD = re.compile(r"([^\s:=]+)\s*[:=]?\s*")


def secret_value(line: str) -> str | None:
    """The secret a line gives, if it is a secret line."""
    head = _SECRET_HEAD.match(line.strip())
    if head is None or not words.is_word(head.group(1), "secret"):
        return None
    return line.strip()[head.end():].strip() or None


def _host_line(letter: Letter, line: str) -> bool:
    """Read ``line`` into ``letter`` if it is the host's (game, secret, a command)."""
    word, _, rest = line.partition(" ")
    free = not letter.orders and letter.command is None  # a command comes before any order
    secret = secret_value(line)
    if words.is_word(word, "game") and rest.strip() and letter.game_tag is None:
        letter.game_tag = rest.strip()[:GAME_LINE_MAX]
    elif secret is not None and words.is_word(secret, "new") and free:
        letter.command, letter.argument = "secret", "new"  # a new secret: see commands/secret.py
    elif secret is not None:
        letter.secret = secret
    elif free and not rest.strip() and (
            line.lower() == "preview" or words.is_word(line, "check")):
        letter.command = "check"
    elif free and not rest.strip() and (
            command := next((c for c in ALONE if words.is_word(line, c)), None)):
        letter.command = command
    elif free and (command := next((c for c in WITH_ARGUMENT if words.is_word(word, c)),
                                   None)):
        letter.command, letter.argument = command, rest.strip()
        if command == "history" and letter.argument and letter.game_tag is None:
            # "history TAG" names its game as a "game" line does (a subject's tag first).
            letter.game_tag = letter.argument[:GAME_LINE_MAX]
    else:
        return False
    return True

