"""The text equivalent of a game's board pictures, as a screen reader reads it: each item of
the status's ``<ul class="board-text">``, its words whitespace-collapsed."""

from __future__ import annotations

from typing import Any

import html5lib


def board_text(html: str) -> list[str]:
    """Every item of every ``ul.board-text`` in ``html``, in order."""
    tree: Any = html5lib.parseFragment(html, namespaceHTMLElements=False)
    return [" ".join("".join(li.itertext()).split())
            for ul in tree.iter("ul") if "board-text" in (ul.get("class") or "").split()
            for li in ul.iter("li")]
