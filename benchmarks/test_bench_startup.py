"""Start-up (issues 12 and 21): whole commands end to end as a ratio to the floor
(``benchmarks/floor.py``) measured in the same rounds. `make bench` runs it; the figures are in
``extra_info``, nothing is asserted.

``calc`` gives numpy's OpenBLAS one thread (``wh40k_calc/__main__.py``), so the like-for-like
floor is the floor on one thread (``floor_one_thread``); the ratios to the floor with its
default threads are given too. Issue 21's targets, against the floor on one thread:
``calc shoot lootas --target boyz`` at most 1.10x; ``calc units``, ``calc units TEXT`` and
``calc show boyz`` at most 0.9x (a listing needs no numpy); ``calc --help`` at most 0.5x.

"before" is the same command as main was at ``paired.BEFORE_SPEED`` (the start of issue 21's
speed work; exported from git, run with this environment's Python and libraries), timed in the
same rounds. Ratios of medians, of the best runs (``best``: the least disturbed on a busy
machine) and of the median CPU times (user + system: on a shared machine they move far less
than wall time)."""

from __future__ import annotations

from paired import (
    BEFORE_SPEED,
    FLOOR,
    FLOOR_ONE_THREAD,
    Paired,
    calc,
    calc_before,
    compile_package,
)

ROUNDS = 25
COMMANDS = {
    "main_job": (("shoot", "lootas", "--target", "boyz"), 1.10),
    "units": (("units",), 0.9),
    "units_text": (("units", "intercessor"), 0.9),
    "show": (("show", "boyz"), 0.9),
    "help": (("--help",), 0.5),
}


def test_startup_against_the_floor(benchmark) -> None:
    compile_package()
    commands = {"floor": FLOOR, "floor_one_thread": FLOOR_ONE_THREAD}
    for name, (args, _) in COMMANDS.items():
        commands[name] = calc(*args)
        commands[f"{name}_before"] = calc_before(*args, commit=BEFORE_SPEED)
    commands["version"] = calc("--version")
    runs = Paired(commands)
    runs.round()  # warm the file cache
    runs.reset()
    benchmark.pedantic(runs.round, rounds=ROUNDS, iterations=1)
    floor, one = runs.median("floor"), runs.median("floor_one_thread")
    one_best, one_cpu = runs.best("floor_one_thread"), runs.median_cpu("floor_one_thread")
    info: dict[str, object] = {
        "floor_ms": round(floor * 1000, 1),
        "floor_one_thread_ms": round(one * 1000, 1),
        "calc_version_ms": round(runs.median("version") * 1000, 1),
    }
    for name, (_, target) in COMMANDS.items():
        info[f"{name}_ms"] = round(runs.median(name) * 1000, 1)
        info[f"{name}_over_floor_one_thread"] = round(runs.median(name) / one, 3)
        info[f"{name}_over_floor_one_thread_best"] = round(runs.best(name) / one_best, 3)
        info[f"{name}_over_floor_one_thread_cpu"] = round(runs.median_cpu(name) / one_cpu, 3)
        info[f"{name}_over_floor"] = round(runs.median(name) / floor, 3)
        info[f"{name}_target"] = target
        if runs.has(f"{name}_before"):
            before = runs.median(f"{name}_before")
            info[f"{name}_before_over_floor_one_thread"] = round(before / one, 3)
            info[f"{name}_before_over_floor_one_thread_cpu"] = round(
                runs.median_cpu(f"{name}_before") / one_cpu, 3
            )
    if not runs.has("main_job_before"):
        info["before"] = "unavailable (no git or no commit)"
    benchmark.extra_info.update(info)
