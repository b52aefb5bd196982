"""The exact engine's admission estimate (``engine/work.py``) against measured times: the state
pass (``run_exact``, nothing kept from a run before) and the figure pass (the damage
distribution, when read), on the agreement grid, random profiles (the hypothesis strategy of
tests/test_properties.py, edition 11's save order and best order drawn at random) and shipped
units in edition 11 with Devastating Wounds and attached Leaders.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/calibrate_exact.py [EXAMPLES]

Prints each pass's estimate and measured time (best of three, process time) and, per pass, the
median and largest ratio of measured to estimated time over the passes that took at least
20 ms (smaller ones are mostly fixed costs). An estimate is good when the ratios stay below 1
(the budget is never overrun) without falling far below it (the engine does not decline what
it could do). Nothing is asserted.
"""

from __future__ import annotations

import os
import shlex
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests")]

import test_agreement  # noqa: E402
import test_properties  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from wh40k_calc.engine import exact, memo  # noqa: E402
from wh40k_calc.options import catalog  # noqa: E402
from wh40k_calc.records import replace  # noqa: E402
from wh40k_calc.request import parse_request  # noqa: E402
from wh40k_calc.resolve import resolve  # noqa: E402

LIFTED = 10**10
UNITS = (
    "shoot lootas --models 10 -t boyz --target-models 20 --target-leader warboss",
    "fight boyz --models 20 -t boyz --target-models 20 --target-leader warboss",
    "fight boyz --models 20 --leader warboss -t boyz --target-models 20 --target-leader warboss",
    'shoot "intercessor squad" --models 10 -t boyz --target-models 20 --target-leader warboss',
    'shoot lootas --models 10 -t "intercessor squad" --target-models 10 --target-leader captain',
    "shoot lootas --models 10 -t boyz --target-models 20 --target-leader warboss "
    "--target-leader painboy",
    "fight boyz --models 20 --leader warboss -t boyz --target-models 20 --target-leader warboss "
    "--target-leader painboy",
)
EXTRAS = (
    "",
    '--add-ability "devastating wounds"',
    '--add-ability "devastating wounds" --add-ability "sustained hits 1"',
)
MIN_SECONDS = 0.02
BUDGET_SECONDS = 0.1  # passes this long are where the budget decides


def _timed(fn) -> float:
    best = float("inf")
    for _ in range(3):
        memo.clear()
        t = time.process_time()
        fn()
        best = min(best, time.process_time() - t)
    return best


def measure(act, label: str, rows: list) -> None:
    """Append (label, pass, estimated, measured) for both passes of ``act``."""
    try:
        out = exact.run_exact(act, LIFTED)
    except exact.ExactUnsupported:
        return
    setup = exact._Setup(act, LIFTED, act.start)
    tables = list(out.policy.tables) if out.policy else None
    # what decides: the estimate at admission (the defender's choice included) and, where
    # the defender switches orders with the counts, the one with the orders it chose
    est = setup.estimate(exact._Chain(setup.space), None).seconds
    if tables is not None:
        est = max(est, setup.estimate(exact._Chain(setup.space), tables).seconds)
    rows.append((label, "state", est, _timed(lambda: exact.run_exact(act, LIFTED))))
    figure = out.__dict__["_damage"]
    fig_est = figure.estimate().seconds

    def fig() -> None:
        exact.run_exact(act, LIFTED).damage_distribution  # noqa: B018

    rows.append((label, "figure", fig_est, max(0.0, _timed(fig) - rows[-1][3])))


def summary(kind: str, mine: list) -> None:
    """Print the slowest passes of one kind and the ratios of measured to estimated time over
    those of at least MIN_SECONDS and of at least BUDGET_SECONDS."""
    for r in sorted(mine, key=lambda r: -r[3])[:12]:
        ratio = r[3] / r[2] if r[2] > 0 else float("inf")
        print(f"{kind:6s} est {r[2]:8.3f}s measured {r[3]:8.3f}s ratio {ratio:5.2f}  {r[0]}")
    for floor in (MIN_SECONDS, BUDGET_SECONDS):
        ratios = [r[3] / r[2] for r in mine if r[3] >= floor and r[2] > 0]
        if ratios:
            print(
                f"{kind}: {len(mine)} passes, {len(ratios)} of at least {floor} s: measured / "
                f"estimated median {statistics.median(ratios):.2f}, largest {max(ratios):.2f}, "
                f"smallest {min(ratios):.2f}"
            )
    small = [r for r in mine if r[3] < MIN_SECONDS]
    worst = max(small, key=lambda r: r[3] - r[2], default=None)
    if worst is not None:
        print(f"{kind}: below {MIN_SECONDS} s the largest overrun is {worst[3] - worst[2]:.3f} s")


def main() -> int:
    exact.MAX_WORK = 1e14
    exact.work.STATE_SECONDS = exact.work.FIGURE_SECONDS = 1e9
    rows: list = []
    for name, build in test_agreement.CASES.items():
        measure(build(), name, rows)
    cat = catalog(None)
    for unit in UNITS:
        for extra in EXTRAS:
            line = f"{unit} --edition 11 {extra}"
            sel = parse_request(shlex.split(line)).selection(cat)
            act = replace(resolve(sel, "exact").activation, policy=None)
            measure(act, line, rows)
    examples = int(sys.argv[1]) if len(sys.argv) > 1 else 150

    @settings(test_properties.PROPS, max_examples=examples)
    @given(act=test_properties.activations(), best=st.booleans())
    def random_profiles(act, best: bool) -> None:
        act = replace(act, best_allocation=best and act.lowest_first)
        measure(act, "random: " + ", ".join(w.name for w in act.weapons), rows)

    random_profiles()
    for kind in ("state", "figure"):
        summary(kind, [r for r in rows if r[1] == kind])
    return 0


if __name__ == "__main__":
    sys.exit(main())
