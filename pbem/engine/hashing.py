"""Canonical JSON and state hashes: the same state always hashes the same, on any machine."""

from __future__ import annotations

import hashlib
import json
from typing import Any


def canonical_json(data: Any) -> str:
    """Sorted keys, no whitespace, no NaN: a byte-stable text for hashing and storage."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


def state_hash(data: Any) -> str:
    """SHA-256 of the canonical JSON of a game's ``to_json`` output."""
    return hashlib.sha256(canonical_json(data).encode("utf-8")).hexdigest()
