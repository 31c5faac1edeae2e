"""Finding English left in a mail meant for another language: every fragment of four words or
more of an English msgid of the host's and the game's catalogues (the text between
placeholders) that the mail contains, unless that language's translation says it too."""

from __future__ import annotations

import html
import re
from functools import cache

from babel.messages.pofile import read_po

from pbem.engine import registry
from pbem.i18n.domains import domains

_PLACEHOLDER = re.compile(r"\{[^}]*\}|%\([^)]*\)[sd]|%[sd]")
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
_TAG = re.compile(r"<[^>]+>")


@cache
def fragments(game_name: str, lang: str) -> tuple[str, ...]:
    """The English fragments a mail in ``lang`` must not contain."""
    found: set[str] = set()
    for name, domain in domains().items():
        if name not in ("pbem", registry.get(game_name).name):
            continue
        with domain.po(lang).open("rb") as f:
            catalog = read_po(f, locale=lang)
        for m in catalog:
            if not m.id:
                continue
            ids = m.id if isinstance(m.id, tuple | list) else (m.id,)
            strings = m.string if isinstance(m.string, tuple | list) else (m.string,)
            said = " ".join(str(s) for s in strings)
            for text in ids:
                for piece in _PLACEHOLDER.split(str(text)):
                    for line in piece.split("\n"):
                        line = line.strip(" .,;:()\"'«»")
                        if len(_WORD.findall(line)) >= 4 and line not in said:
                            found.add(line)
    return tuple(sorted(found))


def english_left(text: str, game_name: str, lang: str) -> list[str]:
    """The English fragments in ``text`` (plain text, or HTML: tags are dropped)."""
    plain = " ".join(html.unescape(_TAG.sub(" ", text)).split())
    return [f for f in fragments(game_name, lang) if " ".join(f.split()) in plain]
