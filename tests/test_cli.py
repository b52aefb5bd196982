"""The command line: shoot/fight/units/show/effects, and every user mistake gives exit code 1 and a
one-line "error:" message with the reason or the closest names, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from wh40k_calc.catalog import ENV_VAR
from wh40k_calc.cli import app

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).resolve().parent / "data" / "cli"
ENV = {"COLUMNS": "200", ENV_VAR: None}


def run(*args: str):
    result = CliRunner().invoke(app, list(args), env=ENV)
    assert "Traceback" not in result.output
    if result.exception is not None:
        assert isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def ok(*args: str) -> str:
    result = run(*args)
    assert result.exit_code == 0, result.output
    return result.stdout


def error(*args: str) -> str:
    """Run a command that must fail with exit code 1 and one line 'error: ...' on stderr."""
    result = run(*args)
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    assert result.stdout == ""
    return lines[0]


def as_json(*args: str) -> dict:
    return json.loads(ok(*args, "--json"))


# ---------------------------------------------------------------------------------------------
# Commands that work


def test_shoot_lootas_at_boyz() -> None:
    out = ok("shoot", "lootas", "--target", "boyz")
    for text in ("Lootas", "Boyz", "Deffgun", "Big shoota", "Kill table", "Allocation order"):
        assert text in out
    assert "Boy ×9, Boss Nob" in out
    assert "dats-our-loot" in out
    # the Deffgun row of the README: 4 models, 8 attacks, 1.556 hits, ..., 1.728 damage
    row = next(line for line in out.splitlines() if "Deffgun" in line and "8.000" in line)
    for figure in ("8.000", "1.556", "1.037", "0.864", "1.728"):
        assert figure in row


def test_fight_boyz_charged() -> None:
    out = ok("fight", "boyz", "--target", "lootas", "--charged")
    assert "Boyz" in out and "Lootas" in out
    assert "Choppa" in out and "Big choppa" in out
    assert "Kill table" in out
    assert "Slugga" not in out  # pistols do not fight


def test_shoot_lord_invocatus_at_intercessors() -> None:
    out = ok("shoot", "lord-invocatus", "--target", "intercessor-squad")
    assert "Lord Invocatus" in out and "Intercessor Squad" in out
    assert "Bolt pistol" in out
    assert "Coward's Bane" not in out  # a melee weapon does not shoot


@pytest.mark.parametrize("name", ["Lord Invocatus", "LORD INVOCATUS", "lord_invocatus"])
def test_unit_names_match_loosely(name: str) -> None:
    assert "Bolt pistol" in ok("shoot", name, "--target", "Intercessor Squad")


def test_units_lists_the_datasheets() -> None:
    out = ok("units")
    for name in ("Lootas", "Boyz", "Warboss", "Lord Invocatus", "Rhino", "Orks", "World Eaters"):
        assert name in out


def test_units_by_faction() -> None:
    out = ok("units", "--faction", "orks")
    assert "Lootas" in out and "Boyz" in out and "Warboss" in out
    assert "Rhino" not in out and "Lord Invocatus" not in out


def test_units_with_a_user_folder() -> None:
    out = ok("units", "--datasheets", str(DATA / "leaders"))
    assert "Painboy" in out and "Lootas" in out


def test_show_lootas() -> None:
    out = ok("show", "lootas")
    for text in (
        "Lootas",
        "Loota",
        "Spanner",
        "Deffgun",
        "Big shoota",
        "Kustom mega-blasta",
        "Rokkit launcha",
        "kustom-mega-blastas",
        "rokkit-launchas",
        "mixed-spanners",
        "dats-our-loot",
    ):
        assert text in out, text
    assert "heavy, rapid fire 1" in out


def test_show_unknown_suggests() -> None:
    line = error("show", "lootaz")
    assert "'lootaz'" in line and "Lootas" in line


def test_effects_lists_them() -> None:
    out = ok("effects")
    for effect_id in ("waaagh", "go-to-ground", "dats-our-loot", "hack-and-slash", "grenade"):
        assert effect_id in out
    assert "grenade" not in ok("effects", "--edition", "11", "--faction", "core")


def test_module_help() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "wh40k_calc", "--help"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    for command in ("shoot", "fight", "units", "show", "effects"):
        assert command in proc.stdout
    assert "Traceback" not in proc.stderr


def test_order_best_is_fine_for_lootas() -> None:
    out = ok("shoot", "lootas", "--target", "boyz", "--order", "best")
    assert "Weapon order" in out
    data = as_json("shoot", "lootas", "--target", "boyz", "--order", "best")
    assert sorted(data["attacker"]["weapons_order"]) == ["Big shoota", "Deffgun"]


def test_order_given() -> None:
    data = as_json("shoot", "lootas", "--target", "boyz", "--order", "Big shoota, Deffgun")
    assert data["attacker"]["weapons_order"] == ["Big shoota", "Deffgun"]


def test_allocation_given() -> None:
    data = as_json("shoot", "lootas", "--target", "boyz", "--allocation", "Boss Nob")
    # models not named follow in datasheet order
    assert data["target"]["allocation_order"] == ["Boss Nob"] + ["Boy"] * 9


def test_damaged_target_on_the_command_line() -> None:
    data = as_json("shoot", "lootas", "--target", "boyz", "--target-models", "7")
    target = data["target"]
    assert target["models"] == 7
    assert target["wounds"] == 6 * 1 + 2  # six Boys and the Boss Nob
    assert target["points"] == pytest.approx(56)
    assert target["allocation_order"] == ["Boy"] * 6 + ["Boss Nob"]
    assert len(data["kill_table"]) == 7


def test_attacker_size_and_loadout_on_the_command_line() -> None:
    data = as_json(
        "shoot", "lootas", "--target", "boyz", "--models", "10", "--loadout", "mixed-spanners"
    )
    assert data["attacker"]["models"] == 10
    assert data["attacker"]["points"] == 100
    names = {w["name"]: w["count"] for w in data["weapons"]}
    assert names == {"Deffgun": 8, "Kustom mega-blasta": 1, "Rokkit launcha": 1}


def test_weapon_spec_on_the_command_line() -> None:
    data = as_json("shoot", "lootas", "--target", "boyz", "--weapon", "deffgun x2")
    assert [(w["name"], w["count"]) for w in data["weapons"]] == [("Deffgun", 2)]
    # 2 Lootas × A2 = 4 attacks
    assert data["weapons"][0]["expected"]["attacks"] == pytest.approx(4.0)


def test_leader_on_the_command_line() -> None:
    data = as_json("fight", "boyz", "--target", "lootas", "--leader", "warboss")
    assert data["attacker"]["models"] == 11
    assert data["attacker"]["points"] == 155
    # 9 Boys × choppa A3 + Boss Nob big choppa A3 + Warboss big choppa A5
    assert data["expected"]["attacks"] == pytest.approx(35.0)


def test_two_leaders_on_20_boyz_from_a_user_folder() -> None:
    folder = str(DATA / "leaders")
    data = as_json(
        "fight", "boyz", "--target", "lootas", "--models", "20", "--leader", "warboss",
        "--leader", "painboy", "--datasheets", folder,
    )  # fmt: skip
    assert data["attacker"]["models"] == 22
    assert data["attacker"]["points"] == 160 + 75 + 70
    line = error(
        "fight", "boyz", "--target", "lootas", "--leader", "warboss", "--leader", "painboy",
        "--datasheets", folder,
    )  # fmt: skip
    assert "10" in line


def test_target_leader() -> None:
    data = as_json("shoot", "lootas", "--target", "boyz", "--target-leader", "warboss")
    assert data["target"]["models"] == 11
    assert data["target"]["wounds"] == 9 + 2 + 6
    assert data["target"]["allocation_order"][-1] == "Warboss"


def test_environment_variable_folder() -> None:
    result = CliRunner().invoke(
        app, ["show", "painboy"], env={"COLUMNS": "200", ENV_VAR: str(DATA / "leaders")}
    )
    assert result.exit_code == 0, result.output
    assert "Urty syringe" in result.stdout


# ---------------------------------------------------------------------------------------------
# Mistakes: exit 1, one line, the reason or the closest names


def test_unknown_attacker() -> None:
    line = error("shoot", "lootz", "--target", "boyz")
    assert "'lootz'" in line
    assert "did you mean 'Lootas'" in line


def test_unknown_target() -> None:
    line = error("shoot", "lootas", "--target", "boyzz")
    assert "'boyzz'" in line
    assert "did you mean 'Boyz'" in line


def test_unknown_leader() -> None:
    line = error("fight", "boyz", "--target", "lootas", "--leader", "warbos")
    assert "'warbos'" in line and "Warboss" in line


def test_unknown_loadout() -> None:
    line = error("shoot", "lootas", "--target", "boyz", "--loadout", "kustom")
    assert "'kustom'" in line
    assert "kustom-mega-blastas" in line


def test_unknown_target_loadout() -> None:
    line = error("shoot", "lootas", "--target", "boyz", "--target-loadout", "shootaz")
    assert "'shootaz'" in line
    assert "did you mean 'shootas'" in line


def test_unknown_weapon() -> None:
    line = error("shoot", "lootas", "--target", "boyz", "--weapon", "Deffgunn x2")
    assert "'Deffgunn'" in line
    assert "did you mean 'Deffgun'" in line


def test_weapon_count_zero() -> None:
    """A count below 1 is wrong whatever the data says: a usage error (exit code 2)."""
    result = run("shoot", "lootas", "--target", "boyz", "--weapon", "Deffgun x0")
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: --weapon 'Deffgun x0': the count must be at least 1")


def test_weapon_count_above_the_unit() -> None:
    # 6 Deffguns fit the 10-model size (8 Lootas), so only an explicit --models 5 refuses them
    line = error("shoot", "lootas", "--target", "boyz", "--models", "5", "--weapon", "Deffgun x6")
    assert "only 4" in line
    line = error("shoot", "lootas", "--target", "boyz", "--weapon", "Deffgun x9")
    assert "no listed size" in line


def test_unknown_effect_suggests() -> None:
    line = error("shoot", "lootas", "--target", "boyz", "--effect", "waagh")
    assert "'waagh'" in line
    assert "'waaagh'" in line


def test_effect_in_the_wrong_phase() -> None:
    line = error("shoot", "boyz", "--target", "lootas", "--effect", "unbridled-carnage")
    assert "unbridled-carnage" in line
    assert "fight" in line


def test_effect_that_needs_a_charge() -> None:
    line = error("fight", "lord-invocatus", "--target", "boyz", "--effect", "hack-and-slash")
    assert "hack-and-slash" in line
    assert "--charged" in line or "Charge" in line
    ok("fight", "lord-invocatus", "--target", "boyz", "--effect", "hack-and-slash", "--charged")


def test_effect_that_needs_infantry() -> None:
    line = error("shoot", "lootas", "--target", "rhino", "--effect", "go-to-ground")
    assert "go-to-ground" in line
    assert "INFANTRY" in line
    ok("shoot", "lootas", "--target", "boyz", "--effect", "go-to-ground")


def test_effect_with_a_bad_side() -> None:
    line = error("fight", "boyz", "--target", "lootas", "--effect", "sideways:waaagh")
    assert "sideways" in line


def test_naming_a_default_unit_rule_is_accepted() -> None:
    data = as_json("shoot", "lootas", "--target", "boyz", "--effect", "dats-our-loot")
    assert data["effects"] == ["dats-our-loot"]


def test_attacker_size_too_large() -> None:
    line = error("shoot", "lootas", "--target", "boyz", "--models", "11")
    assert "11" in line
    assert "5, 10" in line


def test_damaged_attacker_below_the_smallest_size() -> None:
    """Issue 10 item 9: `--models 3` for Lootas (sizes 5, 10) is the 5-model unit with two
    Lootas removed: 2 Deffguns (4 attacks) and the Spanner's Big shoota; 30 points."""
    data = as_json("shoot", "lootas", "--target", "boyz", "--models", "3")
    assert data["attacker"]["models"] == 3
    assert data["attacker"]["points"] == pytest.approx(30)
    assert [(w["name"], w["count"]) for w in data["weapons"]] == [("Deffgun", 2), ("Big shoota", 1)]
    assert data["weapons"][0]["expected"]["attacks"] == pytest.approx(4.0)


def test_target_size_out_of_bounds() -> None:
    line = error("shoot", "lootas", "--target", "boyz", "--target-models", "21")
    assert "21" in line


def test_a_size_below_one_model_is_a_usage_error() -> None:
    """No unit has 0 models, whatever its datasheet: exit code 2, the option named."""
    result = run("shoot", "lootas", "--target", "boyz", "--target-models", "0")
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: --target-models 0: Boyz cannot have 0 models")


def test_leader_that_cannot_lead() -> None:
    line = error("shoot", "lootas", "--target", "boyz", "--leader", "warboss")
    assert "Warboss cannot lead Lootas" in line
    assert "Boyz" in line


def test_unknown_model_in_allocation() -> None:
    line = error("shoot", "lootas", "--target", "boyz", "--allocation", "Nobody")
    assert "Nobody" in line
    assert "Boss Nob" in line


def test_unknown_weapon_in_order() -> None:
    line = error("shoot", "lootas", "--target", "boyz", "--order", "Nope")
    assert "Nope" in line
    assert "Deffgun" in line


def test_bad_reroll_value_is_a_usage_error() -> None:
    result = run("shoot", "lootas", "--target", "boyz", "--reroll-hits", "maybe")
    assert result.exit_code == 2
    assert "maybe" in result.output
    assert "--reroll-hits" in result.output


def test_missing_target_is_a_usage_error() -> None:
    result = run("shoot", "lootas")
    assert result.exit_code == 2
    assert "--target" in result.output


def test_malformed_datasheet_asked_for_names_the_file() -> None:
    folder = DATA / "malformed"
    line = error("shoot", "gretchin", "--target", "boyz", "--datasheets", str(folder))
    assert "gretchin.yaml" in line
    assert "line 6" in line and "column" in line
    line = error("shoot", "lootas", "--target", "gretchin", "--datasheets", str(folder))
    assert "gretchin.yaml" in line


def test_malformed_datasheet_not_asked_for_is_ignored() -> None:
    out = ok("shoot", "lootas", "--target", "boyz", "--datasheets", str(DATA / "malformed"))
    assert "Deffgun" in out


def test_missing_datasheets_folder(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    line = error("shoot", "lootas", "--target", "boyz", "--datasheets", str(missing))
    assert str(missing) in line
    line = error("units", "--datasheets", str(missing))
    assert str(missing) in line


def test_invalid_datasheet_names_file_and_field(tmp_path: Path) -> None:
    text = (ROOT / "datasheets" / "orks" / "lootas.yaml").read_text(encoding="utf-8")
    (tmp_path / "lootas.yaml").write_text(text.replace("T: 5", "T: 25", 1), encoding="utf-8")
    line = error("shoot", "lootas", "--target", "boyz", "--datasheets", str(tmp_path))
    assert str(tmp_path / "lootas.yaml") in line
    assert "models[0].T" in line
