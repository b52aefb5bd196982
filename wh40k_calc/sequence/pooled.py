"""One step's sampled figures over the whole sequence's trials (sampler).

A sampled sequence runs its trials in chunks, every step for one chunk and then the next
(:mod:`wh40k_calc.sequence.run`), so that its memory does not grow with ``--trials``. In each
chunk a step is sampled only for the trials whose target is still alive when it begins
(05.04.04 Destroyed: a destroyed unit cannot be selected or targeted); the others skip it, their
own figures 0 and their state unchanged. :class:`StepTally` adds up, chunk by chunk, the
sampler's outcome on the alive trials and the skipped trials into the step's outcome over every
trial: means and standard errors from pooled sums and sums of squares (each sampler outcome's
mean and standard error give them back: the sampler's standard error is the sample standard
deviation over the square root of the trials), distributions from counts.

It also counts the step's own models destroyed and wounds lost per trial (the state after the
step minus the state before), for the step's own kill table and their standard errors
(:mod:`wh40k_calc.sequence.figures`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..engine.outcome import LOSS_FIELDS, TOTAL_FIELDS, WEAPON_FIELDS, Outcome, WeaponResult
from ..profile import OrderPolicy

_LOSS_KEYS = {f: f"hazard_{f}" for f in LOSS_FIELDS}  # attacker_losses in the tallies


@dataclass
class Moments:
    """Running count, sum and sum of squares of a per-trial figure; standard errors as the
    sampler computes them (sample standard deviation, n - 1, over the square root of n)."""

    n: int = 0
    total: float = 0.0
    squares: float = 0.0

    def add_estimate(self, n: int, mean: float, se: float) -> None:
        """Add ``n`` trials whose mean and standard error are ``mean`` and ``se``."""
        if n <= 0:
            return
        var = se * se * n  # the sample variance (n - 1 in the denominator)
        self.n += n
        self.total += n * mean
        self.squares += (n - 1) * var + n * mean * mean

    def add_values(self, values: np.ndarray) -> None:
        """Add one trial per entry of ``values``."""
        v = np.asarray(values, dtype=np.float64)
        self.n += len(v)
        self.total += float(v.sum())
        self.squares += float(v @ v)

    def add_constant(self, n: int, value: float) -> None:
        """Add ``n`` trials whose figure is ``value``."""
        self.n += n
        self.total += n * value
        self.squares += n * value * value

    @property
    def mean(self) -> float:
        """The mean per trial (0 with no trials)."""
        return self.total / self.n if self.n else 0.0

    @property
    def se(self) -> float:
        """The standard error of the mean (0 with fewer than two trials)."""
        if self.n < 2:
            return 0.0
        var = max(self.squares / self.n - self.mean**2, 0.0) * self.n / (self.n - 1)
        return float(np.sqrt(var / self.n))


def se_p(p: float, n: int) -> float:
    """Standard error of a proportion ``p`` estimated from ``n`` trials (as the sampler's)."""
    return float(np.sqrt(max(p * (1 - p), 0.0) / (n - 1))) if n > 1 else 0.0


def _add(counts: np.ndarray, values: np.ndarray, weight: float) -> np.ndarray:
    """``counts + weight * values``, the shorter padded with zeros."""
    n = max(len(counts), len(values))
    out = np.zeros(n)
    out[: len(counts)] += counts
    out[: len(values)] += weight * np.asarray(values, dtype=float)
    return out


@dataclass
class OwnCounts:
    """A step's own models destroyed per trial (their counts, index = models) and the moments
    of its own models destroyed and wounds lost, over every trial."""

    models_destroyed: np.ndarray
    models_moments: Moments = field(default_factory=Moments)
    wounds_moments: Moments = field(default_factory=Moments)


class StepTally:
    """One step's sampled outcome over chunks of trials, skipped trials included.

    Args:
        models: the target's models (distributions run 0 .. models).
        wounds: the target's wounds.
        characters: its CHARACTER models.
        seed: the step's seed, reported in the outcome.
    """

    def __init__(self, models: int, wounds: int, characters: int, seed: int) -> None:
        self.models, self.wounds, self.seed = models, wounds, seed
        self.trials = 0
        self.acted = 0  # trials in which the target was alive when the step began
        self.rows: list[WeaponResult] | None = None
        self.row_moments: list[dict[str, Moments]] = []
        self.moments = {k: Moments() for k in (*TOTAL_FIELDS, *_LOSS_KEYS.values())}
        self.md = np.zeros(models + 1)
        self.wl = np.zeros(wounds + 1)
        self.damage = np.zeros(1)
        self.characters = np.zeros(characters)
        self.dice = 0
        self.policy: OrderPolicy | None = None
        self.own = OwnCounts(np.zeros(models + 1))

    def add(self, o: Outcome | None, skipped: int, skipped_lost: int) -> None:
        """Add one chunk: ``o`` the sampler's outcome on the trials the step acted in (None:
        none), and ``skipped`` trials whose target was destroyed (``skipped_lost`` wounds
        lost, every model destroyed)."""
        if o is not None:
            self._add_outcome(o)
        self.trials += skipped
        for f in WEAPON_FIELDS:
            self.moments[f].add_constant(skipped, 0.0)
        for key in _LOSS_KEYS.values():
            self.moments[key].add_constant(skipped, 0.0)
        self.moments["models_destroyed"].add_constant(skipped, self.models)
        self.moments["wounds_lost"].add_constant(skipped, skipped_lost)
        for m in self.row_moments:
            for mom in m.values():
                mom.add_constant(skipped, 0.0)
        self.md[self.models] += skipped
        self.wl = _add(self.wl, np.eye(1, skipped_lost + 1, skipped_lost)[0], skipped)
        self.damage[0] += skipped
        self.characters += skipped

    def _add_outcome(self, o: Outcome) -> None:
        n = o.trials
        self.trials += n
        self.acted += n
        se = o.standard_error
        if self.rows is None:
            self.rows = o.weapons
            self.row_moments = [{f: Moments() for f in WEAPON_FIELDS} for _ in o.weapons]
            self.policy = o.policy
            for m in self.row_moments:  # trials skipped before the first that acted
                for mom in m.values():
                    mom.add_constant(self.trials - n, 0.0)
        for w, m in zip(o.weapons, self.row_moments, strict=True):
            for f in WEAPON_FIELDS:
                m[f].add_estimate(n, w.expected[f], w.standard_error.get(f, 0.0))
        for f in TOTAL_FIELDS:
            self.moments[f].add_estimate(n, o.expected[f], se["expected"][f])
        for f, key in _LOSS_KEYS.items():
            self.moments[key].add_estimate(n, o.attacker_losses[f], se["attacker_losses"][f])
        self.md = _add(self.md, o.models_destroyed_distribution, n)
        self.wl = _add(self.wl, o.wounds_lost_distribution, n)
        self.damage = _add(self.damage, o.damage_distribution, n)
        self.characters = self.characters + n * np.asarray(o.characters_destroyed)
        self.dice += o.dice_drawn

    def add_own(self, models: np.ndarray, wounds: np.ndarray) -> None:
        """Add the step's own models destroyed and wounds lost of each trial of a chunk."""
        own = self.own
        own.models_destroyed += np.bincount(models, minlength=self.models + 1)[: self.models + 1]
        own.models_moments.add_values(models)
        own.wounds_moments.add_values(wounds)

    def outcome(self, template: list[WeaponResult]) -> Outcome:
        """The step's outcome over every trial added; ``template``: the step's weapon rows,
        for their names when no trial acted."""
        n = self.trials
        rows = self.rows if self.rows is not None else template
        weapons = []
        for i, w in enumerate(rows):
            m = self.row_moments[i] if self.row_moments else None
            keys = list(w.standard_error) or list(WEAPON_FIELDS)
            weapons.append(
                WeaponResult(
                    w.name,
                    w.count,
                    {f: m[f].mean if m else 0.0 for f in WEAPON_FIELDS},
                    {f: m[f].se if m else 0.0 for f in keys},
                )
            )
        mom = self.moments
        chars = list(self.characters / n)
        out = Outcome(
            method="sample",
            weapons=weapons,
            expected={f: mom[f].mean for f in TOTAL_FIELDS},
            models_destroyed_distribution=self.md / n,
            damage_distribution=self.damage / n,
            wounds_lost_distribution=self.wl / n,
            characters_destroyed=chars,
            attacker_losses={f: mom[key].mean for f, key in _LOSS_KEYS.items()},
            trials=n,
            seed=self.seed,
            dice_drawn=self.dice,
            policy=self.policy,
        )
        out = out.replaced(
            standard_error={
                "expected": {f: mom[f].se for f in TOTAL_FIELDS},
                "attacker_losses": {f: mom[key].se for f, key in _LOSS_KEYS.items()},
                "characters_destroyed": [se_p(p, n) for p in chars],
                "kill_table": [se_p(p, n) for p in out.kill_table],
            }
        )
        return out
