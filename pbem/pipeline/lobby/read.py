"""A lobby mail read: its command (the first line's first word, in any of the host's
languages) and the rest; a reply to a join mail carries its code in the subject, and so does
a reply to the mail that asks before a "never" (or the mail ``List-Unsubscribe`` makes)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from pbem.pipeline import command_words as words
from pbem.pipeline.lobby_codes import CODE_RE
from pbem.pipeline.tags import TAG_RE

# Commands that act for a seat: a forged From must not, so they carry the seat's code, on
# their line or in the subject of a reply to the seat's mail (its [tag] then names the table).
PROVED_BY_CODE = ("leave", "start", "invite")
CODE_WORD = re.compile(CODE_RE.pattern.replace("(?<![A-Za-z0-9])", "^") + "$")

LINES_READ = 2000  # of one mail's invite lines: the rest are not even read


@dataclass
class LobbyMail:
    command: str  # the English word of one of the lobby's commands
    argument: str = ""  # the rest of its first line
    more: list[str] = field(default_factory=list)  # the arguments of further lines alike
    code: str | None = None  # a seat's code, from the command's line or the subject


def read_lobby(subject: str, body: str, commands: Sequence[str]) -> LobbyMail | None:
    """The lobby command of a mail (one of ``commands``, the English words of the lobby's),
    or None when it has none (it is then no lobby mail)."""
    stripped = body.lstrip()
    first = stripped[:stripped.find("\n")] if "\n" in stripped else stripped
    head, _, rest = first.strip().partition(" ")
    command = next((c for c in commands if words.is_word(head.rstrip(":"), c)), None)
    if command is None:
        # A reply to a join mail, whatever its own words ("yes", "count me in").
        code = CODE_RE.search(subject or "")
        return LobbyMail("confirm", code=code.group(1)) if code else None
    found = LobbyMail(command, rest.strip())
    lines = [line.strip() for line in stripped.splitlines()[:LINES_READ] if line.strip()]
    for line in lines[1:]:
        word, _, more = line.partition(" ")
        if words.is_word(word.rstrip(":"), command):
            found.more.append(more.strip())
    if command in ("confirm", "never"):  # never: a code proves who sends it
        code = CODE_RE.search(found.argument) or CODE_RE.search(subject or "")
        found.code = code.group(1) if code else None
    if command in PROVED_BY_CODE:
        _proof(found, subject or "")
    return found


def _proof(found: LobbyMail, subject: str) -> None:
    """The seat's code taken off the command's lines (a word of its own) or else from the
    subject; the subject's [tag] names the table when a line names none."""
    codes: list[str] = []

    def without_code(line: str) -> str:
        kept: list[str] = []
        for token in line.split():
            (codes if CODE_WORD.match(token) else kept).append(token)
        return " ".join(kept)

    found.argument = without_code(found.argument)
    found.more = [without_code(line) for line in found.more]
    in_subject = CODE_RE.search(subject)
    found.code = codes[0] if codes else in_subject.group(1) if in_subject else None
    tag = TAG_RE.search(subject)
    if tag is None:
        return
    lines = [found.argument, *found.more]
    lines = [line if _names_table(found.command, line) else f"{tag.group(1)} {line}".strip()
             for line in lines]
    found.argument, found.more = lines[0], lines[1:]


def _names_table(command: str, line: str) -> bool:
    """Whether the line names its table: "TAG" (leave, start), "TAG ADDRESS" (invite)."""
    words_ = line.split()
    return len(words_) >= 2 if command == "invite" else len(words_) >= 1

