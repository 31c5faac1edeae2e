"""Frozen for migration 0005 (see the package): a copy of pbem/mail/text.py as it stood
when frozen. Never edit it: a change to the live code must not change an old migration.

Turning mail bodies into order text: HTML to text, quoted replies and signatures removed."""

from __future__ import annotations

import re
from html.parser import HTMLParser

_BLOCK = {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "pre", "blockquote", "table"}
_QUOTE_HEAD = re.compile(
    r"^(on .{0,200} wrote:|le .{0,200} a écrit\s?:|am .{0,200} schrieb .{0,100}:"
    r"|-+\s*original message\s*-+|-+\s*forwarded message\s*-+|from: .+)$",
    re.I,
)


class _TextExtractor(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self._skip = 0
        self._quote = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in {"script", "style", "head"}:
            self._skip += 1
        if tag == "blockquote":
            self._quote += 1
        if tag in _BLOCK:
            self.out.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in {"script", "style", "head"} and self._skip:
            self._skip -= 1
        if tag == "blockquote" and self._quote:
            self._quote -= 1
        if tag in _BLOCK:
            self.out.append("\n")

    def handle_data(self, data: str) -> None:
        if not self._skip and not self._quote:  # quoted replies are not orders
            self.out.append(data)


def html_to_text(html: str) -> str:
    parser = _TextExtractor()
    try:
        parser.feed(html)
        parser.close()
    except Exception:  # broken HTML: keep what was read
        pass
    lines = [" ".join(line.split()) for line in "".join(parser.out).splitlines()]
    return "\n".join(lines).strip("\n")


def strip_quotes_and_signature(text: str) -> str:
    """Keep what the player wrote: stop at a signature or a quoted-reply header, drop '>' lines."""
    kept: list[str] = []
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for i, line in enumerate(lines):
        stripped = line.strip()
        if line.rstrip() == "--" or line == "-- ":
            break
        if _wrapped_attribution(stripped, lines[i + 1:i + 2]):
            break
        if _QUOTE_HEAD.match(stripped) and kept and any(k.strip() for k in kept):
            break
        if _QUOTE_HEAD.match(stripped) and stripped.lower().startswith(("on ", "le ", "am ", "-")):
            break
        if stripped.startswith(">"):
            continue
        kept.append(line.rstrip())
    while kept and not kept[-1].strip():
        kept.pop()
    return "\n".join(kept)


def _wrapped_attribution(line: str, following: list[str]) -> bool:
    """An "On ... wrote:" line that the sender's client wrapped onto two lines."""
    if not following or not line.lower().startswith(("on ", "le ", "am ")):
        return False
    joined = f"{line} {following[0].strip()}"
    return bool(_QUOTE_HEAD.match(joined)) and not _QUOTE_HEAD.match(line)
