"""``calc army`` and ``calc compare --army``: each unit's row is its activations resolved as
``calc shoot``/``calc fight``/``calc sequence`` resolve them (same figures, to 1e-12), the
whole army in sequence is ``calc sequence`` of the same steps, the list's equipment reaches
the engine (a hand-worked Warboss with the power klaw the list gives him, not his big
choppa), efficiency counts the list's points, and the tables fit 80 columns."""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction
from pathlib import Path

import pytest
from helpers import cli, cli_json
from typer.testing import CliRunner

from wh40k_calc.cli import app

DATA = Path(__file__).parent / "data" / "lists"
TARGET = ["--target", "Space Marines/Intercessor Squad"]


# the app's last line: without it, a list whose units fall short of its total is cut short
APP_FOOTER = "\n\nExported with App Version: v2.3.0 (1), Data Version: v912\n"


def _gw(units: str, detachment: str = "") -> str:
    """A list in the app's text layout (edition 10; ``detachment`` on its own line)."""
    head = "T (500 Points)\n\nOrks\nStrike Force (2000 Points)\n" + detachment
    return head + "\n\nOTHER DATASHEETS\n\n" + units + APP_FOOTER


DEFAULTS = (  # the units' default equipment, as listed
    "Lootas (50 Points)\n  • 4x Loota\n     ◦ 4x Deffgun\n     ◦ 4x Close combat weapon\n"
    "  • 1x Spanner\n     ◦ 1x Big shoota\n     ◦ 1x Close combat weapon\n\n"
    "Deff Dread (130 Points)\n  • 2x Big shoota\n  • 2x Dread klaw\n  • 1x Stompy feet\n\n"
    "Trukk (65 Points)\n  • 1x Big shoota\n  • 1x Spiked wheels\n"
)


@pytest.fixture
def defaults(tmp_path: Path) -> Path:
    p = tmp_path / "defaults.txt"
    p.write_text(_gw(DEFAULTS, "War Horde"), encoding="utf-8")
    return p


def _kill(obj: dict) -> list[float]:
    return [k["at_least"] for k in obj["kill_table"]]


def test_rows_are_calc_shoot_and_the_army_is_calc_sequence(defaults: Path) -> None:
    out = cli_json("army", defaults, *TARGET, "--phase", "shoot")
    rows = {u["name"]: u for u in out["units"]}
    for name, unit in (("Lootas", "lootas"), ("Deff Dread", "deff-dread"), ("Trukk", "trukk")):
        alone = cli_json("shoot", unit, *TARGET)
        assert rows[name]["models_destroyed"] == pytest.approx(
            alone["expected"]["models_destroyed"], abs=1e-12
        )
        assert rows[name]["expected_damage"] == pytest.approx(
            alone["expected"]["damage"], abs=1e-12
        )
        assert rows[name]["p_at_least_one"] == pytest.approx(_kill(alone)[0], abs=1e-12)
        assert rows[name]["p_all"] == pytest.approx(_kill(alone)[-1], abs=1e-12)
    seq = cli_json("sequence", *TARGET, "shoot lootas", "shoot deff-dread", "shoot trukk")
    army = out["army"]
    assert _kill(army) == pytest.approx(_kill(seq), abs=1e-12)
    for mine, theirs in zip(army["steps"], seq["steps"], strict=True):
        assert mine["cumulative"]["p_destroyed"] == pytest.approx(
            theirs["cumulative"]["p_destroyed"], abs=1e-12
        )


def test_both_phases_with_the_detachment_rule(defaults: Path) -> None:
    """Shooting then melee; War Horde's Get Stuck In (an Orks attacker's melee weapons have
    [SUSTAINED HITS 1]) joins each melee activation, as --effect would."""
    out = cli_json("army", defaults, *TARGET)
    steps = ["shoot lootas", "shoot deff-dread", "shoot trukk"]
    steps += [f"fight {u} --effect get-stuck-in" for u in ("lootas", "deff-dread", "trukk")]
    seq = cli_json("sequence", *TARGET, *steps)
    assert _kill(out["army"]) == pytest.approx(_kill(seq), abs=1e-12)
    assert [s["text"] for s in out["army"]["steps"]] == [
        "shoot Lootas (list unit 1)",
        "shoot Deff Dread (list unit 2)",
        "shoot Trukk (list unit 3)",
        "fight Lootas (list unit 1)",
        "fight Deff Dread (list unit 2)",
        "fight Trukk (list unit 3)",
    ]
    dread = next(u for u in out["units"] if u["name"] == "Deff Dread")
    pair = cli_json(
        "sequence", *TARGET, "shoot deff-dread", "fight deff-dread --effect get-stuck-in"
    )
    assert dread["models_destroyed"] == pytest.approx(
        pair["expected"]["models_destroyed"], abs=1e-12
    )
    assert dread["expected_damage"] == pytest.approx(pair["expected"]["damage"], abs=1e-12)


def test_the_listed_power_klaw_reaches_the_engine(tmp_path: Path) -> None:
    """Warboss (its default: a big choppa) listed with a power klaw, fighting 5 Intercessors
    (T4, Sv 3+, W2): per attack P(hit) 4/6 (WS 3+), P(wound) 5/6 (S10 against T4: 2+),
    P(failed save) 4/6 (3+ worsened by AP-2 to 5+); 4 attacks, each failed save 2 damage,
    destroying one Intercessor (W2): models destroyed ~ Binomial(4, 10/27)."""
    p = tmp_path / "boss.txt"
    p.write_text(
        _gw("Warboss (75 Points)\n  • 1x Kombi-weapon\n  • 1x Twin slugga\n  • 1x Power klaw\n"),
        encoding="utf-8",
    )
    out = cli_json("army", p, *TARGET, "--phase", "fight")
    (row,) = out["units"]
    q = Fraction(10, 27)
    assert row["weapons_used"] == [{"name": "Power klaw", "count": 1}]
    assert row["models_destroyed"] == pytest.approx(float(4 * q), abs=1e-12)
    assert row["expected_damage"] == pytest.approx(float(8 * q), abs=1e-12)
    assert row["p_at_least_one"] == pytest.approx(float(1 - (1 - q) ** 4), abs=1e-12)
    assert row["p_all"] == 0.0
    # target points per model destroyed, per 100 of the list's points: 80 pts for 5 models
    assert row["per_100_points"] == pytest.approx(80 / 5 * float(4 * q) / 75 * 100, abs=1e-9)


def test_rows_are_ranked_and_ranked_order_follows_them(defaults: Path) -> None:
    out = cli_json("army", defaults, *TARGET, "--phase", "shoot", "--sequence", "ranked")
    killed = [u["models_destroyed"] for u in out["units"]]
    assert killed == sorted(killed, reverse=True)
    order = [s["text"].split(" (")[0].removeprefix("shoot ") for s in out["army"]["steps"]]
    assert order == [u["name"] for u in out["units"]]


def test_the_json_carries_the_resolution(defaults: Path) -> None:
    out = cli_json("army", DATA / "waaagh.gw-app.txt", *TARGET)
    assert set(out) >= {"schema", "list", "resolution", "target", "units", "army", "notes"}
    res = out["resolution"]
    assert res["summary"].startswith("5/5 units, 16/17 weapons resolved")
    assert res["units_by_status"] == {"resolved": 5, "ally": 0, "unresolved": 0}
    # an edition-11 list: resolved against the edition-11 datasheets (data 912), whose Warboss
    # has "Twin sluggas", so the list's "Twin slugga" is folded to the plural
    assert res["weapons_by_status"] == {"resolved": 15, "folded": 1, "wargear": 1, "unresolved": 1}
    trukk = next(u for u in res["units"] if u["name"] == "Trukk")
    ball = next(w for w in trukk["weapons"] if w["listed"] == "Wrecking ball")
    assert ball["status"] == "unresolved" and "Wreckin’ ball" in ball["candidates"]
    assert out["army"]["phase"] == "sequence"
    shown = cli_json("army", DATA / "waaagh.gw-app.txt", "--show")
    assert shown["resolution"] == res and "units" not in shown


@pytest.mark.parametrize("width", [80])
def test_tables_fit_the_terminal(width: int) -> None:
    for args in (
        ["army", str(DATA / "waaagh.gw-app.txt"), *TARGET],
        ["army", str(DATA / "waaagh.gw-app.txt"), "--show"],
    ):
        res = CliRunner().invoke(app, args, env={"COLUMNS": str(width)})
        assert res.exit_code == 0, res.output
        lines = res.output.splitlines()
        assert all(len(line) <= width for line in lines), max(lines, key=len)
        assert "…" not in res.output
    assert (
        "The whole army in sequence"
        in CliRunner().invoke(app, ["army", str(DATA / "waaagh.gw-app.txt"), *TARGET]).output
    )


def test_compare_army_rows_and_csv(defaults: Path, tmp_path: Path) -> None:
    args = ["compare", "--army", str(defaults), "--army", str(DATA / "waaagh.nr.json")]
    args += [*TARGET, "--target", "boyz", "--phase", "shoot"]
    objs = cli_json(*args)
    runs = [o["run"] for o in objs]
    assert runs.count("Test Waaagh: army in sequence") == 2  # one a target
    assert runs.count("T: army in sequence") == 2
    lootas = next(o for o in objs if o["run"] == "T: Lootas (1)" and o["target"]["name"] == "Boyz")
    alone = cli_json("shoot", "lootas", "--target", "boyz")
    assert lootas["expected"]["models_destroyed"] == pytest.approx(
        alone["expected"]["models_destroyed"], abs=1e-12
    )
    assert lootas["attacker"]["points"] == 50  # the list's
    res = cli(*args, "--csv", "-")
    assert res.exit_code == 0, res.output
    rows = list(csv.DictReader(io.StringIO(res.stdout)))
    dread = next(r for r in rows if r["run"] == "T: Deff Dread (2)" and r["target"] == "Boyz")
    # 130 list points (the datasheet says 120): efficiency is the list's
    models = float(dread["models_destroyed"])
    assert float(dread["points_per_100"]) == pytest.approx(80 / 10 * models / 130 * 100, abs=1e-4)
    assert dread["attacker_points"] == "130"


def test_compare_army_csv_names_every_unit_and_whole_points(tmp_path: Path) -> None:
    """The fresh trial: the CSV's "army in sequence" row named two Lootas units once and gave
    the list's points as ``1985.0``. Two Lootas (50 points each) and a Trukk (65): all three
    named, 165 points, and the target's 80 points (5 Intercessors) whole too."""
    two = DEFAULTS.split("Deff Dread")[0]  # the Lootas unit, its blank line after it
    trukk = "Trukk (65 Points)\n  • 1x Big shoota\n  • 1x Spiked wheels\n"
    path = tmp_path / "two.txt"
    path.write_text(_gw(two + two + trukk, "War Horde"), encoding="utf-8")
    res = cli("compare", "--army", path, *TARGET, "--phase", "shoot", "--csv", "-")
    assert res.exit_code == 0, res.output
    rows = list(csv.DictReader(io.StringIO(res.stdout)))
    army = next(r for r in rows if r["run"] == "army in sequence")
    assert army["attacker"] == "Lootas ×2 then Trukk"
    assert army["attacker_points"] == "165"
    assert army["attacker_models"] == "11"
    assert {r["target_points"] for r in rows} == {"80"}
    units = [r["attacker_points"] for r in rows if r["run"] != "army in sequence"]
    assert sorted(units) == ["50", "50", "65"]


def test_compare_army_refuses_attackers_and_needs_a_target(defaults: Path) -> None:
    res = cli("compare", "lootas", "--army", str(defaults), "--target", "boyz")
    assert res.exit_code == 2 and "not with --army" in res.output
    res = cli("compare", "--army", str(defaults))
    assert res.exit_code == 2 and "--target" in res.output
    res = cli("compare", "--army", str(defaults), "--target", "boyz", "--phase", "melee")
    assert res.exit_code == 2


def test_json_is_valid_for_every_format() -> None:
    for name in ("waaagh.wtc-compact.txt", "waaagh.rosterizer.json", "waaagh.ros"):
        res = cli("army", DATA / name, "--target", "boyz", "--json", "--phase", "shoot")
        assert res.exit_code == 0, res.output
        assert json.loads(res.stdout)["list"]["format"] != ""


def test_a_target_option_no_unit_can_use_is_one_error() -> None:
    res = cli("army", DATA / "waaagh.ros", "--target", "boyz", "--allocation", "Nobody")
    assert res.exit_code == 1
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and "Boyz has no model 'Nobody'" in lines[0]


def test_sampled_and_both(defaults: Path) -> None:
    out = cli_json("army", defaults, *TARGET, "--method", "both", "--trials", "4000")
    assert out["army"]["method"] == "both"
    exact = cli_json("army", defaults, *TARGET)
    for a, b in zip(out["units"], exact["units"], strict=True):
        assert a["models_destroyed"] == pytest.approx(b["models_destroyed"], abs=1e-12)


def test_a_name_read_the_same_way_in_two_units_is_said_once(tmp_path: Path) -> None:
    """Two Boyz units whose lists both call the Boss Nob "Nob": the army's "Read:" line for
    it is printed once (it was printed once a unit)."""
    boyz = (
        "Boyz (85 Points)\n  • 1x Nob\n     ◦ 1x Choppa\n     ◦ 1x Slugga\n"
        "  • 9x Boy\n     ◦ 9x Choppa\n     ◦ 9x Slugga\n\n"
    )
    path = tmp_path / "two-boyz.txt"
    path.write_text(_gw(boyz + boyz, "War Horde"), encoding="utf-8")
    result = cli("army", path, *TARGET)
    assert result.exit_code == 0, result.output
    read = [ln for ln in result.output.splitlines() if ln.startswith("Read: ")]
    assert read == ["Read: Boyz: model 'Nob' read as Boss Nob"], read


def test_a_weapon_not_ours_in_two_units_of_one_name_is_said_once(tmp_path: Path) -> None:
    """Two Trukks listing a weapon that is not one of ours (beside their whole default
    equipment, so no default takes its place): its "Weapons not ours:" line (and any warning
    the two share) is printed once, as the "Read:" line is."""
    trukk = "Trukk (65 Points)\n  • 1x Wibbly gun\n  • 1x Big shoota\n  • 1x Spiked wheels\n\n"
    path = tmp_path / "two-trukks.txt"
    path.write_text(_gw(trukk + trukk, "War Horde"), encoding="utf-8")
    result = cli("army", path, *TARGET)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    heads = [ln for ln in lines if ln.startswith(("Weapons not ours: ", "Warning: "))]
    assert any(ln.startswith("Weapons not ours: Trukk: Wibbly gun") for ln in heads), lines
    assert len(heads) == len(set(heads)), heads


def test_after_an_advance_a_unit_without_assault_weapons_still_fights(defaults: Path) -> None:
    """``--advanced``: none of these units' guns has [ASSAULT], so none shoots (10th edition:
    Advance Moves; 10.05), but each still fights: its row is its Fight phase alone (as with
    ``--phase fight``), with a note on the shooting left out. Each row was an error before."""
    out = cli_json("army", defaults, *TARGET, "--advanced")
    fights = {
        u["name"]: u for u in cli_json("army", defaults, *TARGET, "--phase", "fight")["units"]
    }
    for unit in out["units"]:
        assert unit.get("error") is None
        assert unit["models_destroyed"] == pytest.approx(
            fights[unit["name"]]["models_destroyed"], abs=1e-12
        )
        assert any("no weapon that shoots after an Advance" in n for n in unit["notes"])
