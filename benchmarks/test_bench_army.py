"""`calc army` speed (issue 19): a 2,000-point list of 20 units (19 rows: a Warboss leads
20 Boyz) in New Recruit's WTC compact text (``benchmarks/army-2000.txt``) against 10
Terminators, both phases, the whole army in sequence (38 activations), exact. Goal: under 1 s
beyond start-up. `make bench` runs it; figures in ``extra_info``, none asserted.

* the list read, resolved and run in this process (every row's sequence and the army's), the
  catalog warm; and the same for the first time in a fresh process;
* the whole command in a child process (tables, as a player runs it) against ``calc
  --version`` in the same run: the difference is the time beyond start-up; and ``calc shoot
  lootas --target boyz`` (one activation) in the same run, for the ratio.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

from measure import seconds

from wh40k_calc.lists.army import run_army
from wh40k_calc.lists.detect import read_list
from wh40k_calc.lists.resolve import resolve_army
from wh40k_calc.options import TargetOptions, catalog
from wh40k_calc.selection import Conditions

LIST = Path(__file__).parent / "army-2000.txt"
TARGET = ["--target", "Space Marines/Terminator Squad", "--target-models", "10"]
_CHILD = (
    "import time; t0 = time.perf_counter()\n"
    "from wh40k_calc.lists.army import run_army\n"
    "from wh40k_calc.lists.detect import read_list\n"
    "from wh40k_calc.lists.resolve import resolve_army\n"
    "from wh40k_calc.options import TargetOptions, catalog\n"
    "from wh40k_calc.selection import Conditions\n"
    "t1 = time.perf_counter(); cat = catalog(None)\n"
    "r = resolve_army(read_list(%r), cat)\n"
    "run = run_army(r, cat, TargetOptions(target='Space Marines/Terminator Squad', "
    "target_models=10), Conditions())\n"
    "print(t1 - t0, time.perf_counter() - t1)\n"
)


def _army():
    cat = catalog(None)
    resolved = resolve_army(read_list(str(LIST)), cat)
    opts = TargetOptions(target="Space Marines/Terminator Squad", target_models=10)
    return run_army(resolved, cat, opts, Conditions())


def _wall(args: list[str], rounds: int = 5) -> list[float]:
    out = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        res = subprocess.run(
            [sys.executable, "-m", "wh40k_calc", *args], capture_output=True, text=True, check=False
        )
        out.append(time.perf_counter() - t0)
        assert res.returncode == 0, res.stderr
    return out


def test_army_2000_points_in_process(benchmark) -> None:
    run = benchmark(_army)
    assert len(run.rows) == 19 and len(run.seq.steps) == 38
    assert run.seq.method == "exact"
    first = subprocess.run(
        [sys.executable, "-c", _CHILD % str(LIST)], capture_output=True, text=True, check=True
    )
    imports, cold = (float(x) for x in first.stdout.split())
    benchmark.extra_info["first_run_in_a_fresh_process_s"] = round(cold, 3)
    benchmark.extra_info["its_imports_s"] = round(imports, 3)
    if seconds(benchmark):
        benchmark.extra_info["warm_mean_s"] = round(seconds(benchmark), 3)


def test_army_2000_points_command_beyond_start_up(benchmark) -> None:
    """The command as a player runs it, and ``calc --version`` (start-up) in the same run:
    medians of five runs each; the difference is the time beyond start-up."""
    startup = _wall(["--version"])
    shoot = _wall(["shoot", "lootas", "--target", "boyz"])
    army = benchmark.pedantic(
        lambda: _wall(["army", str(LIST), *TARGET], rounds=1)[0], rounds=5, iterations=1
    )
    del army
    command = statistics.median(benchmark.stats.stats.data) if benchmark.stats else None
    benchmark.extra_info["start_up_median_s"] = round(statistics.median(startup), 3)
    benchmark.extra_info["calc_shoot_median_s"] = round(statistics.median(shoot), 3)
    if command is not None:
        benchmark.extra_info["command_median_s"] = round(command, 3)
        benchmark.extra_info["beyond_start_up_s"] = round(command - statistics.median(startup), 3)
        benchmark.extra_info["ratio_to_calc_shoot"] = round(command / statistics.median(shoot), 2)
