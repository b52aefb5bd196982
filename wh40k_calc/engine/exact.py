"""The exact engine: probability distributions, composed with numpy, no sampling.

Per weapon profile, the outcome of its attacks is a small two-dimensional distribution over
(normal wounds, Critical Wounds that become mortal wounds) (:mod:`~wh40k_calc.engine.wounds`).
The target is then a Markov chain over the states of
:class:`~wh40k_calc.engine.allocation.AllocationSpace`: each wound that reaches the target is
one transition (saving throw, Damage roll, Feel No Pain, allocation;
:mod:`~wh40k_calc.engine.kernels`), so kill tables are exact.

Order (DESIGN.md; Core rules: Devastating Wounds, Mortal Wounds): mortal wounds inflicted before
the attacks (Grenade, Bloody Stampede), then each weapon's normal damage in the given order,
then the mortal wounds of Devastating Wounds, weapon by weapon. The pending Critical Wounds of
each Devastating Wounds weapon (with the allocation order the defender chose for it) are carried
as an extra axis of the chain, so their correlation with that weapon's normal wounds is kept
exactly. When the damage figure depends on which model takes a wound (different saves, Feel No
Pain or damage re-rolls by wounds left) a further axis carries the damage total; otherwise its
distribution is a plain convolution. In edition 11 a weapon's save rolls can be resolved lowest
first (05.04) and the defender's allocation order chosen per weapon
(:mod:`~wh40k_calc.engine.defender`).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

import numpy as np

from ..dice import thin
from ..profile import Activation, AttackProfile, OrderPolicy, TargetStates
from .allocation import NORMAL, AllocationSpace, legal_orders, saves_differ, space_for
from .defender import choose_orders
from .kernels import (
    Faces,
    Kernel,
    binomials,
    face_kernels,
    mean,
    routing_of,
    spill_kernel,
    wound_kernel,
)
from .outcome import Outcome, WeaponResult
from .wounds import joint_cost, wound_joint

MAX_ELEMENTS = 6_000_000  # size of the chain's probability array the exact engine accepts
MAX_WORK = 400_000_000  # scattered multiply-adds (a few seconds) the exact engine accepts
DENSE_STATES = 400  # up to this many target states, transitions are dense matrices
TAIL_EPS = 1e-15  # a weapon's remaining P(N > n) below this ends its loop (mass lost < 1e-15)
PENDING = 2  # the first pending-devastating axis of the chain array (after states and figure)


class ExactUnsupported(RuntimeError):
    """The selection is too large for the exact engine; the message says why (use --method
    sample)."""


# ---------------------------------------------------------------------------------------------
# The chain


class _Chain:
    """Probability array V[s, x, ...]: s a target state, x the damage total (if tracked),
    then one axis per pending-devastating weapon and one for the Blast bracket."""

    def __init__(self, space: AllocationSpace, track_figure: bool, figure_max: int):
        self.space = space
        self.track = track_figure
        self.xsize = figure_max + 1 if track_figure else 1
        self.mats: dict[int, list[tuple[int, object]]] = {}

    @property
    def dense(self) -> bool:
        """Small chains without a damage axis use one dense matrix per kernel (BLAS)."""
        return not self.track and self.space.size <= DENSE_STATES

    def _matrices(self, k: Kernel) -> list[tuple[int, object]]:
        """Per damage value d: the transition as a dense matrix (small chains without a
        damage axis: all d summed into one matrix) or as sparse scatter data (rows with p > 0,
        sorted by next state, with the segment starts and the distinct next states)."""
        key = id(k)
        if key not in self.mats:
            S = self.space.size
            states = np.arange(S)
            out: list[tuple[int, object]] = []
            for d, nxt in k.targets(self.space):
                p = k.probs[:, d]
                if not self.dense:
                    rows = np.nonzero(p)[0]
                    order = rows[np.argsort(nxt[rows], kind="stable")]
                    targets = nxt[order]
                    starts = np.concatenate([[0], np.nonzero(np.diff(targets))[0] + 1])
                    out.append((d, (order, p[order], starts, targets[starts])))
                else:
                    a = np.zeros((S, S))
                    np.add.at(a, (nxt, states), p)
                    out.append((d, a))
            if self.dense:
                out = [(0, sum(a for _, a in out))]  # type: ignore[misc]
            self.mats[key] = out
        return self.mats[key]

    def step(self, v: np.ndarray, k: Kernel) -> np.ndarray:
        """One wound (or one mortal wound) of kernel ``k`` applied to every slice of ``v``."""
        shape = v.shape
        S = shape[0]
        if self.dense:
            flat = v.reshape(S, -1)
            ((_, a),) = self._matrices(k)
            return (a @ flat).reshape(shape)
        flat = v.reshape(S, self.xsize, -1)
        X = self.xsize
        out = np.zeros_like(flat)
        for d, (order, p, starts, targets) in self._matrices(k):
            shift = d if self.track else 0  # the damage axis moves by the points inflicted
            if shift >= X:
                continue
            vals = flat[order, : X - shift, :] * p[:, None, None]
            out[targets, shift:, :] += np.add.reduceat(vals, starts, axis=0)
        return out.reshape(shape)


def _total(v: np.ndarray, vec: np.ndarray) -> float:
    return float(vec @ v.reshape(v.shape[0], -1).sum(axis=1))


# ---------------------------------------------------------------------------------------------
# Setting up one activation


@dataclass
class _Weapon:
    """One weapon profile in the chain: its wound counts per Blast bracket (``joints[b]`` =
    (P[n, m], expected attacks/hits/wounds)) and its kernels per allocation order."""

    ap: AttackProfile
    joints: dict
    normal: list[Kernel]
    dev: list[Kernel] | None
    faces: list[Faces] | None

    @property
    def n_max(self) -> int:
        return max(p.shape[0] for p, _ in self.joints.values())

    @property
    def m_max(self) -> int:
        return max(p.shape[1] for p, _ in self.joints.values())


class _Setup:
    """The state space, kernels, wound distributions and chain of one activation.

    Raises:
        ExactUnsupported: the selection is too large to resolve exactly.
    """

    def __init__(self, act: Activation, max_elements: int, start: TargetStates | None):
        self.act = act
        orders = None
        if act.policy is not None:
            orders = act.policy.orders
        elif act.best_allocation:
            orders = legal_orders(act.target)
        try:
            self.space = space = space_for(act.target, orders, start)
            self.start = space.states_of(start)
        except ValueError as exc:
            raise ExactUnsupported(str(exc)) from None
        self.start_p = start.weights if start is not None else np.ones(1)
        if start is not None and start.weights is None:
            raise ExactUnsupported("the exact engine starts from a distribution (weights)")
        self.n_models = n_models = act.target.models
        self.n_orders = len(space.orders)  # preference orders, then those declared from them
        self.n_given = space.n_given
        self.before = [spill_kernel(space, src.fnp) for src in act.before]
        # models alive when the unit is selected (Blast): known, or per Blast bracket
        alive = set((n_models - space.destroyed[self.start]).tolist())
        blast = any(w.blast for w in act.weapons)
        self.blast_axis = blast and (bool(act.before) or len({a // 5 for a in alive}) > 1)
        self.selected = max(alive)
        self.brackets = list(range(n_models // 5 + 1)) if self.blast_axis else [None]
        self.weapons = [self._weapon(w) for w in act.weapons]
        self.track = self.blast_axis or not all(k.state_independent() for k in self._kernels())
        self.chain = _Chain(space, self.track, self._figure_max() if self.track else 0)
        self._check_budget(max_elements)

    def _weapon(self, w: AttackProfile) -> _Weapon:
        cost = joint_cost(w, self.n_models)
        if cost > MAX_WORK:
            raise ExactUnsupported(
                f"{w.name} makes too many attacks to combine exactly (about {cost:.1g} operations)"
            )
        joints = {b: wound_joint(w, self.selected if b is None else b * 5) for b in self.brackets}
        orders = range(self.n_orders)
        lowest = self.act.lowest_first and saves_differ(self.space, w.vs, routing_of(w, False))
        return _Weapon(
            w,
            joints,
            [wound_kernel(self.space, w, False, o) for o in orders],
            [wound_kernel(self.space, w, True, o) for o in orders] if w.devastating else None,
            [face_kernels(self.space, w, o) for o in orders] if lowest else None,
        )

    def _kernels(self) -> list[Kernel]:
        out = list(self.before)
        for w in self.weapons:
            out += w.normal + (w.dev or [])
            for fc in w.faces or []:
                out += [k for k in fc.kernels if k is not None]
        return out

    def _figure_max(self) -> int:
        total = sum(len(src.count) - 1 for src in self.act.before)
        for w in self.weapons:
            total += (w.n_max - 1) * (w.normal[0].probs.shape[1] - 1)
            if w.dev is not None:
                total += (w.m_max - 1) * (w.dev[0].probs.shape[1] - 1)
        return total

    def _check_budget(self, max_elements: int) -> None:
        """Refuse chains whose array or work (multiply-adds) would be too large: a step costs
        S x size when dense (BLAS: about 20 of those cost one scattered element), about size x
        the kernel's damage values when sparse."""
        S = self.space.size
        dims = [self.chain.xsize]
        dims += [w.m_max * self.n_orders for w in self.weapons if w.dev is not None]
        dims += [len(self.brackets)] if self.blast_axis else []
        size = S * int(np.prod(dims))

        def per_step(k: Kernel) -> float:
            dense = self.chain.dense
            return S * size / 20 if dense else float(size * max(1, k.probs.shape[1]))

        work = 0.0
        biggest = size
        for w in self.weapons:
            n, m = w.n_max, w.m_max
            phase = n * per_step(w.normal[0])
            if w.faces is not None:  # lowest first: about 3 n^2 steps on an n-times larger array
                phase = 3 * n * n * per_step(w.normal[0])
                biggest = max(biggest, size * n)
            work += phase * self.n_orders
            if w.dev is not None:
                work += m * m / 2 * per_step(w.dev[0])
        for src, k in zip(self.act.before, self.before, strict=True):
            work += 2 * len(src.count) * per_step(k)
        if biggest > max_elements or work > MAX_WORK:
            raise ExactUnsupported(
                f"the selection is too large to resolve exactly ({S:,} target states; about "
                f"{max(biggest, work):.1g} probabilities and operations)"
            )

    def initial(self) -> np.ndarray:
        """The chain array before anything happens: the start distribution (default: the unit
        unharmed)."""
        v = np.zeros((self.space.size, self.chain.xsize))
        np.add.at(v[:, 0], self.start, self.start_p)
        return v


# ---------------------------------------------------------------------------------------------
# Phases


def _before_phase(setup: _Setup, v: np.ndarray) -> tuple[np.ndarray, list[WeaponResult]]:
    """Mortal wounds inflicted before the attacks: they spill over, one at a time."""
    rows = []
    chain = setup.chain
    for src, k in zip(setup.act.before, setup.before, strict=True):
        acc = np.zeros_like(v)
        cur = v
        for p in src.count:
            if p:
                acc += p * cur
            cur = chain.step(cur, k)
        fig = 0.0
        cur = v
        tail = 1.0 - np.cumsum(src.count)
        for c in range(len(src.count) - 1):
            fig += tail[c] * _total(cur, k.figure_mean)
            cur = chain.step(cur, k)
        v = acc
        rows.append(WeaponResult.mortal_source(src.name, mean(src.count), fig))
    return v, rows


def _split_brackets(setup: _Setup, v: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """With Blast after mortal wounds, a last axis for the number of models (in fives) when
    the unit is selected as the target; and each bracket's probability."""
    if not setup.blast_axis:
        return v, None
    alive = setup.n_models - setup.space.destroyed
    split = np.zeros((*v.shape, len(setup.brackets)))
    for b in setup.brackets:
        mask = (alive // 5) == b
        split[mask, ..., b] = v[mask]
    return split, split.reshape(-1, len(setup.brackets)).sum(axis=0)


def _masses(setup: _Setup, v: np.ndarray) -> dict:
    """Per Blast bracket, the distribution over target states (other axes summed)."""
    S = setup.space.size
    if not setup.blast_axis:
        return {None: v.reshape(S, -1).sum(axis=1)}
    flat = v.reshape(S, -1, len(setup.brackets)).sum(axis=1)
    return {b: flat[:, b] for b in setup.brackets}


def _orders_for(
    setup: _Setup, j: int, w: _Weapon, v: np.ndarray
) -> tuple[np.ndarray | None, np.ndarray | None]:
    """The defender's order per (n, m) for weapon ``j`` and P(n, m) (None: one order for every
    count)."""
    act = setup.act
    if setup.n_given == 1:
        return None, None
    if act.policy is not None:
        probs = act.policy.probabilities
        return act.policy.tables[j], (probs[j] if j < len(probs) else None)
    return choose_orders(setup.space, w.joints, _masses(setup, v), w.normal, w.faces, w.dev)


def _put(acc: np.ndarray, axis: int | None, slot, bracket, values: np.ndarray) -> None:
    idx: list = [slice(None)] * acc.ndim
    if axis is not None:
        idx[axis] = slot
    if bracket is not None:
        idx[-1] = bracket
    acc[tuple(idx)] += values


def _weapon_phase(
    setup: _Setup, w: _Weapon, v: np.ndarray, table: np.ndarray | None
) -> tuple[np.ndarray, float, float, list[int]]:
    """Apply one weapon's normal wounds to ``v``, each count in the allocation order
    ``table`` gives (None: order 0). Its devastating Critical Wounds go on a new pending axis
    (slot m * K + k for m of them under the k-th of the K orders used). Returns the new array,
    the expected failed saves and damage figure, and the orders used."""
    used = [0] if table is None else _orders_used(w, table)
    K = len(used)
    axis = PENDING + _pending_axes(setup, v) if w.dev is not None else None
    shape = list(v.shape)
    if axis is not None:
        shape.insert(axis, w.m_max * K)
    acc = np.zeros(shape)
    fs = fig = 0.0
    S = setup.space.size
    mass = v.reshape(S, -1).sum(axis=1) > 0
    for k, o in enumerate(used):
        joints = w.joints if table is None else _masked(w.joints, table, o)
        declared = setup.space.declared(np.arange(S), o)
        for eo in np.unique(declared[mass]).tolist():  # a wounded group first (05.03)
            part = (
                v if setup.n_orders == 1 else v * (declared == eo).reshape(S, *[1] * (v.ndim - 1))
            )
            if w.faces is not None:
                a, b = _lowest_first_phase(setup, part, acc, w.faces[eo], joints, axis, (k, K))
            else:
                a, b = _count_phase(setup, part, acc, w.normal[eo], joints, axis, (k, K))
            fs, fig = fs + a, fig + b
    return acc, fs, fig, used


def _pending_axes(setup: _Setup, v: np.ndarray) -> int:
    return v.ndim - PENDING - (1 if setup.blast_axis else 0)


def _orders_used(w: _Weapon, table: np.ndarray) -> list[int]:
    used: set[int] = set()
    for p2, _ in w.joints.values():
        t = table[: p2.shape[0], : p2.shape[1]]
        used |= set(np.unique(t[p2 > 0]).tolist())
    return sorted(used) or [0]


def _masked(joints: dict, table: np.ndarray, order: int) -> dict:
    return {
        b: (p2 * (table[: p2.shape[0], : p2.shape[1]] == order), meta)
        for b, (p2, meta) in joints.items()
    }


def _count_phase(
    setup: _Setup,
    v: np.ndarray,
    acc: np.ndarray,
    k: Kernel,
    joints: dict,
    axis: int | None,
    slot: tuple[int, int],
) -> tuple[float, float]:
    """Saves one at a time: for each count n, the array after n wounds, weighted by P(n, m)
    into ``acc``. Returns the expected failed saves and damage figure."""

    def share(p2: np.ndarray) -> float:
        return float(p2.sum()) if slot[1] > 1 else 1.0

    has_sel = setup.blast_axis
    nmax = max(p.shape[0] for p, _ in joints.values())
    cur = v
    fs = fig = 0.0
    # P(N > n), of this order's share of the counts when the defender's order varies
    tails = {b: share(p2) - np.cumsum(p2.sum(axis=1)) for b, (p2, _) in joints.items()}
    for n in range(nmax):
        live = False
        for b, (p2, _) in joints.items():
            src = cur[..., b] if has_sel else cur
            if n < p2.shape[0]:
                for m, p in enumerate(p2[n]):
                    if p:
                        _put(acc, axis, m * slot[1] + slot[0], b, p * src)
            t = tails[b][n] if n < len(tails[b]) else 0.0
            if t > TAIL_EPS:
                live = True
                fs += t * _total(src, k.fail)
                fig += t * _total(src, k.figure_mean)
        if not live:
            break
        cur = setup.chain.step(cur, k)
    return fs, fig


def _by_count(setup: _Setup, v: np.ndarray, joints: dict, m_axis: bool) -> np.ndarray:
    """``v`` times the weapon's count distribution: X[..., (m), ..., b, r] = v[..., b] *
    P_b(n=r, m), the pending count m on a new axis at PENDING + pending axes (when
    ``m_axis``) and the count r of save rolls on a new last axis."""
    has_sel = setup.blast_axis
    nmax = max(p.shape[0] for p, _ in joints.values())
    mmax = max(p.shape[1] for p, _ in joints.values())
    shape = list(v.shape)
    axis = PENDING + _pending_axes(setup, v) if m_axis else None
    if axis is not None:
        shape.insert(axis, mmax)
    x = np.zeros((*shape, nmax))
    for b, (p2, _) in joints.items():
        src = v[..., b] if has_sel else v
        for m in range(p2.shape[1]):
            col = p2[:, m]
            if not col.any():
                continue
            idx: list = [slice(None)] * len(shape)
            if axis is not None:
                idx[axis] = m
            if has_sel:
                idx[-1] = b
            x[(*idx, slice(0, len(col)))] += src[..., None] * col
    return x


def _column_totals(x: np.ndarray, vec: np.ndarray, weights: np.ndarray) -> float:
    """sum over columns j (last axis) of weights[j] x <vec, mass of column j per state>."""
    per_state = x.reshape(x.shape[0], -1, x.shape[-1]).sum(axis=1)
    return float(vec @ per_state @ weights)


def _lowest_first_phase(
    setup: _Setup,
    v: np.ndarray,
    acc: np.ndarray,
    faces: Faces,
    joints: dict,
    axis: int | None,
    slot: tuple[int, int],
) -> tuple[float, float]:
    """Save rolls resolved lowest first (05.04 Inflict Damage): the n dice are rolled
    together; for each result f = 1..6 in turn, the number showing f among the r still
    unresolved is Binomial(r, P(f) / P(result >= f)), and each of them passes or fails against
    the group current when it is resolved (``faces.kernels[f]``). The count of dice left is a
    last axis of the array, gone once every result is resolved. Returns what
    :func:`_count_phase` does."""
    chain = setup.chain
    x_all = _by_count(setup, v, joints, axis is not None)
    n1 = x_all.shape[-1]
    shape = (-1,) + (1,) * (x_all.ndim - 1)
    fs = fig = 0.0
    for mask, probs in faces.classes:
        x = x_all * mask.reshape(shape)
        for f in range(1, 7):
            rest = probs[f:].sum()
            if probs[f] <= 0.0 or rest <= 0.0:
                continue
            k = faces.kernels[f]
            assert k is not None
            b, tail = binomials(n1, min(1.0, probs[f] / rest))
            out = np.zeros_like(x)
            cur = x
            for c in range(n1):
                out[..., : n1 - c] += cur * b[c:, c]
                t = tail[c:, c]
                if not (t > TAIL_EPS).any():
                    break
                fs += _column_totals(cur, k.fail, t)
                fig += _column_totals(cur, k.figure_mean, t)
                cur = chain.step(np.ascontiguousarray(cur[..., 1:]), k)
            x = out
        res = x[..., 0]
        if axis is None:
            acc += res
        else:
            width = res.shape[axis]
            _put(acc, axis, slice(slot[0], width * slot[1], slot[1]), None, res)
    return fs, fig


def _devastating_phase(
    setup: _Setup, v: np.ndarray, w: _Weapon, used: list[int]
) -> tuple[np.ndarray, float, float]:
    """Inflict one weapon's pending devastating Critical Wounds (no spill-over), each in the
    order the defender chose for it, and drop its pending axis (the first one left)."""
    K = len(used)
    assert w.dev is not None
    total = None
    mw = fig = 0.0
    for k, o in enumerate(used):
        z = np.take(v, np.arange(k, v.shape[PENDING], K), axis=PENDING)
        kern = w.dev[o]
        for i in range(z.shape[PENDING] - 1):
            idx = [slice(None)] * z.ndim
            idx[PENDING] = slice(i + 1, None)
            sub = z[tuple(idx)]
            mw += _total(sub, kern.mortal)
            fig += _total(sub, kern.figure_mean)
            z[tuple(idx)] = setup.chain.step(np.ascontiguousarray(sub), kern)
        part = z.sum(axis=PENDING)
        total = part if total is None else total + part
    assert total is not None
    return total, mw, fig


# ---------------------------------------------------------------------------------------------
# The whole activation


def run_exact(
    act: Activation, max_elements: int = MAX_ELEMENTS, start: TargetStates | None = None
) -> Outcome:
    """Resolve one activation exactly.

    Args:
        act: the resolved profiles (weapons in resolution order, target, mortal wounds before
            the attacks, Hazardous tests after them; edition 11's save order and allocation
            choice; with ``act.policy``, the defender's orders to use rather than choose).
        max_elements: refuse selections whose chain would need more float64 entries.
        start: the distribution of the target's state before the activation (default
            ``act.start``, else the unit unharmed), e.g. an earlier activation's
            ``final_states``.

    Returns:
        An :class:`Outcome` with method "exact", the allocation orders chosen (``policy``) and
        the distribution of the target's state after the activation (``final_states``).

    Raises:
        ExactUnsupported: the selection is too large to resolve exactly, or ``start`` does
            not fit the target.
    """
    setup = _Setup(act, max_elements, start if start is not None else act.start)
    v, rows = _before_phase(setup, setup.initial())
    v, bracket_w = _split_brackets(setup, v)
    expected, tables, weights, used_by = [], [], [], []
    for j, w in enumerate(setup.weapons):
        table, p = _orders_for(setup, j, w, v)
        tables.append(table)
        weights.append(p)
        v, fs, fig, used = _weapon_phase(setup, w, v, table)
        used_by.append(used)
        if bracket_w is None:
            first = next(iter(w.joints.values()))[1]
        else:  # expectations over the Blast bracket reached when selecting the target
            first = {
                f: sum(bracket_w[b] * w.joints[b][1][f] for b in w.joints)
                for f in ("attacks", "hits", "wounds")
            }
        expected.append({**first, "failed_saves": fs, "mortal_wounds": 0.0, "damage": fig})
    for j, w in enumerate(setup.weapons):
        if w.dev is not None:
            v, mw, fig = _devastating_phase(setup, v, w, used_by[j])
            expected[j]["mortal_wounds"] = mw
            expected[j]["damage"] += fig
    if setup.blast_axis:
        v = v.sum(axis=-1)
    rows += [WeaponResult(w.name, w.models, e) for w, e in zip(act.weapons, expected, strict=True)]
    out = _read(setup, v, rows)
    if setup.n_given > 1:
        given = setup.space.orders[: setup.n_given]
        out.policy = OrderPolicy(given, tuple(tables), tuple(weights))
    return out


def _read(setup: _Setup, v: np.ndarray, rows: list[WeaponResult]) -> Outcome:
    """The outcome from the final chain array."""
    space, act = setup.space, setup.act
    S = space.size
    n_models = setup.n_models
    state_p = v.reshape(S, setup.chain.xsize).sum(axis=1)
    md = np.bincount(space.destroyed, weights=state_p, minlength=n_models + 1)
    wl = np.bincount(space.wounds_lost, weights=state_p, minlength=act.target.wounds + 1)
    chars = [float(state_p[dead].sum()) for dead in space.character_dead]
    if setup.track:
        damage = v.reshape(S, setup.chain.xsize).sum(axis=0)
    else:
        damage = _independent_figure(setup)
    totals = {f: sum(r.expected[f] for r in rows) for f in rows[0].expected} if rows else {}
    totals["wounds_lost"] = float(np.dot(np.arange(len(wl)), wl))
    totals["models_destroyed"] = float(np.dot(np.arange(len(md)), md))
    return Outcome(
        method="exact",
        weapons=rows,
        expected=totals,
        models_destroyed_distribution=md,
        damage_distribution=_trim1(damage),
        wounds_lost_distribution=wl,
        characters_destroyed=chars,
        attacker_losses=hazard_losses(act),
        final_states=space.to_states(state_p),
    )


def _trim1(a: np.ndarray) -> np.ndarray:
    nz = np.nonzero(a > 0)[0]
    return a[: nz[-1] + 1] if len(nz) else a[:1]


def _independent_figure(setup: _Setup) -> np.ndarray:
    """Distribution of the damage figure when it does not depend on the target's state: each
    weapon's is a compound sum over its (n, m) wound counts; sources add by convolution."""
    total = np.ones(1)
    for src, k in zip(setup.act.before, setup.before, strict=True):
        q = k.probs[0]
        part = np.zeros(1)
        power = np.ones(1)
        for c, p in enumerate(src.count):
            if c:
                power = np.convolve(power, q)
            if p:
                part = _pad1(part, p * power)
        total = np.convolve(total, part)
    for w in setup.weapons:
        p2 = next(iter(w.joints.values()))[0]
        q = w.normal[0].probs[0]
        u = w.dev[0].probs[0] if w.dev is not None else np.ones(1)
        # sum_m U^{*m} * (sum_n P(n,m) Q^{*n})
        qpows = [np.ones(1)]
        for _ in range(p2.shape[0] - 1):
            qpows.append(np.convolve(qpows[-1], q))
        part = np.zeros(1)
        upow = np.ones(1)
        for m in range(p2.shape[1]):
            if m:
                upow = np.convolve(upow, u)
            inner = np.zeros(1)
            for n in range(p2.shape[0]):
                if p2[n, m]:
                    inner = _pad1(inner, p2[n, m] * qpows[n])
            part = _pad1(part, np.convolve(upow, inner))
        total = np.convolve(total, part)
    return total


def _pad1(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    out = np.zeros(max(len(a), len(b)))
    out[: len(a)] += a
    out[: len(b)] += b
    return out


# ---------------------------------------------------------------------------------------------
# Hazardous: the attacker's own losses


def hazard_losses(act: Activation) -> dict[str, float]:
    """Expected mortal wounds the attacker suffers from Hazardous tests, expected models it
    loses and P(it loses at least one), exactly (Core rules: Hazardous; 06.03 Hazard Rolls)."""
    hz = act.hazard
    if hz is None or hz.tests == 0:
        return {"hazard_mortal_wounds": 0.0, "models_destroyed": 0.0, "at_least_one": 0.0}
    space = AllocationSpace(hz.carriers)
    fails = np.array(
        [
            comb(hz.tests, k) * hz.fail_probability**k * (1 - hz.fail_probability) ** (hz.tests - k)
            for k in range(hz.tests + 1)
        ]
    )
    mw = hz.mortal_wounds.pmf
    states = np.arange(space.size)
    kinds = space.kind_of(states)
    if hz.spill:
        count = np.ones(1)
        events = np.zeros(1)
        for p in fails:
            events = _pad1(events, p * count)
            count = np.convolve(count, mw)
        probs = np.zeros((space.size, 2))
        keep = np.array([1.0 - hz.fnp[k] for k in kinds])
        probs[:, 1], probs[:, 0] = keep, 1.0 - keep
    else:
        events = fails
        width = len(mw)
        probs = np.zeros((space.size, width))
        for s in states:
            probs[s] = thin(mw, 1.0 - hz.fnp[kinds[s]])
    k = Kernel(probs, NORMAL, np.zeros(space.size), np.zeros(space.size))
    chain = _Chain(space, False, 0)
    v = np.zeros((space.size, 1))
    v[0, 0] = 1.0
    acc = np.zeros_like(v)
    for p in events:
        if p:
            acc += p * v
        v = chain.step(v, k)
    state_p = acc[:, 0]
    destroyed = space.destroyed
    return {
        "hazard_mortal_wounds": float(hz.tests * hz.fail_probability * hz.mortal_wounds.mean),
        "models_destroyed": float(np.dot(destroyed, state_p)),
        "at_least_one": float(state_p[destroyed > 0].sum()),
    }
