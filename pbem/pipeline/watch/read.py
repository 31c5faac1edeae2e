"""A watch mail read: ``watch TAG [every|turn|digest]`` or ``unwatch TAG`` on its first line
(``unwatch`` also in its subject, as ``List-Unsubscribe`` writes it), or a reply to a watch
mail, which carries a watch code in its subject."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pbem.pipeline import command_words as words
from pbem.pipeline.identify import TAG_RE
from pbem.pipeline.lobby_codes import WATCH_CODE_RE

COMMANDS = ("watch", "unwatch")
MODES = ("every", "turn", "digest")
REPLY_PREFIX = re.compile(r"^\s*(?:(?:re|aw|sv|fwd?|tr|wg|rif|r|antw)\s*:\s*)+", re.I)
WORDS_READ = 6  # of the command's line: a tag, a setting, a code; the rest is not read


@dataclass
class WatchMail:
    command: str  # watch | unwatch | confirm (a reply that carries a code)
    tag: str | None = None  # the game's tag, without brackets
    mode: str | None = None  # every | turn | digest, as written on the line
    unknown: str | None = None  # a word on the line that is neither a tag's nor a setting
    code: str | None = None


def read_watch(subject: str, body: str) -> WatchMail | None:
    """The watch command of a mail, or None when it has none."""
    stripped = body.lstrip()
    first = stripped.splitlines()[0].strip() if stripped else ""
    found = _command(first)
    if found is None:  # a List-Unsubscribe mail: its subject alone ("watch" is not read there,
        # so a subject such as "Watch out" starts nothing)
        found = _command(REPLY_PREFIX.sub("", subject))
        found = found if found is not None and found.command == "unwatch" else None
    in_subject = WATCH_CODE_RE.search(subject)
    if found is None:
        if in_subject is None:
            return None
        found = WatchMail("confirm")
    if found.code is None and in_subject is not None:
        found.code = in_subject.group(1)
    if found.tag is None and (tag := TAG_RE.search(subject)):
        found.tag = tag.group(1)
    return found


def _command(line: str) -> WatchMail | None:
    head, *rest = line.split()[:WORDS_READ] or [""]
    command = next((c for c in COMMANDS if words.is_word(head.rstrip(":"), c)), None)
    if command is None:
        return None
    found = WatchMail(command)
    for token in rest:
        code = WATCH_CODE_RE.fullmatch(token)
        mode = next((m for m in MODES if words.is_word(token, m)), None)
        if code:
            found.code = code.group(1)
        elif mode and found.mode is None:
            found.mode = mode
        elif found.tag is None:
            found.tag = token.strip("[]")
        elif found.unknown is None:
            found.unknown = token
    return found
