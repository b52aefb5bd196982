"""Batches (issue 12): ``calc compare benchmarks/batch-2000.yaml`` end to end (2,000 runs:
shipped attackers x benchmark targets, mixed conditions), as time beyond the floor divided by
the floor, measured in the same rounds. Target: at most 6. `make bench` runs it; the figures
are in ``extra_info``, nothing is asserted."""

from __future__ import annotations

import pytest
from paired import FLOOR, ROOT, Paired, calc, compile_package

BATCH = ROOT / "benchmarks" / "batch-2000.yaml"
ROUNDS = 5
TARGET = 6.0


@pytest.mark.heavy
def test_batch_2000_against_the_floor(benchmark) -> None:
    compile_package()
    runs = Paired(
        {
            "floor": FLOOR,
            "batch": calc("compare", str(BATCH), "--csv", "-"),
            "batch_one_process": calc("compare", str(BATCH), "--csv", "-", "--jobs", "1"),
        }
    )
    benchmark.pedantic(runs.round, rounds=ROUNDS, iterations=1)
    floor, batch, one = (runs.median(n) for n in ("floor", "batch", "batch_one_process"))
    floor_cpu, one_cpu = runs.median_cpu("floor"), runs.median_cpu("batch_one_process")
    benchmark.extra_info.update(
        {
            "floor_ms": round(floor * 1000, 1),
            "batch_s": round(batch, 3),
            "batch_one_process_s": round(one, 3),
            "beyond_floor_over_floor": round((batch - floor) / floor, 2),
            "one_process_beyond_floor_over_floor": round((one - floor) / floor, 2),
            "one_process_beyond_floor_over_floor_cpu": round((one_cpu - floor_cpu) / floor_cpu, 2),
            "ms_per_run": round(batch / 2000 * 1000, 3),
            "target": TARGET,
        }
    )
