"""The exact engine as it was before the speed work (main at commit BASELINE), loaded from git
into a throwaway package, so that `make bench` can report before/after ratios measured in the
same run. Nothing in the product imports this; when git or the commit is unavailable, the
benchmarks that need it record that in ``extra_info`` instead of a ratio."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import types
from pathlib import Path

BASELINE = "2519c0a"  # main when the engine work began (its exact engine, allocation, outcome)
ROOT = Path(__file__).resolve().parents[1]
FILES = ("outcome", "allocation", "exact")


def load_baseline():
    """``run_exact`` of the baseline engine, or None when it cannot be loaded."""
    name = "_baseline_engine"
    if name in sys.modules:
        return sys.modules[name].exact.run_exact
    try:
        sources = {
            f: subprocess.run(
                ["git", "show", f"{BASELINE}:wh40k_calc/engine/{f}.py"],
                cwd=ROOT,
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            for f in FILES
        }
    except (OSError, subprocess.CalledProcessError):
        return None
    package = types.ModuleType(name)
    package.__path__ = []
    sys.modules[name] = package
    for f in FILES:
        text = sources[f].replace("from ..dice", "from wh40k_calc.dice")
        text = text.replace("from ..profile", "from wh40k_calc.profile")
        spec = importlib.util.spec_from_loader(f"{name}.{f}", loader=None)
        module = importlib.util.module_from_spec(spec)
        module.__package__ = name
        sys.modules[f"{name}.{f}"] = module
        exec(compile(text, f"{BASELINE}:{f}.py", "exec"), module.__dict__)
        setattr(package, f, module)
    return package.exact.run_exact
