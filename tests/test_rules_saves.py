"""Saving throws, invulnerable saves and the Benefit of Cover (10th edition core rules).

The attacks here are [TORRENT] S8 into T4 (2+ to wound), 36 attacks: 30 wounds, so
failed saves = 30 x P(save fails)."""

from __future__ import annotations

from fractions import Fraction as Fr

import pytest
from oracle import approx, attacker, fight, invoke, melee, shoot, target, weapon, weapon_row

WOUNDS = 30  # 36 torrent attacks x 5/6 (S8 v T4: 2+)


def gun(ap: int = 0, **kw) -> dict:
    return weapon(A=36, skill=None, S=8, AP=ap, abilities=["torrent", *kw.pop("abilities", [])])


def blade(ap: int = 0) -> dict:
    return melee(A=36, skill=2, S=8, AP=ap)  # 30 hits, 25 wounds


def failed(out: dict) -> float:
    return weapon_row(out)["failed_saves"]


# "To make an armour saving throw, roll one D6, then modify the result by the Armour
# Penetration (AP) characteristic of the attack ... If the result is greater than or equal to
# the Save characteristic ... that saving throw is successful".


@pytest.mark.parametrize(
    ("sv", "ap", "fail"),
    [
        (3, 0, Fr(2, 6)),  # saves on 3-6
        (3, -1, Fr(3, 6)),  # 4+
        (3, -2, Fr(4, 6)),  # 5+
        (2, -3, Fr(4, 6)),  # 5+
        (4, -2, Fr(5, 6)),  # 6+
        (5, -1, Fr(5, 6)),  # 6+
        (6, 0, Fr(5, 6)),
        (5, -2, Fr(1)),  # 7+: no roll succeeds
        (7, 0, Fr(1)),  # Sv 7 means no save
    ],
)
def test_armour_save_modified_by_ap(tmp_path, sv, ap, fail):
    a = attacker(tmp_path, gun(ap))
    out = shoot(a, target(tmp_path, T=4, Sv=sv), dirs=[tmp_path])
    assert weapon_row(out)["wounds"] == approx(WOUNDS)
    assert failed(out) == approx(WOUNDS * fail)


def test_unmodified_save_of_one_always_fails(tmp_path):
    """ "An unmodified saving throw of 1 always fails." Sv 2+ with +1 to the save: the 1
    (2 after the modifier) still fails: 1/6."""
    a = attacker(tmp_path, gun(0))
    out = shoot(a, target(tmp_path, T=4, Sv=2), "--save-mod", "1", dirs=[tmp_path])
    assert failed(out) == approx(WOUNDS * Fr(1, 6))


def test_save_improved_by_at_most_one(tmp_path):
    """ "A saving throw can never be improved by more than +1." Sv 5+ with +2: 4+, not 3+."""
    a = attacker(tmp_path, gun(0))
    out = shoot(a, target(tmp_path, T=4, Sv=5), "--save-mod", "2", dirs=[tmp_path])
    assert failed(out) == approx(WOUNDS * Fr(3, 6))


def test_save_worsened_by_negative_save_modifier(tmp_path):
    """A -1 to the saving throw works like one more point of AP: Sv 3+, AP -1, -1: 5+."""
    a = attacker(tmp_path, gun(-1))
    out = shoot(a, target(tmp_path, T=4, Sv=3), "--save-mod", "-1", dirs=[tmp_path])
    assert failed(out) == approx(WOUNDS * Fr(4, 6))


def test_ap_modifier_improves_ap(tmp_path):
    """--ap-mod 1 improves AP by 1 (AP -1 becomes AP -2): Sv 3+ saves on 5+."""
    a = attacker(tmp_path, gun(-1))
    out = shoot(a, target(tmp_path, T=4, Sv=3), "--ap-mod", "1", dirs=[tmp_path])
    assert failed(out) == approx(WOUNDS * Fr(4, 6))


@pytest.mark.parametrize(
    ("ap", "mod", "fail"),
    [
        (-2, -1, Fr(3, 6)),  # AP -2 worsened to -1: Sv 3+ saves on 4+
        (-1, -1, Fr(2, 6)),  # AP -1 to 0: 3+
        (0, -1, Fr(2, 6)),  # AP 0 stays 0 (never +1, which would make it 2+)
        (-2, -3, Fr(2, 6)),  # AP -2 to 0, not +1
    ],
)
def test_negative_ap_modifier_worsens_ap_never_above_zero(tmp_path, ap, mod, fail):
    """Issue 10 item 6: "Negative values worsen AP; AP never goes above 0" (AP is "0 or
    negative", DATASHEET_FORMAT.md): Sv 3+."""
    a = attacker(tmp_path, gun(ap))
    out = shoot(a, target(tmp_path, T=4, Sv=3), "--ap-mod", str(mod), dirs=[tmp_path])
    assert failed(out) == approx(WOUNDS * fail)


def test_negative_ap_modifier_big_shoota():
    """The issue's example: Lootas' Big shoota (AP 0) into Boyz (Sv 5+) with --ap-mod -1:
    3 attacks, BS5+ with Hit rolls of 1 re-rolled (Dat's Our Loot!): 7/18; S5 v T5: 1/2; AP
    stays 0: fails on 1-4: 2/3: 3 x 7/18 x 1/2 x 2/3 = 7/18 = 0.389 (not 0.292)."""
    out = shoot("lootas", "boyz", "--weapon", "Big shoota", "--ap-mod", "-1")
    assert failed(out) == approx(Fr(7, 18))


def test_ap_mod_help_says_negative_worsens():
    text = " ".join(invoke(["shoot", "--help"]).stdout.split())
    assert "a negative N worsens it (AP never goes above 0)" in text


# Invulnerable Saves: "the controlling player must choose to use either that model's Save
# characteristic or its invulnerable save ... invulnerable saving throws are never modified by
# an attack's Armour Penetration characteristic".


@pytest.mark.parametrize(
    ("sv", "inv", "ap", "fail"),
    [
        (3, 4, -3, Fr(3, 6)),  # armour 6+, invuln 4+: use 4+
        (3, 5, -4, Fr(4, 6)),  # armour 7+, invuln 5+ (not worsened by AP -4)
        (2, 4, 0, Fr(1, 6)),  # armour 2+ is better than the invuln 4+
        (4, 4, -1, Fr(3, 6)),  # armour 5+, invuln 4+
        (7, 6, 0, Fr(5, 6)),  # no armour save at all, invuln 6+
    ],
)
def test_invulnerable_save_used_when_better_never_modified_by_ap(tmp_path, sv, inv, ap, fail):
    a = attacker(tmp_path, gun(ap))
    out = shoot(a, target(tmp_path, T=4, Sv=sv, invuln=inv), dirs=[tmp_path])
    assert failed(out) == approx(WOUNDS * fail)


def test_invuln_flag_gives_the_target_an_invulnerable_save(tmp_path):
    """--invuln 4: Sv 4+ against AP -3 (7+) uses the 4+ invulnerable save."""
    a = attacker(tmp_path, gun(-3))
    out = shoot(a, target(tmp_path, T=4, Sv=4), "--invuln", "4", dirs=[tmp_path])
    assert failed(out) == approx(WOUNDS * Fr(3, 6))


def test_ranged_only_invulnerable_save_not_used_in_melee(tmp_path):
    """invuln_ranged_only (an invulnerable save "against ranged attacks"): Sv 5+ with a 4+
    ranged-only invulnerable save; AP -2. Ranged: 4+ invuln (fail 1/2). Melee: armour 7+, no
    save (all 25 melee wounds fail)."""
    t = target(tmp_path, T=4, Sv=5, invuln=4, invuln_ranged_only=True)
    a = attacker(tmp_path, gun(-2), blade(-2))
    ranged = shoot(a, t, dirs=[tmp_path])
    close = fight(a, t, dirs=[tmp_path])
    assert failed(ranged) == approx(WOUNDS * Fr(1, 2))
    assert weapon_row(close)["wounds"] == approx(25)
    assert failed(close) == approx(25)


# Benefit of Cover: "Each time a ranged attack is allocated to a model that has the Benefit of
# Cover, add 1 to the saving throw made for that attack (excluding invulnerable saving throws).
# Models with a Save characteristic of 3+ or better cannot have the Benefit of Cover against
# attacks with an Armour Penetration characteristic of 0."


@pytest.mark.parametrize(
    ("sv", "ap", "fail"),
    [
        (4, 0, Fr(2, 6)),  # 4+ -> 3+
        (5, -1, Fr(4, 6)),  # 6+ -> 5+
        (3, -1, Fr(2, 6)),  # 4+ -> 3+ (AP -1, so cover applies to a 3+ save)
        (3, 0, Fr(2, 6)),  # 3+ v AP 0: no cover, stays 3+
        (2, 0, Fr(1, 6)),  # 2+ v AP 0: no cover
        (2, -1, Fr(1, 6)),  # 3+ -> 2+
        (6, -1, Fr(5, 6)),  # 7+ -> 6+
    ],
)
def test_benefit_of_cover(tmp_path, sv, ap, fail):
    a = attacker(tmp_path, gun(ap))
    out = shoot(a, target(tmp_path, T=4, Sv=sv), "--cover", dirs=[tmp_path])
    assert failed(out) == approx(WOUNDS * fail)


def test_cover_and_save_bonus_improve_by_one_in_total(tmp_path):
    """Cover (+1) and another +1: "A saving throw can never be improved by more than +1."
    Sv 4+, AP 0: 3+, not 2+."""
    a = attacker(tmp_path, gun(0))
    out = shoot(a, target(tmp_path, T=4, Sv=4), "--cover", "--save-mod", "1", dirs=[tmp_path])
    assert failed(out) == approx(WOUNDS * Fr(2, 6))


def test_cover_does_not_improve_invulnerable_save(tmp_path):
    """ "(excluding invulnerable saving throws)": Sv 4+ v AP -3 is 7+ (6+ in cover); the 5+
    invulnerable save stays 5+ (4+ would be wrong)."""
    a = attacker(tmp_path, gun(-3))
    out = shoot(a, target(tmp_path, T=4, Sv=4, invuln=5), "--cover", dirs=[tmp_path])
    assert failed(out) == approx(WOUNDS * Fr(4, 6))


def test_cover_only_against_ranged_attacks(tmp_path):
    """ "Each time a ranged attack is allocated ...": no Benefit of Cover in melee. Sv 4+
    AP 0: 25 melee wounds, half fail, with or without --cover."""
    a = attacker(tmp_path, blade(0))
    out = fight(a, target(tmp_path, T=4, Sv=4), "--cover", dirs=[tmp_path])
    assert failed(out) == approx(25 * Fr(1, 2))


def test_ignores_cover(tmp_path):
    """[IGNORES COVER] (seeds README): "the target cannot have the Benefit of Cover against
    these attacks." Sv 4+ AP 0 stays 4+ under --cover."""
    a = attacker(tmp_path, gun(0, abilities=["ignores cover"]))
    out = shoot(a, target(tmp_path, T=4, Sv=4), "--cover", dirs=[tmp_path])
    assert failed(out) == approx(WOUNDS * Fr(1, 2))


# Re-rolled saving throws (Re-rolls: "You can never re-roll a dice more than once").


def test_reroll_saves_ones(tmp_path):
    """Sv 4+, re-roll saving throws of 1: P(fail) = 2/6 (2-3) + 1/6 x 3/6 = 15/36."""
    a = attacker(tmp_path, gun(0))
    out = shoot(a, target(tmp_path, T=4, Sv=4), "--reroll-saves", "ones", dirs=[tmp_path])
    assert failed(out) == approx(WOUNDS * Fr(15, 36))


def test_reroll_saves_fails(tmp_path):
    """Sv 4+, re-roll failed saving throws: P(fail) = 1/2 x 1/2 = 1/4."""
    a = attacker(tmp_path, gun(0))
    out = shoot(a, target(tmp_path, T=4, Sv=4), "--reroll-saves", "fails", dirs=[tmp_path])
    assert failed(out) == approx(WOUNDS * Fr(1, 4))


def test_reroll_saves_with_invulnerable_save(tmp_path):
    """Re-rolls apply to the save actually made: Sv 3+ v AP -4 uses the 5+ invuln; re-roll
    failed saves: P(fail) = (4/6)^2 = 4/9."""
    a = attacker(tmp_path, gun(-4))
    out = shoot(
        a, target(tmp_path, T=4, Sv=3, invuln=5), "--reroll-saves", "fails", dirs=[tmp_path]
    )
    assert failed(out) == approx(WOUNDS * Fr(4, 9))


@pytest.mark.parametrize(("mod", "fail"), [("1", Fr(3, 6)), ("2", Fr(3, 6)), ("-1", Fr(5, 6))])
def test_save_modifier_applies_to_invulnerable_saves(tmp_path, mod, fail):
    """Invulnerable saving throws "are never modified by an attack's Armour Penetration
    characteristic, but otherwise follow the normal rules for saving throws": a +1 to saving
    throws improves the 5+ invulnerable save to 4+ (+2 is capped at +1: "can never be improved
    by more than +1"), a -1 worsens it to 6+. Sv 4+ at AP -3 has no armour save left."""
    a = attacker(tmp_path, gun(-3))
    out = shoot(a, target(tmp_path, T=4, Sv=4, invuln=5), "--save-mod", mod, dirs=[tmp_path])
    assert failed(out) == approx(WOUNDS * fail)
