"""Damage: dice damage, modifiers, halving, Melta, damage re-rolls' neighbours, Feel No Pain.

Attacks here are [TORRENT] S8 into T4 with no save (Sv 7): 5/6 of them become failed saves,
so the expected damage is failed saves x the mean damage per failed save worked out by hand.
Seeds README: "Damage modifiers: halving is applied before adding or subtracting; damage is
never below 1." and "Feel No Pain X+: each time a model would lose a wound, roll one D6; on X+
that wound is not lost." JSON contract: "damage" counts the points of failed saves and mortal
wounds that pass Feel No Pain, "before any is lost to a model being destroyed"."""

from __future__ import annotations

from fractions import Fraction as Fr
from math import comb

import icepool
import pytest
from oracle import (
    allocate,
    approx,
    as_dist,
    attacker,
    check_row,
    dist_list,
    marginal,
    mean,
    shoot,
    target,
    weapon,
    weapon_row,
)

P = Fr(5, 6)  # S8 v T4: 2+ to wound; no save


def gun(A=6, D=1, **kw) -> dict:
    return weapon(A=A, skill=None, S=8, D=D, abilities=["torrent", *kw.pop("abilities", [])], **kw)


def big_target(tmp_path, **kw):
    """Models with plenty of wounds, so that no damage is lost in these per-point checks."""
    return target(tmp_path, models=kw.pop("models", 5), T=4, Sv=7, W=kw.pop("W", 20), **kw)


@pytest.mark.parametrize(
    ("d", "flags", "per_save"),
    [
        ("D3", (), Fr(2)),
        ("D6+1", (), Fr(9, 2)),
        ("2D6", (), Fr(7)),
        ("D3+3", (), Fr(5)),
        ("D3", ("--damage-mod", "1"), Fr(3)),  # D3 + 1
        ("2", ("--damage-mod", "2"), Fr(4)),
        ("2", ("--damage-reduction", "1"), Fr(1)),
        ("1", ("--damage-reduction", "1"), Fr(1)),  # never below 1
        ("D3", ("--damage-reduction", "2"), Fr(1)),  # 1, 2, 3 -> 1, 1, 1
        ("D6", ("--half-damage",), Fr(2)),  # 1,1,2,2,3,3 (halved, rounding up)
        ("2", ("--half-damage",), Fr(1)),
        ("1", ("--half-damage",), Fr(1)),  # half of 1 rounds up to 1
        ("3", ("--half-damage",), Fr(2)),
        ("D6", ("--half-damage", "--damage-mod", "1"), Fr(3)),  # halve, then add: 2,2,3,3,4,4
        # halve, then subtract, at least 1: 1,1,2,2,3,3 -> 1,1,1,1,2,2
        ("D6", ("--half-damage", "--damage-reduction", "1"), Fr(8, 6)),
        ("4", ("--half-damage", "--damage-mod", "-1"), Fr(1)),  # 4 -> 2 -> 1
    ],
)
def test_damage_per_failed_save(tmp_path, d, flags, per_save):
    a = attacker(tmp_path, gun(A=6, D=d))
    out = shoot(a, big_target(tmp_path), *flags, dirs=[tmp_path])
    check_row(weapon_row(out), failed_saves=6 * P, damage=6 * P * per_save)


def test_melta_adds_to_damage_within_half_range(tmp_path):
    """[MELTA X] (seeds README): "against a target within half range, the Damage
    characteristic is increased by X." D6 [melta 2]: 3.5 -> 5.5 within half range."""
    a = attacker(tmp_path, gun(A=6, D="D6", abilities=["melta 2"]))
    t = big_target(tmp_path)
    far = shoot(a, t, dirs=[tmp_path])
    near = shoot(a, t, "--half-range", dirs=[tmp_path])
    assert weapon_row(far)["damage"] == approx(6 * P * Fr(7, 2))
    assert weapon_row(near)["damage"] == approx(6 * P * Fr(11, 2))


def test_melta_then_half_damage(tmp_path):
    """Halving comes before adding: D6 [melta 2] at half range under --half-damage:
    ceil(D6 / 2) + 2 = 3,3,4,4,5,5: mean 4 (not ceil(5.5 / 2))."""
    a = attacker(tmp_path, gun(A=6, D="D6", abilities=["melta 2"]))
    out = shoot(a, big_target(tmp_path), "--half-range", "--half-damage", dirs=[tmp_path])
    assert weapon_row(out)["damage"] == approx(6 * P * 4)


def test_dice_damage_into_multi_wound_models_loses_excess(tmp_path):
    """D3 damage into W2 models: a 3 destroys a fresh model and the third point is lost; a 1
    leaves it wounded, and the wounded model takes the next attack. Exact distribution from
    the independent allocation (oracle.allocate)."""
    a = attacker(tmp_path, gun(A=6, D="D3"))
    out = shoot(a, target(tmp_path, models=5, T=4, Sv=7, W=2), dirs=[tmp_path])
    per_attack = {0: 1 - P, 1: P / 3, 2: P / 3, 3: P / 3}
    joint = allocate(6, per_attack, [2] * 5)
    check_row(weapon_row(out), failed_saves=6 * P, damage=6 * P * 2)
    assert out["expected"]["wounds_lost"] == approx(mean(marginal(joint, 1)))
    assert out["expected"]["models_destroyed"] == approx(mean(marginal(joint, 0)))
    assert out["models_destroyed_distribution"] == [
        approx(q) for q in dist_list(marginal(joint, 0), 6)
    ]


def test_damage_distribution_counts_points_before_loss(tmp_path):
    """ "damage_distribution is the distribution of this figure": 2 attacks of D3 into one W1
    model; the damage total is the sum of the failed saves' D3 rolls (icepool), even though
    the model only ever loses 1 wound."""
    a = attacker(tmp_path, gun(A=2, D="D3"))
    out = shoot(a, target(tmp_path, models=1, T=4, Sv=7, W=1), dirs=[tmp_path])
    per = icepool.Die({0: 1, 1: 5}).map(lambda hit: icepool.d3 if hit else 0)
    total = as_dist(per + per)
    assert out["damage_distribution"] == [
        approx(q) for q in dist_list(total, len(out["damage_distribution"]))
    ]
    assert out["expected"]["wounds_lost"] == approx(1 - (1 - P) ** 2)


# Feel No Pain ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("fnp", "keep"), [(5, Fr(4, 6)), (6, Fr(5, 6)), (4, Fr(3, 6))])
def test_feel_no_pain_per_damage_point(tmp_path, fnp, keep):
    """Each point of a D3 attack is rolled for separately: damage = 2 x P(FNP fails) per
    failed save."""
    a = attacker(tmp_path, gun(A=6, D="D3"))
    out = shoot(a, big_target(tmp_path), "--fnp", str(fnp), dirs=[tmp_path])
    check_row(weapon_row(out), failed_saves=6 * P, damage=6 * P * 2 * keep)


def test_feel_no_pain_from_the_datasheet(tmp_path):
    """feel_no_pain: 5 in the YAML works like --fnp 5: D2 -> 2 x 4/6 per failed save."""
    a = attacker(tmp_path, gun(A=6, D=2))
    out = shoot(a, big_target(tmp_path, feel_no_pain=5), dirs=[tmp_path])
    check_row(weapon_row(out), damage=6 * P * 2 * Fr(4, 6))


def test_feel_no_pain_with_multi_damage_into_w2_models(tmp_path):
    """D3 damage, FNP 5+, W2 models: an attack's wounds lost are Binomial(D3, 4/6), capped at
    the wounds left on the model. Exact kill table from the independent allocation."""
    a = attacker(tmp_path, gun(A=6, D="D3"))
    out = shoot(a, target(tmp_path, models=4, T=4, Sv=7, W=2), "--fnp", "5", dirs=[tmp_path])
    keep = Fr(4, 6)
    per_attack: dict[int, Fr] = {0: 1 - P}
    for d in (1, 2, 3):
        for k in range(d + 1):
            q = P / 3 * comb(d, k) * keep**k * (1 - keep) ** (d - k)
            per_attack[k] = per_attack.get(k, Fr(0)) + q
    joint = allocate(6, per_attack, [2] * 4)
    assert weapon_row(out)["damage"] == approx(6 * P * 2 * keep)
    assert out["expected"]["wounds_lost"] == approx(mean(marginal(joint, 1)))
    assert out["models_destroyed_distribution"] == [
        approx(q) for q in dist_list(marginal(joint, 0), 5)
    ]


def test_feel_no_pain_against_mortal_wounds_only(tmp_path):
    """--fnp-mortal 4: only mortal wounds (here from [DEVASTATING WOUNDS]) are rolled for.
    S8 v T4 D2 [devastating wounds], no save: per attack a 6 to wound (1/6) is 2 mortal
    wounds, a 2-5 (4/6) is a failed save of 2 damage.
    damage = 6 x (4/6 x 2 + 1/6 x 2 x 1/2) = 6 x 3/2 = 9."""
    a = attacker(tmp_path, gun(A=6, D=2, abilities=["devastating wounds"]))
    out = shoot(a, big_target(tmp_path), "--fnp-mortal", "4", dirs=[tmp_path])
    check_row(weapon_row(out), failed_saves=4, mortal_wounds=2, damage=9)


def test_best_feel_no_pain_applies_to_mortal_wounds(tmp_path):
    """A model with FNP 6+ and FNP 4+ against mortal wounds uses one of them per wound: the
    4+ for mortal wounds, the 6+ for the rest.
    damage = 6 x (4/6 x 2 x 5/6 + 1/6 x 2 x 1/2) = 6 x (10/9 + 1/6) = 23/3."""
    a = attacker(tmp_path, gun(A=6, D=2, abilities=["devastating wounds"]))
    out = shoot(a, big_target(tmp_path), "--fnp", "6", "--fnp-mortal", "4", dirs=[tmp_path])
    check_row(weapon_row(out), failed_saves=4, mortal_wounds=2, damage=Fr(23, 3))


def test_damage_counts_feel_no_pain_beyond_the_unit(tmp_path):
    """ "damage" is counted "as if Feel No Pain were rolled for every point ... (it can exceed
    the unit's wounds)": 6 attacks of 3 damage into one W1 model, FNP 4+: 6 x 5/6 x 3 x 1/2.
    The model is destroyed unless every point is ignored or nothing got through:
    P(destroyed) = 1 - (1/6 + 5/6 x (1/2)^3)^6."""
    a = attacker(tmp_path, gun(A=6, D=3))
    out = shoot(a, target(tmp_path, models=1, T=4, Sv=7, W=1), "--fnp", "4", dirs=[tmp_path])
    assert weapon_row(out)["damage"] == approx(6 * P * 3 * Fr(1, 2))
    survive = (1 - P + P * Fr(1, 8)) ** 6
    assert out["expected"]["models_destroyed"] == approx(1 - survive)
    assert out["kill_table"][0]["at_least"] == approx(1 - survive)
