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

import numpy as np

from ..engine import work
from ..engine.work import seconds_text
from ..records import replace
from ..wording import join_words
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
            self.damage_exact.append(self._damage_fits(sr, why))
            self.own_exact.append(self._own_fits(sr, why))
            self.why.append(why)

    def _damage_fits(self, sr: StepResult, why: dict[str, str]) -> bool:
        """Whether the step's exact damage distribution fits in what is left of the budget
        (and its arrays within the figure pass's limit): if so it is spent, else ``why`` says
        (the figure pass's words, as ``calc shoot``'s note)."""
        figure = sr.figure
        if sr.result.exact is None or not callable(getattr(figure, "affordable", None)):
            return True  # nothing left to compute
        over = figure.over_budget(max(self.left, 0.0))
        if over:
            why["damage"] = " and ".join(over)
            return False
        self.left -= figure.estimate().seconds
        return True

    def _own_fits(self, sr: StepResult, why: dict[str, str]) -> bool:
        """Whether the step's own exact models-destroyed distribution fits in what is left of
        the budget: if so it is spent, else ``why`` says."""
        cost = self._own_cost(sr)
        if cost is None:
            why["own"] = "the exact engine would decline it"
            return False
        if cost > self.left:
            why["own"] = (
                f"an estimated {seconds_text(cost)}, over {seconds_text(max(self.left, 0.0))}"
            )
            return False
        self.left -= cost
        return True

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
        was = "was" if len(names) == 1 else "were"
        are = "is" if len(fields) == 1 else "are"
        return [
            f"the exact {' and '.join(names)} of this step {was} left out (the sequence's "
            f"budget for such figures is {work.FIGURE_SECONDS:g} s in all, spent step by "
            f"step): {join_words(fields)} {are} the sampler's ({sample.trials:,} trials); every "
            "other figure is exact"
        ]
