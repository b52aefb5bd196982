"""The edition's data at start-up (issue 17): ``calc shoot lootas --target boyz --edition 11``
(the edition-11 datasheets, found through their own index) as a ratio to the same command with
``--edition 10``, timed in the same rounds (goal: at most 1.05); and ``calc units --edition 11``
(the 1,009 edition-11 datasheets listed) beside today's ``calc units`` (the 1,623 of the
10th-edition export). `make bench` runs it; the figures are in ``extra_info``, nothing is
asserted. Ratios of medians, of the best runs (the least disturbed on a busy machine), and of
CPU time (user + system).

The two shoot commands differ in their rules as well as in their data (edition 11's allocation
groups and hazard rolls cost about 1.5 ms more per activation, whatever the datasheets), so the
data's own share is timed too: ``--edition 11`` with the 10th-edition Lootas and Boyz as user
files for both editions (``shoot_11_over_shoot_11_on_10_data``)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from paired import ROOT, Paired, calc, compile_package

ROUNDS = 25
GOAL = 1.05
SHOOT = ("shoot", "lootas", "--target", "boyz")


def _tenth_as_both(folder: Path) -> Path:
    """The curated (10th-edition) Lootas and Boyz copied into ``folder``, for both editions."""
    for name in ("lootas", "boyz"):
        text = (ROOT / "datasheets" / "orks" / f"{name}.yaml").read_text(encoding="utf-8")
        (folder / f"{name}.yaml").write_text(text + "edition: [10, 11]\n", encoding="utf-8")
    return folder


def test_edition_11_data_against_edition_10(benchmark) -> None:
    compile_package()
    tenth = _tenth_as_both(Path(tempfile.mkdtemp(prefix="wh40k-bench-")))
    runs = Paired(
        {
            "shoot_10": calc(*SHOOT, "--edition", "10"),
            "shoot_11": calc(*SHOOT, "--edition", "11"),
            "shoot_11_on_10_data": calc(*SHOOT, "--edition", "11", "--datasheets", str(tenth)),
            "units_10": calc("units"),
            "units_11": calc("units", "--edition", "11"),
        }
    )
    runs.round()  # warm the file cache
    runs.reset()
    benchmark.pedantic(runs.round, rounds=ROUNDS, iterations=1)

    def ratio(a: str, b: str) -> dict[str, float]:
        return {
            f"{a}_over_{b}": round(runs.median(a) / runs.median(b), 3),
            f"{a}_over_{b}_best": round(runs.best(a) / runs.best(b), 3),
            f"{a}_over_{b}_cpu": round(runs.median_cpu(a) / runs.median_cpu(b), 3),
        }

    info: dict[str, float | str] = {
        f"{name}_ms": round(runs.median(name) * 1000, 1)
        for name in ("shoot_10", "shoot_11", "shoot_11_on_10_data")
    }
    info |= {f"{n}_ms": round(runs.median(n) * 1000, 1) for n in ("units_10", "units_11")}
    info |= ratio("shoot_11", "shoot_10") | ratio("shoot_11", "shoot_11_on_10_data")
    info |= ratio("units_11", "units_10")
    info["goal_shoot_ratio"] = GOAL
    benchmark.extra_info.update(info)
