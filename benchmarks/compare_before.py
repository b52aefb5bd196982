"""Results unchanged by the engine3 work: the exact engine now against main's before it
(``baseline.BEFORE_ENGINE3``, loaded from git), edition 11 included, every expectation,
distribution (the damage distribution too), CHARACTER figure, final state distribution and the
defender's orders compared. With ``speed``: against main at the start of issue 21's speed work
(``baseline.BEFORE_SPEED``) instead.

    .venv/bin/python benchmarks/compare_before.py [EXAMPLES] [speed]

Activations: the agreement grid (tests/test_agreement.py) as it is; random profiles (the
hypothesis strategy of tests/test_properties.py) with edition 11's save order and the
defender's best order drawn at random, some started from the state another activation left;
and a few shipped units into Attached units in edition 11 with Devastating Wounds added. Both
engines run with their budgets lifted (a selection either declines is skipped). Prints the
largest difference; exits 1 above 1e-12.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests")]

import test_agreement  # noqa: E402
import test_properties  # noqa: E402
from baseline import load_before_engine3, load_before_speed  # noqa: E402
from compare_baseline import difference  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from wh40k_calc.engine import exact  # noqa: E402
from wh40k_calc.options import catalog  # noqa: E402
from wh40k_calc.records import replace  # noqa: E402
from wh40k_calc.request import parse_request  # noqa: E402
from wh40k_calc.resolve import resolve  # noqa: E402

TOLERANCE = 1e-12
LIFTED = 4e9  # work both engines accept here (the random examples stay small anyway)
COMMANDS = (
    "shoot lootas --models 10 -t boyz --target-models 20 --target-leader warboss",
    "shoot lootas --models 5 -t boyz --target-models 10 --target-leader warboss",
    "fight boyz --models 10 -t boyz --target-models 20 --target-leader warboss",
    'shoot lootas --models 10 -t "intercessor squad" --target-models 10 --target-leader captain',
    'shoot "intercessor squad" --models 10 -t boyz --target-models 20 --target-leader warboss',
)
EXTRAS = ("", '--add-ability "devastating wounds"')


def _states(out) -> dict:
    fs = out.final_states
    return {tuple(row): float(p) for row, p in zip(fs.lost.tolist(), fs.weights, strict=True)}


def full_difference(old, new) -> float:
    """:func:`compare_baseline.difference` plus the final states and the orders chosen."""
    d = difference(old, new)
    a, b = _states(old), _states(new)
    for key in set(a) | set(b):
        d = max(d, abs(a.get(key, 0.0) - b.get(key, 0.0)))
    if (old.policy is None) != (new.policy is None):
        return float("inf")
    if old.policy is not None:
        if old.policy.orders != new.policy.orders:
            return float("inf")
        for ta, tb in zip(old.policy.tables, new.policy.tables, strict=True):
            if (ta is None) != (tb is None) or (ta is not None and not np.array_equal(ta, tb)):
                return float("inf")
    return d


def _lift(module) -> None:
    module.MAX_WORK = LIFTED
    module.MAX_ELEMENTS = 10**9
    module.run_exact.__defaults__ = (10**9, None)
    if hasattr(module, "work"):  # the estimate in seconds (engine/work.py)
        module.work.STATE_SECONDS = module.work.FIGURE_SECONDS = 1e9


def main() -> int:
    speed = "speed" in sys.argv[1:]
    old = load_before_speed() if speed else load_before_engine3()
    if old is None:
        print("main's engine before that work cannot be loaded (git or the commit is missing)")
        return 2
    _lift(old)
    _lift(exact)
    worst = [0.0, ""]
    count = [0]

    def check(act, label: str, start=None) -> None:
        try:
            before = old.run_exact(act, start=start)
        except old.ExactUnsupported:
            return
        after = exact.run_exact(act, start=start)
        d = full_difference(before, after)
        count[0] += 1
        if d > worst[0]:
            worst[:] = [d, label]
        if d > TOLERANCE:
            print(f"{d:.3g}  {label}")

    for name, build in test_agreement.CASES.items():
        check(build(), name)
    cat = catalog(None)
    for cmd in COMMANDS:
        for extra in EXTRAS:
            line = f"{cmd} --edition 11 {extra}"
            req = parse_request(_split(line))
            check(replace(resolve(req.selection(cat), "exact").activation), line)
    numbers = [a for a in sys.argv[1:] if a.isdigit()]
    examples = int(numbers[0]) if numbers else 300

    @settings(test_properties.PROPS, max_examples=examples)
    @given(act=test_properties.activations(), best=st.booleans(), again=st.integers(0, 3))
    def random_profiles(act, best: bool, again: int) -> None:
        act = replace(act, best_allocation=best and act.lowest_first)
        label = "random: " + ", ".join(w.name for w in act.weapons)
        try:
            first = old.run_exact(act)
        except old.ExactUnsupported:
            return
        check(act, label)
        if again == 0:  # the same activation again, from the state the first one left
            check(act, label + " (from its own final states)", first.final_states)

    random_profiles()
    print(f"compared {count[0]} activations; largest difference {worst[0]:.3g} ({worst[1]})")
    return 0 if worst[0] <= TOLERANCE else 1


def _split(line: str) -> list[str]:
    import shlex

    return shlex.split(line)


if __name__ == "__main__":
    sys.exit(main())
