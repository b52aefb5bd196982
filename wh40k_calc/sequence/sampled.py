"""The sampler's half of a sequence: its trials in chunks, every step for one chunk and then
the next, so that memory does not grow with the trials; a step sampled only in the trials
whose target is alive when it begins (the others skip it: 05.04.04 Destroyed).

Each step's seed starts one random stream that its chunks continue (step 1's is ``--seed``, and
a chunk is a multiple of the sampler's own, so step 1 draws what ``calc shoot`` draws). With
``--method sample`` a step's choices are made on the first chunk in which its target is alive
in some trial (scored on those trials' states) and its activation kept for the later chunks;
with ``both`` the exact engine's are used. Without ``--trials`` the trials of the whole
sequence keep to the time budget from the estimated cost of every step, each counted only in
the share of trials it acts in, measured on the first chunk (:func:`sequence_trials`).
:class:`~wh40k_calc.sequence.pooled.StepTally` adds the chunks up.
"""

from __future__ import annotations

from collections.abc import Callable
from math import ceil

import numpy as np

from ..profile import Activation, TargetStates
from ..records import replace
from ..resolve import Carried, few_trials_note, pool_samples
from .alive import destroyed, silent_rows
from .pooled import StepTally
from .run import StepResult, resolve_step, step_seed, unmade_step
from .steps import Step

SEQUENCE_CHUNK = 1 << 18  # sampler trials carried through every step at once (a few MB)


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


def sample_chain(
    steps: list[Step],
    decided: list[StepResult] | None,
    trials: int | None,
    seed: int,
    progress: Callable[[int, int], None] | None,
    notes: list[str],
    warn: Callable[[str], None] | None = None,
) -> list[StepResult]:
    """Every step sampled, chunk after chunk of trials. ``decided``: the steps' Results
    (from the exact engine) whose activations the sampler runs; None (``--method sample``):
    each step is resolved on the first chunk's trials whose target is alive (its choices
    scored on their states) and its activation reused for the later chunks. ``warn``: called
    first when ``trials`` are far beyond the sampler's time budget (every step counted in
    every trial: an upper bound)."""
    done = decided or [StepResult(s, unmade_step(s, "sample", "in every trial")) for s in steps]
    acts = [sr.result.activation for sr in done]
    if trials is not None and warn is not None:
        _warn_if_slow(acts, trials, warn)
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


def _warn_if_slow(acts: list[Activation], trials: int, warn: Callable[[str], None]) -> None:
    """``warn`` when ``trials`` of every step are estimated far beyond the time budget."""
    from ..engine.budget import estimate, slow_trials_warning
    from ..resolve import FALLBACK_SECONDS

    seconds = sum(estimate(a).seconds(trials) for a in acts)
    slow = slow_trials_warning(seconds, trials, FALLBACK_SECONDS)
    if slow is not None:
        warn(slow)


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
            res = resolve_step(sr.step, "sample", m, self.rngs[k], Carried(scored, start))
            res = replace(
                res, notes=[n for n in res.notes if n != few_trials_note(m)], exact=sr.result.exact
            )
            sr.result, self.decided[k] = res, True
            return res.sample
        from ..engine.sample import run_sample

        act = sr.result.activation
        by_state = sr.result.by_state
        if by_state is not None and start is not None:  # each class of states its own
            parts = [
                (mask, run_sample(a, trials=int(mask.sum()), seed=self.rngs[k],
                                  start=TargetStates(start.shape, start.lost[mask]),
                                  keep_states=True))
                for mask, a in by_state(start)
            ]  # fmt: skip
            return pool_samples(parts, m)
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
            sr.result = replace(
                sr.result,
                sample=tally.outcome(silent_rows(sr.result.activation)),
                method="both" if sr.result.exact is not None else "sample",
            )
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
