"""A game's or a lobby table's tag, as a subject carries it: ``[reef-12]``."""

from __future__ import annotations

import re

TAG_RE = re.compile(r"\[([A-Za-z0-9][A-Za-z0-9_.-]*)\]")
