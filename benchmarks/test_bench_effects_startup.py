"""Start-up with effects as data (issue 18): ``calc shoot lootas --target boyz`` paired with
the same command plus ``--effect waaagh`` (edition 10; and edition 11, against the same
command in edition 11: its Orks file holds a hundred records), all in the same rounds, with
the compiled cache of the effect files warm; and, for the cost the cache saves, edition 11
with no cache (every file the command reads parsed as YAML). "before" is main before effects
moved to data (records in Python), run from an export of that commit. Goal: effects add
nothing measurable without ``--effect`` (the Lootas' own unit rule is read either way), a few
ms with one. `make bench` runs it; figures in ``extra_info``, nothing asserted."""

from __future__ import annotations

import sys
import tempfile

from paired import Paired, before_tree, calc, compile_package

ROUNDS = 25
MAIN_JOB = ("shoot", "lootas", "--target", "boyz")
BEFORE_DATA = "4892c08"  # main before effects moved to data files


def _before(*args: str):
    tree = before_tree(BEFORE_DATA)
    if tree is None:
        return None
    script = "import sys; from wh40k_calc.cli import main; sys.argv[0] = 'calc'; sys.exit(main())"
    return [sys.executable, "-P", "-c", script, *args], {"PYTHONPATH": str(tree)}


def test_effects_startup(benchmark) -> None:
    compile_package()
    cache = {"WH40K_CALC_CACHE": tempfile.mkdtemp(prefix="calc-bench-cache-")}
    no_cache = {"WH40K_CALC_CACHE": "/dev/null/no-cache"}  # cannot be made: YAML each time
    runs = Paired(
        {
            "main_job": (calc(*MAIN_JOB), cache),
            "with_effect": (calc(*MAIN_JOB, "--effect", "waaagh"), cache),
            "main_job_11": (calc(*MAIN_JOB, "--edition", "11"), cache),
            "with_effect_11": (calc(*MAIN_JOB, "--edition", "11", "--effect", "waaagh"), cache),
            "with_effect_11_uncached": (
                calc(*MAIN_JOB, "--edition", "11", "--effect", "waaagh"),
                no_cache,
            ),
            "main_job_before": _before(*MAIN_JOB),
            "with_effect_before": _before(*MAIN_JOB, "--effect", "waaagh"),
        }
    )
    runs.round()  # warm the file cache and the effect files' compiled cache
    runs.reset()
    benchmark.pedantic(runs.round, rounds=ROUNDS, iterations=1)
    main = runs.median("main_job")
    info = {
        "main_job_ms": round(main * 1000, 1),
        "with_effect_ms": round(runs.median("with_effect") * 1000, 1),
        "with_effect_over_main_job": round(runs.median("with_effect") / main, 3),
        "with_effect_11_over_main_job_11": round(
            runs.median("with_effect_11") / runs.median("main_job_11"), 3
        ),
        "with_effect_11_uncached_over_main_job_11": round(
            runs.median("with_effect_11_uncached") / runs.median("main_job_11"), 3
        ),
        "with_effect_over_main_job_cpu": round(
            runs.median_cpu("with_effect") / runs.median_cpu("main_job"), 3
        ),
    }
    if runs.has("main_job_before"):
        info["main_job_over_before"] = round(main / runs.median("main_job_before"), 3)
        info["main_job_over_before_cpu"] = round(
            runs.median_cpu("main_job") / runs.median_cpu("main_job_before"), 3
        )
        info["with_effect_over_before"] = round(
            runs.median("with_effect") / runs.median("with_effect_before"), 3
        )
    benchmark.extra_info.update(info)
