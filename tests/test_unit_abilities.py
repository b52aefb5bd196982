"""Datasheet unit abilities applied by the rules layer (issue 9), in 10th edition and edition 11
(whose datasheets are the 10th-edition ones, and whose texts for these rules are unchanged).

Every expected value below is worked out by hand from the rules text:
- seeds README, Feel No Pain X+: "each time a model would lose a wound, roll one D6; on X+ that
  wound is not lost"; a Feel No Pain "against mortal wounds" only counts for mortal wounds
  (Devastating Wounds: "inflicts a number of mortal wounds"), one "against Psychic Attacks"
  for attacks of a [PSYCHIC] weapon ("such attacks are Psychic Attacks");
- seeds README, damage modifiers: "halving is applied before adding or subtracting; damage is
  never below 1";
- the datasheets' damaged profiles: "While this model has 1-N wounds remaining, each time this
  model makes an attack, subtract 1 from the Hit roll" (Core rules: Hit Roll, modifiers capped
  at +-1);
- the recognised defensive abilities: "each time a ranged attack targets this unit, subtract 1
  from the Hit roll", "... if the Strength characteristic of that attack is greater than the
  Toughness characteristic of this unit, subtract 1 from the Wound roll", "... worsen the
  Armour Penetration characteristic of that attack by 1".
"""

from __future__ import annotations

from fractions import Fraction as Fr
from pathlib import Path

import pytest
import yaml
from oracle import approx, fight, invoke, model, shoot, weapon, write_unit

from wh40k_calc.catalog import Catalog

EDITIONS = ("10", "11")


def gun(**kw) -> dict:
    """[TORRENT] S8 into T4: no Hit roll, Wound roll 2+ (5/6, of which 1/6 Critical)."""
    abilities = ["torrent", *kw.pop("abilities", [])]
    return weapon(A=kw.pop("A", 6), skill=None, S=8, abilities=abilities, **kw)


def target_with(folder: Path, rules: list[str] | None = None, **fields) -> str:
    """Five T4 models with no save and 20 wounds each (no damage is lost), with the given
    datasheet fields (feel_no_pain_mortal, damage_reduction, ...)."""
    m = model("Dummy", T=4, Sv=7, W=20)
    m.update(fields)
    return write_unit(folder, "ability-target", models=[(m, 5)], rules=rules)


def shooter(folder: Path, *weapons: dict, W: int = 1, models: int = 1, **sheet) -> str:
    """A unit of ``models`` models carrying ``weapons``, with extra datasheet fields; each call
    writes a new file (datasheets are cached by path within a process)."""
    m = model("Gunner", W=W, equipped=[w["name"] for w in weapons])
    stem = f"shooter-{len(list(folder.glob('shooter-*.yaml')))}"
    stem = write_unit(folder, stem, models=[(m, models)], weapons=weapons)
    if sheet:
        path = folder / f"{stem}.yaml"
        data = yaml.safe_load(path.read_text())
        data.update(sheet)
        path.write_text(yaml.safe_dump(data, sort_keys=False))
    return stem


def totals(out: dict) -> dict:
    return out["expected"]


# ---------------------------------------------------------------------------------------------
# The example: 5 Intercessors into 20 Poxwalkers


@pytest.mark.parametrize("edition", EDITIONS)
def test_poxwalkers_feel_no_pain(tmp_path: Path, edition: str) -> None:
    # 5 Intercessors: 5 bolt rifles (A2 BS3+ S4 AP-1 D1; the pistols are the other option and
    # do less), 10 attacks. Poxwalkers: T4, Sv 7+ (no save even before AP), W1, Feel No Pain
    # 5+ (the export's core ability "Feel No Pain 5+"; the same in the edition-11 data, 912).
    # Each unsaved wound destroys one model and 10 attacks cannot destroy all 20, so models
    # destroyed = damage that gets through.
    hits = 10 * Fr(4, 6)  # 3+ to hit
    wounds = hits * Fr(3, 6)  # S4 = T4: 4+
    without = wounds  # no save
    with_fnp = wounds * Fr(4, 6)  # the 5+ ignores 2 wounds in 6
    assert (without, with_fnp) == (Fr(10, 3), Fr(20, 9))

    shipped = Catalog(edition=edition).find("death-guard/poxwalkers")
    assert shipped.models[0].feel_no_pain == 5
    assert (shipped.models[0].T, shipped.models[0].Sv, shipped.models[0].W) == (4, 7, 1)
    args = ("--target-models", "20", "--edition", edition)
    out = shoot("intercessor-squad", "death-guard/poxwalkers", *args)
    assert totals(out)["models_destroyed"] == approx(with_fnp)
    assert "Poxwalker: Feel No Pain 5+ (datasheet)" in out["notes"]

    # the same datasheet (of that edition) without its Feel No Pain, as a user's file (same
    # faction and name)
    data = yaml.safe_load(shipped.path.read_text(encoding="utf-8"))
    del data["models"][0]["feel_no_pain"]
    (tmp_path / "poxwalkers.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    out = shoot("intercessor-squad", "death-guard/poxwalkers", *args, dirs=[tmp_path])
    assert totals(out)["models_destroyed"] == approx(without)


# ---------------------------------------------------------------------------------------------
# Feel No Pain against mortal wounds / Psychic Attacks


@pytest.mark.parametrize("edition", EDITIONS)
def test_feel_no_pain_against_mortal_wounds_only(tmp_path: Path, edition: str) -> None:
    tgt = target_with(tmp_path, feel_no_pain_mortal=4)
    # normal damage: the Feel No Pain does not apply: 6 x 5/6 x 1
    plain = shooter(tmp_path, gun())
    out = shoot(plain, tgt, "--edition", edition, dirs=[tmp_path])
    assert totals(out)["damage"] == approx(5)
    # [DEVASTATING WOUNDS]: the Critical Wounds (1/6) are mortal wounds, halved by a 4+
    dev = shooter(tmp_path, gun(abilities=["devastating wounds"]))
    out = shoot(dev, tgt, "--edition", edition, dirs=[tmp_path])
    assert totals(out)["mortal_wounds"] == approx(1)
    assert totals(out)["damage"] == approx(6 * (Fr(4, 6) + Fr(1, 6) * Fr(1, 2)))


@pytest.mark.parametrize("edition", EDITIONS)
def test_feel_no_pain_against_psychic_attacks_only(tmp_path: Path, edition: str) -> None:
    tgt = target_with(tmp_path, feel_no_pain_psychic=4)
    out = shoot(shooter(tmp_path, gun()), tgt, "--edition", edition, dirs=[tmp_path])
    assert totals(out)["damage"] == approx(5)  # not a Psychic Attack
    psychic = shooter(tmp_path, gun(abilities=["psychic", "devastating wounds"]))
    out = shoot(psychic, tgt, "--edition", edition, dirs=[tmp_path])
    # every point of a Psychic Attack, normal or mortal, is halved by the 4+
    assert totals(out)["damage"] == approx(Fr(5, 2))


def test_the_better_feel_no_pain_applies(tmp_path: Path) -> None:
    # Feel No Pain 6+ against everything and 4+ against mortal wounds: normal damage 6 x 4/6
    # x 5/6 kept; the Critical Wounds' mortal wounds 6 x 1/6 x 1/2 kept
    tgt = target_with(tmp_path, feel_no_pain=6, feel_no_pain_mortal=4)
    dev = shooter(tmp_path, gun(abilities=["devastating wounds"]))
    out = shoot(dev, tgt, dirs=[tmp_path])
    assert totals(out)["damage"] == approx(6 * Fr(4, 6) * Fr(5, 6) + 6 * Fr(1, 6) * Fr(1, 2))


# ---------------------------------------------------------------------------------------------
# Damage reduced or halved, per model


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize(
    ("D", "fields", "per_wound"),
    [
        (2, {"damage_reduction": 1}, Fr(1)),
        (1, {"damage_reduction": 1}, Fr(1)),  # never below 1
        ("D3", {"damage_reduction": 2}, Fr(1)),  # 1, 2, 3 -> 1, 1, 1
        (3, {"half_damage": True}, Fr(2)),  # 1.5 rounds up
        ("D6", {"half_damage": True}, Fr(2)),  # 1, 1, 2, 2, 3, 3
        (6, {"half_damage": True, "damage_reduction": 1}, Fr(2)),  # halve (3), then -1
        (1, {"half_damage": True, "damage_reduction": 1}, Fr(1)),
    ],
)
def test_damage_reduction_and_halving(tmp_path: Path, edition, D, fields, per_wound) -> None:
    tgt = target_with(tmp_path, **fields)
    out = shoot(shooter(tmp_path, gun(D=D)), tgt, "--edition", edition, dirs=[tmp_path])
    assert totals(out)["damage"] == approx(5 * per_wound)  # 5 failed saves (no save)


def test_damage_reduction_is_per_model(tmp_path: Path) -> None:
    # one model with -1 Damage allocated before one without; one D2 attack, S8 into T4 (2+,
    # 5/6), no save: it lands on the first model, 2 - 1 = 1 damage
    armoured = model("Armoured", T=4, Sv=7, W=1)
    armoured["damage_reduction"] = 1
    plain = model("Plain", T=4, Sv=7, W=1)
    write_unit(tmp_path, "two-models", models=[(armoured, 1), (plain, 1)])
    out = shoot(shooter(tmp_path, gun(A=1, D=2)), "two-models", dirs=[tmp_path])
    assert out["target"]["allocation_order"] == ["Armoured", "Plain"]
    assert totals(out)["damage"] == approx(Fr(5, 6) * 1)
    # the other way round, the attack lands on the plain model: 2 damage
    write_unit(tmp_path, "two-models-b", models=[(plain, 1), (armoured, 1)])
    out = shoot(shooter(tmp_path, gun(A=1, D=2)), "two-models-b", dirs=[tmp_path])
    assert totals(out)["damage"] == approx(Fr(5, 6) * 2)


# ---------------------------------------------------------------------------------------------
# Damaged profiles: --wounds-left


@pytest.mark.parametrize("edition", EDITIONS)
def test_damaged_profile_applies_at_or_below_its_threshold(tmp_path: Path, edition: str) -> None:
    bs3 = weapon(A=6, skill=3, S=8)
    knight = shooter(tmp_path, bs3, W=10, damaged={"wounds_left": 5, "hit_mod": -1})
    tgt = target_with(tmp_path)
    full = 6 * Fr(4, 6) * Fr(5, 6)  # 3+ to hit, 2+ to wound, no save
    hurt = 6 * Fr(3, 6) * Fr(5, 6)  # -1: 4+ to hit
    for flags, expected in (
        ((), full),
        (("--wounds-left", "6"), full),
        (("--wounds-left", "5"), hurt),
        (("--wounds-left", "1"), hurt),
    ):
        out = shoot(knight, tgt, "--edition", edition, *flags, dirs=[tmp_path])
        assert totals(out)["failed_saves"] == approx(expected), flags
    out = shoot(knight, tgt, "--wounds-left", "5", dirs=[tmp_path])
    assert any("-1 to its Hit rolls" in n for n in out["notes"])


def test_damaged_hit_modifier_is_capped_with_the_others(tmp_path: Path) -> None:
    bs3 = weapon(A=6, skill=3, S=8)
    knight = shooter(tmp_path, bs3, W=10, damaged={"wounds_left": 5, "hit_mod": -1})
    tgt = target_with(tmp_path)
    out = shoot(knight, tgt, "--wounds-left", "2", "--hit-mod", "-1", dirs=[tmp_path])
    assert totals(out)["hits"] == approx(6 * Fr(3, 6))  # -2 capped at -1: 4+


def test_wounds_left_is_refused_where_it_cannot_apply(tmp_path: Path) -> None:
    squad = shooter(tmp_path, weapon(A=1, skill=3), W=2, models=5)
    tgt = target_with(tmp_path)
    res = invoke(["shoot", squad, "--target", tgt, "--wounds-left", "1", "--datasheets", tmp_path])
    assert res.exit_code == 1 and "only for an attacker of one model" in res.output
    knight = shooter(tmp_path, weapon(A=1, skill=3), W=10)
    res = invoke(
        ["shoot", knight, "--target", tgt, "--wounds-left", "11", "--datasheets", tmp_path]
    )
    assert res.exit_code == 1 and "W 10" in res.output
    res = invoke(["shoot", knight, "--target", tgt, "--wounds-left", "0", "--datasheets", tmp_path])
    assert res.exit_code == 2 and "Traceback" not in res.output


# ---------------------------------------------------------------------------------------------
# Recognised defensive abilities as effects (rules: in the datasheet)


@pytest.mark.parametrize("edition", EDITIONS)
def test_minus_one_to_hit_against_ranged_attacks(tmp_path: Path, edition: str) -> None:
    tgt = target_with(tmp_path, rules=["unit-hit-minus-1-ranged"])
    shot = shooter(
        tmp_path, weapon(A=6, skill=3, S=8), weapon("Sword", range="melee", A=6, skill=3, S=8)
    )
    out = shoot(shot, tgt, "--edition", edition, dirs=[tmp_path])
    assert totals(out)["hits"] == approx(6 * Fr(3, 6))  # 3+ becomes 4+
    assert "unit-hit-minus-1-ranged" in out["effects"]
    out = fight(shot, tgt, "--edition", edition, dirs=[tmp_path])
    assert totals(out)["hits"] == approx(6 * Fr(4, 6))  # melee: no change


@pytest.mark.parametrize("edition", EDITIONS)
def test_minus_one_to_wound_against_stronger_attacks(tmp_path: Path, edition: str) -> None:
    tgt = target_with(tmp_path, rules=["unit-wound-minus-1-vs-stronger"])
    strong = shooter(tmp_path, gun())  # S8 > T4: 2+ becomes 3+
    out = shoot(strong, tgt, "--edition", edition, dirs=[tmp_path])
    assert totals(out)["wounds"] == approx(6 * Fr(4, 6))
    even = shooter(tmp_path, weapon(A=6, skill=None, S=4, abilities=["torrent"]))
    out = shoot(even, tgt, "--edition", edition, dirs=[tmp_path])
    assert totals(out)["wounds"] == approx(6 * Fr(3, 6))  # S4 = T4: unchanged 4+


def test_armour_penetration_worsened(tmp_path: Path) -> None:
    m = model("Dummy", T=4, Sv=3, W=20)
    write_unit(tmp_path, "armoured", models=[(m, 5)], rules=["unit-ap-worsen-1"])
    out = shoot(shooter(tmp_path, gun(AP=-2)), "armoured", dirs=[tmp_path])
    # AP-2 worsened to AP-1: Sv 3+ becomes 4+, failing on 1-3
    assert totals(out)["failed_saves"] == approx(5 * Fr(3, 6))
    out = shoot(shooter(tmp_path, gun(AP=0)), "armoured", dirs=[tmp_path])
    assert totals(out)["failed_saves"] == approx(5 * Fr(2, 6))  # AP 0 stays 0


def test_batch_attacker_wounds_left(tmp_path: Path) -> None:
    """Fresh-user trial: ``attacker: {name: ..., wounds_left: 3}`` was refused in a batch
    ("wounds_left is the target's wounded model"). A batch attacker's ``wounds_left`` is
    ``--wounds-left``: the damaged profile's -1 to hit (3+ becomes 4+) at or below its
    threshold, in a single run and in a sequence step; refused as --wounds-left is."""
    bs3 = weapon(A=6, skill=3, S=8)
    knight = shooter(tmp_path, bs3, W=10, damaged={"wounds_left": 5, "hit_mod": -1})
    squad = shooter(tmp_path, weapon(A=1, skill=3), W=2, models=5)
    tgt = target_with(tmp_path)
    full = 6 * Fr(4, 6) * Fr(5, 6)  # 3+ to hit, 2+ to wound, no save
    hurt = 6 * Fr(3, 6) * Fr(5, 6)  # -1: 4+ to hit
    batch = tmp_path / "b.yaml"
    batch.write_text(
        f"targets: [{tgt}]\nruns:\n"
        f"  - {{name: whole, attacker: {knight}}}\n"
        f"  - {{name: hurt, attacker: {{name: {knight}, wounds_left: 3}}}}\n"
        f"  - {{name: above, attacker: {{name: {knight}, wounds_left: 6}}}}\n"
        f"  - {{name: seq, sequence: [{{attacker: {{name: {knight}, wounds_left: 3}}}}]}}\n",
        encoding="utf-8",
    )
    import json

    res = invoke(["compare", batch, "--datasheets", tmp_path, "--json"])
    assert res.exit_code == 0, res.output
    rows = {r["run"]: r for r in json.loads(res.stdout)}
    assert rows["whole"]["expected"]["failed_saves"] == approx(full)
    assert rows["above"]["expected"]["failed_saves"] == approx(full)
    assert rows["hurt"]["expected"]["failed_saves"] == approx(hurt)
    assert rows["seq"]["expected"]["failed_saves"] == approx(hurt)
    assert any("-1 to its Hit rolls" in n for n in rows["hurt"]["notes"])
    batch.write_text(
        f"targets: [{tgt}]\nruns:\n"
        f"  - {{name: many, attacker: {{name: {squad}, wounds_left: 1}}}}\n"
        f"  - {{name: over, attacker: {{name: {knight}, wounds_left: 11}}}}\n",
        encoding="utf-8",
    )
    res = invoke(["compare", batch, "--datasheets", tmp_path])
    assert res.exit_code == 1
    assert "run 'many': attacker.wounds_left: wounds_left 1: only for an attacker of one" in (
        res.stderr
    )
    assert "run 'over': attacker.wounds_left: wounds_left 11: " in res.stderr
    assert "has W 10 (give 1 to 10)" in res.stderr
