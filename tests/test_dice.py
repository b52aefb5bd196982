"""Dice expressions: parsing, exact distributions, means, sampling and printing.

Expected values are worked out by hand (counting faces), not read back from the code.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from wh40k_calc.dice import Dice, DiceError, constant, pmf_sample

# ---------------------------------------------------------------------------------------------
# Parsing


@pytest.mark.parametrize(
    ("text", "count", "sides", "bonus"),
    [
        ("3", 0, 6, 3),
        ("0", 0, 6, 0),
        ("D3", 1, 3, 0),
        ("d3", 1, 3, 0),
        ("D6", 1, 6, 0),
        ("D6+1", 1, 6, 1),
        ("2D6", 2, 6, 0),
        ("2D3", 2, 3, 0),
        ("D3+3", 1, 3, 3),
        ("D6-1", 1, 6, -1),
        (" d6 + 2 ", 1, 6, 2),
        ("3D6+2", 3, 6, 2),
    ],
)
def test_parse_text(text: str, count: int, sides: int, bonus: int) -> None:
    d = Dice.parse(text)
    assert (d.count, d.sides, d.bonus) == (count, sides, bonus)


@pytest.mark.parametrize("value", [0, 1, 2, 6, 12])
def test_parse_int_is_a_constant(value: int) -> None:
    d = Dice.parse(value)
    assert d.is_constant
    assert d.mean == value
    assert d.max_value == value
    assert d == constant(value)


def test_parse_dice_passes_through() -> None:
    d = Dice(2, 6, 1)
    assert Dice.parse(d) is d


@pytest.mark.parametrize("text", ["D7", "x", "", "2D", "-3", "D6+", "D6++1", "D", "1.5", "3 3"])
def test_bad_text_raises_dice_error_quoting_the_text(text: str) -> None:
    with pytest.raises(DiceError) as info:
        Dice.parse(text)
    assert repr(text) in str(info.value)


@pytest.mark.parametrize("text", ["D66", "D36", "D63", "2D66", "D6 1"])
def test_bonus_without_a_sign_is_refused(text: str) -> None:
    with pytest.raises(DiceError):
        Dice.parse(text)


def test_dice_error_is_a_value_error() -> None:
    assert issubclass(DiceError, ValueError)


@pytest.mark.parametrize("bad", [-1, True, 2.0, None, [1]])
def test_bad_non_text_values_raise(bad: object) -> None:
    with pytest.raises(DiceError):
        Dice.parse(bad)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------
# Exact distributions (index = value)


def test_pmf_of_2d6() -> None:
    pmf = Dice.parse("2D6").pmf
    # number of ways to roll 2..12 with two dice: 1 2 3 4 5 6 5 4 3 2 1 (of 36)
    ways = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}
    assert len(pmf) == 13
    assert pmf[0] == 0 and pmf[1] == 0
    for value, n in ways.items():
        assert pmf[value] == pytest.approx(n / 36, abs=1e-12), value
    assert pmf[7] == pytest.approx(6 / 36)
    assert pmf.sum() == pytest.approx(1.0, abs=1e-12)


def test_pmf_of_d3_plus_3() -> None:
    pmf = Dice.parse("D3+3").pmf
    assert len(pmf) == 7
    assert list(pmf[:4]) == [0, 0, 0, 0]
    assert pmf[4:] == pytest.approx([1 / 3, 1 / 3, 1 / 3])


def test_pmf_of_d6_minus_1_starts_at_zero() -> None:
    pmf = Dice.parse("D6-1").pmf
    # faces 1..6 minus 1: values 0..5, each 1/6
    assert len(pmf) == 6
    assert pmf == pytest.approx([1 / 6] * 6)


def test_negative_values_are_clipped_at_zero() -> None:
    pmf = Dice.parse("D3-2").pmf
    # faces 1, 2, 3 minus 2: -1 -> 0, 0, 1
    assert len(pmf) == 2
    assert pmf == pytest.approx([2 / 3, 1 / 3])
    assert Dice.parse("D3-2").mean == pytest.approx(1 / 3)


def test_pmf_of_a_constant() -> None:
    assert list(Dice.parse("3").pmf) == [0.0, 0.0, 0.0, 1.0]
    assert list(Dice.parse(0).pmf) == [1.0]


@pytest.mark.parametrize("text", ["3", "D3", "D6", "D6+1", "2D6", "D3+3", "D6-1", "3D3+1", "4D6"])
def test_pmf_sums_to_one(text: str) -> None:
    pmf = Dice.parse(text).pmf
    assert pmf.dtype == np.float64
    assert abs(pmf.sum() - 1.0) < 1e-9
    assert (pmf >= 0).all()


@pytest.mark.parametrize(
    ("text", "mean", "max_value"),
    [
        ("3", 3.0, 3),
        ("D3", 2.0, 3),
        ("D6", 3.5, 6),
        ("D6+1", 4.5, 7),
        ("2D6", 7.0, 12),
        ("D3+3", 5.0, 6),
        ("D6-1", 2.5, 5),
        ("2D3", 4.0, 6),
    ],
)
def test_mean_and_max(text: str, mean: float, max_value: int) -> None:
    d = Dice.parse(text)
    assert d.mean == pytest.approx(mean)
    assert d.max_value == max_value


def test_three_d3() -> None:
    # three D3: 27 outcomes; the sum 6 is reached 7 ways (2,2,2 once; 1,2,3 six ways)
    assert Dice.parse("3D3").pmf[6] == pytest.approx(7 / 27)
    assert Dice.parse("2D6").mean == pytest.approx(7.0)


def test_pmf_sample_follows_the_distribution() -> None:
    rng = np.random.default_rng(7)
    draws = pmf_sample(np.array([0.25, 0.0, 0.75]), rng, 20_000)
    assert set(np.unique(draws)) <= {0, 2}
    assert (draws == 2).mean() == pytest.approx(0.75, abs=0.02)


# ---------------------------------------------------------------------------------------------
# Sampling


@pytest.mark.parametrize(
    ("text", "low", "high"),
    [("D3", 1, 3), ("D6", 1, 6), ("2D6", 2, 12), ("D3+3", 4, 6), ("D6-1", 0, 5), ("5", 5, 5)],
)
def test_sample_range(text: str, low: int, high: int) -> None:
    d = Dice.parse(text)
    draws = d.sample(np.random.default_rng(1), 5000)
    assert draws.shape == (5000,)
    assert draws.dtype == np.int64
    assert draws.min() == low
    assert draws.max() == high


def test_sample_is_reproducible_with_a_seed() -> None:
    d = Dice.parse("2D6+1")
    a = d.sample(np.random.default_rng(1234), 1000)
    b = d.sample(np.random.default_rng(1234), 1000)
    c = d.sample(np.random.default_rng(4321), 1000)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)


def test_sample_shape_tuple_and_mean() -> None:
    d = Dice.parse("2D6")
    draws = d.sample(np.random.default_rng(3), (200, 50))
    assert draws.shape == (200, 50)
    # 10,000 draws of 2D6 (sd 2.415): the mean is within 0.1 of 7 with overwhelming odds
    assert draws.mean() == pytest.approx(7.0, abs=0.1)
    # P(7) = 6/36
    assert (draws == 7).mean() == pytest.approx(6 / 36, abs=0.02)


# ---------------------------------------------------------------------------------------------
# Printing


@pytest.mark.parametrize(
    ("text", "printed"),
    [
        ("3", "3"),
        ("D3", "D3"),
        ("d6", "D6"),
        ("D6+1", "D6+1"),
        ("2D6", "2D6"),
        ("D3+3", "D3+3"),
        ("D6-1", "D6-1"),
        (" d6 + 2 ", "D6+2"),
        ("1D6", "D6"),
    ],
)
def test_str_round_trips(text: str, printed: str) -> None:
    d = Dice.parse(text)
    assert str(d) == printed
    assert Dice.parse(str(d)) == d


@given(
    count=st.integers(1, 6),
    sides=st.sampled_from([3, 6]),
    bonus=st.integers(-3, 6),
)
def test_property_round_trip_and_distribution(count: int, sides: int, bonus: int) -> None:
    d = Dice(count, sides, bonus)
    assert Dice.parse(str(d)) == d
    pmf = d.pmf
    assert abs(pmf.sum() - 1.0) < 1e-9
    # mean of the unclipped sum, corrected for the mass clipped at 0
    exact = Fraction(count * (sides + 1), 2) + bonus
    if count + bonus >= 0:
        assert d.mean == pytest.approx(float(exact))
    else:
        assert d.mean >= float(exact)
    assert d.max_value == max(count * sides + bonus, 0)
