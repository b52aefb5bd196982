"""The sampler end to end through ``calc`` in a child process (``make bench``), as a player runs
it. Figures land in each benchmark's ``extra_info``; none is asserted.

- The main job, ``--method sample --trials 1000000``: its time beyond start-up (each round is
  paired with the same command at ``--trials 2``, the fewest allowed, run just before it) over
  the time numpy takes to draw one int8 D6 per attack (11 x 10^6) in this process, in the same
  run.
- The absurd unit (``benchmarks/absurd.yaml``: 200 models with A 20D6+200) standing in for the
  exact engine, which declines it: wall time, trials run, the estimate and the budget, peak
  memory of the process.
- Its plain loadout with ``--method sample --trials 1000000``: wall time and peak memory (the
  trials run in chunks, so memory does not grow with them).
"""

from __future__ import annotations

import shutil
import statistics
from pathlib import Path

import pytest
from measure import calc_child, calc_rounds, numpy_d6_seconds, seconds, stand_in_figures

ABSURD = Path(__file__).resolve().parent / "absurd.yaml"
ABSURD_TARGET = ["--target", "boyz", "--target-models", "20", "--target-leader", "warboss"]
MAIN_JOB = ["shoot", "lootas", "--target", "boyz", "--method", "sample", "--json"]
ATTACKS = 11  # the main job: 4 Lootas x 2 (Deffgun) + 1 Spanner x 3 (Big shoota)


@pytest.fixture(scope="module")
def absurd_dir(tmp_path_factory) -> Path:
    """A datasheet folder holding only the absurd unit."""
    folder = tmp_path_factory.mktemp("absurd")
    shutil.copy(ABSURD, folder / "absurd.yaml")
    return folder


def test_main_job_1e6_beyond_start_up(benchmark) -> None:
    trials = 1_000_000
    startup: list[float] = []
    runs: list[float] = []

    def pair() -> None:
        startup.append(calc_child(*MAIN_JOB, "--trials", "2")[0])

    def run() -> dict:
        elapsed, _, out = calc_child(*MAIN_JOB, "--trials", str(trials))
        runs.append(elapsed)
        return out

    out = benchmark.pedantic(run, setup=pair, rounds=5, iterations=1)
    beyond = statistics.median(r - s for r, s in zip(runs, startup, strict=True))
    numpy_s = numpy_d6_seconds(ATTACKS * trials)
    assert out["sample"]["trials"] == trials
    benchmark.extra_info.update(
        {
            "trials": trials,
            "start_up_seconds_median": round(statistics.median(startup), 4),
            "beyond_start_up_seconds_median": round(beyond, 4),
            "numpy_int8_d6_per_attack_seconds": round(numpy_s, 4),
            "beyond_start_up_over_numpy": round(beyond / numpy_s, 2),
        }
    )


def test_absurd_unit_stands_in(benchmark, absurd_dir: Path) -> None:
    args = ["shoot", "absurd-horde", *ABSURD_TARGET, "--datasheets", str(absurd_dir)]
    out, peaks = calc_rounds(benchmark, args, rounds=3)
    assert out["method"] == "sample"
    stand_in_figures(benchmark, out, peaks)


@pytest.mark.heavy
def test_absurd_unit_plain_1e6_trials(benchmark, absurd_dir: Path) -> None:
    trials = 1_000_000
    args = ["shoot", "absurd-horde", "--loadout", "plain", "--target", "boyz"]
    args += ["--method", "sample", "--trials", str(trials), "--datasheets", str(absurd_dir)]
    out, peaks = calc_rounds(benchmark, args, rounds=1)
    assert out["sample"]["trials"] == trials
    benchmark.extra_info.update({"trials": trials, "peak_rss_mib": round(max(peaks), 1)})
    wall = seconds(benchmark)
    if wall is not None:
        benchmark.extra_info["wall_seconds"] = round(wall, 3)
