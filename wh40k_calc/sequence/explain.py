"""``calc sequence --explain``: what each rule adds, step by step and over the whole sequence.

* **A step**: its players are its own rules (``rules.players`` of the step's selection), and
  the value of a subset is the step's own figures (models destroyed and wounds lost by the
  step, its damage), resolved exactly from the distribution the earlier steps left with every
  rule of theirs applied, conditioned as the sequence conditions it on the target being alive
  (:func:`~wh40k_calc.sequence.run._exact_chain`). The values add up to the step's own figures
  with all its rules less with none.
* **The whole sequence**: the players are the rules of every step, one per name (``--effect
  waaagh`` given in two steps is one rule, switched on and off in both together), and the
  value of a subset is the whole sequence's figures (models destroyed and wounds lost after
  the last step, the damage of every step added up) with those rules switched off in every
  step that has them. The values add up to the sequence with all rules less with none; a
  rule of an early step also gets what it adds to later steps (a unit left weaker).

Both are the exact engine's, as ``calc shoot --explain``'s (:mod:`wh40k_calc.explain`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..engine.exact import ExactUnsupported
from ..explain import Attribution, attribute
from ..notes import OptionNote
from ..profile import TargetStates
from ..records import replace
from ..rules.players import KINDS, Player, players, switched_off
from ..selection import SelectionError
from .run import SequenceResult, StepResult, _Declined, _exact_chain
from .steps import Step, StepError

if TYPE_CHECKING:
    from ..engine.outcome import Outcome


def _exact(sr: StepResult) -> Outcome:
    """A step's outcome in the exact chain (:func:`_chain`)."""
    assert sr.result.exact is not None
    return sr.result.exact


def _before(state: TargetStates | None) -> np.ndarray:
    """Expected models destroyed and wounds lost of a start distribution (None: 0)."""
    if state is None or state.weights is None:
        return np.zeros(2)
    w = np.asarray(state.weights, dtype=float) / float(np.sum(state.weights))
    return np.array([w @ state.models_destroyed, w @ state.wounds_lost], dtype=float)


def _chain(steps: list[Step], state: TargetStates | None) -> list[StepResult]:
    """The exact chain of ``steps`` from ``state``, its refusals as ``explain`` reads them.

    Raises:
        ExactUnsupported: the exact engine declined a step.
        SelectionError: a step that cannot be resolved.
    """
    try:
        return _exact_chain(steps, "exact", state)
    except _Declined as exc:
        raise ExactUnsupported(exc.reason) from None
    except StepError as exc:
        raise SelectionError(str(exc)) from None


def _step_value(step: Step, state: TargetStates | None):
    """The value of a selection of ``step``: its own figures from ``state``."""

    def value(sel) -> np.ndarray:
        sr = _chain([replace(step, selection=sel)], state)[0]
        o = _exact(sr)
        start = state if state is not None else sr.result.activation.start
        md, wl = np.array([o.expected["models_destroyed"], o.expected["wounds_lost"]]) - _before(
            start
        )
        return np.array([md, wl, o.expected["damage"]])

    return value


def explain_sequence(seq: SequenceResult, seed: int) -> SequenceResult:
    """``seq`` with each step's attribution (in its Result, its notes added to the step's) and
    the whole sequence's (``seq.attribution``, its notes added to the sequence's)."""
    steps = [sr.step for sr in seq.steps]
    starts: list[TargetStates | None]
    try:
        chain = seq.steps if seq.method != "sample" else _chain(steps, None)
        starts = [sr.exact_before for sr in chain]
    except ExactUnsupported as exc:
        return _declined(seq, str(exc))
    own: list[list[Player]] = []
    done = []
    for sr, start in zip(seq.steps, starts, strict=True):
        r = sr.result
        ps = players(r.selection, r.plan, r.activation)
        own.append(ps)
        a = attribute(ps, r.selection, _step_value(sr.step, start), seed)
        r.notes.extend(a.notes)
        done.append(replace(sr, result=replace(r, attribution=a)))
    whole = _whole(steps, own, seed)
    seq = replace(seq, steps=done, attribution=whole)
    seq.notes.extend(f"whole sequence: {n}" for n in whole.notes)
    if seq.method == "sample":
        seq.notes.append(
            OptionNote(
                "--explain",
                "the damage wasted is not counted in a sampled sequence (the exact engine's, "
                "with --method exact or both)",
            )
        )
    return seq


def _whole(steps: list[Step], own: list[list[Player]], seed: int) -> Attribution:
    """The whole sequence's attribution: one player per name over the steps."""
    first: dict[str, tuple[int, int, Player]] = {}
    for k, ps in enumerate(own):
        for i, p in enumerate(ps):
            first.setdefault(p.name, (k, i, p))
    union = [
        p for _, _, p in sorted(first.values(), key=lambda t: (KINDS.index(t[2].kind), t[0], t[1]))
    ]

    def switch(base: list[Step], off: list[Player]) -> list[Step]:
        names = {p.name for p in off}
        return [
            replace(s, selection=switched_off(s.selection, [p for p in ps if p.name in names]))
            for s, ps in zip(base, own, strict=True)
        ]

    def value(base: list[Step]) -> np.ndarray:
        done = _chain(base, None)
        last = _exact(done[-1])
        start = done[0].result.activation.start
        md, wl = np.array(
            [last.expected["models_destroyed"], last.expected["wounds_lost"]]
        ) - _before(start)
        damage = sum(_exact(sr).expected["damage"] for sr in done)
        return np.array([md, wl, damage])

    return attribute(union, steps, value, seed, switch=switch)


def _declined(seq: SequenceResult, reason: str) -> SequenceResult:
    from ..explain import _declined as declined

    a = declined(reason)
    seq.notes.extend(a.notes)
    return replace(seq, attribution=a)


def wasted_whole(seq: SequenceResult, engine: str) -> dict[str, Any] | None:
    """The ``wasted`` object of the whole sequence: each step's weapon rows (named ``step
    2: Deffgun``) and the total over the steps; None when a step does not count them."""
    from ..explained import wasted_json

    rows, totals = [], None
    for sr in seq.steps:
        o = getattr(sr.result, engine)
        data = wasted_json(o) if o is not None else None
        if data is None:
            return None
        label = sr.step.label(seq.repeated)
        rows += [{**w, "name": f"step {label}: {w['name']}"} for w in data["weapons"]]
        t = data["total"]
        totals = t if totals is None else {k: totals[k] + t[k] for k in t}
    return {"method": engine, "weapons": rows, "total": totals}
