"""``--explain`` speed (issue 20): the main job with five rules (``calc shoot lootas --target
boyz --objective --cover --hit-mod 1 --reroll-wounds ones``: those four and Dat's Our Loot!),
exact Shapley values over its 32 subsets: goal under 0.3 s beyond start-up. `make bench` runs
it; figures in ``extra_info``, none asserted.

* in process: the attribution alone (32 subsets planned, chosen and resolved by the exact
  engine), beside the one activation resolved alone, in the same run;
* end to end: the command with and without ``--explain``, in the same rounds (child processes,
  :mod:`paired`): the difference of the medians is what ``--explain`` costs beyond start-up.
"""

from __future__ import annotations

import time

from measure import seconds
from paired import Paired, calc, compile_package
from profiles import selection

from wh40k_calc.explain import explain
from wh40k_calc.resolve import resolve

RULES = ("--objective", "--cover", "--hit-mod", "1", "--reroll-wounds", "ones")
MAIN_JOB = ("shoot", "lootas", "--target", "boyz", *RULES)
ROUNDS = 15


def _sel():
    return selection(
        "lootas",
        "boyz",
        conditions={"objective": True, "cover": True},
        modifiers={"hit_mod": 1, "reroll_wounds": "ones"},
    )


def _alone_seconds(sel, rounds: int = 20) -> float:
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        resolve(sel, "exact")
        best = min(best, time.perf_counter() - t0)
    return best


def test_explain_main_job_five_rules_in_process(benchmark) -> None:
    sel = _sel()
    r = resolve(sel, "exact")
    out = benchmark(explain, r)
    assert len(out.shares) == 5 and out.method == "exact"
    best = seconds(benchmark, "min")
    if best:
        alone = _alone_seconds(sel)
        benchmark.extra_info.update(
            {
                "seconds_mean": round(seconds(benchmark), 4),
                "seconds_best": round(best, 4),
                "one_activation_seconds_best": round(alone, 5),
                "over_one_activation": round(best / alone, 1),
                "subsets": out.subsets,
                "goal_seconds": 0.3,
            }
        )


def test_explain_main_job_five_rules_end_to_end(benchmark) -> None:
    compile_package()
    runs = Paired({"plain": calc(*MAIN_JOB), "explain": calc(*MAIN_JOB, "--explain")})
    runs.round()  # warm the file cache
    runs.reset()
    benchmark.pedantic(runs.round, rounds=ROUNDS, iterations=1)
    plain, explained = runs.median("plain"), runs.median("explain")
    info = {
        "plain_ms": round(plain * 1000, 1),
        "explain_ms": round(explained * 1000, 1),
        "explain_beyond_plain_ms": round((explained - plain) * 1000, 1),
        "explain_beyond_plain_cpu_ms": round(
            (runs.median_cpu("explain") - runs.median_cpu("plain")) * 1000, 1
        ),
        "goal_beyond_startup_ms": 300,
    }
    benchmark.extra_info.update(info)
