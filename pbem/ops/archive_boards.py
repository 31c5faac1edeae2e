"""An archive's boards as compact data, drawn by the page itself.

A whole game's boards, each written out in full, made a 61-step page of 2.6 MB: a step
changes a few lines of a board's HTML and SVG, the rest is the board before it. So each
board is kept as its lines' differences from an earlier board (its ``base``: the board
before it, or the public board of its own step for a seat's view), and the page's script
rebuilds a board when its step is shown. Lines, not characters: the games write one SVG
element a line, and a line diff of a ~400-line board takes a few milliseconds.

Then the whole is deflated (the diffs of a game repeat the same kinds of lines: 200 kB of
them deflate to 14 kB) and base64-encoded; the page inflates it with the browser's own
DecompressionStream (every browser since 2023), so a 65-step game of three players, each
player's board at every step included, is a page of about 110 kB.

A board's encoding is ``[base, op, ...]``: ``base`` an earlier board's number (-1: none);
an int ``n > 0`` copies the base's next ``n`` lines, ``n < 0`` skips ``-n`` of them, a
string is a line of this board.
"""

from __future__ import annotations

import base64
import difflib
import json
import re
import zlib

LINE = re.compile(r"[^\n]*\n|[^\n]+")

Encoded = list[int | str]


class Boards:
    """Boards added in turn, each encoded against the one named as its base."""

    def __init__(self) -> None:
        self._lines: list[list[str]] = []
        self.encoded: list[Encoded] = []

    def add(self, html: str, base: int | None = None) -> int:
        """``html``'s number; encoded against board ``base`` (None: written out)."""
        lines = LINE.findall(html)
        ops: Encoded = [-1 if base is None else base]
        if base is None:
            ops += lines
        else:
            old = self._lines[base]
            matcher = difflib.SequenceMatcher(None, old, lines, autojunk=False)
            for tag, i1, i2, j1, j2 in matcher.get_opcodes():
                if tag == "equal":
                    ops.append(i2 - i1)
                    continue
                if i2 > i1:
                    ops.append(i1 - i2)
                ops += lines[j1:j2]
        self._lines.append(lines)
        self.encoded.append(ops)
        return len(self.encoded) - 1

    def page_data(self) -> str:
        """The encodings as JSON, deflated (zlib format), in base64: safe in any element."""
        data = json.dumps(self.encoded, ensure_ascii=False, separators=(",", ":"))
        return base64.b64encode(zlib.compress(data.encode("utf-8"), 9)).decode("ascii")


def decode(page_data: str) -> list[str]:
    """Every board's HTML back from :meth:`Boards.page_data` (what the page's script does)."""
    encoded: list[Encoded] = json.loads(zlib.decompress(base64.b64decode(page_data)))
    boards: list[list[str]] = []
    for ops in encoded:
        base = int(ops[0])
        old = boards[base] if base >= 0 else []
        lines: list[str] = []
        at = 0
        for op in ops[1:]:
            if isinstance(op, str):
                lines.append(op)
            elif op > 0:
                lines += old[at:at + op]
                at += op
            else:
                at -= op
        boards.append(lines)
    return ["".join(lines) for lines in boards]
