"""Recorded randomness: live draws are reproducible from the seed and replay from the log."""

from __future__ import annotations

import pytest

from pbem.engine import Chance, ChanceMismatch, Draw


def test_same_seed_same_draws() -> None:
    a, b = Chance("game-1/setup"), Chance("game-1/setup")
    first = [a.choice("c", "abcdef") for _ in range(20)]
    assert first == [b.choice("c", "abcdef") for _ in range(20)]
    assert a.draws == b.draws


def test_different_seeds_differ() -> None:
    a, b = Chance("x"), Chance("y")
    assert a.shuffle("s", list(range(30))) != b.shuffle("s", list(range(30)))


def test_replay_returns_recorded_outcomes() -> None:
    live = Chance("seed")
    picked = [live.choice("bag", ["grey", "pink", "white"]) for _ in range(5)]
    order = live.shuffle("boards", [1, 2, 3, 4])
    n = live.randint("die", 1, 6)
    again = Chance.replaying(live.draws)
    assert [again.choice("bag", ["grey", "pink", "white"]) for _ in range(5)] == picked
    assert again.shuffle("boards", [1, 2, 3, 4]) == order
    assert again.randint("die", 1, 6) == n
    again.finish()


def test_replay_detects_a_different_question() -> None:
    again = Chance.replaying([Draw("bag", 0)])
    with pytest.raises(ChanceMismatch, match="log has 'bag', rules asked for 'toss'"):
        again.choice("toss", ["a", "b"])


def test_replay_detects_unused_and_missing_draws() -> None:
    again = Chance.replaying([Draw("bag", 0), Draw("bag", 1)])
    again.choice("bag", ["a", "b"])
    with pytest.raises(ChanceMismatch, match="used 1 of 2"):
        again.finish()
    with pytest.raises(ChanceMismatch, match="has none"):
        Chance.replaying([]).choice("bag", ["a"])


def test_draw_json_round_trip() -> None:
    live = Chance("s")
    live.shuffle("boards", ["1", "2", "3"])
    assert [Draw.from_json(d.to_json()) for d in live.draws] == live.draws


def test_live_draws_are_randrange_of_random_random_seeded_by_the_seed_digest() -> None:
    """Stored games' seeded draws: a choice is ``randrange(len(options))`` and a shuffle is
    ``shuffle`` of ``random.Random`` seeded with the first 16 bytes of the seed's SHA-256."""
    import hashlib
    import random

    for seed in ("game-7/3", "bench-4-12/34", "x" * 200):
        n = int.from_bytes(hashlib.sha256(seed.encode("utf-8")).digest()[:16], "big")
        live, rng = Chance(seed), random.Random(n)
        for size in [1, 2, 3, 5, 17, 64, 100, 1000] * 5:
            assert live.choice("c", list(range(size))) == rng.randrange(size)
        perm = list(range(30))
        rng.shuffle(perm)
        assert live.shuffle("s", list(range(30))) == perm
        assert live.randint("d", 1, 6) == 1 + rng.randrange(6)


def _pool(counted: list[tuple[str, int]]) -> list[str]:
    return [item for item, n in counted for _ in range(n)]


@pytest.mark.parametrize("seed", [f"deal-{i}" for i in range(40)])
def test_deal_counted_draws_what_choice_draws_from_the_pool_rebuilt(seed: str) -> None:
    counted = [("grey", 3), ("orange", 0), ("pink", 5), ("white", 1), ("yellow", 2)]
    labels = [f"draw {i}" for i in range(11)]
    by_pool, pool = Chance(seed), _pool(counted)
    expected = []
    for label in labels:
        expected.append(by_pool.choice(label, pool))
        pool.remove(expected[-1])
    dealt = Chance(seed)
    assert dealt.deal_counted(labels, counted) == expected
    assert dealt.draws == by_pool.draws
    again = Chance.replaying(dealt.draws)
    assert again.deal_counted(labels, counted) == expected
    again.finish()
    one = Chance(seed)
    assert one.deal_counted(["x"], counted) == [Chance(seed).choice("x", _pool(counted))]


def test_deal_counted_refuses_an_empty_pool_and_a_bad_replay() -> None:
    with pytest.raises(ValueError, match="'third': nothing to choose from"):
        Chance("s").deal_counted(["first", "second", "third"], [("a", 1), ("b", 1)])
    with pytest.raises(ChanceMismatch, match="index 2 out of range"):
        Chance.replaying([Draw("bag", 2)]).deal_counted(["bag"], [("a", 1), ("b", 1)])
