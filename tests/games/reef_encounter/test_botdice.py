"""The bot's dice draw exactly what random.Random's own methods draw (the pinned games rely on
it), and leave the generator in the same state."""

from __future__ import annotations

import random

from pbem.games.reef_encounter.botdice import Dice, kept_dice


def _pair(seed: int) -> tuple[random.Random, Dice]:
    return random.Random(seed), Dice(random.Random(seed))


def test_shuffle_is_the_stdlib_shuffle() -> None:
    for seed in range(200):
        rng, dice = _pair(seed)
        for n in (0, 1, 2, 3, 10, 17, 140, 1000):
            a, b = list(range(n)), list(range(n))
            rng.shuffle(a)
            dice.shuffle(b)
            assert a == b
        assert rng.getstate() == dice.rng.getstate()


def test_choice_and_randint_are_the_stdlib_ones() -> None:
    for seed in range(200):
        rng, dice = _pair(seed)
        for n in (1, 2, 3, 5, 8, 64, 65, 200):
            seq = list(range(n))
            assert rng.choice(seq) == dice.choice(seq)
            assert rng.randint(1, n) == dice.randint(1, n)
            assert rng.randint(0, n) == dice.randint(0, n)
            assert rng.random() == dice.random()
        assert rng.getstate() == dice.rng.getstate()


def test_empty_choices_fail_as_the_stdlib() -> None:
    dice = Dice(random.Random(1))
    for call in (lambda: dice.choice([]), lambda: dice.randint(3, 2)):
        try:
            call()
        except (IndexError, ValueError):
            continue
        raise AssertionError("an empty range gave a value")


class _Other(random.Random):
    """A generator drawing its own way: the dice must use its methods, not mirror the stdlib."""

    def _randbelow(self, n: int) -> int:
        return n - 1


def test_another_generator_keeps_its_own_draws() -> None:
    dice = Dice(_Other(5))
    assert dice.choice([1, 2, 3]) == 3
    assert dice.randint(1, 4) == 4
    items = [1, 2, 3, 4]
    dice.shuffle(items)
    assert items == [1, 2, 3, 4]


def test_the_bot_keeps_one_dice_per_generator_and_never_hands_out_anothers() -> None:
    a, b = random.Random(1), random.Random(2)
    first = kept_dice(a)
    assert kept_dice(a) is first  # kept from turn to turn
    assert kept_dice(b).rng is b and kept_dice(a).rng is a  # two games' bots in turn: each its own


def test_drawn_gives_the_items_random_sample_would_drawing_only_as_asked() -> None:
    """A lazy shuffle: for a small list, the first k items are random.sample's k (its pool
    draws the same way), and asking for k draws no more than k times."""
    from itertools import islice

    for seed in range(30):
        for n in (1, 2, 7, 20):
            for k in range(1, n + 1):
                dice, rng = Dice(random.Random(seed)), random.Random(seed)
                assert list(islice(dice.drawn(list(range(n))), k)) == rng.sample(range(n), k)
                assert dice.rng.getstate() == rng.getstate()
    whole = list(Dice(random.Random(3)).drawn(list(range(9))))
    assert sorted(whole) == list(range(9))
