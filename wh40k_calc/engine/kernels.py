"""What one wound, or one mortal wound, does to each state of the target: the exact engine's
transition kernels.

A kernel gives, per state ``s`` of an :class:`~wh40k_calc.engine.allocation.AllocationSpace`
and for one allocation order, the distribution of the points that get through to the model
``s`` allocates the wound to (saving throw, Damage roll, Feel No Pain); the space says where
those points take the state. The exact engine pushes distributions forward through kernels;
the defender's choice of allocation order (:mod:`~wh40k_calc.engine.defender`) pulls
objectives backward through them.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from msgspec import Struct, field

from ..dice import thin
from ..profile import AttackProfile, VsModel
from .allocation import NORMAL, PRECISION, AllocationSpace
from .arrays import distinct


def mean(pmf: np.ndarray) -> float:
    """Mean of a distribution over 0, 1, 2, ..."""
    return float(np.dot(np.arange(len(pmf)), pmf))


class Kernel(Struct):
    """Per state s: probs[s, d] = P(d points get through to the model s allocates to), under
    allocation order ``order`` with routing ``routing`` (NORMAL or PRECISION); ``fail`` and
    ``mortal`` are per-state expectations of failed saves and mortal wounds (before Feel No
    Pain) for reporting. A kernel made for a space (:func:`wound_kernel`,
    :func:`spill_kernel`) also knows the points it inflicts before Feel No Pain (``raw``), from
    which :attr:`figures` splits the wasted points off."""

    probs: np.ndarray
    routing: int
    fail: np.ndarray
    mortal: np.ndarray
    order: int = 0
    _targets: list = field(default_factory=list)
    _figure_mean: np.ndarray | None = None
    _independent: bool | None = None
    forms: dict = field(default_factory=dict)  # the exact engine's transition forms
    raw: np.ndarray | None = None  # expected points before FNP
    space: AllocationSpace | None = None  # the space it was made for
    _figures: np.ndarray | None = None

    @property
    def figure_mean(self) -> np.ndarray:
        """Expected points through, per state."""
        if self._figure_mean is None:
            self._figure_mean = self.probs @ np.arange(self.probs.shape[1])
        return self._figure_mean

    @property
    def figures(self) -> np.ndarray:
        """The per-state expectations of the points one wound inflicts, (states, 4): the damage
        figure (points through Feel No Pain, :attr:`figure_mean`), then the points wasted
        (:data:`~.outcome.WASTE_FIELDS`): through Feel No Pain but beyond the wounds the model
        it reaches has left (the figure minus the wounds it removes, in a state with a model
        left), ignored by Feel No Pain (``raw`` minus the figure, as the figure counts every
        point), and through Feel No Pain with no model left (the whole figure of the state in
        which every model is destroyed). The last three are 0 for a kernel that does not know its
        space or ``raw`` (a merged kernel of the figure pass, which needs none of them)."""
        if self._figures is None:
            fig = self.figure_mean
            out = np.zeros((len(fig), 4))
            out[:, 0] = fig
            if self.space is not None and self.raw is not None:
                space = self.space
                states = np.arange(space.size)
                removed = np.zeros(len(fig))
                for d, nxt in self.targets(space):
                    removed += self.probs[:, d] * (space.wounds_lost[nxt] - space.wounds_lost)
                wiped = space.destroyed[states] >= space.target.models
                out[:, 1] = np.where(wiped, 0.0, np.maximum(fig - removed, 0.0))
                out[:, 2] = np.maximum(self.raw - fig, 0.0)  # np.clip's, without its wrapper
                out[:, 3] = np.where(wiped, fig, 0.0)
            self._figures = out
        return self._figures

    def state_independent(self) -> bool:
        """True when every state has the same row (within 1e-13)."""
        if self._independent is None:
            self._independent = bool((np.abs(self.probs - self.probs[0]) <= 1e-13).all())
        return self._independent

    def passes(self) -> bool:
        """True when no state's save fails (nothing happens, nothing is counted)."""
        return not self.fail.any() and bool((self.probs[:, 0] == 1.0).all())

    def targets(self, space: AllocationSpace) -> list[tuple[int, np.ndarray]]:
        """(d, next state of every state after d points) for each d with probability."""
        if not self._targets:
            states = np.arange(space.size)
            for d in range(self.probs.shape[1]):
                if self.probs[:, d].any():
                    self._targets.append((d, space.apply(states, d, self.routing, self.order)))
        return self._targets

    def pull(self, space: AllocationSpace, g: np.ndarray) -> np.ndarray:
        """The backward step: ``out[s, ...] = sum_d probs[s, d] g[next(s, d), ...]``, the
        expectation of ``g`` one wound later from each state."""
        out = np.zeros_like(g)
        shape = (-1,) + (1,) * (g.ndim - 1)
        for d, nxt in self.targets(space):
            out += self.probs[:, d].reshape(shape) * g[nxt]
        return out


def _same(a: Kernel, b: Kernel) -> bool:
    return np.array_equal(a.probs, b.probs) and np.array_equal(a.fail, b.fail)


def routing_of(ap: AttackProfile, devastating: bool) -> int:
    """NORMAL or PRECISION for ``ap``'s wounds (or its Devastating Wounds mortal wounds)."""
    precise = ap.precision_mortals if devastating else ap.precision
    return PRECISION if precise else NORMAL


def wound_kernel(
    space: AllocationSpace,
    ap: AttackProfile,
    devastating: bool,
    order: int = 0,
    face: int | None = None,
) -> Kernel:
    """What one wound of ``ap`` does to each state under allocation order ``order``: a saving
    throw (none for a devastating Critical Wound's mortal wounds; with ``face``, a save roll
    whose result stands at ``face``, which passes or fails outright), then the Damage roll and
    Feel No Pain."""
    routing = routing_of(ap, devastating)
    states = np.arange(space.size)
    kinds = space.kind_of(states, routing, order)
    lefts = space.wounds_left_of(states, routing, order)
    base = int(lefts.max()) + 1
    codes = kinds * base + lefts
    keys = distinct(codes)  # numpy.unique would import numpy.ma (arrays.py)
    where = np.searchsorted(np.array(keys, dtype=codes.dtype), codes)
    rows, fails, mortals, raws = [], [], [], []
    for key in keys:
        kind, left = divmod(key, base)
        row, fail, mortal, raw = _row(ap.vs[kind], left, devastating, face)
        rows.append(row)
        fails.append(fail)
        mortals.append(mortal)
        raws.append(raw)
    table = np.zeros((len(rows), max(len(r) for r in rows)))
    for i, r in enumerate(rows):
        table[i, : len(r)] = r
    where = where.ravel()
    k = Kernel(table[where], routing, np.array(fails)[where], np.array(mortals)[where], order)
    k.raw, k.space = np.array(raws)[where], space
    return k


@lru_cache(maxsize=4096)
def _row(
    vs: VsModel, left: int, devastating: bool, face: int | None
) -> tuple[np.ndarray, float, float, float]:
    """One row of :func:`wound_kernel`: what one wound (a devastating Critical Wound's mortal
    wounds with ``devastating``; with ``face``, a save roll standing at that result) does to
    a model that ``vs`` describes with ``left`` wounds left: P(d points get through) (read
    only), P(the save fails), the expected mortal wounds and the expected points before Feel
    No Pain. Made once per process for each (``vs``, ``left``, ``devastating``, ``face``),
    everything it reads: the kernels of the same model kind under other allocation orders,
    and of other targets whose models take the attack alike, share it."""
    # wounds left 0 (unit destroyed): the table's own policy for that case, as the
    # sampler reads it (DamageTable.rerolls_for(0))
    dmg = (vs.devastating_damage if devastating else vs.damage).pmf(left)
    if devastating:
        f, keep = 1.0, 1.0 - vs.fnp_mortal
    else:
        f = vs.save_fail_probability if face is None else float(vs.save_fails_on(face))
        keep = 1.0 - vs.fnp
    row = f * thin(dmg, keep)
    row[0] += 1.0 - f
    row.flags.writeable = False
    points = mean(dmg)
    return row, 0.0 if devastating else f, points if devastating else 0.0, f * points


class Faces(Struct):
    """A weapon's save rolls resolved lowest first (05.04 Inflict Damage): one kernel per
    result 1-6 (``kernels[f]``, index 0 unused), and the classes of start states whose dice
    stand at the same face probabilities (a save re-roll is made against the group current
    when the dice are rolled): ``classes`` pairs a state mask with P(face), index 1-6."""

    kernels: list[Kernel | None]
    classes: list[tuple[np.ndarray, np.ndarray]]

    def steps(self, probs: np.ndarray) -> list[tuple[Kernel | None, float, float]]:
        """The results in increasing order, merged into classes that pass or fail alike
        against every group (a save is a threshold, so a class is a run of results): per
        class (its kernel, None when every group saves; P(class); P(this class or higher)).
        Classes after the last that can fail are left out: those dice all pass."""
        classes: list[list] = []
        for f in range(1, 7):
            k = self.kernels[f]
            assert k is not None
            if classes and _same(classes[-1][0], k):
                classes[-1][1] += probs[f]
            else:
                classes.append([k, float(probs[f])])
        out, done = [], 0.0
        for k, p in classes:
            out.append((None if k.passes() else k, p, max(0.0, 1.0 - done)))
            done += p
        while out and out[-1][0] is None:
            out.pop()
        return [c for c in out if c[1] > 0.0]


def face_kernels(space: AllocationSpace, ap: AttackProfile, order: int = 0) -> Faces:
    """The :class:`Faces` of ``ap``'s save rolls under allocation order ``order``."""
    routing = routing_of(ap, False)
    kernels: list[Kernel | None] = [None]
    kernels += [wound_kernel(space, ap, False, order, f) for f in range(1, 7)]
    start = space.kind_of(np.arange(space.size), routing, order)
    by_probs: dict[tuple, np.ndarray] = {}
    for k in distinct(start):
        save = ap.vs[int(k)].save
        probs = save.face_probabilities() if save is not None else np.full(7, 1 / 6)
        probs[0] = 0.0
        key = tuple(np.round(probs, 15))
        mask = start == k
        by_probs[key] = by_probs[key] | mask if key in by_probs else mask
    return Faces(kernels, [(m, np.array(k)) for k, m in by_probs.items()])


def spill_kernel(space: AllocationSpace, fnp: tuple[float, ...]) -> Kernel:
    """One mortal wound (it spills over: each is one point), ignored by Feel No Pain with the
    probability ``fnp[kind]`` of the model it is allocated to."""
    states = np.arange(space.size)
    kinds = space.kind_of(states, NORMAL)
    probs = np.zeros((space.size, 2))
    keep = np.array([1.0 - (fnp[k] if k < len(fnp) else 0.0) for k in kinds])
    probs[:, 1] = keep
    probs[:, 0] = 1.0 - keep
    k = Kernel(probs, NORMAL, np.zeros(space.size), np.ones(space.size))
    k.raw, k.space = np.ones(space.size), space
    return k


def binomials(n: int, q: float) -> tuple[np.ndarray, np.ndarray]:
    """B[r, c] = P(Binomial(r, q) = c) and T[r, c] = P(Binomial(r, q) > c), r, c < ``n``."""
    b = np.zeros((n, n))
    b[0, 0] = 1.0
    for r in range(1, n):
        b[r, 0] = (1 - q) * b[r - 1, 0]
        b[r, 1 : r + 1] = (1 - q) * b[r - 1, 1 : r + 1] + q * b[r - 1, :r]
    tail = np.clip(1.0 - np.cumsum(b, axis=1), 0.0, None)
    return b, tail
