"""Re-rolls (10th edition core rules, "Re-rolls"): "You can never re-roll a dice more than once,
and re-rolls happen before modifiers (if any) are applied. Rules that refer to the value of an
'unmodified' dice roll are referring to the dice result after any re-rolls, but before any
modifiers are applied."

For "re-roll all" the calculator chooses which results to re-roll (DESIGN: per-die choices
maximise the attack's expected effective damage); the tests derive the rational choice by
hand and check both the numbers and the sentence in ``choices``."""

from __future__ import annotations

from fractions import Fraction as Fr

import pytest
from oracle import (
    allocate,
    approx,
    attacker,
    check_row,
    d6_at_least,
    dist_list,
    fight,
    marginal,
    mean,
    melee,
    shoot,
    target,
    weapon,
    weapon_row,
)


def hits(out: dict) -> float:
    return weapon_row(out)["hits"]


@pytest.mark.parametrize(
    ("policy", "p"),
    [
        ("ones", Fr(3, 6) + Fr(1, 6) * Fr(3, 6)),  # 7/12
        ("fails", Fr(3, 6) + Fr(3, 6) * Fr(3, 6)),  # 3/4
        ("all", Fr(3, 6) + Fr(3, 6) * Fr(3, 6)),  # nothing to fish for: re-roll the misses
    ],
)
def test_reroll_hits_bs4(tmp_path, policy, p):
    a = attacker(tmp_path, weapon(A=12, skill=4))
    out = shoot(a, target(tmp_path), "--reroll-hits", policy, dirs=[tmp_path])
    assert hits(out) == approx(12 * p)


def test_reroll_hits_all_choice_is_listed(tmp_path):
    """With plain hits at BS 4+, the rational re-rolls under "re-roll all" are the misses
    (1, 2, 3): a kept hit is worth more than a fresh roll. ``choices`` says so."""
    a = attacker(tmp_path, weapon(A=12, skill=4))
    out = shoot(a, target(tmp_path), "--reroll-hits", "all", dirs=[tmp_path])
    text = " ".join(out["choices"])
    assert "1, 2, 3" in text and "4" not in text.split("1, 2, 3", 1)[1].split(";")[0]


def test_reroll_ones_happens_before_modifiers(tmp_path):
    """BS 4+ with -1 to hit (5+ after the modifier), re-roll Hit rolls of 1: only unmodified
    1s are re-rolled (an unmodified 2, modified to 1, is not): 2/6 + 1/6 x 2/6 = 14/36."""
    a = attacker(tmp_path, weapon(A=12, skill=4))
    out = shoot(a, target(tmp_path), "--hit-mod", "-1", "--reroll-hits", "ones", dirs=[tmp_path])
    assert hits(out) == approx(12 * Fr(14, 36))


def test_reroll_ones_with_plus_one_rerolls_the_unmodified_one(tmp_path):
    """BS 4+ with +1 (3+), re-roll 1s: the unmodified 1 (2 after +1, a failure anyway) is
    re-rolled: 4/6 + 1/6 x 4/6 = 28/36."""
    a = attacker(tmp_path, weapon(A=12, skill=4))
    out = shoot(a, target(tmp_path), "--hit-mod", "1", "--reroll-hits", "ones", dirs=[tmp_path])
    assert hits(out) == approx(12 * Fr(28, 36))


def test_reroll_fails_with_modifier(tmp_path):
    """BS 4+ with -1: fails are unmodified 1-4; each is re-rolled once:
    2/6 + 4/6 x 2/6 = 20/36."""
    a = attacker(tmp_path, weapon(A=12, skill=4))
    out = shoot(a, target(tmp_path), "--hit-mod", "-1", "--reroll-hits", "fails", dirs=[tmp_path])
    assert hits(out) == approx(12 * Fr(20, 36))


def test_rerolled_critical_hit_uses_the_new_roll(tmp_path):
    """The re-rolled result is the unmodified roll: a re-rolled miss that comes up 6 is a
    Critical Hit. BS 4+, [sustained hits 1], re-roll fails: P(6) = 1/6 + 3/6 x 1/6 = 9/36;
    P(4-5) = 2/6 + 3/6 x 2/6 = 18/36; hits = 18/36 + 2 x 9/36 = 1 per attack."""
    a = attacker(tmp_path, weapon(A=12, skill=4, abilities=["sustained hits 1"]))
    out = shoot(a, target(tmp_path), "--reroll-hits", "fails", dirs=[tmp_path])
    assert hits(out) == approx(12)


@pytest.mark.parametrize(
    ("policy", "p"),
    [
        ("ones", Fr(1, 2) + Fr(1, 6) * Fr(1, 2)),  # 7/12
        ("fails", Fr(1, 2) + Fr(1, 2) * Fr(1, 2)),  # 3/4
        ("all", Fr(3, 4)),
    ],
)
def test_reroll_wounds(tmp_path, policy, p):
    """S4 v T4 (4+): torrent, 12 hits."""
    a = attacker(tmp_path, weapon(A=12, skill=None, S=4, abilities=["torrent"]))
    out = shoot(a, target(tmp_path, T=4), "--reroll-wounds", policy, dirs=[tmp_path])
    assert weapon_row(out)["wounds"] == approx(12 * p)


def test_twin_linked_rerolls_the_wound_roll(tmp_path):
    """[TWIN-LINKED] (seeds README): "the Wound roll can be re-rolled". S4 v T5 (5+):
    2/6 + 4/6 x 2/6 = 20/36."""
    a = attacker(tmp_path, weapon(A=12, skill=None, S=4, abilities=["torrent", "twin-linked"]))
    out = shoot(a, target(tmp_path, T=5), dirs=[tmp_path])
    assert weapon_row(out)["wounds"] == approx(12 * Fr(20, 36))


def test_twin_linked_and_reroll_wound_ones_reroll_once_only(tmp_path):
    """Two re-roll permissions do not stack: "You can never re-roll a dice more than once."
    Twin-linked plus re-roll 1s is still one re-roll of each failure: 20/36 (S4 v T5)."""
    a = attacker(tmp_path, weapon(A=12, skill=None, S=4, abilities=["torrent", "twin-linked"]))
    out = shoot(a, target(tmp_path, T=5), "--reroll-wounds", "ones", dirs=[tmp_path])
    assert weapon_row(out)["wounds"] == approx(12 * Fr(20, 36))


def test_reroll_hits_never_rerolls_twice(tmp_path):
    """Lootas' Dat's Our Loot! re-rolls Hit rolls of 1 and --reroll-hits fails adds another
    permission: the Deffgun (BS 6+) still re-rolls each die at most once:
    1/6 + 5/6 x 1/6 = 11/36 per attack, 8 attacks."""
    out = shoot("lootas", "boyz", "--reroll-hits", "fails")
    assert weapon_row(out, "Deffgun")["hits"] == approx(8 * Fr(11, 36))


def test_reroll_all_hits_fishes_for_lethal_sixes_when_wounding_is_hard(tmp_path):
    """[LETHAL HITS], BS 3+, S3 into T8 (6+ to wound), no save, re-roll any Hit roll.
    A kept non-critical hit is worth P(wound) = 1/6; a Critical Hit wounds automatically
    (worth 1); a fresh roll is worth 3/6 x 1/6 + 1/6 x 1 = 1/4 > 1/6. So the rational player
    re-rolls 1-5 and keeps only 6s.
    P(crit) = 1/6 + 5/6 x 1/6 = 11/36; P(non-critical hit) = 5/6 x 3/6 = 15/36.
    hits = 26/36, wounds = 11/36 + 15/36 x 1/6 = 81/216 = 3/8 per attack."""
    a = attacker(tmp_path, weapon(A=12, skill=3, S=3, abilities=["lethal hits"]))
    out = shoot(a, target(tmp_path, T=8, Sv=7), "--reroll-hits", "all", dirs=[tmp_path])
    check_row(weapon_row(out), hits=12 * Fr(26, 36), wounds=12 * Fr(3, 8))
    assert any("1, 2, 3, 4, 5" in c for c in out["choices"]), out["choices"]


def test_reroll_all_hits_keeps_hits_when_wounding_is_easy(tmp_path):
    """Same weapon, S3 into T3 (4+): a kept hit is worth 1/2, a fresh roll
    3/6 x 1/2 + 1/6 x 1 = 5/12 < 1/2: re-roll only the misses (1, 2).
    hits = 4/6 + 2/6 x 4/6 = 8/9; P(crit) = 1/6 + 2/6 x 1/6 = 8/36;
    wounds = 8/36 + (8/9 - 8/36) x 1/2 = 8/36 + 12/36 = 5/9."""
    a = attacker(tmp_path, weapon(A=12, skill=3, S=3, abilities=["lethal hits"]))
    out = shoot(a, target(tmp_path, T=3, Sv=7), "--reroll-hits", "all", dirs=[tmp_path])
    check_row(weapon_row(out), hits=12 * Fr(8, 9), wounds=12 * Fr(5, 9))
    assert any("1, 2" in c and "3" not in c.split("1, 2", 1)[1][:3] for c in out["choices"])


def test_reroll_all_wounds_fishes_for_devastating_sixes(tmp_path):
    """[DEVASTATING WOUNDS] D1, S4 v T4 (4+), target Sv 2+ (AP 0), W1, re-roll any Wound
    roll. A kept normal wound is worth P(failed save) = 1/6; a Critical Wound is a mortal
    wound (worth 1); a fresh roll is worth 2/6 x 1/6 + 1/6 x 1 = 8/36 > 1/6: re-roll 1-5.
    P(crit) = 1/6 + 5/6 x 1/6 = 11/36; P(normal wound) = 5/6 x 2/6 = 10/36.
    wounds = 21/36, mortal wounds = 11/36, failed saves = 10/36 x 1/6 per hit."""
    a = attacker(
        tmp_path, weapon(A=36, skill=None, S=4, abilities=["torrent", "devastating wounds"])
    )
    out = shoot(a, target(tmp_path, T=4, Sv=2), "--reroll-wounds", "all", dirs=[tmp_path])
    check_row(weapon_row(out), wounds=21, mortal_wounds=11, failed_saves=Fr(10, 6))
    assert any("1, 2, 3, 4, 5" in c for c in out["choices"]), out["choices"]


def test_reroll_hits_in_melee(tmp_path):
    """The same permissions work in the Fight phase: WS 3+, re-roll 1s: 4/6 + 1/6 x 4/6."""
    a = attacker(tmp_path, melee(A=12, skill=3))
    out = fight(a, target(tmp_path), "--reroll-hits", "ones", dirs=[tmp_path])
    assert hits(out) == approx(12 * (d6_at_least(3) + Fr(1, 6) * d6_at_least(3)))


# Damage re-rolls: DESIGN "damage re-rolls ... maximise the attack's expected effective damage:
# damage after saves and Feel No Pain, each failed save's damage capped at the wounds of the
# model it would be allocated to".


def test_reroll_damage_uncapped(tmp_path):
    """One attack, D6 damage into a W10 model: a fresh D6 is worth 3.5, so 1, 2, 3 are
    re-rolled. Damage per failed save: 3/6 x 5 (4-6 kept) + 3/6 x 3.5 = 17/4."""
    a = attacker(tmp_path, weapon(A=1, skill=None, S=8, D="D6", abilities=["torrent"]))
    out = shoot(a, target(tmp_path, models=1, T=4, Sv=7, W=10), "--reroll-damage", dirs=[tmp_path])
    p = Fr(5, 6)  # the wound roll (2+); [TORRENT] hits automatically; no save
    check_row(weapon_row(out), failed_saves=p, damage=p * Fr(17, 4))
    assert out["expected"]["wounds_lost"] == approx(p * Fr(17, 4))


def test_reroll_damage_capped_by_model_wounds(tmp_path):
    """One attack, D6 damage into a single W3 model: a fresh D6 is worth E[min(D6, 3)] =
    (1 + 2 + 3 x 4)/6 = 5/2, so only 1 and 2 are re-rolled (3 is kept: 3 > 5/2).
    Damage per failed save (before loss): 4/6 x 4.5 + 2/6 x 3.5 = 25/6;
    wounds lost per failed save: 4/6 x 3 + 2/6 x 5/2 = 17/6."""
    a = attacker(tmp_path, weapon(A=1, skill=None, S=8, D="D6", abilities=["torrent"]))
    out = shoot(a, target(tmp_path, models=1, T=4, Sv=7, W=3), "--reroll-damage", dirs=[tmp_path])
    p = Fr(5, 6)  # the wound roll (2+)
    check_row(weapon_row(out), failed_saves=p, damage=p * Fr(25, 6))
    assert out["expected"]["wounds_lost"] == approx(p * Fr(17, 6))


def test_reroll_damage_against_wounded_models(tmp_path):
    """Six attacks, D6 damage, into three W3 models: each Damage roll is re-rolled when a
    fresh D6 is worth more against the wounds left on the model it goes to (3 left: re-roll
    1-2, see above; 2 left: a fresh roll is worth (1 + 2 x 5)/6 = 11/6, re-roll a 1; 1 left:
    any roll destroys the model). Exact kill table from the independent allocation."""
    a = attacker(tmp_path, weapon(A=6, skill=None, S=8, D="D6", abilities=["torrent"]))
    out = shoot(a, target(tmp_path, models=3, T=4, Sv=7, W=3), "--reroll-damage", dirs=[tmp_path])
    p = Fr(5, 6)

    def per_attack(_model: int, left: int) -> dict:
        if left <= 0:  # unit destroyed: nothing more to lose
            return {0: Fr(1)}
        fresh = sum(Fr(min(d, left), 6) for d in range(1, 7))
        dist = {0: 1 - p}
        for d in range(1, 7):
            if min(d, left) < fresh:  # re-roll: a fresh D6
                for e in range(1, 7):
                    dist[e] = dist.get(e, 0) + p / 36
            else:
                dist[d] = dist.get(d, 0) + p / 6
        return dist

    joint = allocate(6, per_attack, [3, 3, 3])
    assert out["expected"]["wounds_lost"] == approx(mean(marginal(joint, 1)))
    models = marginal(joint, 0)
    assert out["models_destroyed_distribution"] == [approx(q) for q in dist_list(models, 4)]


def test_reroll_all_hits_fishes_for_sustained_sixes_at_bs2(tmp_path):
    """[SUSTAINED HITS 2] at BS 2+, re-roll any Hit roll: a kept hit is 1 hit, a 6 is 3 hits,
    a fresh roll is worth 4/6 x 1 + 1/6 x 3 = 7/6 > 1, so 1-5 are re-rolled.
    P(6) = 1/6 + 5/6 x 1/6 = 11/36; P(2-5) = 5/6 x 4/6 = 20/36;
    hits = 20/36 + 3 x 11/36 = 53/36 per attack (re-rolling only misses: 49/36)."""
    a = attacker(tmp_path, weapon(A=36, skill=2, S=4, abilities=["sustained hits 2"]))
    out = shoot(a, target(tmp_path, T=4, Sv=7), "--reroll-hits", "all", dirs=[tmp_path])
    assert hits(out) == approx(53)
    assert any("1, 2, 3, 4, 5" in c for c in out["choices"]), out["choices"]
