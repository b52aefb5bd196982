"""Earlier exact engines, loaded from git into throwaway packages, so that `make bench` can
report before/after ratios measured in the same run and the comparison scripts can check that
results did not change. Nothing in the product imports this; when git or the commit is
unavailable, the benchmarks that need it record that in ``extra_info`` instead of a ratio.

* ``BASELINE``: main when the first engine speed work began (issue 12);
* ``BEFORE_ENGINE3``: main before edition 11's exact engine was made fast for realistic units
  with Devastating Wounds and attached Leaders (the engine3 work): its ``exact.py`` and every
  engine module it reads.
* ``BEFORE_SPEED``: main at the start of issue 21's speed work, or the commit (or branch)
  named by ``WH40K_BENCH_BEFORE``: its exact engine (:func:`load_before_speed`) and its sampler
  (:func:`load_sampler_before_speed`).
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import types
from pathlib import Path

BASELINE = "2519c0a"  # main when the engine work began (its exact engine, allocation, outcome)
BEFORE_ENGINE3 = "64d6017"  # main before the engine3 work
BEFORE_SPEED = os.environ.get("WH40K_BENCH_BEFORE", "e9a54b7")  # issue 21's start by default
ROOT = Path(__file__).resolve().parents[1]
FILES = ("outcome", "allocation", "exact")
ENGINE3_FILES = (
    "arrays",
    "outcome",
    "allocation",
    "kernels",
    "wounds",
    "memo",
    "lumping",
    "defender",
    "exact",
)


def load_baseline():
    """``run_exact`` of the baseline engine, or None when it cannot be loaded."""
    module = load_engine(BASELINE, FILES)
    return None if module is None else module.run_exact


def load_before_engine3():
    """The ``exact`` module of main before the engine3 work, or None when it cannot be
    loaded (its ``run_exact``, ``MAX_WORK`` and ``MAX_ELEMENTS``; its ``memo`` is its own)."""
    return load_engine(BEFORE_ENGINE3, ENGINE3_FILES)


SPEED_FILES = (
    "arrays",
    "outcome",
    "allocation",
    "kernels",
    "wounds",
    "memo",
    "lumping",
    "lowest",
    "work",
    "defender",
    "exact",
)
SAMPLER_FILES = ("arrays", "outcome", "allocation", "counts", "jumps", "sample")


def load_before_speed():
    """The ``exact`` module at :data:`BEFORE_SPEED` (and the engine modules it reads), or
    None."""
    return load_engine(BEFORE_SPEED, SPEED_FILES)


def load_sampler_before_speed():
    """The ``sample`` module at :data:`BEFORE_SPEED` (its own allocation, counts and outcome),
    or None."""
    return load_engine(BEFORE_SPEED, SAMPLER_FILES, "sample", "_sampler")


def load_engine(commit: str, files: tuple[str, ...], wanted: str = "exact", prefix="_engine"):
    """The module ``wanted`` (default ``exact``) of ``wh40k_calc/engine`` at ``commit`` (with
    ``files`` of that package loaded from the same commit, in that order, as a package of its
    own named by ``prefix``; those of ``files`` absent at that commit are left out), or None
    without git or the commit."""
    name = f"{prefix}_{commit}"
    if name in sys.modules:
        return getattr(sys.modules[name], wanted)
    try:
        listed = subprocess.run(
            ["git", "ls-tree", "--name-only", f"{commit}:wh40k_calc/engine"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        files = tuple(f for f in files if f"{f}.py" in listed)
        sources = {
            f: subprocess.run(
                ["git", "show", f"{commit}:wh40k_calc/engine/{f}.py"],
                cwd=ROOT,
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            for f in files
        }
    except (OSError, subprocess.CalledProcessError):
        return None
    package = types.ModuleType(name)
    package.__path__ = []
    sys.modules[name] = package
    for f in files:
        text = sources[f].replace("from ..", "from wh40k_calc.")
        spec = importlib.util.spec_from_loader(f"{name}.{f}", loader=None)
        module = importlib.util.module_from_spec(spec)
        module.__package__ = name
        sys.modules[f"{name}.{f}"] = module
        exec(compile(text, f"{commit}:{f}.py", "exec"), module.__dict__)
        setattr(package, f, module)
    return getattr(package, wanted)
