"""Start-up (issue 12): ``calc shoot lootas --target boyz`` end to end, as a ratio to the floor
(``benchmarks/floor.py``) measured in the same rounds. Target: at most 1.3x. `make bench`
runs it; the figures are in ``extra_info``, nothing is asserted."""

from __future__ import annotations

from paired import FLOOR, Paired, calc, compile_package

ROUNDS = 25
TARGET_RATIO = 1.3


def test_startup_against_the_floor(benchmark) -> None:
    compile_package()
    runs = Paired(
        {
            "floor": FLOOR,
            "main_job": calc("shoot", "lootas", "--target", "boyz"),
            "version": calc("--version"),
        }
    )
    runs.round()  # warm the file cache
    runs.reset()
    benchmark.pedantic(runs.round, rounds=ROUNDS, iterations=1)
    floor, main = runs.median("floor"), runs.median("main_job")
    floor_cpu, main_cpu = runs.median_cpu("floor"), runs.median_cpu("main_job")
    benchmark.extra_info.update(
        {
            "floor_ms": round(floor * 1000, 1),
            "main_job_ms": round(main * 1000, 1),
            "calc_version_ms": round(runs.median("version") * 1000, 1),
            "main_job_over_floor": round(main / floor, 3),
            "main_job_over_floor_cpu": round(main_cpu / floor_cpu, 3),
            "target_ratio": TARGET_RATIO,
        }
    )
