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

The sampler runs the sequence's trials in chunks, every step for one chunk and then the next,
so its memory does not grow with the trials; each step's seed starts one random stream that
the step's chunks continue (step 1's is ``--seed``, so it matches ``calc shoot``). Without
``--trials`` the trials of the whole sequence keep to the sampler's time budget, from the
estimated cost of every step (:func:`sequence_trials`).

The engines count models destroyed and wounds lost from the unharmed unit, so step k's outcome
is the sequence's cumulative figure after k steps (shifted by ``--target-wounds-left``'s
wounds, :meth:`SequenceResult.cumulative`); a step's own figures are differences of those, or
(its own kill table) the engine run again per number of models already destroyed
(:mod:`wh40k_calc.sequence.figures`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from math import ceil

import numpy as np

from ..engine.outcome import Outcome
from ..profile import Activation, TargetStates
from ..resolve import Carried, Result, few_trials_note, resolve
from ..rules.plan import Plan
from .alive import destroyed, mix, silent_rows, split, unmade
from .pooled import OwnCounts, StepTally
from .steps import Step, StepError

SEQUENCE_CHUNK = 1 << 18  # sampler trials carried through every step at once (a few MB)


@dataclass
class StepResult:
    """One step's resolution: ``result`` is ``resolve``'s (outcomes counted from the unharmed
    unit; the step's own figures count only where the target was alive when it began);
    ``exact_before`` the distribution it started from (None: the sequence's start);
    ``p_alive`` per engine ("exact", "sample"), P(the target is alive when the step begins)
    (the sampler's: the share of its trials); ``sample_own`` the sampler's counts of the
    step's own models destroyed and wounds lost per trial."""

    step: Step
    result: Result
    exact_before: TargetStates | None = None
    p_alive: dict[str, float] = field(default_factory=dict)
    sample_own: OwnCounts | None = None


@dataclass
class SequenceResult:
    """Every step's result, in order, and how they were computed.

    ``method`` is "exact", "sample" or "both" (the figures of both engines, each carried from
    step to step on its own); ``initial`` the target's state before the first step (None:
    unharmed; ``--target-wounds-left``: one state); ``trials`` the sampler's trials of each
    step (None: the sampler did not run).
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


def empirical(states: TargetStates) -> TargetStates:
    """Per-trial states as a distribution: each distinct state weighted by its share of the
    trials (what the player's choices are scored on when only the sampler runs)."""
    lost = states.lost.astype(np.int64)
    radix = lost.max(axis=0, initial=0) + 1  # each group's values, as digits of one key
    if float(np.prod(radix.astype(float))) < 2.0**62:
        place = np.cumprod(np.concatenate([radix[1:], [1]])[::-1])[::-1]  # first most significant
        _, first, counts = np.unique(lost @ place, return_index=True, return_counts=True)
        rows = lost[first]
    else:
        rows, counts = np.unique(lost, axis=0, return_counts=True)
    return TargetStates(states.shape, rows, counts / counts.sum())


def run_sequence(
    steps: list[Step],
    method: str = "exact",
    trials: int | None = None,
    seed: int = 40_000,
    progress: Callable[[int, int], None] | None = None,
) -> SequenceResult:
    """Resolve ``steps`` in order, each from the state the earlier ones left, each only where
    the target is alive when it begins.

    ``trials`` (sampler): every step's trials, run exactly; None: the default number, or
    fewer where the estimated cost of all the steps says they would take more than a few
    seconds (said in ``notes``). When the exact engine declines a step (too large), every
    step is sampled instead; ``notes`` says so. ``progress`` is called with (trials done,
    trials) after each chunk of the sampler's trials.

    Raises:
        StepError: a step that cannot be resolved (its number, text and the reason).
    """
    try:
        return _run(steps, method, trials, seed, progress)
    except _Declined as d:
        out = _run(steps, "sample", trials, seed, progress)
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
    notes: list[str] = []
    if method == "sample":
        done = _sample_chain(steps, None, trials, seed, progress, notes)
    else:
        done = _exact_chain(steps, method)
        if method == "both":
            _sample_chain(steps, done, trials, seed, progress, notes)
    initial = done[0].result.activation.start if done else None
    ran = done[0].result.sample.trials if done and done[0].result.sample is not None else None
    return SequenceResult(done, method, initial, ran, seed, notes)


def _resolve(step: Step, method: str, trials: int, seed, carried: Carried) -> Result:
    """``resolve`` for one step (the exact engine declining returns at once); its errors
    name the step."""
    from ..selection import SelectionError

    try:
        return resolve(step.selection, method, trials, seed, None, carried, stand_in=False)
    except (SelectionError, LookupError, ValueError) as exc:
        raise StepError(step.index, step.text, str(exc)) from None


def _unmade(step: Step, method: str, every: str) -> Result:
    """The Result of a step that is not made, the target being destroyed before it
    ``every`` time: its plan and activation with the player's first options, no engine run
    (the caller gives it figures of 0)."""
    plan, act = _planned(step)
    res = Result(step.selection, plan, act, method, notes=list(plan.notes))
    res.allocation_order = list(plan.allocation_order)
    res.notes.append(
        f"the target is destroyed before this step {every}: the step is not made (a "
        "destroyed unit cannot be targeted)"
    )
    return res


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
        if parts.alive is None and parts.dead is not None:
            res = _unmade(step, method, "in every case")
            res.exact = unmade(res.activation, parts.dead)
        else:
            res = _resolve(step, "exact", 1, 0, Carried(exact=parts.alive))
            if res.exact_declined is not None:
                raise _Declined(step, res.exact_declined)
            assert res.exact is not None
            if parts.dead is not None:
                res.exact = mix(res.exact, parts.p_alive, parts.dead)
        res.method = method
        done.append(StepResult(step, res, state, {"exact": parts.p_alive}))
        state = res.exact.final_states
    return done


# ---------------------------------------------------------------------------------------------
# The sampler: chunks of trials through every step


def _sample_chain(
    steps: list[Step],
    decided: list[StepResult] | None,
    trials: int | None,
    seed: int,
    progress: Callable[[int, int], None] | None,
    notes: list[str],
) -> list[StepResult]:
    """Every step sampled, chunk after chunk of trials. ``decided``: the steps' Results
    (from the exact engine) whose activations the sampler runs; None (``--method sample``):
    each step is resolved on the first chunk's trials whose target is alive (its choices
    scored on their states) and its activation reused for the later chunks."""
    done = decided or [StepResult(s, _unmade(s, "sample", "in every trial")) for s in steps]
    acts = [sr.result.activation for sr in done]
    total = trials if trials is not None else sequence_trials(acts, notes)
    chunk = _chunk_length(acts[0])
    chain = _Chain(done, seed)
    ran = 0
    while ran < total:
        n = min(chunk, total - ran)
        chain.run(n)
        if trials is None and ran == 0:  # the first chunk says where the target dies
            total = sequence_trials(acts, notes, chain.shares(), n)
        ran += n
        if progress is not None:
            progress(ran, total)
    chain.finish()
    if total < 1000:
        notes.append(few_trials_note(total))
    return done


def _planned(step: Step) -> tuple[Plan, Activation]:
    """The step's plan and its activation with the player's first options (for the sampler's
    cost estimate before the choices are made, and for a step that is not made)."""
    from ..rules import get_rules

    plan = get_rules(step.selection.edition).plan(step.selection)
    return plan, plan.build(tuple(0 for _ in plan.groups), 0, None)


def _chunk_length(first: Activation) -> int:
    """Trials per chunk of the sequence: about :data:`SEQUENCE_CHUNK`, a multiple of the
    sampler's own chunk for the first step (so its stream of dice is ``calc shoot``'s)."""
    from ..engine.sample import chunk_size

    inner = chunk_size(first)
    return max(1, SEQUENCE_CHUNK // inner) * inner


class _Chain:
    """The sampler's state of a sequence run: each step's random stream and tally."""

    def __init__(self, done: list[StepResult], seed: int) -> None:
        self.done = done
        # a step's Result is decided (its choices made) by the exact engine, else on the
        # first chunk in which its target is alive in some trial
        self.decided = [sr.result.exact is not None and sr.p_alive["exact"] > 0 for sr in done]
        self.seeds = [step_seed(seed, k) for k in range(len(done))]
        self.rngs = [np.random.default_rng(s) for s in self.seeds]
        self.tallies: list[StepTally | None] = [None] * len(done)

    def run(self, n: int) -> None:
        """Every step for ``n`` more trials."""
        before: TargetStates | None = None  # per trial; None: the sequence's start
        for k, sr in enumerate(self.done):
            before = self._step(k, sr, n, before)

    def _step(self, k: int, sr: StepResult, n: int, before: TargetStates | None) -> TargetStates:
        if before is None:
            alive = np.ones(n, dtype=bool)
            start = None
        else:
            alive = ~destroyed(before)
            start = TargetStates(before.shape, before.lost[alive]) if alive.any() else None
        m = int(alive.sum())
        o = self._sampled(k, sr, m, start)
        tally = self._tally(k, sr)
        after = self._after(sr, n, before, alive, o)
        skipped_lost = int(before.wounds_lost[~alive][0]) if m < n and before is not None else 0
        tally.add(o, n - m, skipped_lost)
        first = before if before is not None else self._initial(sr, n, after)
        tally.add_own(
            after.models_destroyed - first.models_destroyed, after.wounds_lost - first.wounds_lost
        )
        return after

    def _sampled(self, k: int, sr: StepResult, m: int, start: TargetStates | None):
        """The step sampled on its ``m`` trials whose target is alive (None when none is)."""
        if m == 0:
            return None
        if not self.decided[k]:  # made on these trials' states, then kept for later chunks
            scored = empirical(start) if start is not None else None
            res = _resolve(sr.step, "sample", m, self.rngs[k], Carried(scored, start))
            res.notes = [n for n in res.notes if n != few_trials_note(m)]
            res.exact = sr.result.exact
            sr.result, self.decided[k] = res, True
            return res.sample
        from ..engine.sample import run_sample

        act = sr.result.activation
        return run_sample(act, trials=m, seed=self.rngs[k], start=start, keep_states=True)

    def _after(self, sr, n, before, alive, o) -> TargetStates:
        """Each trial's state after the step: the sampler's where it acted, else unchanged."""
        if before is None:
            assert o is not None and o.final_states is not None
            return o.final_states
        lost = before.lost.copy()
        if o is not None:
            assert o.final_states is not None
            lost[alive] = o.final_states.lost
        return TargetStates(before.shape, lost)

    def _tally(self, k: int, sr: StepResult) -> StepTally:
        if self.tallies[k] is None:
            target = sr.result.activation.target
            self.tallies[k] = StepTally(
                target.models, target.wounds, len(target.characters), self.seeds[k]
            )
        tally = self.tallies[k]
        assert tally is not None
        return tally

    @staticmethod
    def _initial(sr: StepResult, n: int, after: TargetStates) -> TargetStates:
        """The sequence's start as one row (broadcast over the trials)."""
        start = sr.result.activation.start
        lost = start.lost[:1] if start is not None else np.zeros((1, len(after.shape)), int)
        return TargetStates(after.shape, lost)

    def shares(self) -> list[float]:
        """Per step, the share of the trials so far in which it acted."""
        return [t.acted / t.trials if t is not None and t.trials else 1.0 for t in self.tallies]

    def finish(self) -> None:
        """Each step's sampled outcome over every trial, into its Result."""
        for k, sr in enumerate(self.done):
            tally = self.tallies[k]
            assert tally is not None
            sr.result.sample = tally.outcome(silent_rows(sr.result.activation))
            sr.result.method = "both" if sr.result.exact is not None else "sample"
            sr.p_alive["sample"] = tally.acted / tally.trials
            sr.sample_own = tally.own


def sequence_trials(
    acts: list[Activation], notes: list[str], shares: list[float] | None = None, ran: int = 0
) -> int:
    """Sampler trials for a sequence whose trials were not given: as many as the default, but
    no more than the estimated cost of all its steps (:func:`~..engine.budget.estimate`) fits
    in the time budget, and never fewer than the minimum. ``shares``: each step's share of the
    trials in which it acts (None: all of them), measured on the first ``ran`` trials (already
    run, their cost spent). Says so in ``notes`` when it cuts the trials (replacing an earlier
    such note).
    """
    from ..engine.budget import estimate, trials_within_all
    from ..resolve import DEFAULT_TRIALS, FALLBACK_MIN_TRIALS, FALLBACK_SECONDS

    costs = [estimate(a) for a in acts]
    weights = shares if shares is not None else [1.0] * len(costs)

    def seconds(trials: int) -> float:
        return sum(c.seconds(ceil(w * trials)) for c, w in zip(costs, weights, strict=True))

    spent = seconds(ran)
    more = trials_within_all(costs, weights, FALLBACK_SECONDS - spent, DEFAULT_TRIALS - ran)
    cap = max(FALLBACK_MIN_TRIALS, ran + more)
    notes[:] = [n for n in notes if not n.startswith("the sampler ran ")]
    if cap < DEFAULT_TRIALS:
        notes.append(
            f"the sampler ran {cap:,} trials of the sequence (about "
            f"{spent + seconds(cap - ran):.1f} s by its estimate for all the steps) to finish "
            "in seconds; --trials N runs more"
        )
    return min(cap, DEFAULT_TRIALS)
