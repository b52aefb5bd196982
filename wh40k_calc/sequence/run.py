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

A destroyed unit cannot be selected or targeted (05.04.04 Destroyed), so a step acts only
where the target is alive when it begins: the exact engine resolves it from the start
conditioned on "not destroyed" and mixes the destroyed mass back in
(:mod:`~wh40k_calc.sequence.alive`); in the sampler, trials whose target is destroyed skip it
(:mod:`~wh40k_calc.sequence.pooled`).

The exact engine's chain is here; the sampler's (its trials in chunks through every step, the
whole sequence's time budget) is :mod:`~wh40k_calc.sequence.sampled`.

The engines count models destroyed and wounds lost from the unharmed unit, so step k's outcome
is the sequence's cumulative figure after k steps (shifted by ``--target-wounds-left``'s
wounds, :meth:`SequenceResult.cumulative`); a step's own figures are differences of those, or
(its own kill table) the engine run again per number of models already destroyed
(:mod:`wh40k_calc.sequence.figures`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..engine.outcome import Outcome
from ..profile import Activation, TargetStates
from ..records import replace
from ..resolve import Carried, Result, resolve
from ..rules.plan import Plan
from .alive import mix, split, unmade
from .pooled import OwnCounts
from .steps import Step, StepError


@dataclass
class StepResult:
    """One step's resolution: ``result`` is ``resolve``'s (outcomes counted from the unharmed
    unit; the step's own figures count only where the target was alive when it began);
    ``exact_before`` the distribution it started from (None: the sequence's start);
    ``p_alive`` per engine ("exact", "sample"), P(the target is alive when the step begins)
    (the sampler's: the share of its trials); ``sample_own`` the sampler's counts of the
    step's own models destroyed and wounds lost per trial; ``figure`` the exact engine's
    damage figure of the step from its alive states, not yet computed (the engine's lazy
    figure, with its cost estimate; None: nothing to compute), for the budget of
    :mod:`~wh40k_calc.sequence.budget`."""

    step: Step
    result: Result
    exact_before: TargetStates | None = None
    p_alive: dict[str, float] = field(default_factory=dict)
    sample_own: OwnCounts | None = None
    figure: Any = None


@dataclass
class SequenceResult:
    """Every step's result, in order, and how they were computed.

    ``method`` is "exact", "sample" or "both" (the figures of both engines, each carried from
    step to step on its own); ``initial`` the target's state before the first step (None:
    unharmed; ``--target-wounds-left``: one state); ``trials`` the sampler's trials of each
    step (None: the sampler did not run); ``trials_asked`` the trials given (``--trials``; None:
    the default within the time budget), for a sampled run made later (:mod:`.budget`).
    ``attribution``: ``--explain``'s for the whole sequence (:mod:`.explain`; each step's is
    its Result's), else None.
    """

    steps: list[StepResult]
    method: str
    initial: TargetStates | None
    trials: int | None
    seed: int
    notes: list[str] = field(default_factory=list)
    exact_declined: str | None = None
    trials_asked: int | None = None
    attribution: Any = None

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

    def __init__(self, step: Step, reason: str):
        super().__init__(reason)
        self.step = step
        self.reason = reason


def step_seed(seed: int, k: int) -> int:
    """The sampler's seed for step ``k`` (0-based): ``seed`` for the first step (so that it
    matches ``calc shoot`` with the same seed), then independent streams derived from it."""
    if k == 0:
        return seed
    return int(np.random.SeedSequence([seed, k]).generate_state(1)[0])


def run_sequence(
    steps: list[Step],
    method: str = "exact",
    trials: int | None = None,
    seed: int = 40_000,
    progress: Callable[[int, int], None] | None = None,
    warn: Callable[[str], None] | None = None,
) -> SequenceResult:
    """Resolve ``steps`` in order, each from the state the earlier ones left, each only where
    the target is alive when it begins. ``warn`` is called before the sampler rolls anything
    when ``trials`` are far beyond its time budget by its estimate for all the steps.

    ``trials`` (sampler): every step's trials, run exactly; None: the default number, or
    fewer where the estimated cost of all the steps says they would take more than a few
    seconds (said in ``notes``). When the exact engine declines a step (too large), every
    step is sampled instead; ``notes`` says so. ``progress`` is called with (trials done,
    trials) after each chunk of the sampler's trials.

    Raises:
        StepError: a step that cannot be resolved (its number, text and the reason).
    """
    try:
        return _run(steps, method, trials, seed, progress, warn)
    except _Declined as d:
        out = _run(steps, "sample", trials, seed, progress, warn)
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
    warn: Callable[[str], None] | None = None,
) -> SequenceResult:
    from .sampled import sample_chain  # the sampler's half (it builds on this module)

    notes: list[str] = []
    if method == "sample":
        done = sample_chain(steps, None, trials, seed, progress, notes, warn)
    else:
        done = _exact_chain(steps, method)
        if method == "both":
            sample_chain(steps, done, trials, seed, progress, notes, warn)
    initial = done[0].result.activation.start if done else None
    ran = done[0].result.sample.trials if done and done[0].result.sample is not None else None
    return SequenceResult(done, method, initial, ran, seed, notes, trials_asked=trials)


def resolve_step(step: Step, method: str, trials: int, seed, carried: Carried) -> Result:
    """``resolve`` for one step (the exact engine declining returns at once); its errors
    name the step."""
    from ..selection import SelectionError

    try:
        return resolve(step.selection, method, trials, seed, None, carried, stand_in=False)
    except (SelectionError, LookupError, ValueError) as exc:
        raise _step_error(step, exc) from None


def _step_error(step: Step, exc: Exception) -> StepError:
    """The StepError of a step that cannot be resolved: its number, text and reason (an
    option's refused value, named weapons among them, keeps its reason without the option,
    for a batch file to name its own field)."""
    from ..options import exit_code
    from ..selection import OptionError

    option = (exc.option, exc.detail) if isinstance(exc, OptionError) else None
    return StepError(
        step.index,
        step.text,
        str(exc),
        usage=exit_code(exc) == 2,
        option_detail=option,
        option_index=exc.index if isinstance(exc, OptionError) else None,
    )


def unmade_step(step: Step, method: str, every: str) -> Result:
    """The Result of a step that is not made, the target being destroyed before it
    ``every`` time: its plan and activation with the player's first options, no engine run
    (the caller gives it figures of 0)."""
    plan, act = _planned(step)
    notes = [
        *plan.notes,
        f"the target is destroyed before this step {every}: the step is not made (a "
        "destroyed unit cannot be targeted)",
    ]
    return Result(
        step.selection, plan, act, method, notes=notes, allocation_order=list(plan.allocation_order)
    )


def _exact_chain(
    steps: list[Step], method: str, state: TargetStates | None = None
) -> list[StepResult]:
    """Every step resolved by the exact engine from the distribution the earlier ones left
    (the first from ``state``; None: the selection's own start), conditioned on the target
    being alive.

    Raises:
        _Declined: the exact engine declined a step.
        StepError: a step that cannot be resolved.
    """
    done: list[StepResult] = []
    for step in steps:
        parts = split(state)
        figure = None
        if parts.alive is None and parts.dead is not None:
            res = unmade_step(step, method, "in every case")
            res = replace(res, exact=unmade(res.activation, parts.dead))
        else:
            res = resolve_step(step, "exact", 1, 0, Carried(exact=parts.alive))
            if res.exact_declined is not None:
                raise _Declined(step, res.exact_declined)
            assert res.exact is not None
            figure = res.exact.__dict__["_damage"]
            if parts.dead is not None:
                res = replace(res, exact=mix(res.exact, parts.p_alive, parts.dead))
        res = replace(res, method=method)
        done.append(StepResult(step, res, state, {"exact": parts.p_alive}, figure=figure))
        state = res.exact.final_states
    return done


def _planned(step: Step) -> tuple[Plan, Activation]:
    """The step's plan and its activation with the player's first options (for the sampler's
    cost estimate before the choices are made, and for a step that is not made).

    Raises:
        StepError: a step that cannot be planned (its number, text and the reason), as
            :func:`resolve_step` says it.
    """
    from ..rules import get_rules
    from ..selection import SelectionError

    try:
        plan = get_rules(step.selection.edition).plan(step.selection)
    except (SelectionError, LookupError, ValueError) as exc:
        raise _step_error(step, exc) from None
    return plan, plan.build(tuple(0 for _ in plan.groups), 0, None)
