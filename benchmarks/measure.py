"""How the benchmarks measure, shared by them: a benchmark's own timing statistics, the time
numpy alone takes to draw D6s (the floor the sampler is compared with), and ``calc`` run in a
child process that reports its own peak memory, round after round.

Figures go in ``extra_info``; nothing here asserts a speed.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

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


def seconds(benchmark: Any, stat: str = "mean") -> float | None:
    """The benchmark's ``stat`` (``mean``, ``min``, ...) in seconds; None when it did not time
    (benchmarks skipped or disabled)."""
    stats = getattr(benchmark, "stats", None)
    return None if stats is None else float(getattr(stats.stats, stat))


def numpy_d6_seconds(n: int, repeats: int = 20) -> float:
    """Best time numpy alone takes to draw ``n`` int8 D6 results in one call."""
    rng = np.random.default_rng(0)
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        rng.integers(1, 7, size=n, dtype=np.int8)
        best = min(best, time.perf_counter() - t)
    return best


def calc_child(*args: str) -> tuple[float, float, dict]:
    """Run ``calc ARGS --json`` in a child process: (seconds, peak MiB, JSON output)."""
    start = time.perf_counter()
    res = subprocess.run(
        [sys.executable, "-c", _CHILD, *args, "--json"],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    elapsed = time.perf_counter() - start
    assert res.returncode == 0, res.stderr
    peak = next(int(x.split()[1]) for x in res.stderr.splitlines() if x.startswith("PEAK_RSS_KB"))
    return elapsed, peak / 1024, json.loads(res.stdout)


def calc_rounds(benchmark: Any, args: Sequence[str], rounds: int) -> tuple[dict, list[float]]:
    """``calc ARGS --json`` in a child process for ``rounds`` rounds of the benchmark: the last
    round's JSON output and each round's peak memory (MiB)."""
    peaks: list[float] = []

    def run() -> dict:
        _, peak, out = calc_child(*args)
        peaks.append(peak)
        return out

    return benchmark.pedantic(run, rounds=rounds, iterations=1), peaks


def stand_in_figures(benchmark: Any, out: dict, peaks: list[float]) -> None:
    """``extra_info`` of the sampler standing in for the exact engine: the trials it ran and
    its note, the peak memory, the time budget (where the code under test has one) and the
    mean wall time."""
    note = next((n for n in out["notes"] if n.startswith("the sampler ran")), "")
    benchmark.extra_info.update(
        {"trials": out["sample"]["trials"], "note": note, "peak_rss_mib_max": round(max(peaks), 1)}
    )
    try:  # the budget, where the code under test has one
        from wh40k_calc.resolve import FALLBACK_SECONDS

        benchmark.extra_info["budget_seconds"] = FALLBACK_SECONDS
    except ImportError:
        pass
    wall = seconds(benchmark)
    if wall is not None:
        benchmark.extra_info["wall_seconds_mean"] = round(wall, 3)
