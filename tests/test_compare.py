"""`calc compare`: batch files and crossed options give the numbers of `calc shoot`/`calc fight`
for the same selection; JSON and CSV outputs; errors name the run and the field."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from helpers import cli
from typer.testing import CliRunner

from wh40k_calc.batch import load_batch
from wh40k_calc.catalog import Catalog
from wh40k_calc.compare import (
    CSV_COLUMNS,
    Job,
    RunError,
    jobs_from_batch,
    jobs_from_options,
    row_figures,
)

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "lootas-loadouts.yaml"
LOADOUTS = ["default", "kustom-mega-blastas", "rokkit-launchas", "mixed-spanners"]
TARGETS = ["boyz", "intercessor-squad", "terminator-squad", "rhino"]

runner = CliRunner()


calc = cli  # tests/helpers.py's: calc ARGS in-process, no traceback


def shoot_json(*args: str, verb: str = "shoot") -> dict:
    res = calc(verb, *args, "--json")
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def write(tmp_path: Path, text: str, name: str = "batch.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def no_traceback(res, code: int = 1) -> None:
    assert res.exit_code == code
    assert isinstance(res.exception, SystemExit), res.exception
    assert "Traceback" not in res.output


@pytest.fixture(scope="module")
def example_rows() -> list[dict]:
    res = calc("compare", EXAMPLE, "--json")
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


# ---------------------------------------------------------------------------------------------
# The example batch and agreement with calc shoot


def test_example_batch_runs_and_prints_the_table() -> None:
    res = calc("compare", EXAMPLE)
    assert res.exit_code == 0, res.output
    for text in ("Lootas loadouts", "Boyz", "Intercessor Squad", "Terminator Squad", "Rhino"):
        assert text in res.stdout
    for run in ("default (big shootas)", "kustom mega-blastas", "rokkit launchas", "one of each"):
        assert res.stdout.count(run) == 4  # one row per target


def test_example_json_is_a_list_of_contract_objects_with_run(example_rows) -> None:
    assert len(example_rows) == len(LOADOUTS) * len(TARGETS)
    first = example_rows[0]
    assert first["run"] == "default (big shootas)"
    assert first["schema"] == 1
    assert {"expected", "kill_table", "attacker_losses", "target", "attacker"} <= set(first)
    # batch order: runs in order, each against the targets in order
    assert [r["target"]["name"] for r in example_rows[:4]] == [
        "Boyz",
        "Intercessor Squad",
        "Terminator Squad",
        "Rhino",
    ]


@pytest.mark.parametrize("loadout_index", range(4))
def test_example_rows_equal_calc_shoot(example_rows, loadout_index: int) -> None:
    loadout = LOADOUTS[loadout_index]
    rows = example_rows[4 * loadout_index : 4 * loadout_index + 4]
    for target, row in zip(TARGETS, rows, strict=True):
        single = shoot_json(
            "lootas", "--models", "10", "--loadout", loadout, "--target", target, "--stationary"
        )
        assert {k: v for k, v in row.items() if k not in ("run", "compared")} == single


def test_csv_numbers_equal_calc_shoot() -> None:
    res = calc("compare", EXAMPLE, "--csv", "-")
    assert res.exit_code == 0, res.output
    records = list(csv.DictReader(io.StringIO(res.stdout)))
    assert len(records) == 16
    names = {
        "default (big shootas)": "default",
        "kustom mega-blastas": "kustom-mega-blastas",
        "rokkit launchas": "rokkit-launchas",
        "one of each": "mixed-spanners",
    }
    stems = dict(
        zip(["Boyz", "Intercessor Squad", "Terminator Squad", "Rhino"], TARGETS, strict=True)
    )
    for rec in records:
        single = shoot_json(
            "lootas",
            "--models",
            "10",
            "--loadout",
            names[rec["run"]],
            "--target",
            stems[rec["target"]],
            "--stationary",
        )
        fig = row_figures(single)
        assert float(rec["damage"]) == pytest.approx(single["expected"]["damage"], abs=1e-9)
        assert float(rec["models_destroyed"]) == pytest.approx(
            single["expected"]["models_destroyed"], abs=1e-9
        )
        assert float(rec["p_wipe"]) == pytest.approx(single["kill_table"][-1]["at_least"])
        assert float(rec["attacker_losses"]) == pytest.approx(
            single["attacker_losses"]["models_destroyed"], abs=1e-9
        )
        assert float(rec["points_per_100"]) == pytest.approx(fig["efficiency"], abs=1e-9)


def test_efficiency_formula() -> None:
    single = shoot_json("lootas", "--models", "10", "--target", "boyz")
    fig = row_figures(single)
    per_model = single["target"]["points"] / single["target"]["models"]
    expected = per_model * single["expected"]["models_destroyed"] / single["attacker"]["points"]
    assert fig["efficiency"] == pytest.approx(100 * expected, abs=1e-6)
    assert fig["wipe"] == single["kill_table"][-1]["at_least"]
    assert fig["losses"] == single["attacker_losses"]["models_destroyed"]


def test_mega_blastas_have_hazardous_losses(example_rows) -> None:
    by_run = {(r["run"], r["target"]["name"]): r for r in example_rows}
    assert by_run["kustom mega-blastas", "Boyz"]["attacker_losses"]["models_destroyed"] > 0
    assert by_run["rokkit launchas", "Boyz"]["attacker_losses"]["models_destroyed"] == 0


# ---------------------------------------------------------------------------------------------
# Without a file: crossed options


def test_options_cross_loadouts_and_targets() -> None:
    res = calc(
        "compare",
        "lootas",
        "--loadout",
        "default",
        "--loadout",
        "kustom-mega-blastas",
        "--target",
        "boyz",
        "--target",
        "intercessor-squad",
        "--half-range",
        "--json",
    )
    assert res.exit_code == 0, res.output
    rows = json.loads(res.stdout)
    assert [(r["run"], r["target"]["name"]) for r in rows] == [
        ("default", "Boyz"),
        ("default", "Intercessor Squad"),
        ("kustom-mega-blastas", "Boyz"),
        ("kustom-mega-blastas", "Intercessor Squad"),
    ]
    for row in rows:
        single = shoot_json(
            "lootas",
            "--loadout",
            row["run"],
            "--target",
            "boyz" if row["target"]["name"] == "Boyz" else "intercessor-squad",
            "--half-range",
        )
        assert {k: v for k, v in row.items() if k not in ("run", "compared")} == single


def test_options_models_repeatable_and_fight_with_effect() -> None:
    res = calc(
        "compare",
        "boyz",
        "--models",
        "10",
        "--models",
        "20",
        "--fight",
        "--charged",
        "--effect",
        "waaagh",
        "--target",
        "termagants",
        "--json",
    )
    assert res.exit_code == 0, res.output
    rows = json.loads(res.stdout)
    assert [r["run"] for r in rows] == ["x10", "x20"]
    for row, n in zip(rows, ("10", "20"), strict=True):
        assert row["phase"] == "fight"
        single = shoot_json(
            "boyz",
            "--models",
            n,
            "--target",
            "termagants",
            "--charged",
            "--effect",
            "waaagh",
            verb="fight",
        )
        assert {k: v for k, v in row.items() if k not in ("run", "compared")} == single


def test_several_attackers_only_take_their_own_loadouts() -> None:
    items = jobs_from_options(
        Catalog([]),
        ["lootas", "boyz"],
        ["rhino"],
        loadouts=["default", "rokkit-launchas"],
    )
    assert all(isinstance(i, Job) for i in items), items
    assert [i.run for i in items] == ["lootas default", "lootas rokkit-launchas", "boyz default"]


def test_sampling_on_request() -> None:
    res = calc(
        "compare", "lootas", "--target", "boyz", "--method", "sample", "--trials", "2000", "--json"
    )
    assert res.exit_code == 0, res.output
    (row,) = json.loads(res.stdout)
    assert row["method"] == "sample"
    assert row["sample"]["trials"] == 2000


# ---------------------------------------------------------------------------------------------
# Sorting, table, CSV file


def test_sort_orders_each_target_group() -> None:
    args = ["compare", "lootas", "--models", "10", "-t", "boyz", "-t", "rhino", "--csv", "-"]
    for loadout in LOADOUTS:
        args += ["--loadout", loadout]
    for key, column, reverse in (
        ("models", "models_destroyed", True),
        ("damage", "damage", True),
        ("wipe", "p_wipe", True),
        ("efficiency", "points_per_100", True),
        ("losses", "attacker_losses", False),
    ):
        res = calc(*args, "--sort", key)
        assert res.exit_code == 0, res.output
        records = list(csv.DictReader(io.StringIO(res.stdout)))
        assert [r["target"] for r in records] == ["Boyz"] * 4 + ["Rhino"] * 4
        for group in (records[:4], records[4:]):
            values = [float(r[column]) for r in group]
            assert values == sorted(values, reverse=reverse), key
            assert group[0]["best"] == "yes" or len(set(values)) == 1


def test_models_sort_puts_rokkits_first_against_boyz(example_rows) -> None:
    res = calc("compare", EXAMPLE, "--csv", "-")
    records = list(csv.DictReader(io.StringIO(res.stdout)))
    boyz = [r for r in records if r["target"] == "Boyz"]
    best = max(
        (r for r in example_rows if r["target"]["name"] == "Boyz"),
        key=lambda r: r["expected"]["models_destroyed"],
    )
    assert boyz[0]["run"] == best["run"]
    assert boyz[0]["best"] == "yes"
    assert [r["best"] for r in boyz[1:]] == ["", "", ""]


def test_the_only_row_against_a_target_is_its_best() -> None:
    """One row against Boyz (and one of two against Rhino that tie: neither is best, as two
    equal rows are not told apart): ``best`` is yes/true for the lone row, as the README says."""
    res = calc("compare", "lootas", "--target", "boyz", "--csv", "-")
    assert [r["best"] for r in csv.DictReader(io.StringIO(res.stdout))] == ["yes"]
    res = calc("compare", "lootas", "--target", "boyz", "--json")
    assert [r["compared"]["best"] for r in json.loads(res.stdout)] == [True]
    res = calc("compare", "lootas", "lootas", "--target", "boyz", "--csv", "-")
    assert [r["best"] for r in csv.DictReader(io.StringIO(res.stdout))] == ["", ""]


def test_csv_file_header_overwrite_and_force(tmp_path: Path) -> None:
    out = tmp_path / "out.csv"
    res = calc("compare", "lootas", "-t", "boyz", "--csv", out)
    assert res.exit_code == 0, res.output
    assert res.stdout == ""  # the CSV replaces the table
    with out.open(newline="", encoding="utf-8") as fh:
        records = list(csv.DictReader(fh))
    assert tuple(records[0]) == CSV_COLUMNS
    assert len(records) == 1

    res = calc("compare", "lootas", "-t", "rhino", "--csv", out)
    no_traceback(res)
    assert "exists" in res.stderr and "--force" in res.stderr
    assert "Boyz" in out.read_text(encoding="utf-8")  # untouched

    res = calc("compare", "lootas", "-t", "rhino", "--csv", out, "--force")
    assert res.exit_code == 0, res.output
    assert "Rhino" in out.read_text(encoding="utf-8")


def test_json_and_csv_stdout_conflict() -> None:
    res = calc("compare", "lootas", "-t", "boyz", "--json", "--csv", "-")
    no_traceback(res, code=2)


# ---------------------------------------------------------------------------------------------
# Batch semantics


def test_defaults_merge_and_run_overrides(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
edition: "10"
conditions: {stationary: true, half-range: true}
targets: [boyz, {name: intercessor-squad, models: 10}]
runs:
  - name: merged
    attacker: lootas
    conditions: {half_range: false}
  - name: own target
    attacker: {name: lootas, models: 10, loadout: rokkit-launchas}
    target: {name: boyz, models: 20}
    phase: shooting
""",
    )
    items = jobs_from_batch(load_batch(path), Catalog([]))
    assert all(isinstance(i, Job) for i in items), items
    merged = [i for i in items if i.run == "merged"]
    assert len(merged) == 2
    assert merged[0].selection.conditions.stationary
    assert not merged[0].selection.conditions.half_range
    assert merged[1].selection.target.models == 10
    (own,) = [i for i in items if i.run == "own target"]
    assert own.selection.target.models == 20
    assert own.line is not None and own.source == str(path)


def test_unnamed_runs_get_unique_names(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
targets: [boyz]
runs:
  - attacker: {name: lootas, loadout: rokkit-launchas}
  - attacker: {name: lootas, loadout: rokkit-launchas}
    conditions: [stationary]
""",
    )
    items = jobs_from_batch(load_batch(path), Catalog([]))
    assert [i.run for i in items] == ["lootas rokkit-launchas", "lootas rokkit-launchas #2"]


def test_command_line_settings_override_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, "method: exact\ntargets: [boyz]\nruns: [{attacker: lootas}]\n")
    res = calc("compare", path, "--method", "sample", "--trials", "1000", "--seed", "7", "--json")
    assert res.exit_code == 0, res.output
    (row,) = json.loads(res.stdout)
    assert row["method"] == "sample"
    assert (row["sample"]["trials"], row["sample"]["seed"]) == (1000, 7)


def test_unit_options_refused_with_a_batch_file() -> None:
    res = calc("compare", EXAMPLE, "--target", "boyz", "--cover")
    no_traceback(res, code=2)  # options that do not go together: a usage error
    assert "--target" in res.stderr and "--cover" in res.stderr


def test_datasheets_folder_relative_to_the_batch(tmp_path: Path) -> None:
    sheets = tmp_path / "sheets"
    sheets.mkdir()
    text = (ROOT / "datasheets/orks/lootas.yaml").read_text(encoding="utf-8")
    (sheets / "my-lootas.yaml").write_text(
        text.replace("name: Lootas", "name: My Lootas"), encoding="utf-8"
    )
    path = write(tmp_path, "datasheets: [sheets]\nruns: [{attacker: my-lootas, target: boyz}]\n")
    res = calc("compare", path, "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)[0]["attacker"]["name"] == "My Lootas"


# ---------------------------------------------------------------------------------------------
# Errors

BAD = """\
targets: [boyz]
runs:
  - name: good
    attacker: {name: lootas, models: 10}
  - name: bad field
    attacker: {name: lootas, modles: 10}
  - name: bad unit
    attacker: lootaz
  - name: bad loadout
    attacker: {name: lootas, loadout: rokkit-launcha}
  - name: bad target
    attacker: lootas
    targets: [rhinoo, boyz]
  - name: bad effect
    attacker: lootas
    effects: [waagh]
  - name: last good
    attacker: lootas
"""


def test_bad_runs_do_not_hide_the_others(tmp_path: Path) -> None:
    path = write(tmp_path, BAD)
    res = calc("compare", path, "--json")
    no_traceback(res)
    rows = json.loads(res.stdout)
    assert [r["run"] for r in rows] == ["good", "bad target", "last good"]
    err = res.stderr
    assert f"{path}:6: run 'bad field': attacker: " in err and "modles" in err
    assert (
        f"{path}:8: run 'bad unit': attacker: unknown unit 'lootaz'; did you mean 'Lootas'" in err
    )
    assert f"{path}:10: run 'bad loadout': attacker.loadout: Lootas has no loadout" in err
    assert "did you mean 'rokkit-launchas'" in err
    assert "run 'bad target' against rhinoo: targets[0]: unknown unit 'rhinoo'" in err
    assert "did you mean 'Rhino'" in err
    assert f"{path}:16: run 'bad effect': effects[0]: unknown effect 'waagh'" in err
    assert err.count("error:") == 5


def test_errors_after_the_table(tmp_path: Path) -> None:
    res = calc("compare", write(tmp_path, BAD))
    no_traceback(res)
    assert "last good" in res.stdout  # the table is printed
    assert "error:" in res.stderr


def test_strict_stops_at_the_first_error(tmp_path: Path) -> None:
    res = calc("compare", write(tmp_path, BAD), "--strict")
    no_traceback(res)
    assert res.stdout == ""
    assert res.stderr.count("error:") == 1
    assert "bad field" in res.stderr


def test_strict_stops_on_a_resolution_error(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
targets: [boyz]
runs:
  - {name: fine, attacker: lootas}
  - {name: wrong phase, attacker: lootas, effects: [get-stuck-in]}
  - {name: never run, attacker: lootas}
""",
    )
    res = calc("compare", path, "--strict")
    no_traceback(res)
    assert res.stdout == ""
    assert "run 'wrong phase' against boyz" in res.stderr and "fight phase" in res.stderr
    res = calc("compare", path, "--json")
    no_traceback(res)
    assert [r["run"] for r in json.loads(res.stdout)] == ["fine", "never run"]


def test_malformed_yaml_gives_line_and_column(tmp_path: Path) -> None:
    path = write(tmp_path, "targets: [boyz]\nruns:\n  - attacker: {name: lootas\n  - x\n")
    res = calc("compare", path)
    no_traceback(res)
    assert f"{path}: malformed YAML: line " in res.stderr
    assert "column" in res.stderr and "line 3, column" in res.stderr


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", "empty"),
        ("- 1\n- 2\n", "mapping"),
        ("runs: []\n", "runs: needs at least one run"),
        (
            "method: fast\nruns: [{attacker: lootas}]\n",
            ":1: method: 'fast' is not allowed here: expected 'both', 'exact' or 'sample'",
        ),
        ("runs: [{attacker: lootas}]\n", "no target"),
        (
            "targets: [boyz]\nruns: [{attacker: lootas, target: boyz, targets: [rhino]}]\n",
            "not both",
        ),
        ("runs: [{attacker: lootas, target: boyz, models: 3}]\n", "unknown field 'models'"),
        ("targets: [boyz]\nruns: [{attacker: {name: lootas, models: 12}}]\n", "attacker.models"),
        (
            "targets: [boyz]\nruns: [{name: a, attacker: lootas}, {name: a, attacker: lootas}]\n",
            "name used by runs[0]",
        ),
        ("targets: [{name: boyz, models: 40}]\nruns: [{attacker: lootas}]\n", "targets[0].models"),
        (
            "targets: [boyz]\nruns: [{attacker: {name: lootas, weapons: [laser x2]}}]\n",
            "attacker.weapons[0]: Lootas has no weapon 'laser'",
        ),
        (
            "targets: [boyz]\nruns: [{attacker: lootas, phase: melee}]\n",
            "phase: 'melee' is not allowed here: expected 'fight' or 'shooting'",
        ),
        ("datasheets: [nowhere]\nruns: [{attacker: lootas, target: boyz}]\n", "does not exist"),
    ],
)
def test_batch_errors_name_the_field(tmp_path: Path, text: str, expected: str) -> None:
    res = calc("compare", write(tmp_path, text))
    no_traceback(res)
    assert expected in res.stderr


def test_missing_batch_file(tmp_path: Path) -> None:
    res = calc("compare", tmp_path / "nope.yaml")
    no_traceback(res)
    assert "batch file not found" in res.stderr


def test_unknown_unit_and_loadout_on_the_command_line() -> None:
    res = calc("compare", "lootaz", "--target", "boyz")
    no_traceback(res)
    assert "did you mean 'Lootas'" in res.stderr
    res = calc("compare", "lootas", "--loadout", "rokkit", "--loadout", "default", "-t", "boyz")
    no_traceback(res)
    assert "Lootas has no loadout 'rokkit'" in res.stderr
    assert "default" in res.stdout  # the good run is still shown
    res = calc("compare", "lootas", "--target", "boyzz")
    no_traceback(res)
    assert "did you mean 'Boyz'" in res.stderr


def test_no_target_on_the_command_line() -> None:
    res = calc("compare", "lootas")
    no_traceback(res, code=2)
    assert "--target" in res.stderr


def test_run_error_text() -> None:
    e = RunError("kmb", "bad", "attacker.loadout", "b.yaml", 12, "Boyz")
    assert str(e) == "b.yaml:12: run 'kmb' against Boyz: attacker.loadout: bad"
    assert str(RunError("x", "bad")) == "run 'x': bad"


def test_command_line_errors_are_reported_once() -> None:
    res = calc(
        "compare",
        "lootas",
        "--loadout",
        "default",
        "--loadout",
        "rokkit-launchas",
        "-t",
        "boyzz",
        "-t",
        "rhino",
        "--json",
    )
    no_traceback(res)
    assert res.stderr.count("unknown unit 'boyzz'") == 1
    # a --target that is no target is the command line's error: refused before anything is
    # computed (no rows of the Rhino first; a fresh-user trial's finding)
    assert res.exit_code == 1 and res.stdout == ""
    res = calc("compare", "lootas", "-t", "boyz", "-e", "waagh", "--loadout", "default")
    no_traceback(res)
    assert res.stderr.count("unknown effect 'waagh'") == 1


def test_leaders_on_both_sides_match_single_commands(tmp_path: Path) -> None:
    res = calc("compare", "boyz", "--leader", "warboss", "--fight", "-t", "termagants", "--json")
    assert res.exit_code == 0, res.output
    (row,) = json.loads(res.stdout)
    single = shoot_json("boyz", "--leader", "warboss", "-t", "termagants", verb="fight")
    assert {k: v for k, v in row.items() if k not in ("run", "compared")} == single

    path = write(
        tmp_path,
        "targets: [{name: boyz, models: 20, leader: warboss}]\n"
        "runs: [{attacker: {name: lootas, models: 10}, precision_target: bodyguard}]\n",
    )
    res = calc("compare", path, "--json")
    assert res.exit_code == 0, res.output
    (row,) = json.loads(res.stdout)
    single = shoot_json(
        "lootas",
        "--models",
        "10",
        "-t",
        "boyz",
        "--target-models",
        "20",
        "--target-leader",
        "warboss",
        "--precision-target",
        "bodyguard",
    )
    # the same object, but for its note naming the file's field (precision_target) where the
    # command line's names the option
    assert row["notes"] == [
        n.replace("--precision-target", "precision_target:") for n in single["notes"]
    ]
    assert {k: v for k, v in row.items() if k not in ("run", "compared", "notes")} == {
        k: v for k, v in single.items() if k != "notes"
    }


@pytest.mark.parametrize(
    ("targets", "told"),
    [
        (
            '[boyz, {name: boyz, allocation: "Boss Nob, Boy"}]',
            ["top-level targets[0]", "top-level targets[1]"],
        ),
        ('\n  - boyz\n  - {name: boyz, allocation: "Boss Nob, Boy"}', ["line 2", "line 3"]),
    ],
)
def test_errors_tell_apart_targets_of_the_same_name(tmp_path: Path, targets, told) -> None:
    """Fresh-user trial: "runs 'sniper-medic' and 'sniper-medic' against mixed three": one run
    failing against two targets of the same name read as two runs. Each target is named
    distinctly (its line, or its field when both are on one line)."""
    path = tmp_path / "b.yaml"
    path.write_text(
        f"targets: {targets}\nruns:\n  - {{name: sniper, attacker: lootas, order: [nope]}}\n",
        encoding="utf-8",
    )
    res = calc("compare", path)
    assert res.exit_code == 1
    (line,) = res.stderr.strip().splitlines()  # one error, against both targets: one line
    assert line.split(": order:")[0].split("run 'sniper' against ")[1] == " and ".join(
        f"boyz ({t})" for t in told
    )
    assert "runs 'sniper' and 'sniper'" not in res.stderr


def test_control_characters_in_names_are_escaped(tmp_path: Path) -> None:
    """Fresh-user trial: a run named with an ESC sequence was written raw into the table (and
    the CSV), where the terminal obeys it. The table and the CSV show it escaped; the JSON
    keeps the name as written (JSON escapes it itself)."""
    path = tmp_path / "b.yaml"
    path.write_text(
        'title: "t\\e[31mred"\ntargets: [boyz]\nruns:\n'
        '  - {name: "evil\\e[2Jname\\u202e", attacker: lootas}\n'
        "  - {name: plain, attacker: gretchin}\n",
        encoding="utf-8",
    )
    table = calc("compare", path)
    assert table.exit_code == 0, table.output
    assert "\x1b" not in table.stdout and "\u202e" not in table.stdout
    assert "evil\\x1b[2Jname\\u202e" in table.stdout and "t\\x1b[31mred" in table.stdout
    res = calc("compare", path, "--csv", "-")
    assert "\x1b" not in res.stdout
    records = list(csv.DictReader(io.StringIO(res.stdout)))
    assert [r["run"] for r in records] == ["evil\\x1b[2Jname\\u202e", "plain"]
    rows = json.loads(calc("compare", path, "--json").stdout)
    assert rows[0]["run"] == "evil\x1b[2Jname\u202e"


def test_json_carries_the_tables_own_figures() -> None:
    """``--json`` rows end with ``"compared"``: the figures the table and the CSV show (wipe,
    points per 100, best), the CSV's numbers exactly; points per 100 worked out from the row's
    own object (target points per model × models destroyed / attacker points × 100)."""
    args = ["compare", EXAMPLE, "--sort", "efficiency"]
    res = calc(*args, "--json")
    assert res.exit_code == 0, res.output
    rows = json.loads(res.stdout)
    assert res.stdout == json.dumps(rows, indent=2) + "\n"  # "compared" last, text as dumps
    records = {
        (r["run"], r["target"]): r
        for r in csv.DictReader(io.StringIO(calc(*args, "--csv", "-").stdout))
    }
    for row in rows:
        fig, rec = row["compared"], records[(row["run"], row["target"]["name"])]
        assert list(row)[-1] == "compared" and fig["sort"] == "efficiency"
        for key in ("damage", "models_destroyed", "p_wipe", "points_per_100", "attacker_losses"):
            assert fig[key] == float(rec[key]), key
        assert fig["best"] == (rec["best"] == "yes")
        t = row["target"]
        by_hand = t["points"] / t["models"] * row["expected"]["models_destroyed"]
        assert fig["points_per_100"] == pytest.approx(by_hand / row["attacker"]["points"] * 100)
        assert fig["p_wipe"] == row["kill_table"][-1]["at_least"]
    best = [r for r in rows if r["compared"]["best"]]
    assert len({r["target"]["name"] for r in best}) == 4  # one best row per target
