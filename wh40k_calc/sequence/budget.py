"""Which of a sequence's JSON-only exact figures are computed, within a time budget.

``calc sequence --json`` shows, per step, figures the tables do not: the step's damage
distribution (the exact engine's figure pass) and its own models-destroyed distribution and
kill table (the exact engine run again per number of models already destroyed,
:func:`~wh40k_calc.sequence.figures.own_models_destroyed`). As ``calc shoot`` does for its
damage distribution (``resolve._damage_within_budget``), each is estimated before it runs
(:mod:`~wh40k_calc.engine.work`) and computed exactly only while the estimates, added up step
after step, fit one budget for the whole sequence (``work.FIGURE_SECONDS``; a figure pass's
largest array also within its own limit). A figure over the budget is the sampler's: the
``--method both`` run's when there is one, else one sampled run of the sequence (the
activations the exact engine chose; ``--trials`` and ``--seed`` as given, else the default
trials cut to the sampler's time budget; :func:`~wh40k_calc.sequence.sampled.sample_chain`),
made only when such a figure is read.
The step's notes say which of its figures are sampled; every other figure stays exact.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..engine import work
from .run import SequenceResult, StepResult


class FigureBudget:
    """For each step (0-based, in order), whether its exact damage distribution
    (``damage_exact``) and its own models-destroyed distribution (``own_exact``) are computed
    exactly; the sampler's stand-ins for the others (:meth:`sampled_damage`,
    :meth:`sampled_own`), and the note each such step gets (:meth:`notes`)."""

    def __init__(self, seq: SequenceResult, seconds: float | None = None):
        self.seq = seq
        self.left = work.FIGURE_SECONDS if seconds is None else seconds
        self.damage_exact: list[bool] = []
        self.own_exact: list[bool] = []
        self.why: list[dict[str, str]] = []  # per step, why a figure was left out
        self._sampled: list[StepResult] | None = None
        for sr in seq.steps:
            why: dict[str, str] = {}
            damage, own = self._damage_cost(sr), self._own_cost(sr)
            self.damage_exact.append(self._fits(damage, "damage", why, "arrays over its limit"))
            self.own_exact.append(self._fits(own, "own", why, "the exact engine would decline"))
            self.why.append(why)

    def _fits(self, cost: float | None, figure: str, why: dict[str, str], large: str) -> bool:
        """Whether a figure of estimated ``cost`` seconds (None: too large, ``large`` says
        how) fits in what is left of the budget: if so it is spent, else ``why`` says."""
        if cost is not None and cost <= self.left:
            self.left -= cost
            return True
        if cost is None:
            why[figure] = large
        else:
            why[figure] = f"estimated over the {max(self.left, 0.0):.2g} s left"
        return False

    @staticmethod
    def _damage_cost(sr: StepResult) -> float | None:
        """The estimated seconds of the step's exact damage distribution (0: nothing left to
        compute; None: its largest array is over the figure pass's limit)."""
        figure = sr.figure
        if sr.result.exact is None or not callable(getattr(figure, "affordable", None)):
            return 0.0
        if not figure.affordable(float("inf")):
            return None
        return figure.estimate().seconds

    @staticmethod
    def _own_cost(sr: StepResult) -> float | None:
        """The estimated seconds of the step's own exact models-destroyed distribution (0 for
        the first step: its own figures are the cumulative ones)."""
        from .figures import own_models_destroyed_cost

        if sr.result.exact is None or sr.exact_before is None:
            return 0.0
        return own_models_destroyed_cost(sr.result, sr.exact_before)

    def sampled_steps(self) -> list[StepResult]:
        """Each step's sampled figures: the ``--method both`` run's, else a sampled run of
        the whole sequence made now (once), on copies of the steps (the sequence's own
        results are left as they were)."""
        if self._sampled is None:
            if self.seq.method == "both":
                self._sampled = self.seq.steps
            else:
                from .sampled import sample_chain

                copies = [
                    replace(sr, result=replace(sr.result, notes=[]), p_alive=dict(sr.p_alive))
                    for sr in self.seq.steps
                ]
                steps = [sr.step for sr in copies]
                trials, seed = self.seq.trials_asked, self.seq.seed
                self._sampled = sample_chain(steps, copies, trials, seed, None, [])
        return self._sampled

    def sampled_damage(self, k: int) -> np.ndarray:
        """Step ``k``'s damage distribution by the sampler (0 where the target was
        destroyed before the step)."""
        sample = self.sampled_steps()[k].result.sample
        assert sample is not None
        return sample.damage_distribution

    def sampled_own(self, k: int) -> np.ndarray:
        """Step ``k``'s own models-destroyed distribution by the sampler."""
        sr = self.sampled_steps()[k]
        assert sr.sample_own is not None and sr.result.sample is not None
        return sr.sample_own.models_destroyed / sr.result.sample.trials

    def notes(self, k: int) -> list[str]:
        """The note of step ``k`` saying which of its figures are the sampler's (none when
        every figure is exact)."""
        names, fields = [], []
        why = self.why[k]
        if not self.damage_exact[k]:
            names.append(f"damage distribution ({why['damage']})")
            fields.append("damage_distribution")
        if not self.own_exact[k]:
            names.append(f"own kill table ({why['own']})")
            fields += ["kill_table", "models_destroyed_distribution"]
        if not names:
            return []
        sample = self.sampled_steps()[k].result.sample
        assert sample is not None
        return [
            f"the exact {' and '.join(names)} of this step {'was' if len(names) == 1 else 'were'}"
            f" left out (the sequence's budget for such figures is {work.FIGURE_SECONDS:g} s "
            f"in all): {_and(fields)} {'is' if len(fields) == 1 else 'are'} the sampler's "
            f"({sample.trials:,} trials); every other figure is exact"
        ]


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"
