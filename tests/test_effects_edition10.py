"""The 10th-edition army rules of effects/edition-10 (issue 18, item 3), applied through the
command line to small hand-made units, each against values worked out by hand from the rule
as the export prints it (exact fractions).

Units are written on the fly (tests/oracle.py) with the faction keywords a rule asks for, so a
record is found by its faction (an ADEPTUS ASTARTES unit of a test datasheet is a Space Marines
unit). Without a save (Sv 7+) a failed save is every wound; each expectation says its rolls.
"""

from __future__ import annotations

from fractions import Fraction as Fr

from oracle import attacker, check_row, fight, melee, shoot, target, weapon, weapon_row

ED = ("--edition", "10")


def _gunners(tmp_path, faction: str, *weapons: dict, models: int = 6, **kw) -> str:
    return attacker(tmp_path, *weapons, models=models, faction_keywords=(faction,), **kw)


def test_oath_of_moment_rerolls_hits_and_the_codex_option_adds_one_to_wound(tmp_path):
    """6 shots BS4+ S4 into T4: hits 6 x 1/2 = 3, wounds 3 x 1/2 = 3/2. Re-rolling the Hit
    roll: P(hit) = 1/2 + 1/2 x 1/2 = 3/4, hits 9/2, wounds 9/4. With codex-army, +1 to
    wound (3+): wounds 9/2 x 2/3 = 3."""
    a = _gunners(tmp_path, "ADEPTUS ASTARTES", weapon(A=1, skill=4, S=4))
    t = target(tmp_path, T=4, Sv=7)
    plain = shoot(a, t, *ED, dirs=[tmp_path])
    oath = shoot(a, t, *ED, "--effect", "oath-of-moment", dirs=[tmp_path])
    codex = shoot(a, t, *ED, "--effect", "oath-of-moment:codex-army", dirs=[tmp_path])
    check_row(weapon_row(plain), attacks=6, hits=3, wounds=Fr(3, 2))
    check_row(weapon_row(oath), attacks=6, hits=Fr(9, 2), wounds=Fr(9, 4))
    check_row(weapon_row(codex), attacks=6, hits=Fr(9, 2), wounds=3)


def test_oath_of_moment_gives_no_wound_bonus_to_a_chapter_unit(tmp_path):
    """A BLOOD ANGELS unit in the army: the +1 to wound's condition fails (wounds 9/4 as
    without the option)."""
    a = _gunners(tmp_path, "ADEPTUS ASTARTES", weapon(A=1, skill=4, S=4), keywords=["BLOOD ANGELS"])
    t = target(tmp_path, T=4, Sv=7)
    codex = shoot(a, t, *ED, "--effect", "oath-of-moment:codex-army", dirs=[tmp_path])
    check_row(weapon_row(codex), hits=Fr(9, 2), wounds=Fr(9, 4))


def test_eye_of_the_ancestors_one_token_then_two(tmp_path):
    """6 shots BS4+ S4 into T4. One token: +1 to hit (3+): hits 4, wounds 2. Two tokens: +1
    to wound as well (3+): wounds 4 x 2/3 = 8/3."""
    a = _gunners(tmp_path, "LEAGUES OF VOTANN", weapon(A=1, skill=4, S=4))
    t = target(tmp_path, T=4, Sv=7)
    one = shoot(a, t, *ED, "--effect", "eye-of-the-ancestors", dirs=[tmp_path])
    two = shoot(a, t, *ED, "--effect", "eye-of-the-ancestors:two-tokens", dirs=[tmp_path])
    check_row(weapon_row(one), hits=4, wounds=2)
    check_row(weapon_row(two), hits=4, wounds=Fr(8, 3))


def test_protector_imperative_is_minus_one_to_hit_in_melee_against_battleline(tmp_path):
    """6 melee attacks WS3+ (hits 4) against an ADEPTUS MECHANICUS unit: BATTLELINE, -1 to
    hit (4+): hits 3; not BATTLELINE, only with near-battleline: hits 3, else 4."""
    a = attacker(tmp_path, melee(A=1, skill=3, S=4), models=6)
    line = target(tmp_path, stem="line", T=4, Sv=7, keywords=("INFANTRY", "BATTLELINE"),
                  faction_keywords=("ADEPTUS MECHANICUS",))  # fmt: skip
    other = target(tmp_path, stem="other", T=4, Sv=7, faction_keywords=("ADEPTUS MECHANICUS",))
    fx = ("--effect", "target:protector-imperative")
    near = ("--effect", "target:protector-imperative:near-battleline")
    check_row(weapon_row(fight(a, line, *ED, *fx, dirs=[tmp_path])), hits=3)
    check_row(weapon_row(fight(a, other, *ED, *fx, dirs=[tmp_path])), hits=4)
    check_row(weapon_row(fight(a, other, *ED, *near, dirs=[tmp_path])), hits=3)


def test_first_rank_fire_adds_an_attack_to_rapid_fire_weapons_only(tmp_path):
    """5 Guardsmen, each a [RAPID FIRE 1] lasgun A1 and a pistol A1, BS4+ (beyond half
    range: A1): the Order makes the lasgun A2, 10 attacks, 5 hits; the pistol keeps 5."""
    a = _gunners(
        tmp_path,
        "ASTRA MILITARUM",
        weapon("Lasgun", A=1, skill=4, abilities=["rapid fire 1"]),
        weapon("Laspistol", A=1, skill=4),
        models=5,
    )
    t = target(tmp_path, T=4, Sv=7)
    out = shoot(a, t, *ED, "--effect", "first-rank-fire-second-rank-fire", dirs=[tmp_path])
    check_row(weapon_row(out, "Lasgun"), attacks=10, hits=5)
    check_row(weapon_row(out, "Laspistol"), attacks=5, hits=Fr(5, 2))


def test_twist_of_fate_improves_ap_by_one_or_two(tmp_path):
    """6 shots BS2+ (hits 5) S8 into T4 (2+: wounds 25/6) Sv3+ AP0. AP-1: save 4+, failed
    25/12; with test-12, AP-2: save 5+, failed 25/6 x 2/3 = 25/9."""
    a = _gunners(tmp_path, "THOUSAND SONS", weapon(A=1, skill=2, S=8))
    t = target(tmp_path, T=4, Sv=3)
    one = shoot(a, t, *ED, "--effect", "twist-of-fate", dirs=[tmp_path])
    two = shoot(a, t, *ED, "--effect", "twist-of-fate:test-12", dirs=[tmp_path])
    check_row(weapon_row(one), hits=5, wounds=Fr(25, 6), failed_saves=Fr(25, 12))
    check_row(weapon_row(two), hits=5, wounds=Fr(25, 6), failed_saves=Fr(25, 9))


def test_skullsquirm_blight_lowers_the_afflicted_targets_toughness(tmp_path):
    """6 shots BS3+ (hits 4) S4 into T5: wounds on 5+, 4/3; the Afflicted target is T4:
    wounds on 4+, 2."""
    a = _gunners(tmp_path, "DEATH GUARD", weapon(A=1, skill=3, S=4))
    t = target(tmp_path, T=5, Sv=7)
    plain = shoot(a, t, *ED, dirs=[tmp_path])
    blight = shoot(a, t, *ED, "--effect", "attacker:skullsquirm-blight", dirs=[tmp_path])
    check_row(weapon_row(plain), hits=4, wounds=Fr(4, 3))
    check_row(weapon_row(blight), hits=4, wounds=2)


def test_power_from_pain_rerolls_hits_and_improves_melee_ap(tmp_path):
    """6 melee attacks WS3+ S4 AP0 into T4 Sv4+. Re-rolling the Hit roll: P(hit) = 2/3 +
    1/3 x 2/3 = 8/9, hits 16/3, wounds 8/3; AP-1: save 5+, failed 8/3 x 2/3 = 16/9."""
    a = _gunners(tmp_path, "DRUKHARI", melee(A=1, skill=3, S=4))
    t = target(tmp_path, T=4, Sv=4)
    out = fight(a, t, *ED, "--effect", "power-from-pain", dirs=[tmp_path])
    check_row(weapon_row(out), hits=Fr(16, 3), wounds=Fr(8, 3), failed_saves=Fr(16, 9))


def test_dacatarai_stance_sustained_hits_one(tmp_path):
    """6 melee attacks WS2+: hits 5, of them 1 a Critical Hit (a 6) that adds 1 hit: 6."""
    a = _gunners(tmp_path, "ADEPTUS CUSTODES", melee(A=1, skill=2, S=4))
    t = target(tmp_path, T=4, Sv=7)
    out = fight(a, t, *ED, "--effect", "dacatarai-stance", dirs=[tmp_path])
    check_row(weapon_row(out), hits=6)
