"""Small helpers for the English the engine writes to players."""

from __future__ import annotations


def a(word: str) -> str:
    """``word`` with its indefinite article: "a grey", "an orange"."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"
