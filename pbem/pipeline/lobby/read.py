"""A lobby mail read: its command (the first line's first word, in any of the host's
languages) and the rest; a reply to a join mail carries its code in the subject."""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.pipeline import command_words as words
from pbem.pipeline.lobby.tables import CODE_RE

COMMANDS = ("games", "new", "join", "leave", "start", "invite", "never", "confirm")
LINES_READ = 2000  # of one mail's invite lines: the rest are not even read


@dataclass
class LobbyMail:
    command: str  # one of COMMANDS
    argument: str = ""  # the rest of its first line
    more: list[str] = field(default_factory=list)  # the arguments of further lines alike
    code: str | None = None  # a confirmation code, from a "confirm" line or the subject


def read_lobby(subject: str, body: str) -> LobbyMail | None:
    """The lobby command of a mail, or None when it has none (it is then no lobby mail)."""
    stripped = body.lstrip()
    first = stripped[:stripped.find("\n")] if "\n" in stripped else stripped
    head, _, rest = first.strip().partition(" ")
    command = next((c for c in COMMANDS if words.is_word(head.rstrip(":"), c)), None)
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
    if command == "confirm":
        code = CODE_RE.search(found.argument) or CODE_RE.search(subject or "")
        found.code = code.group(1) if code else None
    return found

