"""Sequences in ``calc compare`` batch files (``sequence: [...]``) and target sets
(``--target-set NAME``, ``target_set: NAME``).

Expected values: ``calc sequence`` of the same steps (the batch must resolve a plan exactly as
the command does), and points, efficiency and Hazardous losses worked out by hand from the
datasheets' points (5 Lootas 50, 10 Lootas 100, 10 Boyz 80, 10 Intercessors 160).
"""

from __future__ import annotations

import csv
import io
import json
from functools import partial
from pathlib import Path

import pytest
from helpers import cli, cli_json

BENCHMARKS = [
    "Cadian Shock Troops",
    "Intercessor Squad",
    "Terminator Squad",
    "Custodian Guard",
    "Rhino",
    "Leman Russ Battle Tank",
    "Land Raider",
    "Armiger Warglaive",
    "Knight Paladin",
    "Necron Warriors",
    "Termagants",
    "Carnifexes",
]


calc = partial(cli, env={"COLUMNS": "120"})
ok_json = partial(cli_json, env={"COLUMNS": "120"})


def write(tmp_path: Path, text: str, name: str = "plans.yaml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


PLANS = """\
targets: [{name: intercessor-squad, models: 10}]
conditions: [stationary]
runs:
  - name: quoted
    sequence: ["shoot lootas --models 10 --stationary", "fight boyz --charged --effect waaagh"]
  - name: mappings
    sequence:
      - {attacker: {name: lootas, models: 10}}
      - {attacker: boyz, phase: fight, conditions: {charged: true, stationary: false},
         effects: [waaagh]}
  - name: shoot then fight
    sequence: ["shoot boyz", "fight boyz --charged"]
  - name: two loota units
    sequence: ["shoot lootas", "shoot lootas"]
  - name: kmb volleys
    sequence: ["shoot lootas --loadout kustom-mega-blastas"]
    repeat: 2
"""


def test_a_batch_sequence_is_calc_sequence(tmp_path):
    rows = ok_json("compare", write(tmp_path, PLANS))
    by_run = {r["run"]: r for r in rows}
    want = ok_json(
        "sequence", "-t", "intercessor-squad", "--target-models", "10",
        "shoot lootas --models 10 --stationary", "fight boyz --charged --effect waaagh",
    )  # fmt: skip
    for name in ("quoted", "mappings"):  # a mapping step takes the run's conditions
        got = by_run[name]
        assert got["phase"] == "sequence" and len(got["steps"]) == 2
        assert got["expected"] == pytest.approx(want["expected"], abs=1e-12)
        assert got["kill_table"] == want["kill_table"]
        assert [s["weapons"] for s in got["steps"]] == [s["weapons"] for s in want["steps"]]
    assert [(s["repeat"], s["step"]) for s in by_run["kmb volleys"]["steps"]] == [(1, 1), (2, 1)]


def test_plan_points_and_losses(tmp_path):
    """Efficiency counts each attacking unit once: Boyz that shoot and then fight are one unit
    (80 pts); two Loota units shooting are two (100 pts); a repeated step is the same unit
    (50 pts). Losses add up every step's Hazardous losses: the kustom mega-blasta Spanner
    fails its Hazardous test on a 1 and, W1, is destroyed by its 3 mortal wounds: 1/6 per
    volley, 2/6 for two."""
    out = calc("compare", write(tmp_path, PLANS), "--csv", "-")
    assert out.exit_code == 0, out.output
    rows = {r["run"]: r for r in csv.DictReader(io.StringIO(out.stdout))}
    assert float(rows["shoot then fight"]["attacker_points"]) == 80
    assert float(rows["two loota units"]["attacker_points"]) == 100
    assert float(rows["kmb volleys"]["attacker_points"]) == 50
    assert float(rows["quoted"]["attacker_points"]) == 100 + 80
    assert float(rows["kmb volleys"]["attacker_losses"]) == pytest.approx(2 / 6, abs=1e-9)
    for r in rows.values():  # 10 Intercessors: 16 pts a model
        want = 16 * float(r["models_destroyed"]) / float(r["attacker_points"]) * 100
        assert float(r["points_per_100"]) == pytest.approx(want, abs=1e-5)
    assert rows["quoted"]["phase"] == "sequence"


@pytest.mark.parametrize(
    ("run", "message"),
    [
        ("{attacker: lootas, sequence: ['shoot boyz']}", "runs[0]': sequence: give 'attacker' (one "
         "activation) or 'sequence' (several), not both"),
        ("{name: x}", "run 'x': attacker: give 'attacker' (one activation) or 'sequence'"),
        ("{name: x, sequence: ['shoot lootas', 'shoot lootas --modles 2']}",
         "run 'x': step 2: No such option: --modles"),
        ("{name: x, sequence: ['shoot lootas -t rhino']}",
         "run 'x': step 1: --target: not inside a step"),
        ("{name: x, sequence: [{attacker: lootaz}]}",
         "run 'x': step 1: attacker: unknown unit 'lootaz'"),
        ("{name: x, sequence: [{attacker: lootas, modifiers: {target_stealth: true}}]}",
         "step 1: modifiers.target_stealth: target_stealth is the target's"),
        ("{name: x, sequence: [{attacker: lootas, effects: [nope]}]}",
         "run 'x': step 1: effects[0]: unknown effect"),
        # steps count from 1 as calc sequence counts them; a field in the wrong place is told
        # where it belongs; an enum lists its values; verbs in any case
        ("{name: x, sequence: ['shoot lootas', {attacker: boyz, phase: fight, stationery: true}]}",
         "run 'x': step 2: unknown field 'stationery'; did you mean 'stationary' (under "
         "'conditions:')?"),
        ("{name: x, sequence: [{attacker: lootas, conditions: {stationery: true}}]}",
         "run 'x': step 1: conditions: unknown field 'stationery'; did you mean 'stationary'?"),
        ("{name: x, sequence: [{attacker: lootas, hit_mod: 1}]}",
         "run 'x': step 1: unknown field 'hit_mod': it goes under 'modifiers:'"),
        ("{name: x, sequence: [{attacker: lootas, target: rhino}]}",
         "run 'x': step 1: unknown field 'target': the target belongs to the run, not to a step"),
        ("{name: x, sequence: [{attacker: lootas, target_set: benchmarks}]}",
         "step 1: unknown field 'target_set': the target belongs to the run, not to a step"),
        ("{name: x, sequence: [{attacker: lootas, method: sample}]}",
         "run 'x': step 1: unknown field 'method': method belongs to the run, not to a step"),
        ("{name: x, sequence: [{attacker: lootas, phase: shooty}]}",
         "run 'x': step 1: phase: 'shooty' is not allowed here: expected 'fight' or 'shooting'"),
        ("{name: x, sequence: ['shot lootas']}",
         "run 'x': step 1: expected 'shoot' or 'fight' first, got 'shot'; did you mean 'shoot'?"),
        ("{name: x, stationary: true, attacker: lootas}",
         "run 'x': unknown field 'stationary': it goes under 'conditions:'"),
        ("{name: x, sequence: ['shoot lootas', 'shoot lootas', 'shoot lootas', 'shoot lootas'], "
         "repeat: 20}", "run 'x': repeat: a sequence takes at most 60 activations"),
        ("{name: x, sequence: ['shoot lootas'], target: boyz, target_set: benchmarks}",
         "run 'x': target_set: give 'target' or 'target_set', not both"),
        ("{name: x, sequence: ['shoot lootas'], target_set: benchmark}",
         "unknown target set 'benchmark'; did you mean 'benchmarks'?"),
        # refused, not ignored (it was: one activation's figures under a run that asked five)
        ("{name: x, attacker: lootas, repeat: 5}",
         "run 'x': repeat: only a sequence run repeats; an 'attacker' run is one activation "
         "(for 5 in a row, write it as sequence: [{attacker: ...}] with repeat: 5)"),
    ],
)  # fmt: skip
def test_batch_sequence_errors_name_the_run_and_field(tmp_path, run, message):
    res = calc("compare", write(tmp_path, f"targets: [boyz]\nruns:\n  - {run}\n"))
    assert res.exit_code == 1, res.output
    assert message in res.stderr, res.stderr


# ---------------------------------------------------------------------------------------------
# Target sets


def test_compare_against_the_benchmark_targets():
    rows = ok_json("compare", "lootas", "--target-set", "benchmarks")
    assert [r["target"]["name"] for r in rows] == BENCHMARKS
    single = ok_json("shoot", "lootas", "-t", "carnifexes")
    assert rows[-1]["expected"] == single["expected"]
    both = ok_json("compare", "lootas", "--target-set", "benchmarks", "-t", "boyz")
    assert [r["target"]["name"] for r in both] == ["Boyz", *BENCHMARKS]


def test_batch_target_set(tmp_path):
    text = "target_set: benchmarks\nruns:\n  - attacker: lootas\n  - sequence: ['shoot lootas']\n"
    rows = ok_json("compare", write(tmp_path, text))
    assert len(rows) == 24
    assert [r["target"]["name"] for r in rows[12:]] == BENCHMARKS
    res = calc("compare", write(tmp_path, "targets: [boyz]\ntarget_set: benchmarks\n"
                                          "runs: [{attacker: lootas}]\n"))  # fmt: skip
    assert res.exit_code == 1 and "give 'targets' or 'target_set', not both" in res.stderr


SMALL_SET = """\
name: small
description: two targets
targets:
  - boyz
  - {name: intercessor-squad, models: 10, wounds_left: 1}
"""


def user_sets(tmp_path: Path, monkeypatch, **sets: str) -> Path:
    """Write each target set given (file stem=text) in the ``target-sets`` folder of a user
    data folder under ``tmp_path``, made the user's (``WH40K_CALC_HOME``); return the folder."""
    home = tmp_path / "home"
    (home / "target-sets").mkdir(parents=True)
    for stem, text in sets.items():
        (home / "target-sets" / f"{stem}.yaml").write_text(text, encoding="utf-8")
    monkeypatch.setenv("WH40K_CALC_HOME", str(home))
    return home / "target-sets"


def test_users_own_sets(tmp_path, monkeypatch):
    """A set in the user data folder's target-sets/, or in a --datasheets folder's; a user's
    set named like a shipped one replaces it; a target-sets folder is never read as
    datasheets."""
    user_sets(tmp_path, monkeypatch, small=SMALL_SET, mine="name: benchmarks\ntargets: [rhino]\n")
    rows = ok_json("compare", "lootas", "--target-set", "small")
    assert [(r["target"]["name"], r["target"]["wounds_left"]) for r in rows] == [
        ("Boyz", None),
        ("Intercessor Squad", 1),
    ]
    assert [r["target"]["name"] for r in ok_json("compare", "lootas", "--target-set",
                                                 "benchmarks")] == ["Rhino"]  # fmt: skip
    folder = tmp_path / "mine"
    (folder / "target-sets").mkdir(parents=True)
    (folder / "target-sets" / "other.yaml").write_text(
        "name: other\ntargets: [rhino, boyz]\n", encoding="utf-8"
    )
    rows = ok_json("compare", "lootas", "--target-set", "other", "--datasheets", str(folder))
    assert [r["target"]["name"] for r in rows] == ["Rhino", "Boyz"]
    units = calc("units", "--datasheets", str(folder), "--json")
    assert "other" not in {u["name"] for u in json.loads(units.stdout)}


def test_a_malformed_set_names_the_file_and_field(tmp_path, monkeypatch):
    user_sets(tmp_path, monkeypatch, bad="name: bad\ntargets:\n  - {name: boyz, modles: 3}\n")
    res = calc("compare", "lootas", "--target-set", "bad")
    assert res.exit_code == 1
    assert "bad.yaml:3: targets[0]" in res.stderr and "modles" in res.stderr


BROKEN_SET = """\
name: broken
targets:
  - rhino
  - {name: boyz, models: 7000}
  - nosuchunit
"""


def test_a_set_entry_that_cannot_be_a_target_names_the_set_file(tmp_path, monkeypatch):
    """An entry of a target set that is no possible target (too many models, an unknown
    unit) names the set's file, the entry's line and field, not a --target nobody typed; the
    other targets still print. In a batch file the run and its target_set line come first."""
    path = user_sets(tmp_path, monkeypatch, broken=BROKEN_SET) / "broken.yaml"
    res = calc("compare", "lootas", "--target-set", "broken")
    assert res.exit_code == 1 and "Rhino" in res.stdout
    lines = res.stderr.strip().splitlines()
    assert lines[0].startswith(f"error: {path}:4: targets[1].models: Boyz cannot have 7,000 models")
    assert lines[1].startswith(f"error: {path}:5: targets[2]: unknown unit 'nosuchunit'")
    assert "--target" not in res.stderr
    batch = write(tmp_path, "target_set: broken\nruns:\n  - attacker: lootas\n")
    res = calc("compare", batch)
    assert res.exit_code == 1
    lines = res.stderr.strip().splitlines()
    assert lines[0].startswith(
        f"error: {batch}:1: run 'lootas' against 7000 boyz: target_set 'broken' ({path}:4): "
        "targets[1].models: Boyz cannot have 7,000 models"
    )
    assert f"target_set 'broken' ({path}:5): targets[2]: unknown unit" in lines[1]


@pytest.mark.parametrize("text", ["", "# only a comment\n"])
def test_an_empty_set_file_says_so(tmp_path, monkeypatch, text):
    path = user_sets(tmp_path, monkeypatch, empty=text) / "empty.yaml"
    res = calc("compare", "lootas", "--target-set", "empty")
    assert res.exit_code == 1
    assert res.stderr.strip() == (
        f"error: --target-set: {path}: the file is empty; a target set gives 'name:' and 'targets:'"
    )


def test_a_damaged_target_is_headed_as_damaged(tmp_path):
    """A target starting wounded is said so in the same words everywhere: "Land Raider on 10
    of 16" (its first model in allocation order, wounds left of W) in calc compare's heading
    (a target set entry, a batch target, a plan's target), calc sequence's and calc shoot's
    headers, and the JSON's ``target.wounded_model``."""
    text = (
        "targets:\n  - land-raider\n  - {name: land-raider, wounds_left: 10}\n"
        "runs:\n  - attacker: lootas\n  - sequence: ['shoot lootas']\n"
    )
    res = calc("compare", write(tmp_path, text))
    assert res.exit_code == 0, res.output
    headings = [line.strip() for line in res.stdout.splitlines() if "240 pts" in line]
    assert headings == [
        "1 Land Raider · 240 pts",
        "1 Land Raider · 240 pts · Land Raider on 10 of 16",
    ]
    rows = ok_json("compare", write(tmp_path, text))
    wounded = {"name": "Land Raider", "wounds_left": 10, "W": 16}
    assert [r["target"]["wounded_model"] for r in rows] == [None, wounded, None, wounded]
    target = ["-t", "intercessor-squad", "--target-models", "5", "--target-wounds-left", "1"]
    shoot = calc("shoot", "lootas", *target)
    seq = calc("sequence", *target, "shoot lootas")
    for res in (shoot, seq):
        assert res.exit_code == 0, res.output
        assert "10 wounds; Intercessor on 1 of 2)" in " ".join(res.stdout.split())


def test_the_example_plans_file():
    path = Path(__file__).resolve().parents[1] / "examples" / "plans.yaml"
    rows = ok_json("compare", str(path))
    assert [r["run"] for r in rows] == [
        "lootas then boyz",
        "boyz then lootas",
        "two loota units",
        "kustom mega-blastas, three turns",
    ]
    assert all(r["phase"] == "sequence" for r in rows)
    assert len(rows[-1]["steps"]) == 3


def test_set_entries_of_one_name_are_two_targets_on_the_command_line(tmp_path, monkeypatch):
    """Two entries of a set that differ only in their allocation order (the same label,
    "boyz") were merged into one target by ``calc compare ATTACKER --target-set``, silently
    dropping the second; a batch run against the set has both. Both are compared."""
    user_sets(
        tmp_path,
        monkeypatch,
        two='name: two\ntargets:\n  - boyz\n  - {name: boyz, allocation: "Boss Nob, Boy"}\n',
    )
    rows = cli_json("compare", "lootas", "--target-set", "two")
    orders = [r["target"]["allocation_order"][0] for r in rows]
    assert orders == ["Boy", "Boss Nob"]
    assert len(cli_json("compare", "lootas", "-t", "boyz", "-t", "boyz")) == 1  # once
