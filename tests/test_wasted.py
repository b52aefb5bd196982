"""Wasted damage: the points of the damage figure that remove no wound, worked out by hand.

Core rules (Inflict Damage; Feel No Pain; Mortal Wounds): a failed save's Damage is inflicted
on one model and what exceeds the wounds it has left is lost (no spill-over); Feel No Pain
ignores points one by one; mortal wounds spill over from model to model, so the only mortal
wounds lost are those left when the unit is destroyed. The engines split the damage figure
(every point through Feel No Pain, counted as if Feel No Pain were rolled for each) into the
wounds the target lost, ``beyond_wounds_left`` and ``after_destruction``; ``feel_no_pain`` is
the points ignored on top of it. Each value below is derived in its docstring from those
rules, never read from the code; the sampler's per-trial counts must agree within 5 standard
errors.
"""

from __future__ import annotations

from fractions import Fraction as F
from math import comb

import pytest
from hypothesis import given, settings
from profiles import Kind, activation, disagreements, grenade, unit, weapon
from test_properties import PROPS, activations, exact

from wh40k_calc.engine.exact import run_exact
from wh40k_calc.engine.outcome import WASTE_FIELDS
from wh40k_calc.engine.sample import run_sample

TRIALS = 60_000
SEED = 2024


def _binomial(n: int, p: F) -> list[F]:
    return [comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]


def _check(act, wounds_lost: F, damage: F, **wasted: F) -> None:
    """The exact engine's totals equal the hand values; the sampler's agree within 5 SE."""
    o = run_exact(act)
    assert o.expected["wounds_lost"] == pytest.approx(float(wounds_lost), abs=1e-12)
    assert o.expected["damage"] == pytest.approx(float(damage), abs=1e-12)
    want = {k: float(wasted.get(k, 0)) for k in WASTE_FIELDS}
    assert o.wasted == pytest.approx(want, abs=1e-12)
    s = run_sample(act, trials=TRIALS, seed=SEED, waste=True)
    se = s.standard_error["wasted"]
    for k in WASTE_FIELDS:
        assert abs(s.wasted[k] - want[k]) <= 5 * max(se[k], 1 / TRIALS), (k, s.wasted[k], se[k])


def test_d6_damage_into_w1_models_wastes_all_but_one_point_per_failed_save() -> None:
    """One [TORRENT] attack, S8 against T4 (wounds on 2+: 5/6), no save possible (Sv 7+), D6
    Damage, into 5 W1 models: a wound removes 1 wound and the other D6 - 1 points are lost,
    2.5 on average. Wounds lost 5/6, damage 5/6 x 3.5, beyond the wounds left 5/6 x 2.5."""
    ks = (Kind(W=1, Sv=7),)
    act = activation(weapon(ks, A=1, skill=None, S=8, T=4, D="D6"), unit(ks, [(0, 5)]))
    p = F(5, 6)
    _check(act, p, p * F(7, 2), beyond_wounds_left=p * F(5, 2))


def test_damage_with_no_model_left_is_lost_after_destruction() -> None:
    """Three [TORRENT] attacks (wounds on 2+), no save, D6 Damage, into 2 W1 models. With N ~
    Binomial(3, 5/6) wounds, the first min(N, 2) each remove a wound and waste D6 - 1 (2.5);
    a third finds no model and all its 3.5 points are lost at destruction (P(N = 3) =
    125/216). E[min(N, 2)] = E[N] - P(N = 3) = 5/2 - 125/216 = 415/216."""
    ks = (Kind(W=1, Sv=7),)
    act = activation(weapon(ks, A=3, skill=None, S=8, T=4, D="D6"), unit(ks, [(0, 2)]))
    three = F(125, 216)
    first = F(5, 2) - three
    _check(
        act,
        first,
        F(5, 2) * F(7, 2),
        beyond_wounds_left=first * F(5, 2),
        after_destruction=three * F(7, 2),
    )


def test_feel_no_pain_waste_by_hand() -> None:
    """One [TORRENT] attack wounding on 2+ (5/6), no save, Damage 3, into one W2 model with
    Feel No Pain 5+ (each point ignored with probability 1/3). Of the 3 points, B ~
    Binomial(3, 2/3) get through: 1 ignored on average; the model loses min(B, 2), and B = 3
    (P = 8/27) loses one point beyond its wounds. Per wound: damage 2, wounds lost 2 - 8/27,
    beyond 8/27, Feel No Pain 1."""
    ks = (Kind(W=2, Sv=7, fnp=5),)
    act = activation(weapon(ks, A=1, skill=None, S=8, T=4, D=3), unit(ks, [(0, 1)]))
    p = F(5, 6)
    _check(
        act,
        p * (2 - F(8, 27)),
        p * 2,
        beyond_wounds_left=p * F(8, 27),
        feel_no_pain=p * 1,
    )


def test_mortal_wounds_lost_at_destruction_by_hand() -> None:
    """A Grenade (six D6, each 4+ one mortal wound: M ~ Binomial(6, 1/2)) into 2 W1 models
    with no weapon attacking: mortal wounds spill over, so none is beyond a model's wounds;
    those beyond the second are lost when the unit is destroyed: E[max(M - 2, 0)] = (1 x 20
    + 2 x 15 + 3 x 6 + 4 x 1) / 64 = 9/8; wounds lost E[min(M, 2)] = 3 - 9/8 = 15/8."""
    ks = (Kind(W=1, Sv=7),)
    act = activation((), unit(ks, [(0, 2)]), before=[grenade(ks)])
    m = _binomial(6, F(1, 2))
    after = sum((k - 2) * p for k, p in enumerate(m) if k > 2)
    assert after == F(9, 8)
    _check(act, 3 - after, F(3), after_destruction=after)


def test_mortal_wounds_ignored_by_feel_no_pain_against_mortal_wounds() -> None:
    """The same Grenade into 2 W1 models with Feel No Pain 4+ against mortal wounds: each
    mortal wound is ignored with probability 1/2 while a model remains; the wounds lost are
    min(K, 2) with K ~ Binomial(6, 1/4) (a mortal wound lands, 1/2, and passes, 1/2). The
    damage figure counts every point through Feel No Pain: 6 x 1/4 = 3/2, and Feel No Pain
    ignores 3/2 of the 3 mortal wounds. After destruction: E[max(K - 2, 0)]."""
    ks = (Kind(W=1, Sv=7, fnp_mortal=4),)
    act = activation((), unit(ks, [(0, 2)]), before=[grenade(ks)])
    k = _binomial(6, F(1, 4))
    after = sum((j - 2) * p for j, p in enumerate(k) if j > 2)
    _check(act, F(3, 2) - after, F(3, 2), feel_no_pain=F(3, 2), after_destruction=after)


def test_devastating_wounds_do_not_spill() -> None:
    """[DEVASTATING WOUNDS] with D3 Damage and Critical Wounds on 6 only: one [TORRENT]
    attack into 3 W1 models, no save; a Critical Wound (1/6) inflicts D3 mortal wounds on
    one model, which spill no further: 1 wound lost and D3 - 1 (mean 1) beyond; a normal
    wound (a 4 or 5, S4 against T4 wounds on 4+: 2/6) does the same through the failed save.
    Wounds lost 1/2, damage 1/2 x 2, beyond 1/2."""
    ks = (Kind(W=1, Sv=7),)
    gun = weapon(ks, A=1, skill=None, S=4, T=4, D="D3", devastating=True)
    act = activation(gun, unit(ks, [(0, 3)]))
    p = F(1, 2)
    _check(act, p, 2 * p, beyond_wounds_left=p)


def test_per_weapon_waste_adds_up_to_the_total() -> None:
    """Two weapons, D2 then D1, into 10 W1 models (no save): each failed save of the D2 gun
    wastes 1 point, the D1 gun none; per weapon, damage = wounds removed + beyond + after."""
    ks = (Kind(W=1, Sv=7),)
    guns = [
        weapon(ks, "big", A=4, skill=4, S=8, T=4, D=2),
        weapon(ks, "small", A=3, skill=4, S=4, T=4, D=1),
    ]
    o = run_exact(activation(guns, unit(ks, [(0, 10)])))
    big, small = o.weapons
    # 4 attacks, 1/2 hit, 5/6 wound: 5/3 failed saves, each 1 point beyond (10 models: never
    # all destroyed by 4 attacks)
    assert big.wasted["beyond_wounds_left"] == pytest.approx(5 / 3, abs=1e-12)
    assert small.wasted["beyond_wounds_left"] == pytest.approx(0.0, abs=1e-12)
    for k in WASTE_FIELDS:
        assert o.wasted[k] == pytest.approx(big.wasted[k] + small.wasted[k], abs=1e-12)


@settings(PROPS, max_examples=150)
@given(act=activations())
def test_the_samplers_waste_agrees_with_the_exact_engine(act) -> None:
    """On random activations (both engines, every figure within 5 standard errors, the damage
    wasted per weapon and in total among them); without ``waste`` the sampler counts none."""
    ex = exact(act)
    s = run_sample(act, trials=4_000, seed=SEED, waste=True)
    assert set(s.wasted) == set(WASTE_FIELDS)
    bad = disagreements(ex, s)
    assert not bad, "; ".join(bad[:10])
    assert run_sample(act, trials=10, seed=SEED).wasted == {}


@settings(PROPS, max_examples=120)
@given(act=activations())
def test_damage_is_wounds_lost_plus_waste(act) -> None:
    """On random activations: the damage figure less the points lost beyond the wounds left
    and after destruction is the wounds the target lost; every wasted figure is >= 0."""
    o = exact(act)
    w = o.wasted
    assert all(v >= -1e-9 for v in w.values()), w
    rest = o.expected["damage"] - w["beyond_wounds_left"] - w["after_destruction"]
    assert rest == pytest.approx(o.expected["wounds_lost"], rel=1e-9, abs=1e-9)
