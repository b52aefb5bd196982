"""[HAZARDOUS] (10th edition core rules, seeds 000/001): "after that unit has resolved all of
its attacks, for each Hazardous weapon that targets were selected for when resolving those
attacks, that unit must take one Hazardous test. To do so, roll one D6: on a 1, that test is
failed." For each failed test: "If possible, select one model in that unit that has lost one or
more wounds and is equipped with one or more Hazardous weapons. Otherwise, if possible, select
one model in that unit (excluding CHARACTER models) equipped with one or more Hazardous
weapons." ... "a model equipped with a hazardous weapon suffers 3 mortal wounds, that must be
allocated to the selected model." Mortal Wounds: with [HAZARDOUS], "if that model is destroyed
as a result of those mortal wounds, the remaining mortal wounds from that attack are lost".

JSON: attacker_losses = expected mortal wounds inflicted, expected models destroyed,
probability of losing at least one model."""

from __future__ import annotations

from fractions import Fraction as Fr

import pytest
from oracle import approx, attacker, fight, melee, model, shoot, target, weapon, write_unit

FAIL = Fr(1, 6)


def losses(out: dict) -> tuple:
    lo = out["attacker_losses"]
    return lo["hazard_mortal_wounds"], lo["models_destroyed"], lo["at_least_one"]


def expect(mw, dead, at_least):
    return (approx(mw), approx(dead), approx(at_least))


def test_one_w1_bearer(tmp_path):
    """One test: 1/6 x 3 = 0.5 mortal wounds; the bearer dies on a failure: 1/6."""
    a = attacker(tmp_path, weapon(A=1, skill=4, abilities=["hazardous"]), models=1, W=1)
    out = shoot(a, target(tmp_path), dirs=[tmp_path])
    assert losses(out) == expect(3 * FAIL, FAIL, FAIL)


def test_two_w1_bearers(tmp_path):
    """Two tests, one per weapon: 2 x 0.5 = 1 mortal wound expected; each failure destroys
    one bearer (the 3 mortal wounds do not spill): E = 2/6; P(at least one) = 1 - (5/6)^2."""
    a = attacker(tmp_path, weapon(A=1, skill=4, abilities=["hazardous"]), models=2, W=1)
    out = shoot(a, target(tmp_path), dirs=[tmp_path])
    assert losses(out) == expect(1, 2 * FAIL, 1 - (1 - FAIL) ** 2)


def test_one_w3_bearer(tmp_path):
    """W3: the 3 mortal wounds of one failed test destroy it exactly: 0.5, 1/6, 1/6."""
    a = attacker(tmp_path, weapon(A=1, skill=4, abilities=["hazardous"]), models=1, W=3)
    out = shoot(a, target(tmp_path), dirs=[tmp_path])
    assert losses(out) == expect(3 * FAIL, FAIL, FAIL)


def test_one_w4_bearer_survives_a_failed_test(tmp_path):
    """W4: 3 mortal wounds do not destroy it: 0.5 mortal wounds, no model lost."""
    a = attacker(tmp_path, weapon(A=1, skill=4, abilities=["hazardous"]), models=1, W=4)
    out = shoot(a, target(tmp_path), dirs=[tmp_path])
    assert losses(out) == expect(3 * FAIL, 0, 0)


def test_w4_bearer_of_two_hazardous_weapons(tmp_path):
    """One W4 model with two Hazardous weapons: two tests; the wounded bearer must take the
    second failure ("select one model ... that has lost one or more wounds"): destroyed only
    if both fail: 1/36. Mortal wounds inflicted: 2 x 1/6 x 3 = 1."""
    a = attacker(
        tmp_path,
        weapon("Plasma A", A=1, skill=4, abilities=["hazardous"]),
        weapon("Plasma B", A=1, skill=4, abilities=["hazardous"]),
        models=1,
        W=4,
    )
    out = shoot(a, target(tmp_path), dirs=[tmp_path])
    assert losses(out) == expect(1, FAIL**2, FAIL**2)


def test_mortal_wounds_go_to_bearers_not_other_models(tmp_path):
    """A unit of 1 W1 bearer and 3 W1 models without the weapon: a failed test destroys the
    bearer and the rest is lost; with one test at most one model is lost: 0.5, 1/6, 1/6."""
    bearer = model("Bearer", W=1, equipped=["Blaster"])
    others = model("Trooper", W=1, equipped=["Rifle"])
    u = write_unit(
        tmp_path,
        "mixed-squad",
        models=[(others, 3), (bearer, 1)],
        weapons=[
            weapon("Blaster", A=1, skill=4, abilities=["hazardous"]),
            weapon("Rifle", A=1, skill=4),
        ],
    )
    out = shoot(u, target(tmp_path), dirs=[tmp_path])
    assert losses(out) == expect(3 * FAIL, FAIL, FAIL)


@pytest.mark.parametrize(("models", "bearers"), [(5, 1), (10, 2)])
def test_lootas_kustom_mega_blastas(models, bearers):
    """Lootas with every Spanner carrying a kustom mega-blasta [hazardous]: one test per
    Spanner (W1); each failure destroys one Spanner."""
    out = shoot("lootas", "boyz", "--models", str(models), "--loadout", "kustom-mega-blastas")
    assert losses(out) == expect(bearers * 3 * FAIL, bearers * FAIL, 1 - (1 - FAIL) ** bearers)


def test_no_hazardous_weapon_no_losses():
    """Lootas with deffguns and a big shoota take no Hazardous test at all."""
    out = shoot("lootas", "boyz")
    assert losses(out) == expect(0, 0, 0)


def test_hazardous_melee_weapon_after_fighting(tmp_path):
    """ "Each time a unit is selected to shoot or fight": a W2 model with a Hazardous melee
    weapon: one test: 0.5 mortal wounds, destroyed on a failure (3 >= 2)."""
    a = attacker(tmp_path, melee(A=2, skill=3, abilities=["hazardous"]), models=1, W=2)
    out = fight(a, target(tmp_path), dirs=[tmp_path])
    assert losses(out) == expect(3 * FAIL, FAIL, FAIL)


def test_only_weapons_that_attacked_take_hazardous_tests(tmp_path):
    """ "for each Hazardous weapon that targets were selected for": a hazardous plasma pistol
    left unused (each model shoots its better rifle instead, [PISTOL]) takes no test."""
    m = model("Trooper", equipped=["Plasma pistol", "Rifle"])
    u = write_unit(
        tmp_path,
        "plasma-troopers",
        models=[(m, 2)],
        weapons=[
            weapon("Plasma pistol", A=1, skill=3, S=8, D=2, abilities=["pistol", "hazardous"]),
            weapon("Rifle", A=3, skill=3),
        ],
    )
    out = shoot(u, target(tmp_path, T=4, Sv=7), dirs=[tmp_path])
    assert [w["name"] for w in out["weapons"]] == ["Rifle"]
    assert losses(out) == expect(0, 0, 0)


def test_hazardous_pistol_used_takes_tests(tmp_path):
    """The same pistol, now the better choice (against W2 models, over a weak S3 rifle): two
    W1 models fire it, two tests: 1 mortal wound, 2/6 models, 1 - (5/6)^2."""
    m = model("Trooper", equipped=["Plasma pistol", "Popgun"])
    u = write_unit(
        tmp_path,
        "plasma-pistoleers",
        models=[(m, 2)],
        weapons=[
            weapon("Plasma pistol", A=1, skill=3, S=8, D=2, abilities=["pistol", "hazardous"]),
            weapon("Popgun", A=1, skill=3, S=3),
        ],
    )
    out = shoot(u, target(tmp_path, T=4, Sv=7, W=2), dirs=[tmp_path])
    assert [w["name"] for w in out["weapons"]] == ["Plasma pistol"]
    assert losses(out) == expect(1, 2 * FAIL, 1 - (1 - FAIL) ** 2)


def test_lootas_mixed_spanners_one_hazardous_weapon():
    """Lootas (10) with one kustom mega-blasta and one rokkit launcha: one test only."""
    out = shoot("lootas", "boyz", "--models", "10", "--loadout", "mixed-spanners")
    assert losses(out) == expect(3 * FAIL, FAIL, FAIL)


# Issue 10 item 5: `--weapon` chooses which weapons attack; the unit is still the whole unit.
# Edition 11, 06.03 Hazard Rolls: "on a 1-2, that roll fails and that unit suffers 1 mortal
# wound, or 3 mortal wounds instead if each model in that unit is a MONSTER/VEHICLE model."


def _walker_and_crew(tmp_path) -> str:
    """A VEHICLE model with a [HAZARDOUS] cannon and an INFANTRY model with a lasgun."""
    walker = model("Walker", W=10, keywords=["VEHICLE"], equipped=["Cannon"])
    crew = model("Crewman", W=1, keywords=["INFANTRY"], equipped=["Lasgun"])
    return write_unit(
        tmp_path,
        "walker-crew",
        models=[(walker, 1), (crew, 1)],
        weapons=[
            weapon("Cannon", A=1, skill=4, abilities=["hazardous"]),
            weapon("Lasgun", A=1, skill=4),
        ],
        keywords=("TESTERS",),
    )


@pytest.mark.parametrize("flags", [("--weapon", "Cannon"), ()])
def test_edition_11_hazard_reads_the_whole_unit_with_weapon(tmp_path, flags):
    """One hazard roll fails with 2/6 and inflicts 1 mortal wound, not 3, because the Crewman
    (INFANTRY) is in the unit even when only the Cannon attacks: 1/3 (before: 1.0)."""
    a = _walker_and_crew(tmp_path)
    out = shoot(a, target(tmp_path), "--edition", "11", *flags, dirs=[tmp_path])
    assert out["attacker"]["models"] == 2
    assert out["attacker_losses"]["hazard_mortal_wounds"] == approx(Fr(1, 3))


def test_10th_edition_hazard_with_weapon_unchanged(tmp_path):
    """10th edition: the test fails on a 1 and the 3 mortal wounds go to the bearer: 0.5."""
    a = _walker_and_crew(tmp_path)
    out = shoot(a, target(tmp_path), "--weapon", "Cannon", dirs=[tmp_path])
    assert out["attacker_losses"]["hazard_mortal_wounds"] == approx(Fr(1, 2))
