"""The state pass's small path (issue 21): a kernel's kept *orbit*, the distributions of the
target's states after 0, 1, 2, ... wounds from the unharmed unit (``exact._orbit``), turns a
weapon's counts from there into two small products; it is taken while the orbit holds at most
``exact.ORBIT_ELEMENTS`` entries (states x counts), Horner's scheme over the counts otherwise.

* Against an independent model: the exact kill tables and wounds lost of 10th-edition
  allocation (``oracle.allocate``, exact fractions; one attack's damage worked out by hand,
  its Damage roll by icepool) for small weapons into units of several models, the orbit path
  checked to be the one taken.
* Against the engine's other paths on random activations (the hypothesis strategy of
  test_properties): the orbit switched off (``ORBIT_ELEMENTS = 0``: Horner's scheme) and the
  general one-count-at-a-time loop; every figure within 1e-12.
* At the size switch: the same activation with the limit at exactly the orbit's size (taken)
  and one entry below it (not taken) gives the same figures.
* An orbit kept for a few counts and extended for more gives exactly what a fresh one does.
"""

from __future__ import annotations

from fractions import Fraction

import icepool
import numpy as np
import pytest
from hypothesis import given, settings
from oracle import allocate, as_dist, dist_list, marginal
from profiles import Kind, activation, unit, weapon
from test_memo import _exact_or_none, _same
from test_properties import PROPS, activations

from wh40k_calc.engine import exact, memo
from wh40k_calc.engine.exact import run_exact

# (attacker's weapon, target kind and models, P(one attack's damage gets through) by hand)
# BS 3+ hits 4/6; S6 into T6 wounds on 4+ (3/6); AP-2 into Sv 3+ saves on 5+ (fails 4/6)
BS3_S6_AP2 = Fraction(4, 6) * Fraction(3, 6) * Fraction(4, 6)
# BS 4+ hits 3/6; S4 into T4 wounds on 4+ (3/6); AP0 into Sv 5+ saves on 5+ (fails 4/6)
BS4_S4_AP0 = Fraction(3, 6) * Fraction(3, 6) * Fraction(4, 6)
CASES = {
    "10 D6 into 20 W3": (
        dict(A=2, models=5, skill=3, S=6, T=6, AP=-2, D="D6"),
        3,
        3,
        20,
        BS3_S6_AP2,
        icepool.d6,
    ),
    "6 D3 into 5 W2": (
        dict(A=1, models=6, skill=3, S=6, T=6, AP=-2, D="D3"),
        2,
        3,
        5,
        BS3_S6_AP2,
        icepool.d3,
    ),
    "8 flat 2 into 10 W1": (
        dict(A=2, models=4, skill=4, S=4, T=4, AP=0, D=2),
        1,
        5,
        10,
        BS4_S4_AP0,
        2,
    ),
}


def _per_attack(through: Fraction, damage) -> dict[int, Fraction]:
    """One attack: 0 points unless it gets through, then its Damage roll."""
    out = {0: 1 - through}
    for d, p in as_dist(damage).items():
        out[d] = out.get(d, Fraction(0)) + through * p
    return out


def _used_orbit(act) -> bool:
    """Whether the last run of ``act`` kept an orbit with its first weapon's kernel."""
    setup = exact._Setup(act, exact.MAX_ELEMENTS, None)
    return "orbit" in setup.weapons[0].normal[0].forms


@pytest.mark.parametrize("name", list(CASES))
def test_orbit_path_against_the_allocation_oracle(name: str) -> None:
    args, W, Sv, models, through, damage = CASES[name]
    kinds = (Kind(W=W, Sv=Sv),)
    act = activation(weapon(kinds, **args), unit(kinds, [(0, models)]))
    memo.clear()
    out = run_exact(act)
    assert _used_orbit(act)
    attacks = args["A"] * args["models"]
    joint = allocate(attacks, _per_attack(through, damage), [W] * models)
    killed = dist_list(marginal(joint, 0), models + 1)
    lost = dist_list(marginal(joint, 1), models * W + 1)
    np.testing.assert_allclose(
        out.models_destroyed_distribution, [float(p) for p in killed], rtol=0, atol=1e-12
    )
    np.testing.assert_allclose(
        out.wounds_lost_distribution, [float(p) for p in lost], rtol=0, atol=1e-12
    )
    assert out.expected["models_destroyed"] == pytest.approx(
        float(sum(k * p for k, p in enumerate(killed))), abs=1e-12
    )
    # the kept orbit again (warm): the same figures
    again = run_exact(act)
    assert np.array_equal(again.models_destroyed_distribution, out.models_destroyed_distribution)


@settings(PROPS, max_examples=80)
@given(act=activations())
def test_orbit_is_horner_and_the_loop(act) -> None:
    memo.clear()
    fast = _exact_or_none(act)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(exact, "ORBIT_ELEMENTS", 0)
        memo.clear()
        horner = _exact_or_none(act)
        mp.setattr(exact._Pass, "_count_scalar", exact._Pass._count_loop)
        memo.clear()
        loop = _exact_or_none(act)
    assert (fast is None) == (horner is None) == (loop is None)
    if fast is not None:
        _same(fast, horner)
        _same(fast, loop, damage=False)


@pytest.mark.parametrize("attacks", [3, 10, 30])
def test_orbit_at_the_size_switch(attacks: int, monkeypatch) -> None:
    kinds = (Kind(W=2, Sv=4, fnp=6), Kind(W=3, Sv=3, invuln=5))
    target = unit(kinds, [(0, 4), (1, 3)])
    act = activation(weapon(kinds, A=attacks, skill=3, S=5, T=4, AP=-1, D="D3"), target)
    memo.clear()
    setup = exact._Setup(act, exact.MAX_ELEMENTS, None)
    p, _ = exact._scalar_weights(exact._Counts(setup.weapons[0].joints, None, (0, 1)))
    size = setup.space.size * len(p)  # the orbit's entries
    outs, used = [], []
    for limit in (size, size - 1):
        monkeypatch.setattr(exact, "ORBIT_ELEMENTS", limit)
        memo.clear()
        outs.append(run_exact(act))
        used.append(_used_orbit(act))
    assert used == [True, False]
    _same(outs[0], outs[1])


def test_kept_orbit_extended() -> None:
    kinds = (Kind(W=3, Sv=3),)
    target = unit(kinds, [(0, 10)])

    def act(attacks: int):
        return activation(weapon(kinds, A=attacks, skill=3, S=6, T=6, AP=-2, D="D6"), target)

    memo.clear()
    fresh = run_exact(act(12))
    memo.clear()
    run_exact(act(4))  # a short orbit kept with the kernel
    rows_before = exact._Setup(act(4), exact.MAX_ELEMENTS, None).weapons[0].normal[0].forms
    short = len(rows_before["orbit"][0])
    longer = run_exact(act(12))  # the same kernel: its orbit extended
    assert len(rows_before["orbit"][0]) > short
    for a, b in zip(
        (fresh.models_destroyed_distribution, fresh.wounds_lost_distribution),
        (longer.models_destroyed_distribution, longer.wounds_lost_distribution),
        strict=True,
    ):
        assert np.array_equal(a, b)
    assert fresh.expected == longer.expected
