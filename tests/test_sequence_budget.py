"""``calc sequence --json`` within a time budget, and ``calc compare`` computing only what it
shows.

Each step's JSON object shows figures the tables do not: its damage distribution (the exact
engine's figure pass) and its own kill table (the exact engine run again per number of models
already destroyed). As ``calc shoot`` does for its damage distribution, these are estimated
before they run and computed exactly only within one budget for the whole sequence
(``engine/work.py`` FIGURE_SECONDS); beyond it they are the sampler's, and the step's notes say
so. The oracle for the sampled figures is the exact engine's own (computed with the default
budget, where the case fits): they must agree within 5 standard errors per value.

Target Duo (tests/data/sequence, edition 11): a W2 Sv6+ model and a W1 Sv2+ model, so the
damage a wound does depends on the model it reaches (the figure pass runs) and a step's own
kill table needs the engine per number of models already destroyed.
"""

from __future__ import annotations

import json
import re
from functools import partial
from pathlib import Path

import pytest
from helpers import cli, cli_json, se_p

SEQ = Path(__file__).parent / "data" / "sequence"
ALLOC = Path(__file__).parent / "data" / "alloc"
calc = partial(cli, dirs=[SEQ, ALLOC], env={"COLUMNS": "100"})
as_json = partial(cli_json, dirs=[SEQ, ALLOC], env={"COLUMNS": "100"})

DUO = ("sequence", "-t", "duo", "--edition", "11", "shoot lancers", "shoot lancers")
LEFT_OUT = "left out (the sequence's budget for such figures"
TINY = 1e-12  # below every estimate that is not 0


def _tiny_budget(monkeypatch) -> None:
    from wh40k_calc.engine import work

    monkeypatch.setattr(work, "FIGURE_SECONDS", TINY)


def _trials(note: str) -> int:
    m = re.search(r"\(([\d,]+) trials\)", note)
    assert m is not None, note
    return int(m.group(1).replace(",", ""))


def _agree(exact: list[float], sampled: list[float], trials: int) -> None:
    for d in range(max(len(exact), len(sampled))):
        p = exact[d] if d < len(exact) else 0.0
        q = sampled[d] if d < len(sampled) else 0.0
        assert abs(q - p) <= 5 * se_p(p, trials), (d, p, q)


def test_over_the_budget_the_steps_figures_are_the_samplers(monkeypatch):
    """A budget below every estimate: each step's damage distribution and the second step's
    own kill table are the sampler's (the first step's own figures are the cumulative ones,
    exact); the notes say which, in the step and at the top level; they agree with the exact
    ones within 5 standard errors; every other figure is the exact engine's, unchanged."""
    exact = as_json(*DUO)
    assert not any(LEFT_OUT in n for n in exact["notes"])
    _tiny_budget(monkeypatch)
    out = as_json(*DUO, "--seed", "11")
    assert out["method"] == "exact"
    first, second = out["steps"]
    (note1,) = [n for n in first["notes"] if LEFT_OUT in n]
    (note2,) = [n for n in second["notes"] if LEFT_OUT in n]
    assert "damage_distribution is the sampler's" in note1
    assert "kill_table" not in note1
    assert "damage_distribution, kill_table and models_destroyed_distribution are" in note2
    assert f"step 1: {note1}" in out["notes"] and f"step 2: {note2}" in out["notes"]
    trials = _trials(note2)
    assert trials == _trials(note1) >= 1000
    for k, step in enumerate(out["steps"]):
        want = exact["steps"][k]
        _agree(want["damage_distribution"], step["damage_distribution"], trials)
        assert step["damage_distribution"] != pytest.approx(want["damage_distribution"])
        for key in ("expected", "weapons", "cumulative", "attacker_losses"):
            assert step[key] == want[key], key
    _agree(
        exact["steps"][1]["models_destroyed_distribution"],
        second["models_destroyed_distribution"],
        trials,
    )
    assert first["kill_table"] == exact["steps"][0]["kill_table"]  # exact: nothing to redo
    for key in ("expected", "kill_table", "models_destroyed_distribution"):
        assert out[key] == exact[key], key


def test_with_method_both_the_stand_ins_are_its_own_sampler_run(monkeypatch):
    """With ``--method both`` the sampled stand-ins are the figures of the sampler run the
    command made (its ``sample`` block), not another run."""
    _tiny_budget(monkeypatch)
    out = as_json(*DUO, "--method", "both", "--trials", "3000")
    for step in out["steps"]:
        assert step["damage_distribution"] == step["sample"]["damage_distribution"]
        (note,) = [n for n in step["notes"] if LEFT_OUT in n]
        assert _trials(note) == 3000
    second = out["steps"][1]
    assert second["kill_table"] == second["sample"]["kill_table"]


def test_the_sampler_runs_once_for_every_step_over_the_budget(monkeypatch):
    """One sampled run of the sequence stands in for every figure over the budget, with the
    trials given (``--trials``)."""
    from wh40k_calc.sequence import sampled

    runs = []
    real = sampled.sample_chain
    monkeypatch.setattr(sampled, "sample_chain", lambda *a, **k: runs.append(1) or real(*a, **k))
    _tiny_budget(monkeypatch)
    out = as_json(*DUO, "--trials", "2000")
    assert runs == [1]
    notes = [n for s in out["steps"] for n in s["notes"] if LEFT_OUT in n]
    assert len(notes) == 2 and all(_trials(n) == 2000 for n in notes)


SEQUENCES = [
    DUO,
    ("sequence", "-t", "walker", "shoot marksmen", "shoot lancers", "shoot marksmen"),
    ("sequence", "-t", "duo", "--edition", "11", "shoot lancers", "--repeat", "3"),
    ("sequence", "-t", "walker", "shoot lancers", "--method", "both", "--trials", "2000"),
]


@pytest.mark.parametrize("args", SEQUENCES)
def test_within_the_budget_the_json_is_every_figure_exact(monkeypatch, args):
    """Within the budget nothing changes: the JSON is byte for byte the one with an unlimited
    budget (every figure computed exactly, as before the budget), and no sampler runs for it
    with --method exact."""
    from wh40k_calc.engine import work
    from wh40k_calc.sequence import sampled

    default = calc(*args, "--json")
    assert default.exit_code == 0, default.output
    assert LEFT_OUT not in default.stdout
    monkeypatch.setattr(work, "FIGURE_SECONDS", float("inf"))
    if "--method" not in args:
        monkeypatch.setattr(sampled, "sample_chain", _no_sampler)
    unlimited = calc(*args, "--json")
    assert unlimited.stdout == default.stdout


def _no_sampler(*args, **kwargs):
    raise AssertionError("the sampler ran")


def test_own_kill_table_cost_bounds_the_parts_estimates(monkeypatch):
    """The own kill table's estimate is the state pass from every alive state once per part
    (number of models already destroyed): no less than the parts' own estimates added up."""
    from wh40k_calc.engine.exact import state_estimate
    from wh40k_calc.sequence import output
    from wh40k_calc.sequence.figures import _parts, own_models_destroyed_cost

    seen = []
    real = output.to_json_sequence
    monkeypatch.setattr(output, "to_json_sequence", lambda seq: seen.append(seq) or real(seq))
    as_json(*DUO)
    sr = seen[0].steps[1]
    start = sr.exact_before
    assert start is not None
    act = sr.result.activation
    parts = [p for _, _, p in _parts(start, act.target.models) if p is not None]
    assert len(parts) >= 2
    total = sum(state_estimate(act, p).seconds for p in parts)
    assert own_models_destroyed_cost(sr.result, start) >= total > 0


PLANS = """\
targets: [duo]
edition: 11
runs:
  - name: volleys
    sequence: ["shoot lancers", "shoot lancers"]
  - name: one volley
    attacker: lancers
"""


def test_compare_table_and_csv_compute_no_distribution(tmp_path, monkeypatch):
    """``calc compare`` without --json shows no distribution: neither a sequence's steps'
    own kill tables and damage distributions nor an activation's figure pass are computed
    (made to fail here), and the figures it shows are those of --json."""
    from wh40k_calc.engine import exact
    from wh40k_calc.sequence import figures

    batch = tmp_path / "plans.yaml"
    batch.write_text(PLANS, encoding="utf-8")
    full = {r["run"]: r for r in as_json("compare", str(batch))}
    assert len(full["volleys"]["steps"]) == 2 and "damage_distribution" in full["one volley"]

    def fail(*args, **kwargs):
        raise AssertionError("a distribution the table does not show was computed")

    monkeypatch.setattr(figures, "own_models_destroyed", fail)
    monkeypatch.setattr(exact, "_figure_pass", fail)
    monkeypatch.setattr(exact, "_independent_figure", fail)
    res = calc("compare", str(batch), "--csv", "-")
    assert res.exit_code == 0, res.output
    import csv
    import io

    rows = {r["run"]: r for r in csv.DictReader(io.StringIO(res.stdout))}
    for run in ("volleys", "one volley"):
        assert float(rows[run]["models_destroyed"]) == pytest.approx(
            full[run]["expected"]["models_destroyed"], abs=1e-9
        )
        assert float(rows[run]["damage"]) == pytest.approx(
            full[run]["expected"]["damage"], abs=1e-9
        )
    table = calc("compare", str(batch))
    assert table.exit_code == 0, table.output
    assert "volleys" in table.stdout
    json.dumps(full)  # the --json objects are whole
