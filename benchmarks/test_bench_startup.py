"""Start-up (issue 12): ``calc shoot lootas --target boyz`` end to end, as a ratio to the floor
(``benchmarks/floor.py``) measured in the same rounds. Target: at most 1.3x. `make bench`
runs it; the figures are in ``extra_info``, nothing is asserted.

"before" is the same command as main was at ``paired.BEFORE`` (exported from git, run with
this environment's Python and libraries), timed in the same rounds. ``calc`` gives numpy's
OpenBLAS one thread (``wh40k_calc/__main__.py``); the floor on one thread is timed as well, for
a like-for-like ratio (``..._one_thread``). Ratios of medians, and of the best runs (``best``:
the least disturbed on a busy machine); CPU time is user + system."""

from __future__ import annotations

from paired import FLOOR, FLOOR_ONE_THREAD, Paired, calc, calc_before, compile_package

ROUNDS = 25
TARGET_RATIO = 1.3
MAIN_JOB = ("shoot", "lootas", "--target", "boyz")


def test_startup_against_the_floor(benchmark) -> None:
    compile_package()
    runs = Paired(
        {
            "floor": FLOOR,
            "floor_one_thread": FLOOR_ONE_THREAD,
            "main_job": calc(*MAIN_JOB),
            "main_job_before": calc_before(*MAIN_JOB),
            "version": calc("--version"),
        }
    )
    runs.round()  # warm the file cache
    runs.reset()
    benchmark.pedantic(runs.round, rounds=ROUNDS, iterations=1)
    floor, main = runs.median("floor"), runs.median("main_job")
    floor_cpu, main_cpu = runs.median_cpu("floor"), runs.median_cpu("main_job")
    info = {
        "floor_ms": round(floor * 1000, 1),
        "main_job_ms": round(main * 1000, 1),
        "calc_version_ms": round(runs.median("version") * 1000, 1),
        "main_job_over_floor": round(main / floor, 3),
        "main_job_over_floor_best": round(runs.best("main_job") / runs.best("floor"), 3),
        "main_job_over_floor_cpu": round(main_cpu / floor_cpu, 3),
        "main_job_over_floor_one_thread": round(main / runs.median("floor_one_thread"), 3),
        "target_ratio": TARGET_RATIO,
    }
    if runs.has("main_job_before"):
        before = runs.median("main_job_before")
        info.update(
            {
                "before_ms": round(before * 1000, 1),
                "before_over_floor": round(before / floor, 3),
                "before_over_floor_best": round(
                    runs.best("main_job_before") / runs.best("floor"), 3
                ),
                "before_over_floor_cpu": round(runs.median_cpu("main_job_before") / floor_cpu, 3),
            }
        )
    else:
        info["before"] = "unavailable (no git or no commit)"
    benchmark.extra_info.update(info)
