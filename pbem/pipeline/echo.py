"""What a player wrote, quoted back to them: cut, so no mail of ours grows with theirs."""

from __future__ import annotations

ECHO_CHARS = 200  # of each quoted line: a 750 KB line gets no 750 KB answer


def clip(text: str, limit: int = ECHO_CHARS) -> str:
    """``text`` as quoted in a reply: whole up to ``limit`` characters, else its start and how
    much was left out."""
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text) - limit} more " \
        "characters not shown)"
