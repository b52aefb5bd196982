"""What an exchange hands to its output: each activation's figures and the units' states at the
end, from the exact engine, the sampler, or both.

Every figure is unconditional: an activation that is not made (its unit, or the unit it
attacks, destroyed before it) counts 0 in it, so ``expected["attacks"]`` is P(made) times the
attacks made when it is. Models destroyed and wounds lost by an activation are those of the unit
it attacks; ``own_models_lost`` are the acting unit's own (Hazardous tests).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from ..engine.outcome import WEAPON_FIELDS
from .setup import Setup

if TYPE_CHECKING:
    from ..resolve import AllocationChoice, Result

STEP_FIELDS = (*WEAPON_FIELDS, "models_destroyed", "wounds_lost", "own_models_lost")


@dataclass
class StepFigures:
    """One activation's figures from one engine.

    ``p_made``: P(both units alive when it begins); ``expected``: each of STEP_FIELDS;
    ``standard_error`` (sampler): the same keys (and ``p_made``); ``resolutions``: the engine
    runs it took (one per attack class, plus the extra starts the exact engine needed);
    ``choices``, ``notes``, ``not_modelled``: what the activations said (each once).
    """

    p_made: float
    expected: dict[str, float]
    standard_error: dict[str, float] = field(default_factory=dict)
    resolutions: int = 0
    classes: int = 0
    choices: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    not_modelled: list[str] = field(default_factory=list)
    # the defender's allocation orders said (each once), kept apart from ``choices`` to be
    # said joined (:meth:`said_choices`)
    allocation: list[AllocationChoice] = field(default_factory=list)

    def add_choices(self, res: Result) -> None:
        """Add what ``res`` chose: its allocation sentences to :attr:`allocation`, the other
        choices to :attr:`choices` (each once)."""
        for a in res.allocation_choices:
            if a not in self.allocation:
                self.allocation.append(a)
        said = {a.sentence for a in res.allocation_choices}
        for t in res.choices:
            if t not in said and t not in self.choices:
                self.choices.append(t)

    def said_choices(self) -> list[str]:
        """The choices as the exchange says them: the others, then the defender's allocation
        orders with each weapon profile's joined over the classes of states
        (:func:`~wh40k_calc.resolve.merged_allocation`)."""
        from ..resolve import merged_allocation

        return [*self.choices, *(a.sentence for a in merged_allocation(self.allocation))]


@dataclass
class Summary:
    """Both units after the exchange, from one engine.

    ``models_left[side][k]``: P(the unit has ``k`` models left); ``joint[i, j]``: P(A has ``i``
    models left and B ``j``); ``wounds_left[side]``: expected wounds left;
    ``standard_error`` (sampler): of ``p_destroyed``, ``p_both``, ``expected_models_left`` and
    the joint table.
    """

    models_left: dict[str, np.ndarray]
    joint: np.ndarray
    wounds_left: dict[str, float]
    kinds_left: dict[str, dict[str, float]] = field(default_factory=dict)
    standard_error: dict = field(default_factory=dict)

    @property
    def p_destroyed(self) -> dict[str, float]:
        """P(each unit destroyed)."""
        return {s: float(m[0]) for s, m in self.models_left.items()}

    @property
    def p_both(self) -> float:
        """P(both units destroyed)."""
        return float(self.joint[0, 0])

    @property
    def expected_models_left(self) -> dict[str, float]:
        """Expected models left of each unit."""
        return {s: float(np.dot(np.arange(len(m)), m)) for s, m in self.models_left.items()}


@dataclass
class Chain:
    """One engine's run of the whole exchange: each activation's figures, the end."""

    method: str
    steps: list[StepFigures]
    summary: Summary
    trials: int = 0
    seed: int | None = None
    neglected: float = 0.0


@dataclass
class ExchangeResult:
    """An exchange resolved: its setup, the method asked for, and each engine's chain
    (``exact`` None when it did not run or declined, ``sample`` None when the sampler did not
    run)."""

    setup: Setup
    method: str
    exact: Chain | None
    sample: Chain | None
    notes: list[str] = field(default_factory=list)
    exact_declined: str | None = None

    @property
    def primary(self) -> Chain:
        """The chain the figures come from (the sampler's with ``--method sample``, or when
        the exact engine declined)."""
        out = self.exact if self.exact is not None else self.sample
        assert out is not None
        return out


def summary_of(setup: Setup, a_rows: np.ndarray, b_rows: np.ndarray, p: np.ndarray) -> Summary:
    """The summary of a joint distribution: ``p[i, j]`` the probability of A's state
    ``a_rows[i]`` with B's ``b_rows[j]``."""
    ta, tb = setup.tracks["a"], setup.tracks["b"]
    la, lb = ta.models_left(a_rows), tb.models_left(b_rows)
    joint = np.zeros((ta.models + 1, tb.models + 1))
    np.add.at(joint, (la[:, None], lb[None, :]), p)
    wa = ta.wounds - a_rows.sum(axis=1)
    wb = tb.wounds - b_rows.sum(axis=1)
    pa, pb = p.sum(axis=1), p.sum(axis=0)
    return Summary(
        {"a": joint.sum(axis=1), "b": joint.sum(axis=0)},
        joint,
        {"a": float(pa @ wa), "b": float(pb @ wb)},
        {"a": _kinds_left(ta, a_rows, pa), "b": _kinds_left(tb, b_rows, pb)},
    )


def _kinds_left(track, rows: np.ndarray, weights: np.ndarray) -> dict[str, float]:
    """Expected models left of each kind (model name) of the unit."""
    live = weights > 0
    alive = weights[live] @ track.alive_counts(rows[live])
    return {name: float(alive[groups].sum()) for name, groups in track.kinds()}
