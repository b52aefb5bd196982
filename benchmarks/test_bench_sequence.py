"""`calc sequence` speed (issue 13): a 3-step sequence into 20 Boyz led by a Warboss, target:
well under a second. `make bench` runs it; figures in ``extra_info``, none asserted.

* the sequence resolved exactly (the three steps, each from the distribution the earlier ones
  left, with the player's choices), and the same with the JSON object (each step's own kill
  table: the step run again per number of models already destroyed);
* the three activations resolved alone from the unharmed unit (``calc shoot`` each), measured
  in the same run: the ratio is what carrying the state costs;
* the sampler carrying one state per trial (10^5 trials);
* the whole command (``calc sequence ... --json`` through the CLI, in-process);
* the sampler standing in for a whole sequence without ``--trials`` (the fresh-user trial's 60
  activations of the absurd unit, ``benchmarks/absurd.yaml``, into 20 Boyz with a Warboss,
  destroyed in the first): wall time, trials run, the budget, peak memory (it took 173 s when
  each step had its own budget and every step shot at the destroyed unit);
* a 2-step sequence sampled with 10^7 trials: wall time and peak memory (the trials run in
  chunks through every step; carrying every trial's state took 471-576 MB);
* the fresh-user trial's ``--json`` sequence whose steps' damage distributions and own kill
  tables are over the budget for them (sequence/budget.py): wall time, peak memory, and the
  figures left to the sampler;
* issue 21: each activation after the first (the three steps repeated four times:
  ``benchmarks/sequence_probe.py``, in child processes), now and as main was at
  ``paired.BEFORE_SPEED``, alternating (target at most 1 ms).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest
from measure import calc_rounds, seconds, stand_in_figures
from paired import BEFORE_SPEED, before_tree
from typer.testing import CliRunner

from wh40k_calc.cli import app
from wh40k_calc.options import EngineOptions, TargetOptions, catalog
from wh40k_calc.resolve import resolve
from wh40k_calc.sequence.output import to_json_sequence
from wh40k_calc.sequence.run import run_sequence
from wh40k_calc.sequence.steps import build_steps

TARGET = {"target": "boyz", "target_models": 20, "target_leader": ["warboss"]}
STEPS = [
    "shoot lootas --models 10 --stationary",
    "shoot lootas --models 10 --loadout kustom-mega-blastas",
    "fight lord-invocatus --charged",
]


@pytest.fixture(scope="module")
def steps():
    return build_steps(STEPS, catalog(None), TargetOptions(**TARGET), EngineOptions())


def _alone_seconds(steps, rounds: int = 20) -> float:
    """Best time of the three activations resolved alone, from the unharmed unit."""
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        for s in steps:
            resolve(s.selection, "exact")
        best = min(best, time.perf_counter() - t0)
    return best


def test_sequence_exact_3_steps_into_20_boyz_with_warboss(benchmark, steps) -> None:
    out = benchmark(run_sequence, steps, "exact")
    alone = _alone_seconds(steps)
    best = seconds(benchmark, "min")
    if best:
        benchmark.extra_info["seconds_mean"] = round(seconds(benchmark), 4)
        benchmark.extra_info["seconds_best"] = round(best, 4)
        benchmark.extra_info["three_alone_seconds_best"] = round(alone, 4)
        benchmark.extra_info["ratio_to_three_alone"] = round(best / alone, 2)
    assert len(out.steps) == 3


def test_sequence_exact_with_json(benchmark, steps) -> None:
    out = benchmark(lambda: to_json_sequence(run_sequence(steps, "exact")))
    if seconds(benchmark):
        benchmark.extra_info["seconds_mean"] = round(seconds(benchmark), 4)
    assert len(out["steps"]) == 3


def test_sequence_sampled_100k_trials(benchmark, steps) -> None:
    out = benchmark(run_sequence, steps, "sample", 100_000, 40_000)
    if seconds(benchmark):
        benchmark.extra_info["seconds_mean"] = round(seconds(benchmark), 4)
    assert out.steps[-1].result.sample.trials == 100_000


def test_sequence_command_json(benchmark) -> None:
    args = ["sequence", "-t", "boyz", "--target-models", "20", "--target-leader", "warboss"]
    runner = CliRunner()

    def run():
        return runner.invoke(app, [*args, *STEPS, "--json"])

    res = benchmark(run)
    if seconds(benchmark):
        benchmark.extra_info["seconds_mean"] = round(seconds(benchmark), 4)
    assert res.exit_code == 0


ABSURD_STEPS = ["shoot absurd-horde"] * 4


def test_sequence_absurd_stands_in_within_the_budget(benchmark) -> None:
    from test_bench_sampler import ABSURD, ABSURD_TARGET

    args = ["sequence", *ABSURD_TARGET, *ABSURD_STEPS, "--repeat", "15"]
    args += ["--datasheets", str(ABSURD.parent)]
    out, peaks = calc_rounds(benchmark, args, rounds=2)
    assert out["method"] == "sample" and len(out["steps"]) == 60
    stand_in_figures(benchmark, out, peaks)


@pytest.mark.heavy
def test_sequence_sampled_1e7_trials_memory(benchmark) -> None:
    args = ["sequence", "-t", "intercessor-squad", "--target-models", "10"]
    args += ["shoot lootas --models 10", "fight boyz --models 20"]
    args += ["--method", "sample", "--trials", "10000000"]
    out, peaks = calc_rounds(benchmark, args, rounds=1)
    assert out["sample"]["trials"] == 10_000_000
    benchmark.extra_info["peak_rss_mib"] = round(max(peaks), 1)
    if seconds(benchmark):
        benchmark.extra_info["wall_seconds"] = round(seconds(benchmark), 2)


KMB_TRIAL = [
    "sequence", "-t", "boyz", "--target-models", "20", "--target-leader", "warboss",
    "--target-leader", "painboy", "--edition", "11",
    "shoot lootas --models 10 --loadout kustom-mega-blasta --add-ability 'devastating wounds' "
    "--add-ability 'sustained hits 1'",
    "--repeat", "3",
]  # fmt: skip


def test_sequence_json_keeps_to_the_figure_budget(benchmark) -> None:
    """The fresh-user trial's ``--json`` sequence (15 s and 1.5 GB when every step's damage
    distribution and own kill table were exact whatever they cost): wall time and peak memory
    of the whole command, and the figures left to the sampler."""
    out, peaks = calc_rounds(benchmark, KMB_TRIAL, rounds=2)
    left = [n for n in out["notes"] if "left out (the sequence's budget" in n]
    benchmark.extra_info.update(
        {"peak_rss_mib_max": round(max(peaks), 1), "figures_left_to_the_sampler": left}
    )
    if seconds(benchmark):
        benchmark.extra_info["wall_seconds"] = round(seconds(benchmark), 2)
    assert len(out["steps"]) == 3


PROBE = Path(__file__).resolve().parent / "sequence_probe.py"


def _probe(tree: Path | None) -> dict:
    env = dict(os.environ)
    if tree is not None:  # main at an earlier commit first on the path
        env["PYTHONPATH"] = str(tree)
    out = subprocess.run(
        [sys.executable, "-P", str(PROBE)], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)


def test_sequence_per_activation_after_the_first(benchmark) -> None:
    tree = before_tree(BEFORE_SPEED)
    now: list[float] = []
    before: list[float] = []

    def pair() -> None:
        now.append(_probe(None)["per_activation_after_the_first_ms"])
        if tree is not None:
            before.append(_probe(tree)["per_activation_after_the_first_ms"])

    benchmark.pedantic(pair, rounds=3, iterations=1)
    info: dict[str, object] = {"per_activation_ms": statistics.median(now), "target_ms": 1.0}
    if before:
        info["before_per_activation_ms"] = statistics.median(before)
        info["before_over_now"] = round(statistics.median(before) / statistics.median(now), 2)
    benchmark.extra_info.update(info)
