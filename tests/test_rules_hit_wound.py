"""Hit roll and Wound roll (10th edition core rules, seeds 000/001; Wound table: seeds README).

Every expected value is worked out by hand below from the rules sentence quoted."""

from __future__ import annotations

from fractions import Fraction as Fr

import pytest
from oracle import (
    approx,
    attacker,
    check_row,
    d6_at_least,
    fight,
    melee,
    shoot,
    target,
    weapon,
    weapon_row,
)

# ------------------------------------------------------------------------------------------
# Hit roll: "If the result of the Hit roll is greater than or equal to the attack's Ballistic
# Skill (BS) characteristic ... then that Hit roll is successful".


@pytest.mark.parametrize("bs", [2, 3, 4, 5, 6])
def test_hit_roll_succeeds_on_bs_or_more(tmp_path, bs):
    a = attacker(tmp_path, weapon(A=6, skill=bs))
    out = shoot(a, target(tmp_path), dirs=[tmp_path])
    # 6 attacks x P(D6 >= BS) = 7 - BS
    assert weapon_row(out)["hits"] == approx(6 * d6_at_least(bs))


@pytest.mark.parametrize("ws", [2, 4, 6])
def test_melee_hit_roll_uses_weapon_skill(tmp_path, ws):
    """ "... or its Weapon Skill (WS) characteristic (if the attack is being made with a melee
    weapon)"."""
    a = attacker(tmp_path, melee(A=6, skill=ws))
    out = fight(a, target(tmp_path), dirs=[tmp_path])
    assert weapon_row(out)["hits"] == approx(6 * d6_at_least(ws))


def test_unmodified_six_always_hits(tmp_path):
    """ "An unmodified Hit roll of 6 is called a Critical Hit and is always successful."
    BS 6+ with -1 to hit: a 6 becomes 5, but still hits: 1/6 per attack."""
    a = attacker(tmp_path, weapon(A=12, skill=6))
    out = shoot(a, target(tmp_path), "--hit-mod", "-1", dirs=[tmp_path])
    assert weapon_row(out)["hits"] == approx(12 * Fr(1, 6))


def test_unmodified_one_always_fails_to_hit(tmp_path):
    """ "An unmodified Hit roll of 1 always fails." BS 2+ with +1: a 1 becomes 2 but still
    fails: 5/6 per attack."""
    a = attacker(tmp_path, weapon(A=12, skill=2))
    out = shoot(a, target(tmp_path), "--hit-mod", "1", dirs=[tmp_path])
    assert weapon_row(out)["hits"] == approx(12 * Fr(5, 6))


@pytest.mark.parametrize(("mod", "need"), [(2, 3), (3, 3), (1, 3), (-1, 5), (-2, 5), (-4, 5)])
def test_hit_modifier_capped_at_one(tmp_path, mod, need):
    """ "A Hit roll can never be modified by more than -1 or +1." BS 4+: +2 acts as +1
    (3+), -2 acts as -1 (5+)."""
    a = attacker(tmp_path, weapon(A=6, skill=4))
    out = shoot(a, target(tmp_path), "--hit-mod", str(mod), dirs=[tmp_path])
    assert weapon_row(out)["hits"] == approx(6 * d6_at_least(need))


def test_critical_hit_threshold_makes_hits_below_bs(tmp_path):
    """A Critical Hit "is always successful": with Critical Hits on 5+ (--crit-hit 5), BS 6+
    hits on 5 and 6: 2/6."""
    a = attacker(tmp_path, weapon(A=6, skill=6))
    out = shoot(a, target(tmp_path), "--crit-hit", "5", dirs=[tmp_path])
    assert weapon_row(out)["hits"] == approx(6 * Fr(2, 6))


def test_heavy_adds_one_when_stationary(tmp_path):
    """[HEAVY]: "if the attacking model's unit Remained Stationary this turn, add 1 to that
    attack's Hit roll." BS 5+: 4+ when stationary, 5+ otherwise."""
    a = attacker(tmp_path, weapon(A=6, skill=5, abilities=["heavy"]))
    t = target(tmp_path)
    moved = shoot(a, t, dirs=[tmp_path])
    still = shoot(a, t, "--stationary", dirs=[tmp_path])
    assert weapon_row(moved)["hits"] == approx(6 * Fr(2, 6))
    assert weapon_row(still)["hits"] == approx(6 * Fr(3, 6))


def test_heavy_stationary_and_minus_one_cancel(tmp_path):
    """Modifiers are summed before the cap: Heavy (+1) and -1 to hit give 0: BS 5+ stays 5+."""
    a = attacker(tmp_path, weapon(A=6, skill=5, abilities=["heavy"]))
    out = shoot(a, target(tmp_path), "--stationary", "--hit-mod", "-1", dirs=[tmp_path])
    assert weapon_row(out)["hits"] == approx(6 * Fr(2, 6))


def test_heavy_stationary_plus_one_more_is_still_plus_one(tmp_path):
    """Heavy (+1) and +1 to hit sum to +2, capped at +1: BS 5+ becomes 4+, not 3+."""
    a = attacker(tmp_path, weapon(A=6, skill=5, abilities=["heavy"]))
    out = shoot(a, target(tmp_path), "--stationary", "--hit-mod", "1", dirs=[tmp_path])
    assert weapon_row(out)["hits"] == approx(6 * Fr(3, 6))


# Snap shooting (Fire Overwatch): "each time a model in your unit makes a ranged attack, an
# unmodified Hit roll of 6 is required to score a hit, irrespective of the attacking weapon's
# Ballistic Skill or any modifiers."


@pytest.mark.parametrize(
    "flags",
    [
        (),
        ("--hit-mod", "1"),
        ("--crit-hit", "4"),
        ("--stationary",),
        ("--reroll-hits", "ones"),
    ],
)
def test_snap_shooting_hits_only_on_unmodified_six(tmp_path, flags):
    """BS 2+ [heavy]: under snap shooting only the 6s hit, whatever BS, modifiers or Critical
    Hit threshold: 12 x 1/6 = 2 hits. A re-roll of 1s still only hits on a 6:
    12 x (1/6 + 1/6 x 1/6) = 7/3."""
    a = attacker(tmp_path, weapon(A=12, skill=2, abilities=["heavy"]))
    out = shoot(a, target(tmp_path), "--overwatch", *flags, dirs=[tmp_path])
    expected = 12 * (Fr(1, 6) + Fr(1, 36)) if "--reroll-hits" in flags else Fr(2)
    assert weapon_row(out)["hits"] == approx(expected)


def test_fire_overwatch_effect_is_snap_shooting(tmp_path):
    """The FIRE OVERWATCH stratagem (--effect fire-overwatch) is the same snap shooting."""
    a = attacker(tmp_path, weapon(A=12, skill=3))
    out = shoot(a, target(tmp_path), "--effect", "fire-overwatch", dirs=[tmp_path])
    assert "fire-overwatch" in out["effects"]
    assert weapon_row(out)["hits"] == approx(2)


# ------------------------------------------------------------------------------------------
# Wound roll (seeds README): "S at least twice T: 2+; S greater than T: 3+; S equal to T: 4+;
# S less than T: 5+; S half of T or less: 6+."


@pytest.mark.parametrize(
    ("s", "t", "need"),
    [
        (8, 4, 2),  # S = 2T
        (9, 4, 2),  # S > 2T
        (12, 6, 2),
        (7, 4, 3),  # T < S < 2T
        (5, 4, 3),
        (11, 6, 3),
        (4, 4, 4),  # S = T
        (10, 10, 4),
        (3, 4, 5),  # T/2 < S < T
        (3, 5, 5),  # 3 > 2.5
        (9, 10, 5),
        (2, 4, 6),  # S = T/2
        (2, 5, 6),  # 2 <= 2.5
        (3, 6, 6),
        (1, 8, 6),
    ],
)
def test_wound_table(tmp_path, s, t, need):
    """[TORRENT] attacks hit automatically, so wounds = attacks x P(D6 >= needed)."""
    a = attacker(tmp_path, weapon(A=6, skill=None, S=s, abilities=["torrent"]))
    out = shoot(a, target(tmp_path, T=t), dirs=[tmp_path])
    check_row(weapon_row(out), hits=6, wounds=6 * d6_at_least(need))


@pytest.mark.parametrize(("mod", "need"), [(1, 3), (2, 3), (-1, 5), (-3, 5)])
def test_wound_modifier_capped_at_one(tmp_path, mod, need):
    """ "A Wound roll can never be modified by more than -1 or +1." S = T (4+)."""
    a = attacker(tmp_path, weapon(A=6, skill=None, S=4, abilities=["torrent"]))
    out = shoot(a, target(tmp_path, T=4), "--wound-mod", str(mod), dirs=[tmp_path])
    assert weapon_row(out)["wounds"] == approx(6 * d6_at_least(need))


def test_unmodified_one_always_fails_to_wound(tmp_path):
    """ "An unmodified Wound roll of 1 always fails." S8 v T4 (2+) with +1: still 5/6."""
    a = attacker(tmp_path, weapon(A=6, skill=None, S=8, abilities=["torrent"]))
    out = shoot(a, target(tmp_path, T=4), "--wound-mod", "1", dirs=[tmp_path])
    assert weapon_row(out)["wounds"] == approx(5)


def test_unmodified_six_is_a_critical_wound_always_successful(tmp_path):
    """ "An unmodified Wound roll of 6 is called a Critical Wound and is always successful."
    S2 v T4 (6+) with -1 to wound: the 6 still wounds, and it is a Critical Wound (with
    [DEVASTATING WOUNDS] it inflicts mortal wounds = D, here 3)."""
    a = attacker(
        tmp_path, weapon(A=12, skill=None, S=2, D=3, abilities=["torrent", "devastating wounds"])
    )
    out = shoot(a, target(tmp_path, T=4, W=3), "--wound-mod", "-1", dirs=[tmp_path])
    check_row(weapon_row(out), wounds=2, failed_saves=0, mortal_wounds=6)


def test_critical_wound_threshold(tmp_path):
    """--crit-wound 5: an unmodified 5+ is a Critical Wound (always successful): S2 v T4
    (6+) wounds on 5 and 6; with [DEVASTATING WOUNDS] D1 both are mortal wounds."""
    a = attacker(
        tmp_path, weapon(A=12, skill=None, S=2, abilities=["torrent", "devastating wounds"])
    )
    out = shoot(a, target(tmp_path, T=4), "--crit-wound", "5", dirs=[tmp_path])
    check_row(weapon_row(out), wounds=4, mortal_wounds=4, failed_saves=0)


def test_snap_shooting_ignores_conversion_critical_hits(tmp_path):
    """[CONVERSION] beyond 12" makes an unmodified 4+ a Critical Hit, but snap shooting still
    needs "an unmodified Hit roll of 6 ... irrespective of ... any modifiers": 12 x 1/6."""
    a = attacker(tmp_path, weapon(A=12, skill=3, abilities=["conversion"]))
    out = shoot(a, target(tmp_path), "--overwatch", "--beyond-12", dirs=[tmp_path])
    assert weapon_row(out)["hits"] == approx(2)


def test_snap_shooting_reroll_failed_hits(tmp_path):
    """Under snap shooting every non-6 fails; re-rolling failed Hit rolls re-rolls them once:
    1/6 + 5/6 x 1/6 = 11/36."""
    a = attacker(tmp_path, weapon(A=12, skill=3))
    out = shoot(a, target(tmp_path), "--overwatch", "--reroll-hits", "fails", dirs=[tmp_path])
    assert weapon_row(out)["hits"] == approx(12 * Fr(11, 36))


def test_heavy_and_indirect_cancel(tmp_path):
    """[HEAVY] (+1, stationary) and [INDIRECT FIRE] (-1, target not visible) sum to 0:
    BS 4+ stays 4+."""
    a = attacker(tmp_path, weapon(A=12, skill=4, abilities=["heavy", "indirect fire"]))
    out = shoot(a, target(tmp_path), "--stationary", "--indirect", dirs=[tmp_path])
    assert weapon_row(out)["hits"] == approx(6)


def test_anti_and_critical_wound_threshold_take_the_better(tmp_path):
    """[ANTI-INFANTRY 4+] and Critical Wounds on 5+ (--crit-wound 5): an unmodified 4+ is a
    Critical Wound either way; with [DEVASTATING WOUNDS] D1 S2 v T4 (6+): 12 x 3/6 mortal
    wounds."""
    a = attacker(
        tmp_path,
        weapon(
            A=12, skill=None, S=2, abilities=["torrent", "anti-infantry 4+", "devastating wounds"]
        ),
    )
    out = shoot(a, target(tmp_path, T=4), "--crit-wound", "5", dirs=[tmp_path])
    check_row(weapon_row(out), wounds=6, mortal_wounds=6, failed_saves=0)


def test_lethal_hits_wound_automatically_whatever_the_wound_modifier(tmp_path):
    """ "a Critical Hit automatically wounds the target": no Wound roll, so -1 to wound does
    not touch it. BS 4+ [lethal hits], S4 v T4 with -1 (5+): 12 x (1/6 + 2/6 x 2/6) = 10/3."""
    a = attacker(tmp_path, weapon(A=12, skill=4, S=4, abilities=["lethal hits"]))
    out = shoot(a, target(tmp_path, T=4), "--wound-mod", "-1", dirs=[tmp_path])
    assert weapon_row(out)["wounds"] == approx(Fr(10, 3))


def test_sustained_hits_with_critical_hits_on_5_plus(tmp_path):
    """[SUSTAINED HITS 1] with Critical Hits on 5+ (--crit-hit 5), BS 4+: a 4 is one hit,
    5-6 two each: 12 x (1/6 + 2 x 2/6) = 10."""
    a = attacker(tmp_path, weapon(A=12, skill=4, abilities=["sustained hits 1"]))
    out = shoot(a, target(tmp_path), "--crit-hit", "5", dirs=[tmp_path])
    assert weapon_row(out)["hits"] == approx(10)
