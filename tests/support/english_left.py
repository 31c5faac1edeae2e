"""Finding English left in a mail meant for another language, for the host and every game.

A fragment is a sentence or line of four words or more of an English msgid of the host's
catalogue (and the game's, when one is named), cut at placeholders, line ends and sentence
ends. A mail in ``lang`` must contain none of them, unless ``lang``'s own translation of that
message says it too (a name, a word the language borrows).
"""

from __future__ import annotations

import html
import re
from functools import cache

from babel.messages.pofile import read_po

from pbem.catalogues.domains import HOST_DOMAIN, domains
from pbem.engine import registry

_PLACEHOLDER = re.compile(r"\{[^}]*\}|%\([^)]*\)[sd]|%[sd%]")
_PIECE_END = re.compile(r"\n|(?<=[.;:!?])\s+")
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
_TAG = re.compile(r"<[^>]+>")


@cache
def fragments(lang: str, game_name: str | None = None) -> tuple[str, ...]:
    """The English fragments a mail in ``lang`` must not contain."""
    found: set[str] = set()
    if game_name is not None:  # a former id or alias means the game's own catalogue too
        game_name = registry.get(game_name).name
    for name, domain in domains().items():
        if name not in (HOST_DOMAIN, game_name):
            continue
        with domain.po(lang).open("rb") as f:
            catalog = read_po(f, locale=lang)
        for m in catalog:
            if not m.id:
                continue
            ids = m.id if isinstance(m.id, tuple | list) else (m.id,)
            strings = m.string if isinstance(m.string, tuple | list) else (m.string,)
            said = " ".join(" ".join(str(s).split()) for s in strings)
            for text in ids:
                for piece in _PLACEHOLDER.split(str(text)):
                    for line in _PIECE_END.split(piece):
                        line = " ".join(line.strip(" .,;:()\"'«»").split())
                        if len(_WORD.findall(line)) >= 4 and line not in said:
                            found.add(line)
    return tuple(sorted(found))


def english_left(text: str, lang: str, game_name: str | None = None) -> list[str]:
    """The English fragments in ``text`` (plain text, or HTML: tags are dropped)."""
    plain = " ".join(html.unescape(_TAG.sub(" ", text)).split())
    return [f for f in fragments(lang, game_name) if f in plain]
