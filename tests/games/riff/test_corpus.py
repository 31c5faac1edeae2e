"""The rules replay a pinned sample of bot games byte for byte: every draw, event and state
JSON after every order (tests/games/riff/corpus.py; the sample was recorded before the speed
speed work and holds the orders, so it stands whatever the bot now chooses).
The full corpus (300 games) is checked the same way with ``corpus check``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.games.riff.corpus import digest, replay

SAMPLE = json.loads((Path(__file__).parent / "golden" / "corpus_sample.json").read_text("utf-8"))


@pytest.mark.parametrize("game", SAMPLE, ids=[g["seed"] for g in SAMPLE])
def test_the_rules_replay_recorded_games_exactly(game: dict[str, Any]) -> None:
    made = replay(game["seed"], game["options"], [(s, t) for s, t in game["orders"]])
    assert digest(made) == game["digest"]
