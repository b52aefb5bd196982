"""Shooting after an Advance move (``--advanced``), against values worked out by hand.

Rules, in our words:

* 10th edition: Core rules, Advance Moves (seed 000): a unit that Advanced cannot shoot that
  turn; the Assault ability (10th-edition Core rules; the seeds README lists [ASSAULT]) lets a
  unit that Advanced and has Assault weapons shoot, with those weapons only. No Hit-roll
  modifier. A unit either Remains Stationary or Advances ([HEAVY] reads "Remained Stationary").
* Edition 11: 10.05 Assault Shooting: an unengaged unit that made an advance move and has one
  or more [ASSAULT] weapons shoots, selecting only [ASSAULT] weapons; no modifier. 10.06
  Close-Quarters Shooting needs a unit that did not advance, 10.07 Indirect Shooting likewise;
  09.06: the unit is unengaged after an advance move.
* Fire Overwatch (10th edition stratagem, seed 000; edition 11, 15.08) is used in the
  opponent's turn, when the unit has made no Advance move.

The squad: five models, each with a carbine (A2 BS3+ S4 AP0 D1 [ASSAULT]), a cannon (A1 BS3+
S8 AP-2 D2 [HEAVY]) and a sidearm ([PISTOL], A1 BS3+ S4 AP0 D1). The mob: twenty models,
T4 Sv4+ W1 (more models than the squad has attacks, so every attack that gets through
destroys one model and expected models destroyed are sums). Per attack, BS3+ hits with 4/6.
"""

from __future__ import annotations

from fractions import Fraction as Fr
from pathlib import Path

import pytest
from helpers import cli_json, write_datasheet
from oracle import approx, refused, shoot

ED11 = ("--edition", "11")

# per attack: hit 4/6; carbine S4 v T4 wounds on 4+ (1/2), Sv4+ against AP0 fails 1/2
CARBINE = Fr(4, 6) * Fr(1, 2) * Fr(1, 2)  # 1/6 of an attack destroys a model
# cannon S8 v T4 wounds on 2+ (5/6), Sv4+ against AP-2 is 6+: fails 5/6
CANNON = Fr(4, 6) * Fr(5, 6) * Fr(5, 6)  # 25/54
CANNON_HEAVY = Fr(5, 6) * Fr(5, 6) * Fr(5, 6)  # [HEAVY] +1: 2+ hits


def _gun(name: str, *abilities: str, A: int = 1, S: int = 4, AP: int = 0, D: int = 1) -> dict:
    return {"name": name, "range": 24, "A": A, "skill": 3, "S": S, "AP": AP, "D": D,
            "abilities": list(abilities)}  # fmt: skip


def _sheet(folder: Path, name: str, weapons: list[dict], count: int) -> None:
    write_datasheet(folder, name, weapons, models=count, faction_keywords=["TESTERS"])


@pytest.fixture
def sheets(tmp_path) -> Path:
    guns = [_gun("Carbine", "assault", A=2), _gun("Cannon", "heavy", S=8, AP=-2, D=2),
            _gun("Sidearm", "pistol")]  # fmt: skip
    _sheet(tmp_path, "Dash Squad", guns, 5)
    _sheet(tmp_path, "Slow Squad", [_gun("Cannon", "heavy", S=8, AP=-2, D=2)], 5)
    _sheet(tmp_path, "Mortar Squad", [_gun("Mortar", "assault", "indirect fire", A=2)], 5)
    _sheet(tmp_path, "Test Mob", [], 20)
    return tmp_path


def _weapons(out: dict) -> dict[str, float]:
    return {w["name"]: w["expected"]["damage"] for w in out["weapons"]}


@pytest.mark.parametrize("edition", ["10", "11"])
def test_only_assault_weapons_shoot_after_advancing(sheets, edition) -> None:
    """Unengaged the squad shoots carbine and cannon (not the sidearm: the better of Pistols
    or the other weapons), 10 x 1/6 + 5 x 25/54 models; after an Advance only the carbines,
    at no penalty: 10 x 1/6 = 5/3 models destroyed (hits 10 x 4/6). A note names the weapons
    left out; the JSON lists the condition."""
    flags = ("--edition", edition)
    free = shoot("dash squad", "test mob", *flags, dirs=[sheets])
    assert free["expected"]["models_destroyed"] == approx(10 * CARBINE + 5 * CANNON)
    out = shoot("dash squad", "test mob", "--advanced", *flags, dirs=[sheets])
    assert set(_weapons(out)) == {"Carbine"}
    assert out["weapons"][0]["expected"]["hits"] == approx(Fr(20, 3))
    assert out["expected"]["models_destroyed"] == approx(10 * CARBINE)
    assert out["conditions"]["advanced"] is True and free["conditions"]["advanced"] is False
    (note,) = [n for n in out["notes"] if n.startswith("advanced (--advanced)")]
    assert "Cannon, Sidearm cannot shoot" in note and "[ASSAULT]" in note


@pytest.mark.parametrize("edition", ["10", "11"])
def test_no_assault_weapon_is_refused(sheets, edition) -> None:
    """Nothing with [ASSAULT] among the weapons: refused, naming them and the rule."""
    r = refused("shoot", "slow squad", "test mob", "--advanced", "--edition", edition,
                dirs=[sheets])  # fmt: skip
    text = r.stdout + r.stderr
    assert "cannot shoot after an Advance move" in text and "(Cannon)" in text


def test_the_selected_weapons_decide(sheets) -> None:
    """``--weapon`` picks the cannons only: none has [ASSAULT], so refused, though the
    datasheet's carbines would shoot."""
    r = refused("shoot", "dash squad", "test mob", "--advanced", "--weapon", "cannon x5",
                dirs=[sheets])  # fmt: skip
    assert "none of its weapons here has [ASSAULT] (Cannon)" in r.stdout + r.stderr


@pytest.mark.parametrize("edition", ["10", "11"])
def test_advanced_and_engaged_refused(sheets, edition) -> None:
    r = refused("shoot", "dash squad", "test mob", "--advanced", "--engaged", "--edition",
                edition, dirs=[sheets])  # fmt: skip
    assert "--advanced with --engaged" in r.stdout + r.stderr


@pytest.mark.parametrize("edition", ["10", "11"])
def test_advanced_and_overwatch_refused(sheets, edition) -> None:
    """Fire Overwatch is used in the opponent's turn (10th edition: the stratagem, in the
    opponent's Movement or Charge phase; edition 11: 15.08, end of the opponent's Movement
    phase); a unit Advances in its own Movement phase, so it has not Advanced that turn."""
    r = refused("shoot", "dash squad", "test mob", "--advanced", "--overwatch", "--edition",
                edition, dirs=[sheets])  # fmt: skip
    text = r.stdout + r.stderr
    assert "--advanced with --overwatch" in text and "opponent's turn" in text
    assert "Traceback" not in text


def test_stationary_refused_in_10th_kept_in_11(sheets) -> None:
    """10th: a unit that Advanced did not Remain Stationary. Edition 11: --stationary says no
    model moved more than 3" (24.16), which an advance move may keep to: the cannon given
    [ASSAULT] then hits on 2+ ([HEAVY]): 5 x 5/6 x 5/6 x 5/6 models."""
    r = refused("shoot", "dash squad", "test mob", "--advanced", "--stationary", dirs=[sheets])
    assert "did not Remain Stationary" in r.stdout + r.stderr
    out = shoot("slow squad", "test mob", "--advanced", "--stationary", "--add-ability",
                "assault", *ED11, dirs=[sheets])  # fmt: skip
    assert out["expected"]["models_destroyed"] == approx(5 * CANNON_HEAVY)


def test_indirect_refused_in_11_kept_in_10th(sheets) -> None:
    """Edition 11: indirect shooting (10.07) needs a unit that did not advance. 10th: the
    [INDIRECT FIRE] ability is the weapon's: an Assault mortar may shoot unseen after an
    Advance: -1 to hit and 1-3 fail, so 4+: 10 x 1/2 hits (target in cover: Sv3+ against AP0
    fails 1/3): 10 x 1/2 x 1/2 x 1/3 = 5/6."""
    r = refused("shoot", "mortar squad", "test mob", "--advanced", "--indirect", *ED11,
                dirs=[sheets])  # fmt: skip
    assert "10.07" in r.stdout + r.stderr
    out = shoot("mortar squad", "test mob", "--advanced", "--indirect", dirs=[sheets])
    assert out["expected"]["models_destroyed"] == approx(Fr(5, 6))


def test_add_ability_assault_lets_a_weapon_shoot(sheets) -> None:
    """``--add-ability "cannon: assault"``: both carbine and cannon shoot after the Advance,
    10 x 1/6 + 5 x 25/54; without --advanced the grant is said to change nothing."""
    out = shoot("dash squad", "test mob", "--advanced", "--add-ability", "cannon: assault",
                dirs=[sheets])  # fmt: skip
    assert set(_weapons(out)) == {"Carbine", "Cannon"}
    assert out["expected"]["models_destroyed"] == approx(10 * CARBINE + 5 * CANNON)
    assert not any("--add-ability" in n for n in out["notes"])
    out = shoot("dash squad", "test mob", "--add-ability", "cannon: assault", dirs=[sheets])
    assert any("no effect without --advanced" in n for n in out["notes"])


def test_an_effect_granting_assault_is_read(sheets, fx) -> None:
    """A record granting [ASSAULT] to ranged weapons when the unit Advanced (its condition
    ``advanced: true``, as Shudderblink's): the cannons shoot after the Advance (5 x 25/54);
    without --advanced the effect is refused with the option to add."""
    fx({"id": "dash", "name": "Dash", "kind": "detachment", "side": "attacker",
        "summary": "test", "when": {"advanced": True},
        "changes": [{"weapons": "ranged", "ability": "assault"}]})  # fmt: skip
    out = shoot("slow squad", "test mob", "--advanced", "--effect", "dash", dirs=[sheets])
    assert out["expected"]["models_destroyed"] == approx(5 * CANNON)
    r = refused("shoot", "slow squad", "test mob", "--effect", "dash", dirs=[sheets])
    assert "made an Advance move this turn (add --advanced)" in r.stdout + r.stderr


def test_records_that_read_the_advance() -> None:
    """Grenade (10th, seed 000: "excluding units that Advanced") is refused after an Advance;
    Target Sighted (edition 11: "if that unit did not Advance") too."""
    r = refused("shoot", "boyz", "intercessor squad", "--effect", "grenade", "--advanced")
    assert "Grenade cannot be used with --advanced" in r.stdout + r.stderr
    r = refused("shoot", "predator annihilator", "boyz", "--effect", "target-sighted",
                "--advanced", *ED11)  # fmt: skip
    assert "cannot be used with --advanced" in r.stdout + r.stderr


def test_no_effect_in_a_fight(sheets) -> None:
    club = {"name": "Club", "range": "melee", "A": 2, "skill": 3, "S": 4, "AP": 0, "D": 1}
    _sheet(sheets, "Test Brawlers", [club], 5)
    from oracle import fight

    out = fight("test brawlers", "test mob", "--advanced", dirs=[sheets])
    assert any("--advanced" in n and "no effect in this phase" in n for n in out["notes"])


def test_advanced_in_a_batch_a_sequence_and_compare(sheets, tmp_path) -> None:
    """A batch run's ``conditions: [advanced]``, a sequence step's and a compare row's
    ``--advanced`` are the flag: the carbines alone, 5/3 models destroyed."""
    from wh40k_calc.batch import load_batch
    from wh40k_calc.catalog import Catalog
    from wh40k_calc.compare.jobs import jobs_from_batch

    path = tmp_path / "batch.yaml"
    path.write_text(
        "runs:\n  - name: dash\n    attacker: dash squad\n    target: test mob\n"
        "    conditions: [advanced]\n"
    )
    (job,) = jobs_from_batch(load_batch(path), Catalog([sheets]))
    assert job.selection.conditions.advanced
    seq = cli_json("sequence", "-t", "test mob", "shoot 'dash squad' --advanced", dirs=[sheets])
    assert seq["steps"][0]["expected"]["models_destroyed"] == approx(10 * CARBINE)
    (row,) = cli_json("compare", "dash squad", "--target", "test mob", "--advanced",
                      dirs=[sheets])  # fmt: skip
    assert row["conditions"]["advanced"] is True
    assert row["expected"]["models_destroyed"] == approx(10 * CARBINE)
