"""The public cases P1-P8 (shared/cases/README.md): inputs on which other calculators went
wrong, each checked against a value worked out here by hand or with icepool, plus a second
input testing the same kind of fault."""

from __future__ import annotations

from fractions import Fraction as Fr

import icepool
import pytest
from oracle import (
    allocate,
    approx,
    attacker,
    check_row,
    dist_list,
    marginal,
    mean,
    refused,
    shoot,
    target,
    weapon,
    weapon_row,
)

# ------------------------------------------------------------------------------------------
# P1: mortal wounds from Devastating Wounds must not spill over to the next model.
# Core rules, Mortal Wounds: "If mortal wounds are being inflicted ... by an attack with the
# [DEVASTATING WOUNDS] ability that scored a Critical Wound, each time those mortal wounds are
# allocated to a model, if that model is destroyed as a result of those mortal wounds, the
# remaining mortal wounds from that attack are lost, just as with a normal attack."


def p1_hits() -> icepool.Die:
    """Hits from 6 attacks at BS 2+ with [SUSTAINED HITS 1]: per attack 0 hits on a 1,
    1 hit on 2-5, 2 hits on a 6 ("each Critical Hit scores 'x' additional hits")."""
    return 6 @ icepool.Die({0: 1, 1: 4, 2: 1})


# Per hit, S4 v T4 (4+ to wound), Sv 4+, AP 0, D2:
#   6 to wound (1/6): Critical Wound -> 2 mortal wounds, no save;
#   4-5 (2/6) then a failed save (1-3, 1/2): 2 damage -> 1/6;   otherwise nothing (4/6).
P1_PER_HIT = {0: Fr(4, 6), 2: Fr(1, 6), ("dev", 2): Fr(1, 6)}


@pytest.mark.parametrize("wounds", [1, 2, 3])
def test_p1_devastating_wounds_do_not_spill(tmp_path, wounds):
    """P1: 6 attacks, BS 2+, S4, AP 0, D2, [sustained hits 1, devastating wounds] into 10
    models T4 Sv4+ with W1, W2, W3."""
    a = attacker(
        tmp_path,
        weapon(A=6, skill=2, S=4, AP=0, D=2, abilities=["sustained hits 1", "devastating wounds"]),
    )
    t = target(tmp_path, models=10, T=4, Sv=4, W=wounds)
    out = shoot(a, t, dirs=[tmp_path])
    # hits: 6 x (4/6 x 1 + 1/6 x 2) = 6; wounds: 6 x 1/2 = 3; failed saves: 6 x 1/6 = 1;
    # mortal wounds: 6 x 1/6 x 2 = 2; damage: 1 x 2 + 2 = 4.
    check_row(weapon_row(out), hits=6, wounds=3, failed_saves=1, mortal_wounds=2, damage=4)
    joint = allocate(p1_hits(), P1_PER_HIT, [wounds] * 10)
    models = marginal(joint, 0)
    # The README's values (W1 and W2: 2.0 and 0.896522; W3: 0.751143 and 0.628039) agree
    # with this independent allocation:
    readme = {1: (2.0, 0.896522), 2: (2.0, 0.896522), 3: (0.751143, 0.628039)}[wounds]
    assert float(mean(models)) == approx(readme[0])
    assert float(1 - models.get(0, 0)) == approx(readme[1])
    assert out["expected"]["models_destroyed"] == approx(mean(models))
    assert out["kill_table"][0]["at_least"] == approx(1 - models.get(0, 0))
    assert out["models_destroyed_distribution"] == [approx(p) for p in dist_list(models, 11)]


def test_p1_variant_anti_devastating_d3_kills_one_w1_model_per_critical(tmp_path):
    """Same fault, another input: [ANTI-INFANTRY 2+, DEVASTATING WOUNDS] with D3 into W1
    models. Anti: "an unmodified Wound roll of 'x+' against a target with the matching keyword
    scores a Critical Wound", so every successful wound is a Critical Wound; each one inflicts
    D3 mortal wounds on one W1 model and the rest are lost: one model per Critical Wound."""
    a = attacker(
        tmp_path,
        weapon(
            A=4, skill=2, S=4, AP=0, D="D3", abilities=["anti-infantry 2+", "devastating wounds"]
        ),
    )
    t = target(tmp_path, models=10, T=4, Sv=3, W=1, keywords=["INFANTRY"])
    out = shoot(a, t, dirs=[tmp_path])
    p = Fr(5, 6) * Fr(5, 6)  # hit on 2+, then an unmodified 2+ to wound is a Critical Wound
    # mortal wounds: 4 x 25/36 x E[D3] = 4 x 25/36 x 2 = 50/9; no saving throw is failed.
    check_row(
        weapon_row(out),
        hits=Fr(20, 6),
        wounds=4 * p,
        failed_saves=0,
        mortal_wounds=4 * p * 2,
        damage=4 * p * 2,
    )
    # models destroyed ~ Binomial(4, 25/36)
    kills = {k: Fr(1) * _binom(4, k) * p**k * (1 - p) ** (4 - k) for k in range(5)}
    assert out["expected"]["models_destroyed"] == approx(4 * p)
    assert out["expected"]["wounds_lost"] == approx(4 * p)
    assert out["models_destroyed_distribution"] == [approx(q) for q in dist_list(kills, 11)]


def _binom(n: int, k: int) -> int:
    from math import comb

    return comb(n, k)


# ------------------------------------------------------------------------------------------
# P2: Sustained Hits extra hits are not rolled to hit again.
# "Each time an attack is made with such a weapon, if a Critical Hit is rolled, that attack
# scores a number of additional hits on the target as denoted by 'x'."


def test_p2_sustained_hits_extra_hits_are_not_rolled(tmp_path):
    """P2: 10 attacks, BS 3+, [sustained hits 1]: hits 8.333333."""
    a = attacker(tmp_path, weapon(A=10, skill=3, abilities=["sustained hits 1"]))
    out = shoot(a, target(tmp_path), dirs=[tmp_path])
    # 10 x (P(3-5) x 1 + P(6) x 2) = 10 x (3/6 + 2/6) = 25/3
    assert weapon_row(out)["hits"] == approx(Fr(25, 3))
    assert weapon_row(out)["hits"] == approx(8.333333)


def test_p2_variant_sustained_hits_d3_at_bs5(tmp_path):
    """Same fault with [SUSTAINED HITS D3] at BS 5+: a 6 scores 1 + D3 hits (mean 3)."""
    a = attacker(tmp_path, weapon(A=10, skill=5, abilities=["sustained hits d3"]))
    out = shoot(a, target(tmp_path), dirs=[tmp_path])
    # 10 x (P(5) x 1 + P(6) x (1 + 2)) = 10 x (1/6 + 3/6) = 20/3
    assert weapon_row(out)["hits"] == approx(Fr(20, 3))


# ------------------------------------------------------------------------------------------
# P3: a 7+ save is no save at all (not a 6+).
# Saving Throw: "If the result is greater than or equal to the Save characteristic of the
# model the attack was allocated to, then that saving throw is successful".


def test_p3_torrent_into_no_save(tmp_path):
    """P3: [torrent] D6 attacks, S4 into T4, Sv 7+, AP 0: wounds 1.75, failed saves 1.75."""
    a = attacker(tmp_path, weapon(A="D6", skill=None, S=4, abilities=["torrent"]))
    t = target(tmp_path, T=4, Sv=7)
    out = shoot(a, t, dirs=[tmp_path])
    # [TORRENT] hits automatically: 3.5 hits; 4+ to wound: 1.75; no save: all fail.
    check_row(weapon_row(out), attacks=3.5, hits=3.5, wounds=1.75, failed_saves=1.75)


def test_p3_torrent_into_no_save_in_cover_saves_on_6(tmp_path):
    """P3, with Benefit of Cover: "add 1 to the saving throw made for that attack", so an
    unmodified 6 becomes 7 and passes a 7+ save: 1.75 x 5/6 fail."""
    a = attacker(tmp_path, weapon(A="D6", skill=None, S=4, abilities=["torrent"]))
    t = target(tmp_path, T=4, Sv=7)
    out = shoot(a, t, "--cover", dirs=[tmp_path])
    check_row(weapon_row(out), wounds=1.75, failed_saves=Fr(7, 4) * Fr(5, 6))


@pytest.mark.parametrize(("sv", "ap"), [(6, -1), (5, -2), (4, -3)])
def test_p3_variant_ap_pushing_save_to_7_means_no_save(tmp_path, sv, ap):
    """Same fault: Sv X+ and AP -(7-X): the best roll, 6, becomes 6-(7-X) = X-1 < X, so
    every wound is a failed save (nothing saves on a 6)."""
    a = attacker(tmp_path, weapon(A=12, skill=2, S=8, AP=ap))
    t = target(tmp_path, T=4, Sv=sv)
    out = shoot(a, t, dirs=[tmp_path])
    # 12 x 5/6 hits; S8 >= 2 x T4: 2+ to wound -> 12 x 5/6 x 5/6 = 25/3 wounds, all failed
    check_row(weapon_row(out), wounds=Fr(25, 3), failed_saves=Fr(25, 3))


# ------------------------------------------------------------------------------------------
# P4: Blast. "add 1 to the result for every five models that were in the target unit when
# you selected it as the target (rounding down)."


@pytest.mark.parametrize(("models", "bonus"), [(10, 2), (9, 1), (15, 3), (4, 0)])
def test_p4_blast_d6_attacks(tmp_path, models, bonus):
    """P4: A = D6 [blast]: into 10 models D6+2 (5.5), 9 models D6+1, 15 models D6+3."""
    a = attacker(tmp_path, weapon(A="D6", skill=4, abilities=["blast"]))
    t = target(tmp_path, models=models)
    out = shoot(a, t, dirs=[tmp_path])
    assert weapon_row(out)["attacks"] == approx(Fr(7, 2) + bonus)


def test_p4_variant_blast_2d6_rules_example(tmp_path):
    """The rules' own example: 2D6 [blast] into 11 models adds 2 (11 // 5): mean 7 + 2 = 9;
    hits at BS 4+: 9 / 2."""
    a = attacker(tmp_path, weapon(A="2D6", skill=4, abilities=["blast"]))
    t = target(tmp_path, models=11)
    out = shoot(a, t, dirs=[tmp_path])
    check_row(weapon_row(out), attacks=9, hits=Fr(9, 2))


def test_p4_variant_blast_counts_models_left_in_a_damaged_unit(tmp_path):
    """Blast counts the models "in the target unit when you selected it": a 10-model unit
    reduced to 9 (--target-models 9) gives +1, not +2. D3 [blast]: 2 + 1 = 3."""
    a = attacker(tmp_path, weapon(A="D3", skill=4, abilities=["blast"]))
    t = target(tmp_path, models=10)
    out = shoot(a, t, "--target-models", "9", dirs=[tmp_path])
    assert out["target"]["models"] == 9
    assert weapon_row(out)["attacks"] == approx(3)


# ------------------------------------------------------------------------------------------
# P5: damage reduction is applied to each roll, never below 1 (seeds README: "damage is never
# below 1").


def test_p5_d3_damage_minus_one_never_below_one(tmp_path):
    """P5: D3 damage, subtract 1: rolls 1, 2, 3 give 1, 1, 2: mean 4/3 per failed save."""
    a = attacker(tmp_path, weapon(A=6, skill=2, S=8, AP=0, D="D3"))
    t = target(tmp_path, T=4, Sv=7, W=10)
    out = shoot(a, t, "--damage-reduction", "1", dirs=[tmp_path])
    row = weapon_row(out)
    # 6 x 5/6 x 5/6 = 25/6 failed saves (no save), each 4/3 damage on average
    check_row(row, failed_saves=Fr(25, 6), damage=Fr(25, 6) * Fr(4, 3))


def test_p5_variant_d6_minus_two(tmp_path):
    """Same fault: D6 with 2 subtracted: rolls 1..6 give 1, 1, 1, 2, 3, 4: mean 12/6 = 2
    (not 3.5 - 2 = 1.5)."""
    a = attacker(tmp_path, weapon(A=6, skill=2, S=8, AP=0, D="D6"))
    t = target(tmp_path, T=4, Sv=7, W=10)
    out = shoot(a, t, "--damage-reduction", "2", dirs=[tmp_path])
    check_row(weapon_row(out), failed_saves=Fr(25, 6), damage=Fr(25, 6) * 2)


def test_p5_variant_negative_damage_modifier_on_d3(tmp_path):
    """--damage-mod -1 subtracts from each Damage roll too: D3 - 1, at least 1: mean 4/3."""
    a = attacker(tmp_path, weapon(A=6, skill=2, S=8, AP=0, D="D3"))
    t = target(tmp_path, T=4, Sv=7, W=10)
    out = shoot(a, t, "--damage-mod", "-1", dirs=[tmp_path])
    check_row(weapon_row(out), failed_saves=Fr(25, 6), damage=Fr(25, 6) * Fr(4, 3))


# ------------------------------------------------------------------------------------------
# P6: with [SUSTAINED HITS] and [LETHAL HITS], only the Critical Hit itself wounds
# automatically. Lethal Hits: "Each time an attack is made with such a weapon, a Critical
# Hit automatically wounds the target."


def test_p6_snap_shooting_sustained_and_lethal(tmp_path):
    """P6: 10 attacks hitting only on unmodified 6s (snap shooting), [sustained hits 1,
    lethal hits], S = T, no save: hits 3.333333, wounds 2.5."""
    a = attacker(
        tmp_path, weapon(A=10, skill=3, S=4, abilities=["sustained hits 1", "lethal hits"])
    )
    t = target(tmp_path, T=4, Sv=7)
    out = shoot(a, t, "--overwatch", dirs=[tmp_path])
    # 10/6 Critical Hits, each 2 hits: 10/3 hits. Wounds: 10/6 automatic + 10/6 extra hits
    # rolling 4+ (1/2): 10/6 + 10/12 = 5/2.
    check_row(weapon_row(out), hits=Fr(10, 3), wounds=Fr(5, 2), failed_saves=Fr(5, 2))


def test_p6_variant_sustained_2_lethal_at_bs4_s_below_t(tmp_path):
    """Same fault: BS 4+, [sustained hits 2, lethal hits], S4 into T5 (5+ to wound), no
    save. Per attack: a 6 (1/6) is 1 automatic wound + 2 hits rolling 5+; a 4-5 (2/6) is one
    hit rolling 5+."""
    a = attacker(
        tmp_path, weapon(A=10, skill=4, S=4, abilities=["sustained hits 2", "lethal hits"])
    )
    t = target(tmp_path, T=5, Sv=7)
    out = shoot(a, t, dirs=[tmp_path])
    hits = 10 * (Fr(2, 6) * 1 + Fr(1, 6) * 3)  # 25/3
    wounds = 10 * (Fr(1, 6) * (1 + 2 * Fr(1, 3)) + Fr(2, 6) * Fr(1, 3))  # 35/9
    check_row(weapon_row(out), hits=hits, wounds=wounds, failed_saves=wounds)


# ------------------------------------------------------------------------------------------
# P7: damage does not spill between models and distributions are not smeared.
# Seeds README, Allocating attacks: "a model that has already lost wounds ... must be picked
# first"; excess damage of an attack is lost.


def test_p7_d10_into_w11_models(tmp_path):
    """P7: D10 attacks into W11 models: wounds lost only 0, 10, 11 or 21. With k attacks
    that get through: 0 -> 0; 1 -> 10; 2 -> 10 + 1 (the second kills the first model, 9 lost);
    3 -> 11 + 10 = 21, one model destroyed."""
    a = attacker(tmp_path, weapon(A=3, skill=2, S=10, AP=0, D=10))
    t = target(tmp_path, models=2, T=5, Sv=7, W=11)
    out = shoot(a, t, dirs=[tmp_path])
    p = Fr(5, 6) * Fr(5, 6)  # hit 2+, S10 >= 2 x T5 wounds on 2+, no save
    pk = [_binom(3, k) * p**k * (1 - p) ** (3 - k) for k in range(4)]
    # Damage (before any is lost) is 10 k: only 0, 10, 20 or 30.
    assert out["damage_distribution"] == [
        approx(pk[d // 10] if d % 10 == 0 else 0) for d in range(len(out["damage_distribution"]))
    ]
    assert out["expected"]["wounds_lost"] == approx(10 * pk[1] + 11 * pk[2] + 21 * pk[3])
    assert out["models_destroyed_distribution"] == [
        approx(pk[0] + pk[1]),
        approx(pk[2] + pk[3]),
        approx(0),
    ]
    joint = allocate(3, {0: 1 - p, 10: p}, [11, 11])
    assert set(marginal(joint, 1)) == {0, 10, 11, 21}


def test_p7_variant_d6_damage_into_w4_models(tmp_path):
    """Same fault with dice damage: 4 attacks, D6 damage, into three W4 models (no save).
    The kill table must come from the whole sequence of attacks, not from the mean damage."""
    a = attacker(tmp_path, weapon(A=4, skill=3, S=4, AP=0, D="D6"))
    t = target(tmp_path, models=3, T=4, Sv=7, W=4)
    out = shoot(a, t, dirs=[tmp_path])
    p = Fr(4, 6) * Fr(3, 6)  # hit 3+, wound 4+, no save
    per_attack = {0: 1 - p, **{d: p / 6 for d in range(1, 7)}}
    joint = allocate(4, per_attack, [4, 4, 4])
    models = marginal(joint, 0)
    assert out["expected"]["wounds_lost"] == approx(mean(marginal(joint, 1)))
    assert out["expected"]["models_destroyed"] == approx(mean(models))
    assert out["models_destroyed_distribution"] == [approx(q) for q in dist_list(models, 4)]


# ------------------------------------------------------------------------------------------
# P8: the current [INDIRECT FIRE] text (seeds README): "if no model of the target is visible
# when it is selected, each such attack subtracts 1 from its Hit roll, an unmodified Hit roll of
# 1, 2 or 3 always fails (so the roll needed is never better than 4+), and the target has the
# Benefit of Cover against it. A weapon with [TORRENT] cannot make Indirect Fire attacks."


@pytest.mark.parametrize(
    ("skill", "abilities", "flags"),
    [(2, ["indirect fire"], ()), (3, ["indirect fire", "heavy"], ("--stationary",))],
)
def test_p8_indirect_fire_unmodified_1_to_3_fail(tmp_path, skill, abilities, flags):
    """P8: one attack, BS2+ (-1: 3+) or BS3+ [HEAVY] stationary (+1 -1: 3+), S9 into T4 W1 no
    save, --indirect: a 3 would hit after modifiers but an unmodified 1-3 always fails: 4, 5, 6
    hit: 0.5 hits (the first-printing text gives 0.667); wounds 0.5 x 5/6; the target has the
    Benefit of Cover: its Sv 7+ saves on a 6: failed saves 5/12 x 5/6."""
    a = attacker(tmp_path, weapon(A=1, skill=skill, S=9, abilities=abilities))
    out = shoot(a, target(tmp_path, T=4, Sv=7), "--indirect", *flags, dirs=[tmp_path])
    check_row(weapon_row(out), hits=Fr(1, 2), wounds=Fr(5, 12), failed_saves=Fr(25, 72))


def test_p8_variant_critical_hits_below_4_still_fail(tmp_path):
    """Same fault with a lower Critical Hit threshold (--crit-hit 2, [SUSTAINED HITS 1]): an
    unmodified 2 or 3 still fails; 4, 5, 6 are Critical Hits of 2 hits each: 12 x 3/6 x 2."""
    a = attacker(tmp_path, weapon(A=12, skill=2, S=9, abilities=["indirect fire",
                                                             "sustained hits 1"]))  # fmt: skip
    out = shoot(a, target(tmp_path, T=4, Sv=7), "--indirect", "--crit-hit", "2", dirs=[tmp_path])
    assert weapon_row(out)["hits"] == approx(12)


def test_p8_torrent_cannot_fire_indirectly(tmp_path):
    """A [TORRENT, INDIRECT FIRE] weapon cannot make Indirect Fire attacks: alone it is
    refused with the reason; beside another indirect weapon it is left out with a note."""
    flamer = weapon("Flamer", A=6, skill=None, S=4, abilities=["torrent", "indirect fire"])
    mortar = weapon("Mortar", A=6, skill=4, S=4, abilities=["indirect fire"])
    t = target(tmp_path, T=4, Sv=7)
    result = refused("shoot", attacker(tmp_path, flamer), t, "--indirect", dirs=[tmp_path])
    assert "TORRENT" in result.stderr
    both = attacker(tmp_path, flamer, mortar, stem="battery")
    out = shoot(both, t, "--indirect", dirs=[tmp_path])
    # the mortar alone: 6 attacks, BS4+ -1 -> 5+ (1-3 fail anyway): 2 hits
    assert [w["name"] for w in out["weapons"]] == ["Mortar"]
    assert weapon_row(out, "Mortar")["hits"] == approx(2)
    assert any("Flamer" in n and "[TORRENT]" in n for n in out["notes"])
