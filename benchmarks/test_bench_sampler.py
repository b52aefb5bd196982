"""The sampler end to end through ``calc`` in a child process (``make bench``), as a player runs
it. Figures land in each benchmark's ``extra_info``; none is asserted.

- The main job, ``--method sample --trials 1000000``: its time beyond start-up (each round is
  paired with the same command at ``--trials 1``, run just before it) over the time numpy takes
  to draw one int8 D6 per attack (11 x 10^6) in this process, in the same run.
- The absurd unit (``benchmarks/absurd.yaml``: 200 models with A 20D6+200) standing in for the
  exact engine, which declines it: wall time, trials run, the estimate and the budget, peak
  memory of the process.
- Its plain loadout with ``--method sample --trials 1000000``: wall time and peak memory (the
  trials run in chunks, so memory does not grow with them).
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

ABSURD = Path(__file__).resolve().parent / "absurd.yaml"
ABSURD_TARGET = ["--target", "boyz", "--target-models", "20", "--target-leader", "warboss"]
MAIN_JOB = ["shoot", "lootas", "--target", "boyz", "--method", "sample", "--json"]
ATTACKS = 11  # the main job: 4 Lootas x 2 (Deffgun) + 1 Spanner x 3 (Big shoota)

# the child prints its own peak resident memory, whatever ran before it in this session
_CHILD = (
    "import resource, sys\n"
    "from wh40k_calc.cli import main\n"
    "try:\n"
    "    main()\n"
    "finally:\n"
    "    kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
    "    print('PEAK_RSS_KB', kb, file=sys.stderr)\n"
)


def _calc(*args: str) -> tuple[float, float, dict]:
    """Run ``calc ARGS --json`` in a child process: (seconds, peak MiB, JSON output)."""
    start = time.perf_counter()
    res = subprocess.run(
        [sys.executable, "-c", _CHILD, *args, "--json"],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    seconds = time.perf_counter() - start
    assert res.returncode == 0, res.stderr
    peak = next(int(x.split()[1]) for x in res.stderr.splitlines() if x.startswith("PEAK_RSS_KB"))
    return seconds, peak / 1024, json.loads(res.stdout)


@pytest.fixture(scope="module")
def absurd_dir(tmp_path_factory) -> Path:
    """A datasheet folder holding only the absurd unit."""
    folder = tmp_path_factory.mktemp("absurd")
    shutil.copy(ABSURD, folder / "absurd.yaml")
    return folder


def _numpy_int8_d6_seconds(n: int, repeats: int = 20) -> float:
    """Best time numpy takes to draw ``n`` int8 D6 results in one call."""
    rng = np.random.default_rng(0)
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        rng.integers(1, 7, size=n, dtype=np.int8)
        best = min(best, time.perf_counter() - t)
    return best


def test_main_job_1e6_beyond_start_up(benchmark) -> None:
    trials = 1_000_000
    startup: list[float] = []
    runs: list[float] = []

    def pair() -> None:
        startup.append(_calc(*MAIN_JOB, "--trials", "1")[0])

    def run() -> dict:
        seconds, _, out = _calc(*MAIN_JOB, "--trials", str(trials))
        runs.append(seconds)
        return out

    out = benchmark.pedantic(run, setup=pair, rounds=5, iterations=1)
    beyond = statistics.median(r - s for r, s in zip(runs, startup, strict=True))
    numpy_s = _numpy_int8_d6_seconds(ATTACKS * trials)
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
    peaks: list[float] = []

    def run() -> dict:
        _, peak, out = _calc(*args)
        peaks.append(peak)
        return out

    out = benchmark.pedantic(run, rounds=3, iterations=1)
    assert out["method"] == "sample"
    note = next((n for n in out["notes"] if n.startswith("the sampler ran")), "")
    benchmark.extra_info.update(
        {
            "trials": out["sample"]["trials"],
            "note": note,
            "peak_rss_mib_max": round(max(peaks), 1),
        }
    )
    try:  # the budget, where the code under test has one
        from wh40k_calc.resolve import FALLBACK_SECONDS

        benchmark.extra_info["budget_seconds"] = FALLBACK_SECONDS
    except ImportError:
        pass
    mean = getattr(getattr(benchmark, "stats", None), "stats", None)
    if mean is not None:
        benchmark.extra_info["wall_seconds_mean"] = round(mean.mean, 3)


@pytest.mark.heavy
def test_absurd_unit_plain_1e6_trials(benchmark, absurd_dir: Path) -> None:
    trials = 1_000_000
    args = ["shoot", "absurd-horde", "--loadout", "plain", "--target", "boyz"]
    args += ["--method", "sample", "--trials", str(trials), "--datasheets", str(absurd_dir)]
    peaks: list[float] = []

    def run() -> dict:
        _, peak, out = _calc(*args)
        peaks.append(peak)
        return out

    out = benchmark.pedantic(run, rounds=1, iterations=1)
    assert out["sample"]["trials"] == trials
    benchmark.extra_info.update({"trials": trials, "peak_rss_mib": round(max(peaks), 1)})
    mean = getattr(getattr(benchmark, "stats", None), "stats", None)
    if mean is not None:
        benchmark.extra_info["wall_seconds"] = round(mean.mean, 3)
