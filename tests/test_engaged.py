"""Shooting while engaged (``--engaged``) and at an engaged target (``--target-engaged``),
against values worked out by hand (a Hit roll needing N+ hits with P = (7 - N) / 6).

Rules, in our words:

* 10th edition, Core rules: Pistol (seed 000): an engaged unit with Pistols can shoot, with its
  Pistols only, at a unit it is engaged with; a MONSTER/VEHICLE model may shoot Pistols and
  other weapons. Big Guns Never Tire (not in the seeds; the published rule): a MONSTER/VEHICLE
  unit shoots while engaged, its non-Pistol attacks at -1 to hit, and non-Pistol attacks at
  an engaged MONSTER/VEHICLE take -1 to hit. Core rules: Blast: never at a unit within
  Engagement Range of the attacker's army.
* Edition 11, 10.06 Close-Quarters Shooting: an engaged unit shoots if it has [CLOSE-QUARTERS]
  weapons or is a MONSTER/VEHICLE unit; MONSTER/VEHICLE models take -1 to hit unless the attack
  is a [CLOSE-QUARTERS] weapon's at a unit their unit is engaged with, and their [BLAST]
  weapons cannot target such a unit; other models shoot [CLOSE-QUARTERS] weapons only, at
  units they are engaged with. 17.03: ranged attacks at an engaged MONSTER/VEHICLE take -1
  to hit (not [CLOSE-QUARTERS] attacks by a unit engaged with it), never with [BLAST]. 04.02:
  otherwise a target must be unengaged. 24.16 [HEAVY] needs an unengaged unit.
* Astra Militarum (edition 11, Steel Hammer), Ceaseless Cannonade: a TITANIC or SQUADRON unit
  shooting a unit it is engaged with takes no Hit-roll penalty for being engaged (not with
  [INDIRECT FIRE] weapons) and may use [BLAST] weapons against it.
"""

from __future__ import annotations

from fractions import Fraction as Fr
from pathlib import Path

import pytest
from helpers import write_datasheet
from oracle import approx, check_row, refused, shoot, weapon_row

ED11 = ("--edition", "11")


def _sheet(folder: Path, name: str, keywords, faction: str, weapons, count=1, **stats) -> None:
    """A unit of ``count`` models of ``faction`` (its keyword the faction's in capitals)."""
    write_datasheet(folder, name, weapons, models=count, keywords=keywords, faction=faction,
                    faction_keywords=[faction.upper()], stats=stats)  # fmt: skip


def _gun(name: str, *abilities: str, A: int = 6) -> dict:
    return {"name": name, "range": 24, "A": A, "skill": 3, "S": 8, "AP": 0, "D": 1,
            "abilities": list(abilities)}  # fmt: skip


@pytest.fixture
def sheets(tmp_path) -> Path:
    """A SQUADRON VEHICLE of the Astra Militarum (BS3+ A6 guns: plain, [INDIRECT FIRE], [BLAST],
    [PISTOL]); a five-model infantry squad with a rifle and a pistol; one with a rifle only;
    a VEHICLE target and an infantry target of ten models."""
    guns = [_gun("Cannon"), _gun("Mortar", "indirect fire"), _gun("Blaster", "blast"),
            _gun("Hand gun", "pistol")]  # fmt: skip
    _sheet(tmp_path, "Test Tank", ["VEHICLE", "SQUADRON"], "Astra Militarum", guns, W=13, T=11)
    rifle, sidearm = _gun("Rifle", A=2), _gun("Sidearm", "pistol", A=1)
    _sheet(tmp_path, "Test Squad", ["INFANTRY"], "Testers", [rifle, sidearm], count=5)
    _sheet(tmp_path, "Rifle Squad", ["INFANTRY"], "Testers", [rifle], count=5)
    _sheet(tmp_path, "Test Walker", ["VEHICLE"], "Testers", [], W=10, T=10)
    _sheet(tmp_path, "Test Mob", ["INFANTRY"], "Testers", [], count=10)
    return tmp_path


def approx_map(want: dict) -> object:
    """``want`` (name -> value, Fractions allowed) as one ``pytest.approx`` (absolute 1e-6)."""
    return pytest.approx({k: float(v) for k, v in want.items()}, abs=1e-6, rel=0)


def _hits(out: dict) -> dict[str, float]:
    return {w["name"]: w["expected"]["hits"] for w in out["weapons"]}


def _run(sheets: Path, attacker: str, target: str, *flags) -> dict:
    return shoot(attacker, target, *flags, dirs=[sheets])


# ---------------------------------------------------------------------------------------------
# 10th edition


def test_ed10_vehicle_engaged_minus_one_but_not_pistols(sheets) -> None:
    """BS3+ A6: 6 x 4/6 = 4 hits; engaged, a non-Pistol weapon hits on 4+: 6 x 3/6 = 3; the
    Pistol keeps 4. The target not engaged (--engaged alone): the [BLAST] weapon shoots
    (6 + 2 per ten models = 8 attacks x 3/6 = 4)."""
    free = _hits(_run(sheets, "test tank", "test mob"))
    assert free == approx_map({"Cannon": 4, "Mortar": 4, "Blaster": Fr(16, 3), "Hand gun": 4})
    out = _run(sheets, "test tank", "test mob", "--engaged")
    assert _hits(out) == approx_map({"Cannon": 3, "Mortar": 3, "Blaster": 4, "Hand gun": 4})


def test_ed10_blast_never_at_an_engaged_target(sheets) -> None:
    """--engaged --target-engaged: the [BLAST] weapon is left out (Core rules: Blast), with a
    note naming it; the others as above."""
    out = _run(sheets, "test tank", "test mob", "--engaged", "--target-engaged")
    assert _hits(out) == approx_map({"Cannon": 3, "Mortar": 3, "Hand gun": 4})
    assert any("Blaster cannot shoot it" in n and "[BLAST]" in n for n in out["notes"])
    out = _run(sheets, "test tank", "test mob", "--target-engaged")  # another unit engaged it
    assert "Blaster" not in _hits(out) and _hits(out)["Cannon"] == approx(4)


def test_ed10_infantry_engaged_shoots_its_pistols_only(sheets) -> None:
    """Core rules: Pistol: the squad shoots its Sidearms only (5 x 1 x 4/6 = 10/3 hits, no
    penalty); unengaged the calculator picks the Rifles (5 x 2 x 4/6 = 20/3), not both."""
    out = _run(sheets, "test squad", "test mob", "--engaged")
    assert _hits(out) == approx_map({"Sidearm": Fr(10, 3)})
    assert any("Rifle cannot shoot" in n for n in out["notes"])
    assert _hits(_run(sheets, "test squad", "test mob")) == approx_map({"Rifle": Fr(20, 3)})


def test_ed10_target_engaged_monster_vehicle_minus_one(sheets) -> None:
    """Big Guns Never Tire, against: a ranged attack at an engaged MONSTER/VEHICLE takes -1 to
    hit unless made with a Pistol. The squad's Rifles (A2 BS3+, 5 models) at the engaged
    walker hit on 4+: 10 x 3/6 = 5 (unengaged 20/3); engaged itself (--engaged: its Sidearms
    only, at the walker it is engaged with) the Pistols take no -1: 5 x 4/6 = 10/3."""
    assert _hits(_run(sheets, "test squad", "test walker")) == approx_map({"Rifle": Fr(20, 3)})
    out = _run(sheets, "test squad", "test walker", "--target-engaged")
    assert _hits(out) == approx_map({"Rifle": 5})
    assert not any("not in the 10th-edition seeds" in n for n in out["notes"])
    out = _run(sheets, "test squad", "test walker", "--engaged")
    assert _hits(out) == approx_map({"Sidearm": Fr(10, 3)})


def test_ed10_engaged_vehicle_at_an_engaged_vehicle(sheets) -> None:
    """Big Guns Never Tire, by and against: the tank (BS3+ A6) engaged with the engaged walker
    takes -1 twice on its Cannon and Mortar, capped at -1: 4+, 6 x 3/6 = 3 hits; with
    --hit-mod 1 the sum is -1: still 3 (each -1 applied); its Pistol neither: 6 x 4/6 = 4.
    Not engaged itself (--target-engaged alone): -1 once, 3 hits; --hit-mod 1 cancels it: 4."""
    both = ("--engaged", "--target-engaged")
    want = {"Cannon": 3, "Mortar": 3, "Hand gun": 4}
    assert _hits(_run(sheets, "test tank", "test walker", *both)) == approx_map(want)
    out = _run(sheets, "test tank", "test walker", *both, "--hit-mod", "1")
    assert _hits(out) == approx_map({"Cannon": 3, "Mortar": 3, "Hand gun": Fr(5)})
    out = _run(sheets, "test tank", "test walker", "--target-engaged")
    assert _hits(out) == approx_map(want)
    out = _run(sheets, "test tank", "test walker", "--target-engaged", "--hit-mod", "1")
    assert _hits(out) == approx_map({"Cannon": 4, "Mortar": 4, "Hand gun": 5})


@pytest.mark.parametrize("edition", ["10", "11"])
def test_engaged_unit_without_pistols_refused(sheets, edition) -> None:
    """Neither a MONSTER/VEHICLE nor Pistols/[CLOSE-QUARTERS]: it cannot shoot while engaged."""
    r = refused("shoot", "rifle squad", "test mob", "--engaged", "--edition", edition,
                "--datasheets", str(sheets))  # fmt: skip
    assert "cannot shoot while engaged" in r.stdout + r.stderr


def test_engaged_has_no_effect_in_a_fight(sheets) -> None:
    """The flags are the Shooting phase's: a fight says they change nothing."""
    club = {"name": "Club", "range": "melee", "A": 2, "skill": 3, "S": 4, "AP": 0, "D": 1}
    _sheet(sheets, "Test Brawlers", ["INFANTRY"], "Testers", [club], count=5)
    from oracle import fight

    out = fight("test brawlers", "test mob", "--engaged", dirs=[sheets])
    assert any("--engaged" in n and "no effect in this phase" in n for n in out["notes"])


# ---------------------------------------------------------------------------------------------
# Edition 11


def test_ed11_close_quarters_shooting_vehicle(sheets) -> None:
    """10.06: engaged, at an unengaged unit: every attack -1, the [CLOSE-QUARTERS] Hand gun too
    (its target is not a unit the tank is engaged with): 6 x 3/6 = 3 each, the Blaster
    (6 + 2 attacks) 4. At the unit it is engaged with: the Hand gun has no penalty (4), the
    Blaster cannot shoot."""
    out = _run(sheets, "test tank", "test mob", "--engaged", *ED11)
    assert _hits(out) == approx_map({"Cannon": 3, "Mortar": 3, "Blaster": 4, "Hand gun": 3})
    out = _run(sheets, "test tank", "test mob", "--engaged", "--target-engaged", *ED11)
    assert _hits(out) == approx_map({"Cannon": 3, "Mortar": 3, "Hand gun": 4})


def test_ed11_infantry_close_quarters_only(sheets) -> None:
    """10.06, a model that is not a MONSTER/VEHICLE: [CLOSE-QUARTERS] weapons only, no
    penalty: 5 x 1 x 4/6 = 10/3 hits."""
    out = _run(sheets, "test squad", "test mob", "--engaged", *ED11)
    assert _hits(out) == approx_map({"Sidearm": Fr(10, 3)})


def test_ed11_engaged_monster_vehicle_target(sheets) -> None:
    """17.03: the squad shooting an engaged VEHICLE (another unit fights it): -1, 5 x 2 x 3/6 =
    5 hits. Engaged with it, its [CLOSE-QUARTERS] Sidearms have no penalty: 10/3."""
    out = _run(sheets, "test squad", "test walker", "--target-engaged", *ED11)
    assert _hits(out) == approx_map({"Rifle": 5})
    out = _run(sheets, "test squad", "test walker", "--engaged", "--target-engaged", *ED11)
    assert _hits(out) == approx_map({"Sidearm": Fr(10, 3)})


def test_ed11_two_penalties_capped(sheets) -> None:
    """The tank engaged with an engaged VEHICLE: 10.06's -1 and 17.03's -1 sum to -2, capped at
    -1 (6 x 3/6 = 3); with --hit-mod 1 the sum is -1 (still 3, not the 4 one penalty gives).
    Its Hand gun: 17.03 exempts it, 10.06 exempts it: 4; with --hit-mod 1: +1 → 2+: 5."""
    flags = ("--engaged", "--target-engaged", *ED11)
    out = _run(sheets, "test tank", "test walker", *flags)
    assert _hits(out) == approx_map({"Cannon": 3, "Mortar": 3, "Hand gun": 4})
    out = _run(sheets, "test tank", "test walker", *flags, "--hit-mod", 1)
    assert _hits(out) == approx_map({"Cannon": 3, "Mortar": 3, "Hand gun": 5})


@pytest.mark.parametrize(
    ("attacker", "target", "flags", "words"),
    [
        ("test tank", "test mob", ("--engaged", "--stationary"), "drop --stationary"),
        ("test tank", "test mob", ("--engaged", "--indirect"), "10.07"),
        ("test squad", "test mob", ("--target-engaged",), "04.02"),
    ],
)
def test_ed11_refusals(sheets, attacker, target, flags, words) -> None:
    """--stationary means unengaged in edition 11 ([HEAVY], 24.16); indirect shooting needs an
    unengaged unit (10.07); an engaged target that is not a MONSTER/VEHICLE can only be shot
    by a unit engaged with it (04.02, 10.06)."""
    r = refused("shoot", attacker, target, *flags, *ED11, "--datasheets", str(sheets))
    assert words in r.stdout + r.stderr


# ---------------------------------------------------------------------------------------------
# Ceaseless Cannonade (Astra Militarum, Steel Hammer)


def test_ceaseless_cannonade_lifts_the_penalty(sheets) -> None:
    """At the unit it is engaged with: no 10.06 penalty (Cannon 4), except the [INDIRECT FIRE]
    Mortar (3); the Blaster shoots (8 x 4/6 = 16/3); the Hand gun had none (4)."""
    flags = ("--engaged", "--target-engaged", *ED11, "--effect", "ceaseless-cannonade")
    out = _run(sheets, "test tank", "test mob", *flags)
    assert _hits(out) == approx_map({"Cannon": 4, "Mortar": 3, "Blaster": Fr(16, 3), "Hand gun": 4})


def test_ceaseless_cannonade_only_at_the_engaged_unit(sheets) -> None:
    """Engaged but shooting another unit: the rule does not act (Cannon 3); at a unit another
    friendly unit is engaged with (not the tank): no [BLAST] (the rule needs none engaged)."""
    fx = ("--effect", "ceaseless-cannonade", *ED11)
    assert _hits(_run(sheets, "test tank", "test mob", "--engaged", *fx))["Cannon"] == approx(3)
    out = _run(sheets, "test tank", "test walker", "--target-engaged", *fx)
    assert "Blaster" not in _hits(out)
    assert _hits(out)["Cannon"] == approx(3)  # 17.03 stays


def test_ceaseless_cannonade_keeps_17_03(sheets) -> None:
    """At an engaged VEHICLE it is engaged with: 10.06 is lifted, 17.03's -1 stays: 3 hits."""
    flags = ("--engaged", "--target-engaged", *ED11, "--effect", "ceaseless-cannonade")
    assert _hits(_run(sheets, "test tank", "test walker", *flags))["Cannon"] == approx(3)


def test_leman_russ_from_the_data() -> None:
    """Data 912's Leman Russ Battle Tank (lascannon A1 BS4+; its Armoured Spearhead re-rolls
    Hit rolls of 1 here): 1/2 + 1/6 x 1/2 = 7/12 hits; engaged with the Boyz it shoots: 5+,
    1/3 + 1/6 x 1/3 = 7/18, and the battle cannon ([BLAST]) cannot shoot; Ceaseless
    Cannonade gives back 7/12 and the battle cannon. 10th edition (BS4+, no re-roll here):
    1/2, engaged 1/3."""
    ed11 = ("--weapon", "lascannon", *ED11)
    check_row(weapon_row(shoot("leman russ battle tank", "boyz", *ed11)), hits=Fr(7, 12))
    out = shoot("leman russ battle tank", "boyz", "--engaged", "--target-engaged", *ED11)
    assert _hits(out) == approx_map({"Lascannon": Fr(7, 18)})
    out = shoot("leman russ battle tank", "boyz", "--engaged", "--target-engaged", *ED11,
                "--effect", "ceaseless-cannonade")  # fmt: skip
    assert _hits(out)["Lascannon"] == approx(Fr(7, 12))
    assert "Leman Russ battle cannon" in _hits(out)
    out = shoot("leman russ battle tank", "boyz", "--weapon", "lascannon", "--engaged")
    check_row(weapon_row(out), hits=Fr(1, 3))
    check_row(weapon_row(shoot("leman russ battle tank", "boyz", "--weapon", "lascannon")),
              hits=Fr(1, 2))  # fmt: skip


# ---------------------------------------------------------------------------------------------
# The flags in a batch file and in calc sequence steps


def test_engaged_in_a_batch_and_a_sequence(sheets, tmp_path) -> None:
    """A batch run's ``conditions: [engaged, target-engaged]`` and a sequence step's
    ``--engaged --target-engaged`` are the flags: the tank's Cannon hits 3 times (6 x 3/6), its
    Blaster does not shoot."""
    from helpers import cli_json

    from wh40k_calc.batch import load_batch
    from wh40k_calc.catalog import Catalog
    from wh40k_calc.compare.jobs import jobs_from_batch

    path = tmp_path / "batch.yaml"
    path.write_text(
        "runs:\n  - name: engaged tank\n    attacker: test tank\n    target: test mob\n"
        "    conditions: [engaged, target-engaged]\n"
    )
    (job,) = jobs_from_batch(load_batch(path), Catalog([sheets]))
    cond = job.selection.conditions
    assert cond.engaged and cond.target_engaged
    seq = cli_json("sequence", "-t", "test mob", "shoot 'test tank' --engaged --target-engaged",
                   dirs=[sheets])  # fmt: skip
    step = {w["name"]: w["expected"]["hits"] for w in seq["steps"][0]["weapons"]}
    assert step == approx_map({"Cannon": 3, "Mortar": 3, "Hand gun": 4})
