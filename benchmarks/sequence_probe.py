"""The exact engine's cost per activation in a sequence (issue 21: each activation after the
first at most 1 ms), timed in this process for whichever package is importable (this checkout,
or main at an earlier commit put first on ``PYTHONPATH`` by ``benchmarks/test_bench_sequence.py``).

The sequence is ``test_bench_sequence.STEPS`` (10 Lootas, 10 Lootas with kustom mega-blastas,
Lord Invocatus charging) into 20 Boyz led by a Warboss, repeated ``REPEAT`` times; the figure
is (its time - the time of its first step alone) / (activations - 1), best of ``ROUNDS``
(caches warm, as in one ``calc sequence`` after its first step, but for the kept exact
outcomes: see ``_best``). Prints one JSON object.

    .venv/bin/python benchmarks/sequence_probe.py [REPEAT] [ROUNDS]
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as calc runs: before numpy loads

import json
import sys
import time

from wh40k_calc.options import EngineOptions, TargetOptions, catalog
from wh40k_calc.sequence.run import run_sequence
from wh40k_calc.sequence.steps import build_steps

TARGET = {"target": "boyz", "target_models": 20, "target_leader": ["warboss"]}
STEPS = [
    "shoot lootas --models 10 --stationary",
    "shoot lootas --models 10 --loadout kustom-mega-blastas",
    "fight lord-invocatus --charged",
]


def _best(fn, rounds: int) -> float:
    """The best time of ``rounds`` calls of ``fn``, each after the exact outcomes kept by
    earlier calls are forgotten (``resolve._OUTCOMES``, where the package has it): one
    ``calc sequence`` never meets its own steps' outcomes again (each step starts from other
    states), so a kept outcome would time a look-up, not the activation."""
    from wh40k_calc import resolve

    kept = getattr(resolve, "_OUTCOMES", None)
    best = float("inf")
    for _ in range(rounds):
        if kept is not None:
            kept.clear()
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def main() -> None:
    repeat = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    cat, target, engine = catalog(None), TargetOptions(**TARGET), EngineOptions()
    steps = build_steps(STEPS * repeat, cat, target, engine)
    first = build_steps(STEPS[:1], cat, target, engine)
    run_sequence(steps, "exact")  # caches warm
    whole = _best(lambda: run_sequence(steps, "exact"), rounds)
    alone = _best(lambda: run_sequence(first, "exact"), rounds)
    per = (whole - alone) / (len(steps) - 1)
    print(json.dumps({"activations": len(steps), "sequence_ms": round(whole * 1e3, 3),
                      "first_step_ms": round(alone * 1e3, 3),
                      "per_activation_after_the_first_ms": round(per * 1e3, 3)}))  # fmt: skip


if __name__ == "__main__":
    main()
