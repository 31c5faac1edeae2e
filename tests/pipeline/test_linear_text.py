"""Patterns run on what a player writes do linear work: 1 MB of the text that made each of
them backtrack (minutes, or hours, when it did) is read in well under a second of CPU."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from pbem.i18n.translate import ENGLISH
from pbem.ops import archive
from pbem.pipeline import talk

MB = 1_000_000


def cpu(work: Callable[[], object]) -> float:
    started = time.process_time()
    work()
    return time.process_time() - started


@pytest.mark.parametrize("text", [
    "a" * MB,  # a run with no "@": every start scanned it to its end
    "a." * (MB // 2),
    "a@b" * (MB // 3),
    "x@" + "a" * MB,
], ids=["run", "dots", "ats", "no-dot-domain"])
def test_the_archive_hides_addresses_in_linear_time(text: str) -> None:
    viewer = archive.Viewer(seat=0)
    assert cpu(lambda: archive._scrub(text, viewer, ENGLISH)) < 1


def test_the_archive_still_hides_every_address() -> None:
    text = "write to ann.lee+games@mail.example.org or bob@b.test, not to @nobody or x@y"
    assert archive._scrub(text, archive.Viewer(seat=0), ENGLISH) == (
        "write to (address hidden) or (address hidden), not to @nobody or x@y")


@pytest.mark.parametrize("text", ["a" * MB, ("a" * 21 + " ") * (MB // 22)],
                         ids=["run", "near-secrets"])
def test_secrets_are_looked_for_in_talk_in_linear_time(text: str) -> None:
    assert cpu(lambda: talk._SECRET_SHAPED.findall(text)) < 1
