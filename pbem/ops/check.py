"""One line of ``pbem doctor``: what was checked, whether it passed, and the fix if not."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    message: str
    fix: str = ""
