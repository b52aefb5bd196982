"""Named effects (--effect NAME): army rules, detachment rules, stratagems and unit rules from
the seeds, each against a value derived by hand from its text.

Test units (tests/data/oracle): Oracle Ork Mob (ORKS, BOYZ, GRENADES; 5 or 10 models, a
choppa A2 WS3+ S4 AP0 D1 and a shoota A2 BS4+ S4 AP0 D1), Oracle Berzerkers (WORLD EATERS,
5 models, a chainblade A2 WS3+ S4 AP0 D1), Oracle Stampeder (LORD INVOCATUS with Bloody
Stampede and a feeble hoof), Oracle Khorne Target (WORLD EATERS, BLOOD LEGIONS, T4 Sv6+ W3),
Oracle Tank (VEHICLE)."""

from __future__ import annotations

from fractions import Fraction as Fr

import icepool
import pytest
from oracle import (
    allocate,
    approx,
    as_dist,
    attacker,
    check_row,
    dist_list,
    fight,
    marginal,
    mean,
    melee,
    refused,
    shoot,
    target,
    weapon,
    weapon_row,
)

MOB = "oracle-ork-mob"
ZERKERS = "oracle-berzerkers"

# ------------------------------------------------------------------------------------------
# Orks


def test_waaagh_melee_strength_and_attacks(tmp_path):
    """Waaagh!: "Add 1 to the Strength and Attacks characteristics of melee weapons".
    5 Orks, choppa A2 -> A3, S4 -> S5, into T5: without, 10 attacks, 20/3 hits, 5+ to
    wound: 20/9; with, 15 attacks, 10 hits, 4+: 5 wounds."""
    t = target(tmp_path, T=5, Sv=7)
    plain = fight(MOB, t, dirs=[tmp_path])
    waaagh = fight(MOB, t, "--effect", "waaagh", dirs=[tmp_path])
    check_row(weapon_row(plain), attacks=10, hits=Fr(20, 3), wounds=Fr(20, 9))
    check_row(weapon_row(waaagh), attacks=15, hits=10, wounds=5)
    assert "waaagh" in waaagh["effects"]


def test_waaagh_does_not_change_ranged_weapons(tmp_path):
    """Only melee weapons: the shoota keeps A2 S4 (10 attacks, BS 4+: 5 hits; 4+ v T4)."""
    out = shoot(MOB, target(tmp_path, T=4, Sv=7), "--effect", "waaagh", dirs=[tmp_path])
    check_row(weapon_row(out), attacks=10, hits=5, wounds=Fr(5, 2))


def test_waaagh_gives_ork_target_a_5_plus_invulnerable_save(tmp_path):
    """ "Models from your army with this ability have a 5+ invulnerable save": Boyz (Sv 5+)
    shot at AP -3 (no armour save left) save on 5+: 12 torrent S10 attacks, 10 wounds,
    10 x 4/6 failed saves."""
    a = attacker(tmp_path, weapon(A=12, skill=None, S=10, AP=-3, abilities=["torrent"]))
    out = shoot(a, "boyz", "--effect", "waaagh", dirs=[tmp_path])
    check_row(weapon_row(out), wounds=10, failed_saves=Fr(20, 3))


def test_waaagh_for_both_ork_armies_in_melee(tmp_path):
    """An Ork unit fighting Boyz under the Waaagh!: its melee weapon gets +1 S and +1 A and the
    Boyz have a 5+ invulnerable save. Ork with a klaw A2 WS3+ S4 AP-3 D1 (A3 S5): 3 attacks,
    2 hits, S5 v T5 4+: 1 wound; Sv 5+ at AP -3 is gone, the invulnerable 5+ fails 4/6."""
    ork = attacker(
        tmp_path, melee("Klaw", A=2, skill=3, S=4, AP=-3), faction_keywords=["ORKS"], stem="nob"
    )
    out = fight(ork, "boyz", "--effect", "waaagh", dirs=[tmp_path])
    check_row(weapon_row(out), attacks=3, hits=2, wounds=1, failed_saves=Fr(2, 3))


def test_get_stuck_in_gives_sustained_hits(tmp_path):
    """Get Stuck In: "Melee weapons equipped by models from your army have the [SUSTAINED
    HITS 1] ability." 10 attacks at WS 3+: 10 x (3/6 + 2 x 1/6) = 25/3 hits."""
    out = fight(MOB, target(tmp_path), "--effect", "get-stuck-in", dirs=[tmp_path])
    assert weapon_row(out)["hits"] == approx(Fr(25, 3))


def test_unbridled_carnage_critical_hits_on_5_plus(tmp_path):
    """Unbridled Carnage: "an unmodified hit roll of 5+ scores a Critical Hit". With Get
    Stuck In's [SUSTAINED HITS 1]: 3-4 one hit, 5-6 two hits: 10 x (2/6 + 2 x 2/6) = 10."""
    out = fight(
        MOB,
        target(tmp_path),
        "--effect",
        "get-stuck-in",
        "--effect",
        "unbridled-carnage",
        dirs=[tmp_path],
    )
    assert weapon_row(out)["hits"] == approx(10)


@pytest.mark.parametrize("phase", ["shoot", "fight"])
def test_ard_as_nails_minus_one_to_wound(tmp_path, phase):
    """'Ard as Nails: "each time an attack targets your unit, subtract 1 from the Wound roll."
    S4 into Boyz (T5): 5+ becomes 6+: 12 torrent hits -> 2 wounds (melee: 10 hits at WS 2+
    -> 10/6)."""
    if phase == "shoot":
        a = attacker(tmp_path, weapon(A=12, skill=None, S=4, abilities=["torrent"]))
        out = shoot(a, "boyz", "--effect", "ard-as-nails", dirs=[tmp_path])
        assert weapon_row(out)["wounds"] == approx(2)
    else:
        a = attacker(tmp_path, melee(A=12, skill=2, S=4))
        out = fight(a, "boyz", "--effect", "ard-as-nails", dirs=[tmp_path])
        assert weapon_row(out)["wounds"] == approx(Fr(10, 6))


def test_ard_as_nails_and_lance_cancel(tmp_path):
    """Lance (+1 after charging) and 'Ard as Nails (-1) sum to 0: S4 v T5 stays 5+:
    10 hits x 2/6."""
    a = attacker(tmp_path, melee(A=12, skill=2, S=4, abilities=["lance"]))
    out = fight(a, "boyz", "--charged", "--effect", "ard-as-nails", dirs=[tmp_path])
    assert weapon_row(out)["wounds"] == approx(Fr(10, 3))


@pytest.mark.parametrize(("s", "wounds"), [(6, 6), (4, 4), (5, 6)])
def test_belligerent_boarders_only_when_strength_exceeds_toughness(tmp_path, s, wounds):
    """Belligerent Boarders: "if the Strength characteristic of that attack is greater than
    the Toughness characteristic of that unit, subtract 1 from the Wound roll." Into Boyz
    (T5), 12 torrent hits: S6 3+ -> 4+ (6); S4 5+ unchanged (4); S5 4+ unchanged (6)."""
    a = attacker(tmp_path, weapon(A=12, skill=None, S=s, abilities=["torrent"]))
    out = shoot(a, "boyz", "--effect", "belligerent-boarders", dirs=[tmp_path])
    assert weapon_row(out)["wounds"] == approx(wounds)


def test_competitive_streak_rerolls_wound_ones_under_ten_models(tmp_path):
    """Competitive Streak: "re-roll a Wound roll of 1. If your unit contains 10 or more
    models, re-roll the Wound roll instead." 5 Orks: 20/3 hits, S4 v T4:
    1/2 + 1/6 x 1/2 = 7/12 -> 35/9 wounds."""
    out = fight(MOB, target(tmp_path, T=4), "--effect", "competitive-streak", dirs=[tmp_path])
    assert weapon_row(out)["wounds"] == approx(Fr(35, 9))


def test_competitive_streak_rerolls_the_wound_roll_at_ten_models(tmp_path):
    """10 Orks: 40/3 hits; re-roll the Wound roll (the failures): 3/4 -> 10 wounds."""
    out = fight(
        MOB,
        target(tmp_path, T=4),
        "--models",
        "10",
        "--effect",
        "competitive-streak",
        dirs=[tmp_path],
    )
    assert weapon_row(out)["wounds"] == approx(10)


def test_fight_proppa_picks_lethal_hits_when_wounding_is_hard(tmp_path):
    """Fight Proppa: "Select the [SUSTAINED HITS 1] or [LETHAL HITS] ability." S4 into T8
    (6+): sustained gives 25/3 hits x 1/6 = 25/18 wounds; lethal gives 10/6 automatic +
    5 x 1/6 = 5/2 wounds: lethal is chosen (and said so)."""
    out = fight(MOB, target(tmp_path, models=20, T=8), "--effect", "fight-proppa", dirs=[tmp_path])
    check_row(weapon_row(out), hits=Fr(20, 3), wounds=Fr(5, 2))
    assert any("lethal" in c.lower() for c in out["choices"]), out["choices"]


def test_fight_proppa_picks_sustained_hits_when_wounding_is_easy(tmp_path):
    """S4 into T2 (2+): sustained 25/3 hits x 5/6 = 125/18 wounds; lethal 10/6 + 5 x 5/6 =
    35/6 wounds: sustained is chosen."""
    out = fight(MOB, target(tmp_path, models=20, T=2), "--effect", "fight-proppa", dirs=[tmp_path])
    check_row(weapon_row(out), hits=Fr(25, 3), wounds=Fr(125, 18))
    assert any("sustained" in c.lower() for c in out["choices"]), out["choices"]


def test_grenade_mortal_wounds_spill_before_shooting(tmp_path):
    """GRENADE: "Roll six D6: for each 4+, that enemy unit suffers 1 mortal wound" - mortal
    wounds that spill from model to model ("Excess damage from mortal wounds is not lost"),
    thrown before the unit shoots (a unit that has shot cannot use it). Then 5 Orks shoot
    (10 shoota attacks, 4+ to hit, 4+ to wound, no save: 1/4 each, D1). Target: 4 models W2."""
    out = shoot(
        MOB, target(tmp_path, models=4, T=4, Sv=7, W=2), "--effect", "grenade", dirs=[tmp_path]
    )
    grenade = as_dist(6 @ icepool.Die({0: 1, 1: 1}))  # six D6, each 4+ (1/2)
    joint = allocate(10, {0: Fr(3, 4), 1: Fr(1, 4)}, [2] * 4, mortal=grenade, mortal_first=True)
    assert out["expected"]["mortal_wounds"] == approx(3)
    assert out["expected"]["damage"] == approx(3 + Fr(10, 4))
    assert out["expected"]["wounds_lost"] == approx(mean(marginal(joint, 1)))
    assert out["models_destroyed_distribution"] == [
        approx(q) for q in dist_list(marginal(joint, 0), 5)
    ]


def mob_mentality_failed_saves(wounds: list[int], attacks: int = 12) -> Fr:
    """Expected failed saves of D1 attacks (5/6 wound each) into Boyz with Mob Mentality:
    each attack's save is 5+ if the unit still contains 10 or more models, otherwise 6+
    (also once the unit is destroyed: 0 models). State: wounds lost so far."""

    def destroyed(lost: int) -> int:
        return sum(1 for k in range(len(wounds)) if lost >= sum(wounds[: k + 1]))

    dist = {0: Fr(1)}
    failed = Fr(0)
    for _ in range(attacks):
        nxt: dict[int, Fr] = {}
        for lost, p in dist.items():
            q = Fr(5, 6) * (Fr(4, 6) if len(wounds) - destroyed(lost) >= 10 else Fr(5, 6))
            failed += p * q
            after = min(lost + 1, sum(wounds))
            nxt[after] = nxt.get(after, Fr(0)) + p * q
            nxt[lost] = nxt.get(lost, Fr(0)) + p * (1 - q)
        dist = nxt
    return failed


def test_mob_mentality_6_plus_below_ten_models(tmp_path):
    """Mob Mentality: "Each time an attack targets a BOYZ unit from your army, models in that
    unit have a 6+ invulnerable save against that attack." Boyz reduced to 9 models, at AP -3
    (no armour save): 12 torrent S10 attacks, 10 wounds, every save on 6+: 10 x 5/6 failed
    saves (JSON: failed_saves and damage count every failed save, also after the unit is
    destroyed: "it can exceed the unit's wounds"; compare --invuln 6, which gives 10 x 5/6)."""
    nine = shoot(
        "oracle-flamer",
        "boyz",
        "--effect",
        "mob-mentality",
        "--target-models",
        "9",
        dirs=[tmp_path],
    )
    check_row(weapon_row(nine), failed_saves=10 * Fr(5, 6), damage=10 * Fr(5, 6))


def test_mob_mentality_6_plus_below_ten_models_wounds_lost(tmp_path):
    """The same 9-model Boyz: wounds lost from the oracle (every attack 5/6 x 5/6, D1)."""
    nine = shoot(
        "oracle-flamer",
        "boyz",
        "--effect",
        "mob-mentality",
        "--target-models",
        "9",
        dirs=[tmp_path],
    )
    p = Fr(25, 36)
    joint = allocate(12, {0: 1 - p, 1: p}, [1] * 8 + [2])
    assert nine["expected"]["wounds_lost"] == approx(mean(marginal(joint, 1)))
    assert mob_mentality_failed_saves([1] * 8 + [2]) == 10 * Fr(5, 6)  # the helper, by hand


def test_mob_mentality_5_plus_while_ten_or_more_models(tmp_path):
    """ "Each time an attack targets a BOYZ unit ... that contains 10 or more models, models in
    that unit have a 5+ invulnerable save against that attack." The condition is checked for
    each attack: the 10-model Boyz save on 5+ until the first Boy is destroyed, then on 6+.
    Per attack (S10 v T5 2+, AP -3): a failed save with 5/6 x 4/6 while nobody is destroyed,
    5/6 x 5/6 afterwards. Exact table from the oracle."""
    out = shoot("oracle-flamer", "boyz", "--effect", "mob-mentality")

    def per_attack(i: int, _left: int) -> dict:
        p = Fr(5, 6) * (Fr(4, 6) if i == 0 else Fr(5, 6))
        return {0: 1 - p, 1: p}

    joint = allocate(12, per_attack, [1] * 9 + [2])
    assert out["expected"]["wounds_lost"] == approx(mean(marginal(joint, 1)))
    assert out["models_destroyed_distribution"] == [
        approx(q) for q in dist_list(marginal(joint, 0), 11)
    ]


def test_mob_mentality_failed_saves_at_ten_models(tmp_path):
    """Failed saves of the same attack: 5+ while 10 models remain, 6+ after (and after the
    unit is destroyed): the helper's Markov chain over wounds lost."""
    out = shoot("oracle-flamer", "boyz", "--effect", "mob-mentality")
    assert weapon_row(out)["failed_saves"] == approx(mob_mentality_failed_saves([1] * 9 + [2]))


def test_dats_our_loot_default_and_on_objective():
    """Dat's Our Loot!: "re-roll a Hit roll of 1. If that attack targets a unit that is within
    range of an objective marker, you can re-roll the Hit roll instead." Applied by default.
    Deffguns (BS 6+, 8 attacks): 1s re-rolled 8 x (1/6 + 1/6 x 1/6) = 14/9; on an objective,
    every miss re-rolled: 8 x (1/6 + 5/6 x 1/6) = 22/9."""
    base = shoot("lootas", "boyz")
    obj = shoot("lootas", "boyz", "--objective")
    assert "dats-our-loot" in base["effects"]
    assert weapon_row(base, "Deffgun")["hits"] == approx(Fr(14, 9))
    assert weapon_row(obj, "Deffgun")["hits"] == approx(Fr(22, 9))


# ------------------------------------------------------------------------------------------
# World Eaters


def test_hack_and_slash_improves_melee_ap(tmp_path):
    """Hack and Slash: "improve the Armour Penetration characteristic of melee weapons ... by
    1." 5 Berzerkers after a charge: 20/3 hits, 4+ v T4: 10/3 wounds; Sv 4+ at AP -1 fails
    4/6: 20/9 (AP 0: 10/6)."""
    t = target(tmp_path, T=4, Sv=4)
    plain = fight(ZERKERS, t, "--charged", dirs=[tmp_path])
    hack = fight(ZERKERS, t, "--charged", "--effect", "hack-and-slash", dirs=[tmp_path])
    assert weapon_row(plain)["failed_saves"] == approx(Fr(10, 6))
    assert weapon_row(hack)["failed_saves"] == approx(Fr(20, 9))


def test_relentless_rage_after_charging(tmp_path):
    """Relentless Rage: "add 1 to the Attacks characteristic and add 2 to the Strength
    characteristic of melee weapons". A2 S4 -> A3 S6: 15 attacks, 10 hits, S6 v T4 3+:
    20/3 wounds."""
    out = fight(
        ZERKERS, target(tmp_path, T=4), "--charged", "--effect", "relentless-rage", dirs=[tmp_path]
    )
    check_row(weapon_row(out), attacks=15, hits=10, wounds=Fr(20, 3))


def test_martial_excellence_sustained_hits(tmp_path):
    """Martial Excellence: [SUSTAINED HITS 1]: 10 x (3/6 + 2/6) = 25/3 hits."""
    out = fight(ZERKERS, target(tmp_path), "--effect", "martial-excellence", dirs=[tmp_path])
    assert weapon_row(out)["hits"] == approx(Fr(25, 3))


def test_warp_blades_lethal_hits(tmp_path):
    """Warp Blades: [LETHAL HITS]. S4 into T8 (6+): 10/6 automatic + 10 x 3/6 x 1/6 = 5/2
    wounds (without: 20/3 x 1/6 = 10/9)."""
    out = fight(ZERKERS, target(tmp_path, T=8), "--effect", "warp-blades", dirs=[tmp_path])
    assert weapon_row(out)["wounds"] == approx(Fr(5, 2))


def test_decapitating_strikes_against_infantry(tmp_path):
    """Decapitating Strikes: "Each time a model in this unit makes a melee attack that targets
    an INFANTRY unit, that attack has the [DEVASTATING WOUNDS] ability." 20/3 hits, 6s to
    wound (1/6) are 1 mortal wound each: 10/9; 4-5 (2/6) go to the 3+ save (fails 2/6)."""
    out = fight(
        ZERKERS, target(tmp_path, T=4, Sv=3), "--effect", "decapitating-strikes", dirs=[tmp_path]
    )
    check_row(
        weapon_row(out),
        wounds=Fr(10, 3),
        mortal_wounds=Fr(10, 9),
        failed_saves=Fr(20, 3) * Fr(2, 6) * Fr(2, 6),
    )


def test_decapitating_strikes_not_against_vehicles(tmp_path):
    """Against the VEHICLE (not INFANTRY) target there is no [DEVASTATING WOUNDS]: S4 v T10
    (6+), 20/3 x 1/6 = 10/9 wounds, all to the 3+ save, no mortal wounds."""
    out = fight(ZERKERS, "oracle-tank", "--effect", "decapitating-strikes", dirs=[tmp_path])
    check_row(weapon_row(out), wounds=Fr(10, 9), mortal_wounds=0)


def test_frenzied_resilience_minus_one_damage_never_below_one(tmp_path):
    """Frenzied Resilience: "subtract 1 from the Damage characteristic of that attack". Into
    Oracle Khorne Target (T4 Sv6+ W3): WS 2+ S8 AP-1: 10 hits, 2+ to wound: 25/3 wounds, no
    save left (6+ -1). D2 -> 1: damage 25/3; D1 stays 1 (never below 1)."""
    a = attacker(tmp_path, melee("Axe", A=12, skill=2, S=8, AP=-1, D=2))
    b = attacker(tmp_path, melee("Knife", A=12, skill=2, S=8, AP=-1, D=1), stem="knives")
    axe = fight(a, "oracle-khorne-target", "--effect", "frenzied-resilience", dirs=[tmp_path])
    knife = fight(b, "oracle-khorne-target", "--effect", "frenzied-resilience", dirs=[tmp_path])
    check_row(weapon_row(axe), failed_saves=Fr(25, 3), damage=Fr(25, 3))
    check_row(weapon_row(knife), failed_saves=Fr(25, 3), damage=Fr(25, 3))


def test_rush_to_the_fray_gives_lance(tmp_path):
    """Rush to the Fray: "that unit's melee weapons have the [lance] ability"; Lance: +1 to
    wound if the bearer charged. S4 v T5: 5+ -> 4+ when disembarked and charged: 20/3 x 3/6;
    disembarked without a charge: 20/3 x 2/6."""
    t = target(tmp_path, T=5)
    charged = fight(
        ZERKERS, t, "--disembarked", "--charged", "--effect", "rush-to-the-fray", dirs=[tmp_path]
    )
    walked = fight(ZERKERS, t, "--disembarked", "--effect", "rush-to-the-fray", dirs=[tmp_path])
    assert weapon_row(charged)["wounds"] == approx(Fr(10, 3))
    assert weapon_row(walked)["wounds"] == approx(Fr(20, 9))


def test_enraged_abjuration_feel_no_pain_against_mortal_wounds(tmp_path):
    """Enraged Abjuration: "Feel No Pain 5+ ability against Psychic Attacks and mortal
    wounds." 12 torrent S4 D1 [devastating wounds] into T4 Sv6+: 2 Critical Wounds (mortal
    wounds, 2 x 4/6 after FNP), 4 other wounds, 5/6 of them failed saves (no FNP):
    damage = 4 x 5/6 + 2 x 4/6 = 14/3."""
    a = attacker(
        tmp_path, weapon(A=12, skill=None, S=4, abilities=["torrent", "devastating wounds"])
    )
    out = shoot(a, "oracle-khorne-target", "--effect", "enraged-abjuration", dirs=[tmp_path])
    check_row(weapon_row(out), mortal_wounds=2, failed_saves=Fr(10, 3), damage=Fr(14, 3))


def test_enraged_abjuration_against_psychic_attacks(tmp_path):
    """The same with a [PSYCHIC] weapon: every point is rolled for:
    (10/3 + 2) x 4/6 = 32/9."""
    a = attacker(
        tmp_path,
        weapon(A=12, skill=None, S=4, abilities=["torrent", "psychic", "devastating wounds"]),
    )
    out = shoot(a, "oracle-khorne-target", "--effect", "enraged-abjuration", dirs=[tmp_path])
    check_row(weapon_row(out), mortal_wounds=2, failed_saves=Fr(10, 3), damage=Fr(32, 9))


def test_boon_of_blood_invulnerable_save(tmp_path):
    """Boon of Blood: "BLOOD LEGIONS units from your army have a 4+ invulnerable save."
    Sv 6+ at AP -3: 4+ invulnerable: 10 wounds x 3/6."""
    a = attacker(tmp_path, weapon(A=12, skill=None, S=8, AP=-3, abilities=["torrent"]))
    out = shoot(a, "oracle-khorne-target", "--effect", "boon-of-blood", dirs=[tmp_path])
    assert weapon_row(out)["failed_saves"] == approx(5)


# Bloody Stampede: "Each time this model's unit ends a Charge move, ... roll one D6: on a 2-3,
# that enemy unit suffers 1 mortal wound; on a 4-5, that enemy unit suffers D3 mortal wounds;
# on a 6, that enemy unit suffers D3+3 mortal wounds."
STAMPEDE = as_dist(
    icepool.d6.map(
        lambda r: 0 if r == 1 else 1 if r <= 3 else icepool.d3 if r <= 5 else icepool.d3 + 3
    )
)


def test_bloody_stampede_distribution():
    """By hand: P(0) = 1/6, P(1) = 2/6 + 2/6 x 1/3, P(2) = P(3) = 2/6 x 1/3,
    P(4) = P(5) = P(6) = 1/6 x 1/3; mean 11/6. (Checks the icepool oracle itself.)"""
    assert {
        0: Fr(1, 6),
        1: Fr(8, 18),
        2: Fr(2, 18),
        3: Fr(2, 18),
        4: Fr(1, 18),
        5: Fr(1, 18),
        6: Fr(1, 18),
    } == STAMPEDE
    assert mean(STAMPEDE) == Fr(11, 6)


def test_bloody_stampede_mortal_wounds_spill_before_the_attacks(tmp_path):
    """Oracle Stampeder (--charged) into 5 T4 W2 models with no save; its hoof (A1 WS4+ S1:
    6+ to wound) adds 1/12 of a failed save. The stampede's mortal wounds come first and
    spill from model to model."""
    out = fight(
        "oracle-stampeder", target(tmp_path, models=5, T=4, Sv=7, W=2), "--charged", dirs=[tmp_path]
    )
    assert "bloody-stampede" in out["effects"]
    joint = allocate(1, {0: Fr(11, 12), 1: Fr(1, 12)}, [2] * 5, mortal=STAMPEDE, mortal_first=True)
    assert out["expected"]["mortal_wounds"] == approx(Fr(11, 6))
    assert out["expected"]["wounds_lost"] == approx(mean(marginal(joint, 1)))
    assert out["models_destroyed_distribution"] == [
        approx(q) for q in dist_list(marginal(joint, 0), 6)
    ]


def test_no_bloody_stampede_without_a_charge(tmp_path):
    """Without --charged the unit did not end a Charge move: no stampede, no mortal wounds."""
    out = fight("oracle-stampeder", target(tmp_path, models=5, T=4, Sv=7, W=2), dirs=[tmp_path])
    assert "bloody-stampede" not in out["effects"]
    assert out["expected"]["mortal_wounds"] == approx(0)


def test_lord_invocatus_charge_adds_stampede_mortal_wounds(tmp_path):
    """Lord Invocatus charging T4 W2 models (no save): mortal wounds = 11/6 (stampede) +
    Coward's Bane's Devastating Wounds (7 x 5/6 hits x 1/6 x 2 = 35/18)."""
    out = fight("lord-invocatus", target(tmp_path, T=4, Sv=7, W=2), "--charged", dirs=[tmp_path])
    assert out["expected"]["mortal_wounds"] == approx(Fr(11, 6) + Fr(35, 18))


# ------------------------------------------------------------------------------------------
# Effects used where their conditions fail: refused, with a reason, no traceback.


@pytest.mark.parametrize(
    ("command", "unit", "tgt", "flags", "why"),
    [
        ("fight", ZERKERS, "oracle-grunts", ["--effect", "go-to-ground"], "shooting"),
        ("shoot", MOB, "oracle-grunts", ["--effect", "get-stuck-in"], "fight"),
        ("fight", ZERKERS, "oracle-grunts", ["--effect", "hack-and-slash"], "charge"),
        ("fight", ZERKERS, "oracle-grunts", ["--effect", "relentless-rage"], "charge"),
        (
            "fight",
            ZERKERS,
            "oracle-grunts",
            ["--charged", "--effect", "rush-to-the-fray"],
            "disembark",
        ),
        (
            "fight",
            MOB,
            "oracle-grunts",
            ["--charged", "--effect", "hack-and-slash"],
            "world eaters",
        ),
        ("fight", ZERKERS, "oracle-grunts", ["--effect", "waaagh"], "orks"),
        ("fight", ZERKERS, "oracle-grunts", ["--effect", "competitive-streak"], "boyz"),
        ("shoot", ZERKERS, "oracle-grunts", ["--effect", "grenade"], "grenades"),
        ("shoot", MOB, "oracle-grunts", ["--effect", "ard-as-nails"], "orks"),
        ("shoot", MOB, "oracle-grunts", ["--effect", "boon-of-blood"], "blood legions"),
        ("shoot", MOB, "oracle-khorne-target", ["--effect", "frenzied-resilience"], "fight"),
        ("fight", MOB, "oracle-grunts", ["--effect", "bloody-stampede"], "charge"),
        ("shoot", MOB, "oracle-grunts", ["--effect", "no-such-effect"], "no-such-effect"),
    ],
)
def test_effect_refused_when_its_conditions_fail(tmp_path, command, unit, tgt, flags, why):
    result = refused(command, unit, tgt, *flags, dirs=[tmp_path])
    assert why in (result.stdout + result.stderr).lower()


def test_grenade_mortal_wounds_and_feel_no_pain(tmp_path):
    """Feel No Pain 4+ against mortal wounds rolls for each grenade mortal wound: each of the
    six D6 takes a wound off with 1/2 x 1/2 = 1/4. damage = 3 x 1/2 + 10/4 = 4."""
    t = target(tmp_path, models=4, T=4, Sv=7, W=2)
    out = shoot(MOB, t, "--effect", "grenade", "--fnp-mortal", "4", dirs=[tmp_path])
    through = as_dist(6 @ icepool.Die({0: 3, 1: 1}))
    joint = allocate(10, {0: Fr(3, 4), 1: Fr(1, 4)}, [2] * 4, mortal=through, mortal_first=True)
    check_row(out["expected"], mortal_wounds=3, damage=4)
    assert out["expected"]["wounds_lost"] == approx(mean(marginal(joint, 1)))
    assert out["models_destroyed_distribution"] == [
        approx(q) for q in dist_list(marginal(joint, 0), 5)
    ]


def test_bloody_stampede_against_enraged_abjuration(tmp_path):
    """Enraged Abjuration (FNP 5+ against mortal wounds) on a WORLD EATERS target charged by
    the Stampeder: the stampede's 11/6 mortal wounds lose 2/6 to Feel No Pain; the hoof's
    1/12 failed save is not a mortal wound: damage = 11/6 x 4/6 + 1/12 = 47/36."""
    t = target(tmp_path, models=5, T=4, Sv=7, W=2, faction_keywords=["WORLD EATERS"])
    out = fight(
        "oracle-stampeder", t, "--charged", "--effect", "enraged-abjuration", dirs=[tmp_path]
    )
    check_row(out["expected"], mortal_wounds=Fr(11, 6), damage=Fr(47, 36))
