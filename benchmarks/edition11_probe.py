"""Edition 11's exact engine on one command, now and before the engine3 work (main at
``baseline.BEFORE_ENGINE3``, loaded from git), timed in this process: the state pass (every
figure but the damage distribution) and the state pass plus the damage distribution (what
``--json`` reads), best of a few runs with nothing kept from the run before. Before, the
engine declined these commands; it is timed with its budget lifted, and its own verdict at its
budget is recorded.

    .venv/bin/python benchmarks/edition11_probe.py 'shoot lootas ... --edition 11' [REPEATS]

``benchmarks/test_bench_edition11.py`` runs it in a child process with one OpenBLAS thread, as
``calc`` runs (the benchmarks' own process may have loaded numpy with more). Prints one JSON
object; nothing is asserted.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as calc runs: before numpy loads

import json
import shlex
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from baseline import load_before_engine3

from wh40k_calc.engine import exact, memo
from wh40k_calc.options import catalog
from wh40k_calc.records import replace
from wh40k_calc.request import parse_request
from wh40k_calc.resolve import resolve
from wh40k_calc.rules.common import damage_table

LIFTED = 10**10


def _best(fn, repeats: int, clear) -> float:
    best = float("inf")
    for _ in range(repeats):
        clear()
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def _passes(module, act, repeats: int, clear) -> tuple[float, float]:
    """(state pass, state pass and damage distribution) best seconds."""
    state = _best(lambda: module.run_exact(act), repeats, clear)
    full = _best(lambda: module.run_exact(act).damage_distribution, repeats, clear)
    return state, full


def _clear_new() -> None:
    memo.clear()
    damage_table.cache_clear()


def probe(line: str, repeats: int) -> dict:
    """The figures of one command (see the module's docstring)."""
    sel = parse_request(shlex.split(line)).selection(catalog(None))
    act = replace(resolve(sel, "exact").activation, policy=None)
    out = exact.run_exact(act)
    figure = out.__dict__["_damage"]
    info = {
        "figure_estimate_seconds": round(figure.estimate().seconds, 3),
        "figure_exact": bool(figure.affordable()),
    }
    state, full = _passes(exact, act, repeats, _clear_new)
    info["state_seconds"], info["with_damage_seconds"] = round(state, 4), round(full, 4)
    old = load_before_engine3()
    if old is None:
        info["before"] = "unavailable (no git or no commit)"
        return info
    try:
        old.run_exact(act)
        info["before_at_its_budget"] = "exact"
    except old.ExactUnsupported as exc:
        info["before_at_its_budget"] = f"declined: {exc}"
    old.MAX_WORK = LIFTED
    old.run_exact.__defaults__ = (LIFTED, None)
    old_memo = sys.modules[old.__package__].memo
    before = _passes(old, act, max(1, repeats // 2), lambda: (old_memo.clear(), _clear_new()))
    info["before_state_seconds"] = round(before[0], 4)
    info["before_with_damage_seconds"] = round(before[1], 4)
    info["speedup_state"] = round(before[0] / state, 1)
    info["speedup_with_damage"] = round(before[1] / full, 1)
    return info


if __name__ == "__main__":
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    print(json.dumps(probe(sys.argv[1], reps)))
