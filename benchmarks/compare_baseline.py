"""Results unchanged: the exact engine now against the engine before the speed work (git
commit ``baseline.BASELINE``), on the agreement grid and on random profiles (the hypothesis
strategies of tests/test_properties.py), every expectation and distribution compared.

    .venv/bin/python benchmarks/compare_baseline.py [EXAMPLES]

Activations whose meaning changed on purpose are left out: edition 11's save order and
allocation choice (compared as 10th-edition resolution instead), Command Re-roll (the baseline
left it out) and start states (the baseline had none). Prints the largest difference; exits 1
above 1e-12."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests")]

import test_agreement  # noqa: E402
import test_properties  # noqa: E402
from baseline import load_baseline  # noqa: E402
from hypothesis import given, settings  # noqa: E402

from wh40k_calc.engine.exact import run_exact  # noqa: E402
from wh40k_calc.records import replace  # noqa: E402

TOLERANCE = 1e-12


def _padded(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    n = max(len(a), len(b))
    return np.pad(a, (0, n - len(a))), np.pad(b, (0, n - len(b)))


def difference(old, new) -> float:
    """Largest absolute difference between two outcomes' figures and distributions."""
    d = 0.0
    for f in ("models_destroyed_distribution", "wounds_lost_distribution", "damage_distribution"):
        a, b = _padded(getattr(old, f), getattr(new, f))
        d = max(d, float(np.abs(a - b).max()))
    for k, v in old.expected.items():
        d = max(d, abs(v - new.expected[k]))
    for wo, wn in zip(old.weapons, new.weapons, strict=True):
        for k, v in wo.expected.items():
            d = max(d, abs(v - wn.expected[k]))
    for a, b in zip(old.characters_destroyed, new.characters_destroyed, strict=True):
        d = max(d, abs(a - b))
    for k, v in old.attacker_losses.items():
        d = max(d, abs(v - new.attacker_losses[k]))
    return d


def main() -> int:
    old_run = load_baseline()
    if old_run is None:
        print("the baseline engine cannot be loaded (git or the commit is missing)")
        return 2
    worst = [0.0, ""]
    count = [0]

    def check(act, label: str) -> None:
        if act.start is not None or any(w.command_reroll for w in act.weapons):
            return
        act = replace(act, lowest_first=False, best_allocation=False, policy=None)
        try:
            old = old_run(act)
        except Exception:  # the baseline refused it (its own ExactUnsupported)
            return
        d = difference(old, run_exact(act))
        count[0] += 1
        if d > worst[0]:
            worst[:] = [d, label]

    for name, build in test_agreement.CASES.items():
        check(build(), name)
    examples = int(sys.argv[1]) if len(sys.argv) > 1 else 300

    @settings(test_properties.PROPS, max_examples=examples)
    @given(act=test_properties.activations())
    def random_profiles(act) -> None:
        check(act, "random: " + ", ".join(w.name for w in act.weapons))

    random_profiles()
    print(f"compared {count[0]} activations; largest difference {worst[0]:.3g} ({worst[1]})")
    return 0 if worst[0] <= TOLERANCE else 1


if __name__ == "__main__":
    sys.exit(main())
