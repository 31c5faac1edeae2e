"""Frozen for migration 0005 (see the package): the pipeline's ``read_letter`` and its helpers
(pbem/pipeline/one_mail.py), and ``TAG_RE``, as they stood when frozen. Never edit them: a
change to the live code must not change an old migration.

The host's command words in every language, which the live code reads from the catalogues
(pbem/pipeline/command_words.py), are data here: the words of the time.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

TAG_RE = re.compile(r"\[([A-Za-z0-9][A-Za-z0-9_.-]*)\]")


WORDS: dict[str, frozenset[str]] = {
    'game': frozenset(['game', 'partie', 'partita', 'spel', 'spiel']),
    'secret': frozenset(['geheim', 'geheimnis', 'secret', 'segreto']),
    'new': frozenset(['neu', 'new', 'nieuw', 'nouveau', 'nuovo']),
    'check': frozenset(['check', 'controleer', 'prufen', 'verifica', 'verifier']),
    'help': frozenset(['aide', 'aiuto', 'help', 'hilfe']),
    'status': frozenset(['stato', 'status', 'statut']),
    'waiting': frozenset(['attente', 'attesa', 'wachten', 'waiting', 'warten']),
    'resign': frozenset(['abandonner', 'aufgeben', 'opgeven', 'resign', 'ritirati']),
    'log': frozenset(['historique', 'log', 'logboek', 'protokoll', 'storico']),
    'vacation': frozenset(['urlaub', 'vacances', 'vacanza', 'vacation', 'vakantie']),
    'mail': frozenset(['courrier', 'mail', 'post', 'posta']),
    'language': frozenset(['language', 'langue', 'lingua', 'sprache', 'taal']),
    'timezone': frozenset(['fuseau', 'fuso', 'tijdzone', 'timezone', 'zeitzone']),
    'orders': frozenset(['befehle', 'orders', 'ordini', 'ordres']),
    'end': frozenset(['einde', 'end', 'ende', 'fin', 'fine']),
    'say': frozenset(['dire', 'sage', 'say', 'zeg']),
}


def fold(word: str) -> str:
    """A word as matching sees it: casefolded (ß = ss), accents dropped, compatibility forms
    made plain (a phone's full-width "ｐａｓｓ" or the ligature "ﬁ" are the letters they show).
    The host's command words and every game's order words use this one folding, so a word
    that matches in one game matches in all."""
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


class words:  # the live module's name, as the copied lines call it
    @staticmethod
    def is_word(typed: str, english: str) -> bool:
        return fold(typed.strip()) in WORDS[english]


@dataclass
class Letter:
    """An email body split into the host's own lines and the game's order lines."""

    game_tag: str | None = None
    secret: str | None = None
    # check | help | status | log | waiting | vacation | resign | secret (new)
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


_GREETINGS = frozenset((
    "hi", "hello", "hey", "dear", "greetings", "cheers", "thanks", "thank", "regards", "best",
    "bye", "ciao", "bonjour", "salut", "bonne", "merci", "hallo", "hola"))


def looks_like_prose(line: str) -> bool:
    """A greeting, sign-off or sentence rather than an order (orders never end in . ! ? ,)."""
    words = line.lower().replace(",", " ").replace("!", " ").split()
    return bool(words) and (line.rstrip()[-1] in ".!?,;" or words[0] in _GREETINGS)


def _host_line(letter: Letter, line: str) -> bool:
    """Read ``line`` into ``letter`` if it is the host's (game, secret, a command)."""
    word, _, rest = line.partition(" ")
    free = not letter.orders and letter.command is None  # a command comes before any order
    if words.is_word(word, "game") and rest.strip() and letter.game_tag is None:
        letter.game_tag = rest.strip()
    elif (words.is_word(word, "secret") and words.is_word(rest, "new") and free):
        letter.command, letter.argument = "secret", "new"  # rotate: see commands.rotate
    elif words.is_word(word, "secret") and rest.strip():
        letter.secret = rest.strip()
    elif free and not rest.strip() and (
            line.lower() == "preview" or words.is_word(line, "check")):
        letter.command = "check"
    elif free and not rest.strip() and (
            command := next((c for c in ("help", "status", "waiting", "resign", "log")
                             if words.is_word(line, c)), None)):
        letter.command = command
    elif free and (command := next((c for c in ("vacation", "log", "mail", "language",
                                                "timezone") if words.is_word(word, c)), None)):
        letter.command, letter.argument = command, rest.strip()
    else:
        return False
    return True
