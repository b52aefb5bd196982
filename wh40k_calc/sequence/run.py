"""Running a sequence: each step resolved like ``calc shoot`` from the state the earlier steps
left, exactly (a distribution over the target's states) and by the sampler (one state per
trial).

The target's state (:class:`~wh40k_calc.profile.TargetStates`: wounds lost by each allocation
group, so models destroyed, the wounded model and each Leader's wounds) after step k is the start
of step k + 1 (DESIGN.md, "Sequences of activations"). Nothing about a sequence lives in the
engines: each step is one ``resolve`` whose activation starts from the carried state
(:class:`~wh40k_calc.resolve.Carried`). What reads the state reads it at each step, because the
engines read it per state: Blast's models at selection, Mob Mentality's 10-model threshold
(``kind_below``), edition 11's wounded group first. The player's whole-activation choices and
edition 11's defender's orders are made for the step's start distribution as a whole.

The engines count models destroyed and wounds lost from the unharmed unit, so step k's outcome
is the sequence's cumulative figure after k steps (shifted by ``--target-wounds-left``'s
wounds, :meth:`SequenceResult.cumulative`); a step's own figures are differences of those, or
(its own kill table) the engine run again per number of models already destroyed
(:mod:`wh40k_calc.sequence.figures`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..engine.outcome import Outcome
from ..profile import TargetStates
from ..resolve import Carried, Result, resolve
from .steps import Step, StepError


@dataclass
class StepResult:
    """One step's resolution: ``result`` is ``resolve``'s (outcomes counted from the unharmed
    unit); ``exact_before`` / ``sample_before`` the state it started from (a distribution /
    one row per trial; None: the sequence's start)."""

    step: Step
    result: Result
    exact_before: TargetStates | None = None
    sample_before: TargetStates | None = None


@dataclass
class SequenceResult:
    """Every step's result, in order, and how they were computed.

    ``method`` is "exact", "sample" or "both" (the figures of both engines, each carried from
    step to step on its own); ``initial`` the target's state before the first step (None:
    unharmed; ``--target-wounds-left``: one state).
    """

    steps: list[StepResult]
    method: str
    initial: TargetStates | None
    trials: int | None
    seed: int
    notes: list[str] = field(default_factory=list)
    exact_declined: str | None = None

    @property
    def repeated(self) -> bool:
        """Whether the steps were repeated (``--repeat`` above 1)."""
        return any(s.step.repeat > 1 for s in self.steps)

    def cumulative(self, k: int, engine: str) -> Outcome:
        """Step ``k``'s (0-based) outcome from ``engine`` ("exact" or "sample"), its models
        destroyed and wounds lost counted from the sequence's start: the whole sequence so far.

        Raises:
            ValueError: that engine did not run.
        """
        o = getattr(self.steps[k].result, engine)
        if o is None:
            raise ValueError(f"the {engine} engine did not run")
        return o.since(self.initial)

    def primary(self, k: int) -> Outcome:
        """Step ``k``'s cumulative outcome from the engine the figures come from."""
        return self.cumulative(k, "sample" if self.method == "sample" else "exact")


class _Declined(Exception):
    """The exact engine declined a step: the whole sequence is sampled instead."""

    def __init__(self, step: Step, reason: str, trials: int):
        super().__init__(reason)
        self.step = step
        self.reason = reason
        self.trials = trials


def step_seed(seed: int, k: int) -> int:
    """The sampler's seed for step ``k`` (0-based): ``seed`` for the first step (so that it
    matches ``calc shoot`` with the same seed), then independent streams derived from it."""
    if k == 0:
        return seed
    return int(np.random.SeedSequence([seed, k]).generate_state(1)[0])


def empirical(states: TargetStates) -> TargetStates:
    """Per-trial states as a distribution: each distinct state weighted by its share of the
    trials (what the player's choices are scored on when only the sampler runs)."""
    rows, counts = np.unique(states.lost, axis=0, return_counts=True)
    return TargetStates(states.shape, rows.astype(np.int64), counts / counts.sum())


def run_sequence(
    steps: list[Step],
    method: str = "exact",
    trials: int | None = None,
    seed: int = 40_000,
    progress: Callable[[int, int], None] | None = None,
) -> SequenceResult:
    """Resolve ``steps`` in order, each from the state the earlier ones left.

    ``trials`` (sampler): run exactly; None: the default number, or fewer where the first
    sampled step's cost estimate says they would take more than a few seconds (every step then
    runs that many: one state per trial is carried). When the exact engine declines a step (too
    large), every step is sampled instead, with the trials the sampler ran for that step;
    ``notes`` says so.

    Raises:
        StepError: a step that cannot be resolved (its number, text and the reason).
    """
    try:
        return _run(steps, method, trials, seed, progress)
    except _Declined as d:
        out = _run(steps, "sample", d.trials, seed, progress)
        out.exact_declined = f"step {d.step.label(out.repeated)}: {d.reason}"
        out.notes.insert(
            0,
            f"the exact engine declined step {d.step.label(out.repeated)} ({d.reason}); every "
            "step's figures are the sampler's",
        )
        return out


def _run(
    steps: list[Step],
    method: str,
    trials: int | None,
    seed: int,
    progress: Callable[[int, int], None] | None,
) -> SequenceResult:
    from ..selection import SelectionError

    exact_state: TargetStates | None = None
    sample_state: TargetStates | None = None
    done: list[StepResult] = []
    for k, step in enumerate(steps):
        scored = exact_state
        if scored is None and sample_state is not None:
            scored = empirical(sample_state)
        carried = Carried(exact=scored, sample=sample_state)
        try:
            res = resolve(step.selection, method, trials, step_seed(seed, k), progress, carried)
        except (SelectionError, LookupError, ValueError) as exc:
            raise StepError(step.index, step.text, str(exc)) from None
        if res.exact_declined is not None and method != "sample":
            assert res.sample is not None
            raise _Declined(step, res.exact_declined, res.sample.trials)
        done.append(StepResult(step, res, exact_state, sample_state))
        exact_state = res.exact.final_states if res.exact is not None else None
        sample_state = res.sample.final_states if res.sample is not None else None
    initial = done[0].result.activation.start if done else None
    return SequenceResult(done, method, initial, trials, seed)
