"""A step's own figures, as opposed to the sequence's cumulative ones.

The engines count models destroyed and wounds lost from the unharmed unit, so a step's outcome
is cumulative. Its own figures:

* attacks, hits, wounds, failed saves, mortal wounds and damage are the step's already (each
  engine counts them per activation);
* expected models destroyed and wounds lost by the step: the difference of the cumulative
  expectations before and after it (exact by linearity; for the sampler, the mean of each
  trial's difference, with its standard error);
* P(a CHARACTER model is destroyed in this step): the difference of the cumulative
  probabilities (a destroyed model stays destroyed);
* the distribution of models destroyed by the step: exactly, the step run again from the
  states with d models already destroyed, for each d (the chain is linear in its start, so the
  mixture of those runs, each shifted by its d, is the step's own distribution; where every
  model is already destroyed the step is not made and destroys none); by the sampler, each
  trial's difference, counted as the trials ran (:class:`~.pooled.OwnCounts`).

For the JSON, the exact own distribution and the step's damage distribution are computed only
within the sequence's budget for them (:mod:`~wh40k_calc.sequence.budget`), else the sampler's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..engine.exact import run_exact
from ..engine.outcome import Outcome
from ..profile import TargetStates
from ..records import replace
from ..resolve import Result
from .pooled import se_p
from .run import SequenceResult

if TYPE_CHECKING:
    from .budget import FigureBudget


def own_result(seq: SequenceResult, k: int, budget: FigureBudget | None = None) -> Result:
    """Step ``k``'s (0-based) Result with its outcomes holding the step's own figures (for
    ``report.to_json``): expected models destroyed and wounds lost by this step, its own
    models-destroyed distribution (so its own kill table) and characters destroyed in it.
    ``budget``: which of the exact outcome's own models-destroyed and damage distributions
    are computed exactly, the others being the sampler's (None: all exactly, whatever they
    cost)."""
    r = seq.steps[k].result
    exact = _own_exact(seq, k, budget) if r.exact is not None else None
    sample = _own_sample(seq, k) if r.sample is not None else None
    return replace(r, exact=exact, sample=sample)


def _with(o: Outcome, **changes) -> Outcome:
    """``o`` with ``changes``, its damage distribution left lazy."""
    return replace(o, damage_distribution=o.__dict__["_damage"], **changes)


def _own_expected(seq: SequenceResult, k: int, engine: str) -> tuple[dict, list[float]]:
    cum = seq.cumulative(k, engine)
    expected = dict(cum.expected)
    chars = list(cum.characters_destroyed)
    if k > 0:
        prev = seq.cumulative(k - 1, engine)
        for f in ("models_destroyed", "wounds_lost"):
            expected[f] -= prev.expected[f]
        chars = [max(a - b, 0.0) for a, b in zip(chars, prev.characters_destroyed, strict=True)]
    return expected, chars


def _own_exact(seq: SequenceResult, k: int, budget: FigureBudget | None) -> Outcome:
    cum = seq.cumulative(k, "exact")
    expected, chars = _own_expected(seq, k, "exact")
    start = seq.steps[k].exact_before
    if start is None:  # the first step: its own figures are the cumulative ones
        md = cum.models_destroyed_distribution
    elif budget is not None and not budget.own_exact[k]:
        md = budget.sampled_own(k)
    else:
        md = own_models_destroyed(seq.steps[k].result, start)
    out = _with(
        cum, expected=expected, models_destroyed_distribution=md, characters_destroyed=chars
    )
    if budget is not None and not budget.damage_exact[k]:
        out = out.replaced(damage_distribution=budget.sampled_damage(k))
    return out


def _parts(start: TargetStates, n: int):
    """``start`` split by models already destroyed: (d, P(d), the states with d destroyed
    renormalised, or None where d is every model of the unit)."""
    dead = start.models_destroyed
    weights = np.asarray(start.weights, dtype=float)
    for d in np.unique(dead[weights > 0]):
        mask = (dead == d) & (weights > 0)
        w = float(weights[mask].sum())
        part = None if d >= n else TargetStates(start.shape, start.lost[mask], weights[mask] / w)
        yield int(d), w, part


def own_models_destroyed(r: Result, start: TargetStates) -> np.ndarray:
    """P(exactly j models destroyed by this step), from ``start`` (a distribution): the step's
    activation (with the defender's orders it used) run from the states with d models already
    destroyed, for each d, shifted by d and weighted by P(d)."""
    act = r.activation
    n = act.target.models
    out = np.zeros(n + 1)
    for d, w, part in _parts(start, n):
        if part is None:  # the unit is destroyed: the step is not made
            out[0] += w
            continue
        md = run_exact(act, start=part).models_destroyed_distribution
        out[: n + 1 - d] += w * md[d : n + 1]
    return out / out.sum()


def own_models_destroyed_cost(r: Result, start: TargetStates) -> float | None:
    """The estimated seconds of :func:`own_models_destroyed` before it runs, bounded from
    above: the exact engine's state pass from every alive state of ``start``
    (:func:`~wh40k_calc.engine.exact.state_estimate`; a pass from fewer start states works on
    no more) once per number of models already destroyed. One estimate per step, as each costs
    about as much as a small pass. None where the exact engine would decline it."""
    from ..engine.exact import ExactUnsupported, state_estimate

    act = r.activation
    n = act.target.models
    runs = sum(part is not None for _, _, part in _parts(start, n))
    if runs == 0:
        return 0.0
    alive = start.models_destroyed < n
    weights = np.asarray(start.weights, dtype=float)[alive]
    states = TargetStates(start.shape, start.lost[alive], weights / weights.sum())
    try:
        return runs * state_estimate(act, states).seconds
    except ExactUnsupported:
        return None


def _own_sample(seq: SequenceResult, k: int) -> Outcome:
    sr = seq.steps[k]
    cum = seq.cumulative(k, "sample")
    expected, chars = _own_expected(seq, k, "sample")
    own = sr.sample_own
    assert own is not None  # a sampled step counts its own figures as its trials run
    trials = cum.trials
    se = {
        key: dict(value) if isinstance(value, dict) else value
        for key, value in cum.standard_error.items()
    }
    se["expected"]["models_destroyed"] = own.models_moments.se
    se["expected"]["wounds_lost"] = own.wounds_moments.se
    out = _with(
        cum,
        expected=expected,
        models_destroyed_distribution=own.models_destroyed / trials,
        characters_destroyed=chars,
    )
    se["kill_table"] = [se_p(p, trials) for p in out.kill_table]
    se["characters_destroyed"] = [se_p(p, trials) for p in chars]
    return out.replaced(standard_error=se)
