"""Counts of independent dice (``engine/counts.py``): the sampler draws how many of a trial's
dice land in each outcome class instead of rolling each one (DESIGN.md: the sampler draws what
it must). Checked against values worked out by hand, icepool, and the multinomial formula
n! / (c_1! ... c_k!) p_1^c_1 ... p_k^c_k written out here."""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import factorial, prod

import icepool
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wh40k_calc.engine.counts as counts_module
from wh40k_calc.engine.counts import _table, die_classes, draw_counts
from wh40k_calc.profile import RollTable

WOUND_4UP = RollTable((0, 0, 0, 0, 1, 1, 2))  # Wound roll 4+, Critical Wound on a 6
HIT_3UP_REROLL_1 = RollTable((0, 0, 0, 1, 1, 1, 2), (False, True) + (False,) * 5)
WOUND_4UP_REROLL_FAILS = RollTable(WOUND_4UP.outcome, (False, True, True, True) + (False,) * 3)


def _f(x: float) -> Fraction:
    return Fraction(x).limit_denominator(36)


def test_die_classes_without_a_re_roll() -> None:
    # "Wound roll 4+": 3 faces fail, 4 and 5 wound, an unmodified 6 is a Critical Wound
    assert [_f(x) for x in die_classes(WOUND_4UP, 3)] == [
        Fraction(1, 2),
        Fraction(1, 3),
        Fraction(1, 6),
    ]


def test_die_classes_with_re_rolled_ones_by_hand() -> None:
    # Hit roll 3+ re-rolling 1s ("the second result stands"): a miss is a first 2 (6/36) or a
    # 1 re-rolled into a 1 or 2 (2/36); a hit 3/6 + 3/36; a Critical Hit 1/6 + 1/36
    assert [_f(x) for x in die_classes(HIT_3UP_REROLL_1, 3)] == [
        Fraction(8, 36),
        Fraction(21, 36),
        Fraction(7, 36),
    ]
    # marked: the failures split into "not re-rolled" (a first 2) and "after a re-roll"
    assert [_f(x) for x in die_classes(HIT_3UP_REROLL_1, 3, marked=True)] == [
        Fraction(6, 36),
        Fraction(2, 36),
        Fraction(21, 36),
        Fraction(7, 36),
    ]


def test_a_failure_after_re_rolling_every_failure_is_always_marked() -> None:
    # "You can never re-roll a dice more than once": with every failure re-rolled, a failed
    # Wound roll is always one that was re-rolled (3/6 * 3/6)
    marked = [_f(x) for x in die_classes(WOUND_4UP_REROLL_FAILS, 3, marked=True)]
    assert marked[:2] == [Fraction(0), Fraction(9, 36)]


@settings(max_examples=60, deadline=None)
@given(
    outcome=st.lists(st.integers(0, 2), min_size=6, max_size=6),
    reroll=st.lists(st.booleans(), min_size=6, max_size=6),
)
def test_die_classes_agree_with_icepool(outcome: list[int], reroll: list[bool]) -> None:
    table = RollTable((0, *outcome), (False, *reroll))
    faces = [f for f in range(1, 7) if reroll[f - 1]]
    # every face re-rolled: the second roll stands, a plain D6 (icepool refuses that re-roll)
    die = icepool.d6.reroll(faces, depth=1) if 0 < len(faces) < 6 else icepool.d6
    classes = die.map(lambda f: outcome[f - 1])
    expected = [float(classes.probability(c)) for c in range(3)]
    np.testing.assert_allclose(die_classes(table, 3), expected, atol=1e-15)


def _multinomial(n: int, c: tuple[int, ...], p: tuple[float, ...]) -> float:
    """P(class counts c) for n dice with class probabilities p, from the formula."""
    ways = factorial(n) / prod(factorial(x) for x in c)
    return ways * prod(q**x for q, x in zip(p, c, strict=True))


def _check_follows_the_multinomial(draw, probs: tuple[float, ...], nmax: int) -> None:
    """Every composition of every n <= nmax turns up as often as the formula says (5 SE)."""
    trials = 120_000
    rng = np.random.default_rng(7)
    n = np.arange(trials) % (nmax + 1)  # every n, equally often
    got = draw(rng, n, np.asarray(probs))
    rows = np.stack([got[j] for j in range(len(probs))])
    np.testing.assert_array_equal(rows.sum(axis=0), n)
    for m in range(nmax + 1):
        sel = rows[:, n == m]
        for c in itertools.product(range(m + 1), repeat=len(probs)):
            if sum(c) != m:
                continue
            p = _multinomial(m, c, probs)
            freq = float(np.all(sel == np.array(c)[:, None], axis=0).mean())
            se = max(np.sqrt(p * (1 - p) / sel.shape[1]), 1 / sel.shape[1])
            assert abs(freq - p) < 5 * se, (m, c, freq, p)


def test_counts_from_the_table_follow_the_multinomial() -> None:
    _check_follows_the_multinomial(draw_counts, (1 / 2, 1 / 3, 1 / 6), 6)


def test_counts_from_numpy_follow_the_multinomial(monkeypatch) -> None:
    monkeypatch.setattr(counts_module, "TABLE_ENTRIES", 0)  # no table: numpy's multinomial
    _check_follows_the_multinomial(draw_counts, (1 / 2, 1 / 3, 1 / 6), 6)


def test_large_pools_have_the_multinomial_mean_and_variance() -> None:
    # 3,000 dice a trial: far past any table; mean n p and variance n p (1 - p) per class
    rng = np.random.default_rng(3)
    p = np.array([0.5, 0.3, 0.2])
    got = draw_counts(rng, np.full(20_000, 3_000), p)
    for j, q in enumerate(p):
        row = got[j]
        assert abs(row.mean() - 3_000 * q) < 5 * np.sqrt(3_000 * q * (1 - q) / 20_000)
        assert row.var() == pytest.approx(3_000 * q * (1 - q), rel=0.05)


def test_impossible_classes_never_count_and_no_dice_cost_nothing() -> None:
    rng = np.random.default_rng(1)
    n = np.array([0, 3, 5, 0, 8])
    got = draw_counts(rng, n, np.array([0.25, 0.0, 0.75]))
    np.testing.assert_array_equal(got[1], 0)
    np.testing.assert_array_equal(got[0] + got[2], n)
    np.testing.assert_array_equal(got[0][n == 0], 0)
    certain = draw_counts(rng, n, np.array([0.0, 1.0, 0.0]))
    assert certain.drawn == 0  # a certain outcome is not drawn
    np.testing.assert_array_equal(certain[1], n)
    assert draw_counts(rng, np.zeros(4, dtype=np.int64), np.array([0.5, 0.5])).drawn == 0


def test_the_table_locates_every_uniform_number_exactly() -> None:
    """The guide only speeds the search: each u lands in the entry whose interval [lower,
    upper) holds it, checked against a plain binary search at and next to every boundary."""
    probs = (0.6, 0.3, 0.1)
    table = _table(probs, 8)
    upper = table.upper / table.cells
    start = np.searchsorted(table.parts.sum(axis=0), np.arange(10))
    for m in range(9):
        block = upper[start[m] : start[m + 1]]
        edges = np.concatenate([[0.0], block[:-1]])
        u = np.concatenate([edges, np.nextafter(edges, 0.0)[1:], [np.nextafter(1.0, 0.0)]])
        expected = start[m] + np.searchsorted(block, u, side="right")
        got = table.locate(u.copy(), np.full(u.size, m))
        np.testing.assert_array_equal(got, expected)
        # the class counts of each entry are a composition of m
        np.testing.assert_array_equal(table.parts[:, start[m] : start[m + 1]].sum(axis=0), m)
