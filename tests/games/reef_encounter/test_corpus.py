"""The corpus helper (corpus.py) replays what it recorded, and notices a changed line."""

from __future__ import annotations

import gzip
from pathlib import Path

from tests.games.reef_encounter.corpus import check, record


def test_a_recorded_corpus_replays_and_a_changed_line_is_found(tmp_path: Path) -> None:
    record(tmp_path, 3)
    assert check(tmp_path) == []
    path = tmp_path / "corpus-1.jsonl.gz"
    with gzip.open(path, "rt", encoding="utf-8") as f:
        lines = f.read().splitlines()
    lines[3] = lines[3].replace('"state":{', '"state":{"x":1,', 1)
    with gzip.open(path, "wt", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    assert check(tmp_path) == ["corpus-1.jsonl.gz: line 4 differs"]
