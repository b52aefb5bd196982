"""Weapon abilities (10th edition core rules in seeds 000/001; the rest in our words in the
seeds README). Each expected value is derived by hand from the sentence quoted."""

from __future__ import annotations

from fractions import Fraction as Fr

import pytest
from oracle import (
    approx,
    attacker,
    check_row,
    fight,
    melee,
    model,
    refused,
    shoot,
    target,
    weapon,
    weapon_row,
    write_unit,
)

# Rapid Fire: "Each time such a weapon targets a unit within half that weapon's range, the
# Attacks characteristic of that weapon is increased by the amount denoted by 'x'."


@pytest.mark.parametrize(
    ("a", "rf", "half", "attacks"),
    [
        (1, "rapid fire 1", False, Fr(1)),
        (1, "rapid fire 1", True, Fr(2)),  # the rules' example: two attacks
        (2, "rapid fire 2", True, Fr(4)),
        (1, "rapid fire d3", True, Fr(3)),  # 1 + D3 (mean 2)
        ("D3", "rapid fire d3", True, Fr(4)),
        ("D6", "rapid fire 1", False, Fr(7, 2)),
    ],
)
def test_rapid_fire(tmp_path, a, rf, half, attacks):
    att = attacker(tmp_path, weapon(A=a, skill=4, abilities=[rf]), models=3)
    flags = ["--half-range"] if half else []
    out = shoot(att, target(tmp_path), *flags, dirs=[tmp_path])
    check_row(weapon_row(out), attacks=3 * attacks, hits=3 * attacks / 2)


# Anti: "an unmodified Wound roll of 'x+' against a target with the matching keyword scores a
# Critical Wound."


def test_anti_keyword_scores_critical_wounds_against_that_keyword(tmp_path):
    """[ANTI-VEHICLE 4+] S3 into T10 (6+ to wound): against a VEHICLE a 4+ is a Critical
    Wound (always successful): 3/6 of the torrent hits wound."""
    a = attacker(tmp_path, weapon(A=12, skill=None, S=3, abilities=["torrent", "anti-vehicle 4+"]))
    out = shoot(a, "oracle-tank", dirs=[tmp_path])
    assert weapon_row(out)["wounds"] == approx(6)


def test_anti_keyword_does_nothing_against_other_keywords(tmp_path):
    """The same weapon against T10 INFANTRY (no VEHICLE keyword): 6+ to wound: 2 of 12."""
    a = attacker(tmp_path, weapon(A=12, skill=None, S=3, abilities=["torrent", "anti-vehicle 4+"]))
    out = shoot(a, target(tmp_path, T=10, keywords=["INFANTRY"]), dirs=[tmp_path])
    assert weapon_row(out)["wounds"] == approx(2)


def test_anti_with_devastating_wounds_turns_criticals_into_mortal_wounds(tmp_path):
    """[ANTI-INFANTRY 4+, DEVASTATING WOUNDS] D1 S4 into T4 INFANTRY Sv 3+: wound rolls of 4+
    are Critical Wounds -> mortal wounds (no save); no wound is left for a saving throw."""
    a = attacker(
        tmp_path,
        weapon(
            A=12, skill=None, S=4, abilities=["torrent", "anti-infantry 4+", "devastating wounds"]
        ),
    )
    out = shoot(a, target(tmp_path, T=4, Sv=3), dirs=[tmp_path])
    check_row(weapon_row(out), wounds=6, failed_saves=0, mortal_wounds=6, damage=6)


def test_boyz_kombi_weapon_anti_infantry(tmp_path):
    """The Boyz' Kombi-weapon [anti-infantry 4+, devastating wounds, rapid fire 1], A1 BS5+ S4
    AP0 D1, against T4 Sv3+ INFANTRY at half range: 2 attacks, hits 2 x 2/6; each hit: 4+ to
    wound is a Critical Wound (1 mortal wound), 1-3 fails. mortal wounds = 2/3 x 1/2 = 1/3."""
    out = shoot(
        "boyz",
        target(tmp_path, T=4, Sv=3),
        "--weapon",
        "Kombi-weapon x1",
        "--half-range",
        dirs=[tmp_path],
    )
    check_row(
        weapon_row(out, "Kombi-weapon"),
        attacks=2,
        hits=Fr(2, 3),
        wounds=Fr(1, 3),
        failed_saves=0,
        mortal_wounds=Fr(1, 3),
    )


# Torrent (seeds README): "attacks hit automatically; no Hit roll is made, so there are no
# Critical Hits."


def test_torrent_hits_automatically_without_critical_hits(tmp_path):
    """[TORRENT, SUSTAINED HITS 1, LETHAL HITS] D6 attacks: hits = attacks = 3.5 (no extra
    hits, no automatic wounds); S4 v T4: 1.75 wounds."""
    a = attacker(
        tmp_path,
        weapon(A="D6", skill=None, S=4, abilities=["torrent", "sustained hits 1", "lethal hits"]),
    )
    out = shoot(a, target(tmp_path, T=4), dirs=[tmp_path])
    check_row(weapon_row(out), attacks=3.5, hits=3.5, wounds=1.75)


@pytest.mark.parametrize("flags", [("--hit-mod", "-1"), ("--overwatch",)])
def test_torrent_ignores_hit_modifiers_and_snap_shooting(tmp_path, flags):
    """No Hit roll is made, so neither a Hit modifier nor snap shooting's "unmodified Hit roll
    of 6 is required" can change a torrent attack: 6 hits out of 6. (--indirect is no longer
    one of these cases: a [TORRENT] weapon "cannot make Indirect Fire attacks", P8.)"""
    a = attacker(tmp_path, weapon(A=6, skill=None, S=4, abilities=["torrent", "indirect fire"]))
    out = shoot(a, target(tmp_path, T=4), *flags, dirs=[tmp_path])
    assert weapon_row(out)["hits"] == approx(6)


# Lance (seeds README): "if the bearer made a Charge move this turn, add 1 to the Wound roll."


def test_lance_adds_one_to_wound_after_charging(tmp_path):
    """S4 v T5 (5+): 4+ with --charged."""
    a = attacker(tmp_path, melee(A=12, skill=2, S=4, abilities=["lance"]))
    t = target(tmp_path, T=5)
    still = fight(a, t, dirs=[tmp_path])
    charged = fight(a, t, "--charged", dirs=[tmp_path])
    assert weapon_row(still)["wounds"] == approx(10 * Fr(2, 6))
    assert weapon_row(charged)["wounds"] == approx(10 * Fr(3, 6))


def test_lance_and_wound_bonus_capped(tmp_path):
    """Lance (+1) and --wound-mod 1: "A Wound roll can never be modified by more than -1 or
    +1": S4 v T5 still 4+."""
    a = attacker(tmp_path, melee(A=12, skill=2, S=4, abilities=["lance"]))
    out = fight(a, target(tmp_path, T=5), "--charged", "--wound-mod", "1", dirs=[tmp_path])
    assert weapon_row(out)["wounds"] == approx(10 * Fr(3, 6))


# Conversion (seeds README): "against a target more than 12" away, an unmodified Hit roll of
# 4+ is a Critical Hit."


def test_conversion_beyond_12(tmp_path):
    """BS 5+ [conversion, sustained hits 1]: within 12": 5 hits, 6 critical (2 hits):
    (1/6 + 2/6) per attack. Beyond 12": 4, 5, 6 are Critical Hits (always successful, 2 hits
    each): 6/6 per attack."""
    a = attacker(tmp_path, weapon(A=12, skill=5, abilities=["conversion", "sustained hits 1"]))
    t = target(tmp_path)
    near = shoot(a, t, dirs=[tmp_path])
    far = shoot(a, t, "--beyond-12", dirs=[tmp_path])
    assert weapon_row(near)["hits"] == approx(12 * Fr(3, 6))
    assert weapon_row(far)["hits"] == approx(12)


# Indirect Fire (seeds README): "if no model of the target is visible, subtract 1 from the Hit
# roll and the target has the Benefit of Cover."


def test_indirect_fire_minus_one_to_hit_and_cover(tmp_path):
    """BS 3+ (4+ with -1), S8 v T4 (2+), Sv 4+ AP 0 (3+ in cover):
    hits 12 x 3/6 = 6; wounds 5; failed saves 5 x 2/6."""
    a = attacker(tmp_path, weapon(A=12, skill=3, S=8, abilities=["indirect fire"]))
    out = shoot(a, target(tmp_path, T=4, Sv=4), "--indirect", dirs=[tmp_path])
    check_row(weapon_row(out), hits=6, wounds=5, failed_saves=Fr(5, 3))


def test_indirect_fire_needs_an_indirect_weapon(tmp_path):
    """Only [INDIRECT FIRE] weapons "can target units that are not visible": a unit without
    one cannot shoot with --indirect (refused, with a reason)."""
    a = attacker(tmp_path, weapon(A=12, skill=3))
    refused("shoot", a, target(tmp_path), "--indirect", dirs=[tmp_path])


# Pistol: "If a model is equipped with one or more Pistols, unless it is a MONSTER or VEHICLE
# model, it can either shoot with its Pistols or with all of its other ranged weapons."


def pistol_unit(tmp_path, stem: str, pistol: dict, other: dict, keywords=("INFANTRY",)) -> str:
    m = model("Trooper", equipped=[pistol["name"], other["name"]])
    return write_unit(tmp_path, stem, models=[(m, 2)], weapons=[pistol, other], keywords=keywords)


def test_pistol_or_other_weapons_picks_the_better(tmp_path):
    """Each model shoots a rifle (A2 BS3+) or its pistol (A1 BS3+): not both. The rifle
    kills more: 2 models x 2 attacks x 4/6 hits; `choices` names the pick."""
    u = pistol_unit(
        tmp_path,
        "rifles",
        weapon("Pistol", A=1, skill=3, abilities=["pistol"]),
        weapon("Rifle", A=2, skill=3),
    )
    out = shoot(u, target(tmp_path, T=4, Sv=7), dirs=[tmp_path])
    assert [w["name"] for w in out["weapons"]] == ["Rifle"]
    check_row(out["expected"], attacks=4, hits=Fr(8, 3))
    assert any("Rifle" in c and "Pistol" in c for c in out["choices"]), out["choices"]


def test_pistol_chosen_when_it_is_better(tmp_path):
    """A pistol (A1 S8 D2) against W2 T4 models beats a rifle (A1 S3 D1): the pistol alone
    fires: 2 attacks, 4/6 hits, 5/6 wound, no save."""
    u = pistol_unit(
        tmp_path,
        "pistoleers",
        weapon("Hand cannon", A=1, skill=3, S=8, D=2, abilities=["pistol"]),
        weapon("Popgun", A=1, skill=3, S=3, D=1),
    )
    out = shoot(u, target(tmp_path, T=4, Sv=7, W=2), dirs=[tmp_path])
    assert [w["name"] for w in out["weapons"]] == ["Hand cannon"]
    check_row(out["expected"], attacks=2, hits=Fr(4, 3), wounds=Fr(10, 9), damage=Fr(20, 9))
    assert any("Hand cannon" in c for c in out["choices"]), out["choices"]


def test_vehicle_fires_pistols_and_other_weapons(tmp_path):
    """ "unless it is a MONSTER or VEHICLE model": a VEHICLE fires both: 2 x (1 + 2) attacks."""
    u = pistol_unit(
        tmp_path,
        "walker",
        weapon("Pistol", A=1, skill=3, abilities=["pistol"]),
        weapon("Rifle", A=2, skill=3),
        keywords=("VEHICLE", "WALKER"),
    )
    out = shoot(u, target(tmp_path, T=4, Sv=7), dirs=[tmp_path])
    assert sorted(w["name"] for w in out["weapons"]) == ["Pistol", "Rifle"]
    assert out["expected"]["attacks"] == approx(6)


# Extra Attacks (seeds README): "the bearer attacks with this weapon in addition to its chosen
# melee weapon; the number of attacks it makes cannot be modified by other rules unless they
# name the weapon."


def test_extra_attacks_weapon_used_alongside_the_chosen_melee_weapon(tmp_path):
    """A model with a sword (A3), an axe (A2) and a bite [extra attacks] (A1): it fights with
    ONE of sword/axe (the sword: more attacks, same profile otherwise) plus the bite:
    2 models x (3 + 1) = 8 attacks."""
    m = model("Brute", equipped=["Sword", "Axe", "Bite"])
    u = write_unit(
        tmp_path,
        "brutes",
        models=[(m, 2)],
        weapons=[
            melee("Sword", A=3, skill=3),
            melee("Axe", A=2, skill=3),
            melee("Bite", A=1, skill=3, abilities=["extra attacks"]),
        ],
    )
    out = fight(u, target(tmp_path, T=4, Sv=7), dirs=[tmp_path])
    assert sorted(w["name"] for w in out["weapons"]) == ["Bite", "Sword"]
    check_row(weapon_row(out, "Sword"), attacks=6)
    check_row(weapon_row(out, "Bite"), attacks=2)


def test_extra_attacks_not_modified_by_waaagh(tmp_path):
    """Waaagh! adds 1 to the Attacks of melee weapons, but an [EXTRA ATTACKS] weapon's
    attacks "cannot be modified by other rules unless they name the weapon": the choppa goes
    from 2 to 3 attacks, the bite stays at 1."""
    m = model("Ork", equipped=["Choppa", "Bite"])
    u = write_unit(
        tmp_path,
        "ork-biters",
        models=[(m, 1)],
        weapons=[
            melee("Choppa", A=2, skill=3),
            melee("Bite", A=1, skill=3, abilities=["extra attacks"]),
        ],
        faction_keywords=["ORKS"],
    )
    out = fight(u, target(tmp_path, T=4, Sv=7), "--effect", "waaagh", dirs=[tmp_path])
    check_row(weapon_row(out, "Choppa"), attacks=3)
    check_row(weapon_row(out, "Bite"), attacks=1)


def test_lord_invocatus_fights_with_both_weapons(tmp_path):
    """Lord Invocatus: Coward's Bane (A7 WS2+ S6 AP-2 D2 [devastating wounds]) plus the
    Bladed horn [extra attacks, lance] (A4 WS3+ S6 AP-1 D2), into T4 Sv 7 W2 models:
    Coward's Bane: 7 x 5/6 hits, S6 v T4 3+: 6s (1/6) are 2 mortal wounds, 3-5 (3/6) failed
    saves. Horn: 4 x 4/6 hits, 3+: 4/6 x 4/6 = 16/9 failed saves."""
    out = fight("lord-invocatus", target(tmp_path, T=4, Sv=7, W=2), dirs=[tmp_path])
    bane_hits = 7 * Fr(5, 6)
    check_row(
        weapon_row(out, "Coward's Bane"),
        attacks=7,
        hits=bane_hits,
        wounds=bane_hits * Fr(4, 6),
        failed_saves=bane_hits * Fr(3, 6),
        mortal_wounds=bane_hits * Fr(1, 6) * 2,
    )
    check_row(weapon_row(out, "Bladed horn"), attacks=4, failed_saves=Fr(16, 9))


def test_lord_invocatus_lance_after_charging(tmp_path):
    """--charged: the Bladed horn's [LANCE] makes S6 v T4 wound on 2+: 4 x 4/6 x 5/6."""
    out = fight("lord-invocatus", target(tmp_path, T=4, Sv=7, W=2), "--charged", dirs=[tmp_path])
    check_row(weapon_row(out, "Bladed horn"), wounds=4 * Fr(4, 6) * Fr(5, 6))


# Melta / Heavy / Twin-linked / Ignores Cover / Blast are covered in their own files (damage,
# hit and wound rolls, re-rolls, saves, public cases P4).


# Devastating Wounds: "Each time an attack is made with such a weapon, if that attack scores a
# Critical Wound, no saving throw of any kind can be made against that attack ... After that
# attack is allocated and after any modifiers are applied, it inflicts a number of mortal
# wounds on the target equal to the Damage characteristic of that attack".


def test_lethal_hits_do_not_trigger_devastating_wounds(tmp_path):
    """A Critical Hit with [LETHAL HITS] "automatically wounds the target": no Wound roll, so
    no Critical Wound and no mortal wounds; it goes to the saving throw. BS 3+, S4 v T4,
    Sv 3+ (fails 2/6), 36 attacks: 6 Critical Hits (automatic wounds), 18 other hits of which
    3 are Critical Wounds (mortal wounds) and 6 normal wounds.
    wounds 6 + 9 = 15; failed saves (6 + 6) x 2/6 = 4; mortal wounds 3."""
    a = attacker(
        tmp_path, weapon(A=36, skill=3, S=4, abilities=["lethal hits", "devastating wounds"])
    )
    out = shoot(a, target(tmp_path, T=4, Sv=3, W=5), dirs=[tmp_path])
    check_row(weapon_row(out), hits=24, wounds=15, failed_saves=4, mortal_wounds=3, damage=7)


def test_twin_linked_fishes_for_devastating_wounds(tmp_path):
    """[TWIN-LINKED]: "the Wound roll can be re-rolled" - any Wound roll. With [DEVASTATING
    WOUNDS] D1 into Sv 2+, a kept normal wound is worth 1/6 and a fresh roll
    2/6 x 1/6 + 1/6 = 8/36: re-roll 1-5 (as in test_rules_rerolls). Per hit: Critical
    Wounds 11/36, normal wounds 10/36."""
    a = attacker(
        tmp_path,
        weapon(A=36, skill=None, S=4, abilities=["torrent", "twin-linked", "devastating wounds"]),
    )
    out = shoot(a, target(tmp_path, T=4, Sv=2), dirs=[tmp_path])
    check_row(weapon_row(out), wounds=21, mortal_wounds=11, failed_saves=Fr(10, 6))


@pytest.mark.parametrize("flag", ["--damage-reduction", "--half-damage"])
def test_devastating_wounds_mortal_wounds_after_damage_modifiers(tmp_path, flag):
    """ "after any modifiers are applied": D2 [devastating wounds] with -1 Damage (or halved)
    inflicts 1 mortal wound per Critical Wound. 36 torrent S4 v T4: 6 Critical Wounds, 12
    normal wounds (no save), each 1 damage."""
    a = attacker(
        tmp_path, weapon(A=36, skill=None, S=4, D=2, abilities=["torrent", "devastating wounds"])
    )
    flags = [flag, "1"] if flag == "--damage-reduction" else [flag]
    out = shoot(a, target(tmp_path, T=4, Sv=7, W=5), *flags, dirs=[tmp_path])
    check_row(weapon_row(out), failed_saves=12, mortal_wounds=6, damage=18)


def test_devastating_wounds_with_melta(tmp_path):
    """D3 [devastating wounds, melta 2] at half range: each Critical Wound inflicts D3 + 2
    (mean 4) mortal wounds: 6 x 4 = 24; 12 failed saves x 4 = 48 damage more."""
    a = attacker(
        tmp_path,
        weapon(
            A=36, skill=None, S=4, D="D3", abilities=["torrent", "devastating wounds", "melta 2"]
        ),
    )
    out = shoot(a, target(tmp_path, T=4, Sv=7, W=9), "--half-range", dirs=[tmp_path])
    check_row(weapon_row(out), failed_saves=12, mortal_wounds=24, damage=72)


def test_blast_counts_the_leader_of_an_attached_unit(tmp_path):
    """Blast counts "every five models that were in the target unit": Oracle Squad (5) led by
    Oracle Captain is 6 models: D6 + 1 = 4.5 attacks."""
    a = attacker(tmp_path, weapon(A="D6", skill=4, abilities=["blast"]))
    out = shoot(a, "oracle-squad", "--target-leader", "oracle-captain", dirs=[tmp_path])
    assert weapon_row(out)["attacks"] == approx(Fr(9, 2))


def test_indirect_fire_cover_still_limited_for_3_plus_saves_at_ap_0(tmp_path):
    """[INDIRECT FIRE] gives the target the Benefit of Cover, but "Models with a Save
    characteristic of 3+ or better cannot have the Benefit of Cover against attacks with an
    Armour Penetration characteristic of 0": Sv 3+ AP 0 stays 3+. BS 3+ -1: 6 hits of 12,
    S8 v T4: 5 wounds, fails 2/6."""
    a = attacker(tmp_path, weapon(A=12, skill=3, S=8, abilities=["indirect fire"]))
    out = shoot(a, target(tmp_path, T=4, Sv=3), "--indirect", dirs=[tmp_path])
    check_row(weapon_row(out), hits=6, wounds=5, failed_saves=Fr(5, 3))


def test_indirect_fire_with_ignores_cover(tmp_path):
    """[IGNORES COVER]: "the target cannot have the Benefit of Cover against these attacks",
    even when it would get it from [INDIRECT FIRE]: Sv 4+ AP 0 stays 4+: 5 x 1/2."""
    a = attacker(tmp_path, weapon(A=12, skill=3, S=8, abilities=["indirect fire", "ignores cover"]))
    out = shoot(a, target(tmp_path, T=4, Sv=4), "--indirect", dirs=[tmp_path])
    check_row(weapon_row(out), hits=6, wounds=5, failed_saves=Fr(5, 2))
