"""How long the sampler will take, estimated from the resolved profiles before it runs.

When the exact engine declines a selection, the sampler stands in for it and must still answer
in a few seconds, whatever the selection (two hundred models with hundreds of attacks each).
Its time is, to a fair approximation:

- per trial, a fixed amount of vectorised work (counts of Hit and Wound rolls, saves, the
  tallies) per weapon and per mortal-wound source;
- per trial, an amount per wound resolved one at a time (where the Damage or Feel No Pain makes
  each failed save's effect depend on the model it hits, and for Devastating Wounds), per mortal
  wound applied one at a time, per Hazardous test;
- per chunk of trials, the Python-level passes of those one-at-a-time loops: one per position
  up to the largest number of such wounds any trial of the chunk has.

The expected numbers of attacks, hits and wounds come from the profiles (the sampler's own
per-die class probabilities), the passes from the expected count plus four standard deviations.
The constants are seconds measured on the 2-core development machine and rounded up: on a quiet
machine a run takes about half its estimate, so a busy one still keeps near the budget
(``make bench`` reports the stand-in's measured time next to its budget). A selection whose
passes alone exceed the budget still runs the smallest number of trials the caller allows, and
the caller says how long it expects.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil, sqrt

import numpy as np

from ..profile import CRIT, CRIT_WOUND, HIT, WOUND, Activation, AttackProfile
from .allocation import AllocationSpace
from .counts import die_classes, uses_table
from .sample import chunk_size, tabulated

PER_TRIAL = 60e-9  # seconds: the tallies of one trial
PER_WEAPON = 20e-9  # seconds: one weapon's bookkeeping in one trial
PER_DRAW = 8e-9  # seconds: one count drawn from a table, in one trial
PER_BINOMIAL = 70e-9  # seconds: one binomial of numpy's multinomial, in one trial
PER_WOUND = 80e-9  # seconds: one wound (or mortal wound) resolved on its own, in one trial
PER_PASS = 40e-6  # seconds: one pass of a one-at-a-time loop over a chunk (numpy calls)
PER_CHUNK = 1e-3  # seconds: the fixed work of one chunk
SLOW_FACTOR = 10  # an explicit number of trials estimated past this many budgets is warned of


@dataclass(frozen=True)
class SampleCost:
    """Estimated cost of :func:`~.sample.run_sample` on one activation.

    Attributes:
        per_trial: seconds per trial.
        per_chunk: seconds per chunk of trials, whatever its size.
        chunk: trials per chunk.
    """

    per_trial: float
    per_chunk: float
    chunk: int

    def seconds(self, trials: int) -> float:
        """Estimated seconds for ``trials`` trials."""
        return trials * self.per_trial + -(-trials // self.chunk) * self.per_chunk

    def trials_within(self, seconds: float) -> int:
        """The most trials whose estimate is within ``seconds`` (0 when not even one is)."""
        full = self.chunk * self.per_trial + self.per_chunk
        chunks = int(seconds // full)
        left = seconds - chunks * full - self.per_chunk
        extra = 0 if left <= 0 else min(self.chunk - 1, int(left / self.per_trial))
        return chunks * self.chunk + extra


def _passes(mean: float) -> float:
    """Passes of a one-at-a-time loop over a chunk: the largest count among its trials, taken
    as the mean plus four standard deviations (counts of many dice are close to Poisson)."""
    return 0.0 if mean <= 0 else mean + 4 * sqrt(mean) + 1


def _mean(pmf: np.ndarray) -> float:
    return float(np.arange(len(pmf)) @ pmf)


def _draw(classes: int, nmax: float) -> float:
    """Seconds per trial to draw one count of up to ``nmax`` dice in ``classes`` classes."""
    if classes <= 1:
        return 0.0
    return PER_DRAW if uses_table(classes, int(nmax)) else PER_BINOMIAL * (classes - 1)


def _weapon(w: AttackProfile, target_models: int) -> tuple[float, float, float]:
    """One weapon in one trial: (seconds of counted draws, expected normal wounds, expected
    devastating Critical Wounds)."""
    bonus = w.blast * (target_models // 5)
    most = w.models * (len(w.attacks) - 1 + bonus)  # attacks at most
    attacks = w.models * (_mean(w.attacks) + bonus)
    seconds = PER_WEAPON + _draw(int(np.count_nonzero(w.attacks)), w.models)
    if w.hit is None:
        hits, crits = attacks, 0.0
    else:
        p = die_classes(w.hit, 3)
        hits, crits = attacks * p[HIT], attacks * p[CRIT]
        seconds += _draw(3, most)
    if w.sustained is not None:
        seconds += _draw(int(np.count_nonzero(w.sustained)), most)
        hits += crits * _mean(w.sustained)
        most *= len(w.sustained)
    rolled = hits if w.lethal else hits + crits
    q = die_classes(w.wound, 3)
    seconds += _draw(3, most) + _draw(2, most)  # Wound rolls, then saves
    normal = rolled * q[WOUND] + (crits if w.lethal else 0.0)
    critical = rolled * q[CRIT_WOUND]
    return (seconds, normal, critical) if w.devastating else (seconds, normal + critical, 0.0)


def estimate(act: Activation) -> SampleCost:
    """The cost of sampling ``act``, from its profiles alone (nothing is rolled)."""
    space = AllocationSpace(act.target)
    per_trial = PER_TRIAL
    passes = 0.0
    loose = 0.0  # wounds resolved one at a time, per trial
    for w in act.weapons:
        seconds, normal, devastating = _weapon(w, act.target.models)
        per_trial += seconds
        if not tabulated(space, w):
            loose += normal
            passes += _passes(normal)
        loose += devastating
        passes += _passes(devastating)
    for src in act.before:
        loose += _mean(src.count)
        passes += len(src.count) - 1
    if act.hazard is not None:
        loose += act.hazard.tests
        passes += act.hazard.tests
    per_trial += PER_WOUND * loose
    return SampleCost(per_trial, PER_CHUNK + PER_PASS * passes, chunk_size(act))


def trials_within_all(
    costs: list[SampleCost], shares: list[float], seconds: float, limit: int
) -> int:
    """The most trials T (at most ``limit``) whose estimates add up to within ``seconds`` when
    the run of ``costs[i]`` makes ``ceil(shares[i] * T)`` of them (a sequence's steps, each
    sampled only where the target is still alive); 0 when not even one fits."""

    def total(t: int) -> float:
        return sum(c.seconds(ceil(s * t)) for c, s in zip(costs, shares, strict=True))

    if limit <= 0 or total(1) > seconds:
        return 0
    if total(limit) <= seconds:
        return limit
    lo, hi = 0, limit  # total(lo) fits, total(hi) does not
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if total(mid) <= seconds else (lo, mid)
    return lo


def slow_trials_warning(seconds: float, trials: int, budget: float) -> str | None:
    """The warning for ``trials`` trials the player asked for (``--trials N``) whose estimated
    ``seconds`` are far beyond the sampler's time budget without ``--trials`` (more than
    :data:`SLOW_FACTOR` times ``budget``), given before anything is rolled; None otherwise."""
    if seconds <= SLOW_FACTOR * budget:
        return None
    fits = max(1, int(trials * budget / seconds))
    return (
        f"--trials {trials:,}: the sampler estimates about {_duration(seconds)} for them (its "
        f"budget without --trials is {budget:g} s, about {fits:,} trials here); Ctrl-C stops it"
    )


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} minutes"
    return f"{seconds / 3600:.1f} hours"
