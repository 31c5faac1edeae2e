"""Where a game's catalogue lives: the ``locale`` folder next to its package (no game names)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any


def game_package_dir(game: Any) -> Path | None:
    """The folder of the package that defines ``game`` (``pbem/games/<pkg>``), if it is one."""
    module = sys.modules.get(type(game).__module__)
    file = getattr(module, "__file__", None)
    if file is None:
        return None
    return Path(file).parent
