"""The JSON contract's Deffgun row (shared/DATASHEET_FORMAT.md): `calc shoot lootas --target
boyz --json` gives Deffgun attacks 8, hits 1.556, wounds 1.037, failed_saves 0.864, damage
1.728 - "4 Lootas at long range (6+ to hit with hit rolls of 1 re-rolled by Dat's Our Loot!,
3+ to wound T5, 6+ save after AP -1, 2 damage)". Derived here from the rules."""

from __future__ import annotations

from fractions import Fraction as Fr

from oracle import approx, check_row, shoot, weapon_row

# Deffgun: A2 BS6+ S8 AP-1 D2 [heavy, rapid fire 1]; 4 Lootas, not at half range (A stays 2),
# not stationary (no Heavy bonus).
ATTACKS = 4 * 2
# Hit roll 6+; Dat's Our Loot!: "re-roll a Hit roll of 1": 1/6 + 1/6 x 1/6 = 7/36
P_HIT = Fr(1, 6) + Fr(1, 6) * Fr(1, 6)
# S8 v T5: "S greater than T: 3+" (8 < 10, so not 2+)
P_WOUND = Fr(4, 6)
# Boyz Sv 5+, AP -1: a roll of 6 - 1 = 5 passes; 1-5 fail
P_FAIL = Fr(5, 6)


def test_deffgun_row_derived():
    out = shoot("lootas", "boyz")
    hits = ATTACKS * P_HIT  # 14/9 = 1.5556
    wounds = hits * P_WOUND  # 28/27 = 1.0370
    failed = wounds * P_FAIL  # 70/81 = 0.8642
    check_row(
        weapon_row(out, "Deffgun"),
        attacks=ATTACKS,
        hits=hits,
        wounds=wounds,
        failed_saves=failed,
        mortal_wounds=0,
        damage=2 * failed,  # 140/81 = 1.7284
    )
    assert out["weapons"][0]["count"] == 4


def test_deffgun_row_matches_the_contract_to_three_decimals():
    """The printed contract values, as the documentation states them (3 decimals)."""
    row = weapon_row(shoot("lootas", "boyz"), "Deffgun")
    printed = {
        "attacks": 8.0,
        "hits": 1.556,
        "wounds": 1.037,
        "failed_saves": 0.864,
        "damage": 1.728,
    }
    assert {k: round(row[k], 3) for k in printed} == printed


def test_big_shoota_row_and_totals():
    """Spanner's big shoota: A3 BS5+ S5 AP0 D1 [rapid fire 2], not at half range: 3 attacks,
    hits 3 x (2/6 + 1/6 x 2/6) = 7/6, S5 v T5 4+: 7/12, Sv 5+ fails 4/6: 7/18.
    Unit totals are the sums of the two rows."""
    out = shoot("lootas", "boyz")
    check_row(
        weapon_row(out, "Big shoota"),
        attacks=3,
        hits=Fr(7, 6),
        wounds=Fr(7, 12),
        failed_saves=Fr(7, 18),
        damage=Fr(7, 18),
    )
    deff_failed = ATTACKS * P_HIT * P_WOUND * P_FAIL
    check_row(
        out["expected"],
        attacks=11,
        hits=ATTACKS * P_HIT + Fr(7, 6),
        failed_saves=deff_failed + Fr(7, 18),
        damage=2 * deff_failed + Fr(7, 18),
    )


def test_contract_header_fields():
    """Header fields of the contract example: schema 1, edition 10, shooting, exact, the
    attacker (5 models, 50 points) and target (10 models, 11 wounds, 80 points), conditions
    all false, Dat's Our Loot! listed as applied."""
    out = shoot("lootas", "boyz")
    assert (out["schema"], out["edition"], out["phase"], out["method"]) == (
        1,
        "10",
        "shooting",
        "exact",
    )
    assert (out["attacker"]["name"], out["attacker"]["models"]) == ("Lootas", 5)
    assert out["attacker"]["points"] == approx(50)
    assert (out["target"]["models"], out["target"]["wounds"]) == (10, 11)
    assert out["target"]["points"] == approx(80)
    assert not any(out["conditions"].values())
    assert out["effects"] == ["dats-our-loot"]


def test_half_range_and_stationary_deffguns():
    """--half-range --stationary: [RAPID FIRE 1] makes A3 (12 attacks); [HEAVY] +1 to hit
    makes 5+, with 1s re-rolled: 2/6 + 1/6 x 2/6 = 14/36."""
    out = shoot("lootas", "boyz", "--half-range", "--stationary")
    check_row(weapon_row(out, "Deffgun"), attacks=12, hits=12 * Fr(14, 36))
