"""The exact engine: probability distributions, composed with numpy, no sampling.

Per weapon profile, the outcome of one attack is a small two-dimensional distribution over
(normal wounds, Critical Wounds that become mortal wounds); the weapon's total over its random
number of attacks is composed by convolution. The target is then a Markov chain over the states
of :class:`~wh40k_calc.engine.allocation.AllocationSpace`: each wound that reaches the target is
one transition (saving throw, Damage roll, Feel No Pain, allocation), so kill tables are exact.

Order (DESIGN.md; Core rules: Devastating Wounds, Mortal Wounds): mortal wounds inflicted before
the attacks (Grenade, Bloody Stampede), then each weapon's normal damage in the given order,
then the mortal wounds of Devastating Wounds, weapon by weapon. The pending Critical Wounds of
each Devastating Wounds weapon are carried as an extra axis of the chain, so their correlation
with that weapon's normal wounds is kept exactly. When the damage figure depends on which model
takes a wound (different saves, Feel No Pain or damage re-rolls by wounds left) a further axis
carries the damage total; otherwise its distribution is a plain convolution.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

import numpy as np

from ..dice import thin
from ..profile import CRIT, CRIT_WOUND, FAIL, HIT, MISS, WOUND, Activation, AttackProfile
from .allocation import NORMAL, PRECISION, AllocationSpace, saves_differ
from .outcome import Outcome, WeaponResult

MAX_ELEMENTS = 6_000_000  # size of the chain's probability array the exact engine accepts
MAX_WORK = 400_000_000  # scattered multiply-adds (a few seconds) the exact engine accepts
DENSE_STATES = 400  # up to this many target states, transitions are dense matrices
TAIL_EPS = 1e-15  # a weapon's remaining P(N > n) below this ends its loop (mass lost < 1e-15)


class ExactUnsupported(RuntimeError):
    """The selection is too large for the exact engine; the message says why (use --method
    sample)."""


# ---------------------------------------------------------------------------------------------
# Small distribution helpers


def conv2(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Full 2-D convolution of two non-negative arrays (distributions over pairs of counts)."""
    if np.count_nonzero(a) < np.count_nonzero(b):
        a, b = b, a
    out = np.zeros((a.shape[0] + b.shape[0] - 1, a.shape[1] + b.shape[1] - 1))
    for (i, j), v in np.ndenumerate(b):
        if v:
            out[i : i + a.shape[0], j : j + a.shape[1]] += v * a
    return out


def _mean(pmf: np.ndarray) -> float:
    return float(np.dot(np.arange(len(pmf)), pmf))


def _trim2(a: np.ndarray) -> np.ndarray:
    rows = np.nonzero(a.sum(axis=1) > 0)[0]
    cols = np.nonzero(a.sum(axis=0) > 0)[0]
    return a[: (rows[-1] + 1 if len(rows) else 1), : (cols[-1] + 1 if len(cols) else 1)]


# ---------------------------------------------------------------------------------------------
# One weapon: attacks -> (normal wounds, devastating Critical Wounds)


def per_hit_kernel(ap: AttackProfile) -> np.ndarray:
    """Distribution over (normal wounds, devastating Critical Wounds) of one hit's Wound roll."""
    pw = ap.wound.probabilities(3)
    g = np.zeros((2, 2))
    g[0, 0] = pw[FAIL]
    g[1, 0] = pw[WOUND]
    if ap.devastating:
        g[0, 1] = pw[CRIT_WOUND]
    else:
        g[1, 0] += pw[CRIT_WOUND]
    return g


def per_attack_kernel(ap: AttackProfile) -> tuple[np.ndarray, float]:
    """Distribution over (normal wounds, devastating Critical Wounds) of one attack, and the
    expected hits it scores (Core rules: Hit Roll, Sustained Hits, Lethal Hits)."""
    g = per_hit_kernel(ap)
    if ap.hit is None:  # hits automatically: one hit, never a Critical Hit
        return _trim2(g), 1.0
    ph = ap.hit.probabilities(3)
    unit = np.ones((1, 1))
    lethal = np.array([[0.0], [1.0]]) if ap.lethal else g
    extra = unit
    extra_hits = 0.0
    if ap.sustained is not None:
        extra = np.zeros((1, 1))
        power = unit
        for k, p in enumerate(ap.sustained):
            if k:
                power = conv2(power, g)
            if p:
                extra = _pad_add(extra, p * power)
        extra_hits = _mean(ap.sustained)
    crit = conv2(lethal, extra)
    k = _pad_add(_pad_add(ph[MISS] * unit, ph[HIT] * g), ph[CRIT] * crit)
    return _trim2(k), float(ph[HIT] + ph[CRIT] * (1.0 + extra_hits))


def _pad_add(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    out = np.zeros((max(a.shape[0], b.shape[0]), max(a.shape[1], b.shape[1])))
    out[: a.shape[0], : a.shape[1]] += a
    out[: b.shape[0], : b.shape[1]] += b
    return out


def _joint_cost(ap: AttackProfile, models_at_selection: int) -> float:
    """Operations :func:`wound_joint` would take: one 2-D convolution per possible number of
    attacks, on an array growing to (max wounds x max devastating wounds)."""
    amax = len(ap.attack_pmf(models_at_selection)) - 1
    k, _ = per_attack_kernel(ap)
    size = (amax * (k.shape[0] - 1) + 1) * (amax * (k.shape[1] - 1) + 1)
    return float(amax) * size * np.count_nonzero(k) / 2


def wound_joint(ap: AttackProfile, models_at_selection: int) -> tuple[np.ndarray, dict]:
    """Joint distribution P[n, m] of the weapon's normal wounds n and devastating Critical
    Wounds m over all its attacks, and its expected attacks, hits and wounds."""
    attacks = ap.attack_pmf(models_at_selection)
    k, hits_per_attack = per_attack_kernel(ap)
    out = np.zeros((1, 1))
    power = np.ones((1, 1))
    for a, p in enumerate(attacks):
        if a:
            power = conv2(power, k)
        if p:
            out = _pad_add(out, p * power)
    mean_attacks = _mean(attacks)
    wounds = float(
        (out.sum(axis=1) * np.arange(out.shape[0])).sum()
        + (out.sum(axis=0) * np.arange(out.shape[1])).sum()
    )
    return _trim2(out), {
        "attacks": mean_attacks,
        "hits": mean_attacks * hits_per_attack,
        "wounds": wounds,
    }


# ---------------------------------------------------------------------------------------------
# Kernels: what one wound (or one mortal wound) does to each state


@dataclass
class _Kernel:
    """Per state s: probs[s, d] = P(d points get through to the model s allocates to).
    ``routing`` is NORMAL or PRECISION; ``fail`` and ``mortal`` are per-state expectations of
    failed saves and mortal wounds (before Feel No Pain) for reporting."""

    probs: np.ndarray
    routing: int
    fail: np.ndarray
    mortal: np.ndarray
    order: int = 0

    @property
    def figure_mean(self) -> np.ndarray:
        return self.probs @ np.arange(self.probs.shape[1])

    def state_independent(self) -> bool:
        return bool(np.allclose(self.probs, self.probs[0], rtol=0, atol=1e-13))


def _kernel(
    space: AllocationSpace,
    ap: AttackProfile,
    devastating: bool,
    order: int = 0,
    face: int | None = None,
) -> _Kernel:
    """What one wound of ``ap`` does to each state under allocation order ``order``: a saving
    throw (none for a devastating Critical Wound's mortal wounds; with ``face``, a save roll
    whose result stands at ``face``, which passes or fails outright), then the Damage roll and
    Feel No Pain."""
    routing = PRECISION if (ap.precision_mortals if devastating else ap.precision) else NORMAL
    states = np.arange(space.size)
    kinds = space.kind_of(states, routing, order)
    lefts = space.wounds_left_of(states, routing, order)
    cache: dict[tuple[int, int], tuple[np.ndarray, float, float]] = {}
    rows = []
    fail = np.zeros(space.size)
    mortal = np.zeros(space.size)
    for s in range(space.size):
        key = (int(kinds[s]), int(lefts[s]))
        if key not in cache:
            vs = ap.vs[key[0]]
            # wounds left 0 (unit destroyed): the table's own policy for that case, as the
            # sampler reads it (DamageTable.rerolls_for(0))
            dmg = vs.damage.pmf(key[1])
            if devastating:
                f, keep = 1.0, 1.0 - vs.fnp_mortal
                mw = _mean(dmg)
            else:
                f = vs.save_fail_probability if face is None else float(vs.save_fails_on(face))
                keep = 1.0 - vs.fnp
                mw = 0.0
            row = f * thin(dmg, keep)
            row[0] += 1.0 - f
            cache[key] = (row, (0.0 if devastating else f), mw)
        row, fail[s], mortal[s] = cache[key]
        rows.append(row)
    width = max(len(r) for r in rows)
    probs = np.zeros((space.size, width))
    for s, r in enumerate(rows):
        probs[s, : len(r)] = r
    return _Kernel(probs, routing, fail, mortal, order)


@dataclass
class _Faces:
    """A weapon's save rolls resolved lowest first (05.04 Inflict Damage): one kernel per
    result 1-6 (``kernels[f]``, index 0 unused), and the classes of start states whose dice
    stand at the same face probabilities (a save re-roll is made against the group current
    when the dice are rolled): ``classes`` pairs a state mask with P(face), index 1-6."""

    kernels: list[_Kernel | None]
    classes: list[tuple[np.ndarray, np.ndarray]]


def _faces(space: AllocationSpace, ap: AttackProfile, order: int = 0) -> _Faces:
    routing = PRECISION if ap.precision else NORMAL
    kernels = [None] + [_kernel(space, ap, False, order, f) for f in range(1, 7)]
    start = space.kind_of(np.arange(space.size), routing, order)
    by_probs: dict[tuple, np.ndarray] = {}
    for k in np.unique(start):
        save = ap.vs[int(k)].save
        probs = save.face_probabilities() if save is not None else np.full(7, 1 / 6)
        probs[0] = 0.0
        key = tuple(np.round(probs, 15))
        mask = start == k
        by_probs[key] = by_probs[key] | mask if key in by_probs else mask
    return _Faces(kernels, [(m, np.array(k)) for k, m in by_probs.items()])


def _spill_kernel(space: AllocationSpace, fnp: tuple[float, ...]) -> _Kernel:
    states = np.arange(space.size)
    kinds = space.kind_of(states, NORMAL)
    probs = np.zeros((space.size, 2))
    keep = np.array([1.0 - (fnp[k] if k < len(fnp) else 0.0) for k in kinds])
    probs[:, 1] = keep
    probs[:, 0] = 1.0 - keep
    return _Kernel(probs, NORMAL, np.zeros(space.size), np.ones(space.size))


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

    def _matrices(self, k: _Kernel) -> list[tuple[int, object]]:
        """Per damage value d: the transition as a dense matrix (small chains without a
        damage axis: all d summed into one matrix) or as sparse scatter data (rows with p > 0,
        sorted by next state, with the segment starts and the distinct next states)."""
        key = id(k)
        if key not in self.mats:
            S = self.space.size
            states = np.arange(S)
            out: list[tuple[int, object]] = []
            for d in range(k.probs.shape[1]):
                p = k.probs[:, d]
                if not p.any():
                    continue
                nxt = self.space.apply(states, d, k.routing, k.order)
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

    def step(self, v: np.ndarray, k: _Kernel) -> np.ndarray:
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


def _work(
    S: int,
    size: int,
    joints: list[dict],
    normal_k: list[_Kernel],
    dev_k: list[_Kernel | None],
    before_k: list[_Kernel],
    act: Activation,
    dense: bool,
) -> float:
    """Rough count of multiply-adds the chain will take (a step costs S x size when dense,
    about size x the kernel's damage values when sparse)."""

    def per_step(k: _Kernel) -> float:
        # a dense step is a BLAS matrix product: about 20 multiply-adds cost what one
        # scattered element of a sparse step does
        return S * size / 20 if dense else float(size * max(1, k.probs.shape[1]))

    steps = 0.0
    for per, nk, dk in zip(joints, normal_k, dev_k, strict=True):
        n = max(j[0].shape[0] for j in per.values())
        m = max(j[0].shape[1] for j in per.values())
        steps += n * per_step(nk) + (m * m / 2 * per_step(dk) if dk is not None else 0.0)
    for src, k in zip(act.before, before_k, strict=True):
        steps += 2 * len(src.count) * per_step(k)
    return steps


def _total(v: np.ndarray, vec: np.ndarray) -> float:
    return float(vec @ v.reshape(v.shape[0], -1).sum(axis=1))


def run_exact(act: Activation, max_elements: int = MAX_ELEMENTS) -> Outcome:
    """Resolve one activation exactly.

    Args:
        act: the resolved profiles (weapons in resolution order, target, mortal wounds before
            the attacks, Hazardous tests after them).
        max_elements: refuse selections whose chain would need more float64 entries.

    Returns:
        An :class:`Outcome` with method "exact".

    Raises:
        ExactUnsupported: the selection is too large to resolve exactly.
    """
    space = AllocationSpace(act.target)
    S = space.size
    n_models = act.target.models

    normal_k = [_kernel(space, w, devastating=False) for w in act.weapons]
    dev_k = [_kernel(space, w, devastating=True) if w.devastating else None for w in act.weapons]
    before_k = [_spill_kernel(space, src.fnp) for src in act.before]
    faces = [
        _faces(space, w)
        if act.lowest_first and saves_differ(space, w.vs, PRECISION if w.precision else NORMAL)
        else None
        for w in act.weapons
    ]

    blast_axis = bool(act.before) and any(w.blast for w in act.weapons)
    brackets = list(range(n_models // 5 + 1)) if blast_axis else [None]

    # joint wound distributions per weapon (per Blast bracket when the count can change)
    joints: list[dict] = []
    for w in act.weapons:
        cost = _joint_cost(w, n_models)
        if cost > MAX_WORK:
            raise ExactUnsupported(
                f"{w.name} makes too many attacks to combine exactly (about {cost:.1g} operations)"
            )
        per: dict = {}
        for b in brackets:
            sel = n_models if b is None else b * 5
            per[b] = wound_joint(w, sel)
        joints.append(per)

    kernels = [*normal_k, *[k for k in dev_k if k is not None], *before_k]
    kernels += [k for fc in faces if fc is not None for k in fc.kernels if k is not None]
    # the damage total needs its own axis when it depends on the target's state: a kernel that
    # differs between states, or Blast whose attacks depend on the models left when mortal
    # wounds came first
    track = blast_axis or not all(k.state_independent() for k in kernels)
    figure_max = 0
    if track:
        for per, nk, dk in zip(joints, normal_k, dev_k, strict=True):
            nmax = max(j[0].shape[0] for j in per.values()) - 1
            mmax = max(j[0].shape[1] for j in per.values()) - 1
            figure_max += nmax * (nk.probs.shape[1] - 1)
            if dk is not None:
                figure_max += mmax * (dk.probs.shape[1] - 1)
        figure_max += sum(len(src.count) - 1 for src in act.before)
    chain = _Chain(space, track, figure_max)

    dev_sizes = [
        max(j[0].shape[1] for j in per.values()) if w.devastating else 0
        for w, per in zip(act.weapons, joints, strict=True)
    ]
    dims = [chain.xsize] + [m for m in dev_sizes if m] + ([len(brackets)] if blast_axis else [])
    size = S * int(np.prod(dims))
    work = _work(S, size, joints, normal_k, dev_k, before_k, act, chain.dense)
    lowest_n = [
        max(j[0].shape[0] for j in per.values())
        for per, fc in zip(joints, faces, strict=True)
        if fc is not None
    ]
    work += sum(3 * n * n * size * normal_k[0].probs.shape[1] for n in lowest_n)
    size = max([size, *(size * n for n in lowest_n)])
    if size > max_elements or work > MAX_WORK:
        raise ExactUnsupported(
            f"the selection is too large to resolve exactly ({S:,} target states; about "
            f"{max(size, work):.1g} probabilities and operations)"
        )
    dev_axis = {}
    ax = 2
    for j, m in enumerate(dev_sizes):
        if m:
            dev_axis[j] = ax
            ax += 1

    v = np.zeros([S, *dims])
    v[(0,) * v.ndim] = 1.0

    rows: list[WeaponResult] = []

    # 1. mortal wounds before the attacks: spill over, one at a time
    for src, k in zip(act.before, before_k, strict=True):
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
        rows.append(WeaponResult.mortal_source(src.name, _mean(src.count), fig))

    bracket_w = None
    if blast_axis:  # split by the number of models when the unit is selected as the target
        alive = n_models - space.destroyed
        split = np.zeros(v.shape)
        for b in brackets:
            mask = (alive // 5) == b
            split[mask, ..., b] = v[mask, ..., 0]
        v = split
        bracket_w = v.reshape(-1, len(brackets)).sum(axis=0)

    # 2. normal damage, weapon by weapon
    expected_rows = []
    for j, (per, k) in enumerate(zip(joints, normal_k, strict=True)):
        if faces[j] is not None:
            v, fs, fig = _lowest_first_phase(chain, v, faces[j], per, dev_axis.get(j), blast_axis)
        else:
            v, fs, fig = _weapon_phase(chain, v, k, per, dev_axis.get(j), blast_axis)
        if bracket_w is None:
            first = next(iter(per.values()))[1]
        else:  # expectations over the Blast bracket reached when selecting the target
            first = {
                f: sum(bracket_w[b] * per[b][1][f] for b in per)
                for f in ("attacks", "hits", "wounds")
            }
        expected_rows.append({**first, "failed_saves": fs, "mortal_wounds": 0.0, "damage": fig})

    # 3. mortal wounds from Devastating Wounds, weapon by weapon, after all normal damage
    for j, k in enumerate(dev_k):
        if k is None:
            continue
        axis = dev_axis[j]
        v, mw, fig = _devastating_phase(chain, v, k, axis)
        for a in dev_axis:
            if dev_axis[a] > axis:
                dev_axis[a] -= 1
        expected_rows[j]["mortal_wounds"] = mw
        expected_rows[j]["damage"] += fig

    if blast_axis:
        v = v.sum(axis=-1)
    for w, e in zip(act.weapons, expected_rows, strict=True):
        rows.append(WeaponResult(w.name, w.models, e))

    # 4. read the final state distribution
    state_p = v.reshape(S, chain.xsize).sum(axis=1)
    md = np.bincount(space.destroyed, weights=state_p, minlength=n_models + 1)
    wl = np.bincount(space.wounds_lost, weights=state_p, minlength=act.target.wounds + 1)
    chars = [
        float(state_p[space.characters_destroyed(np.arange(S)) > i].sum())
        for i in range(len(act.target.characters))
    ]
    if track:
        damage = v.reshape(S, chain.xsize).sum(axis=0)
    else:
        damage = _independent_figure(act, joints, normal_k, dev_k, before_k)

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
    )


def _trim1(a: np.ndarray) -> np.ndarray:
    nz = np.nonzero(a > 0)[0]
    return a[: nz[-1] + 1] if len(nz) else a[:1]


def _weapon_phase(
    chain: _Chain, v: np.ndarray, k: _Kernel, per: dict, dev_ax: int | None, has_sel: bool
) -> tuple[np.ndarray, float, float]:
    """Apply one weapon's normal wounds to ``v`` (their count distribution per Blast bracket,
    the bracket being the last axis when ``has_sel``); its devastating Critical Wounds are
    recorded on its pending axis ``dev_ax``. Returns the new array and the expected failed
    saves and damage figure."""
    nmax = max(j[0].shape[0] for j in per.values())
    cur = v.take(0, axis=dev_ax) if dev_ax is not None else v
    acc = np.zeros_like(v)
    fs = fig = 0.0
    tails = {b: 1.0 - np.cumsum(j[0].sum(axis=1)) for b, j in per.items()}
    for n in range(nmax):
        live = False
        for b, (p2, _) in per.items():
            src = cur[..., b] if has_sel else cur
            if n < p2.shape[0]:
                for m, p in enumerate(p2[n]):
                    if not p:
                        continue
                    idx: list = [slice(None)] * acc.ndim
                    if dev_ax is not None:
                        idx[dev_ax] = m
                    if has_sel:
                        idx[-1] = b
                    acc[tuple(idx)] += p * src
            t = tails[b][n] if n < len(tails[b]) else 0.0
            if t > TAIL_EPS:
                live = True
                fs += t * _total(src, k.fail)
                fig += t * _total(src, k.figure_mean)
        if not live:
            break
        cur = chain.step(cur, k)
    return acc, fs, fig


def _binomials(n: int, q: float) -> tuple[np.ndarray, np.ndarray]:
    """B[r, c] = P(Binomial(r, q) = c) and T[r, c] = P(Binomial(r, q) > c), r, c < ``n``."""
    b = np.zeros((n, n))
    b[0, 0] = 1.0
    for r in range(1, n):
        b[r, 0] = (1 - q) * b[r - 1, 0]
        b[r, 1 : r + 1] = (1 - q) * b[r - 1, 1 : r + 1] + q * b[r - 1, :r]
    tail = np.clip(1.0 - np.cumsum(b, axis=1), 0.0, None)
    return b, tail


def _by_count(chain: _Chain, v: np.ndarray, per: dict, dev_ax: int | None, has_sel: bool):
    """``v`` (this weapon's pending axis empty) times the weapon's count distribution, on a
    new last axis r: X[..., m (pending), ..., b, r] = v[..., b] * P_b(n=r, m)."""
    nmax = max(j[0].shape[0] for j in per.values())
    cur = v.take(0, axis=dev_ax) if dev_ax is not None else v
    x = np.zeros((*v.shape, nmax))
    for b, (p2, _) in per.items():
        src = cur[..., b] if has_sel else cur
        for m in range(p2.shape[1]):
            col = p2[:, m]
            if not col.any():
                continue
            idx: list = [slice(None)] * v.ndim
            if dev_ax is not None:
                idx[dev_ax] = m
            if has_sel:
                idx[-1] = b
            x[(*idx, slice(0, len(col)))] += src[..., None] * col
    return x


def _column_totals(x: np.ndarray, vec: np.ndarray, weights: np.ndarray) -> float:
    """sum over columns j (last axis) of weights[j] x <vec, mass of column j per state>."""
    per_state = x.reshape(x.shape[0], -1, x.shape[-1]).sum(axis=1)
    return float(vec @ per_state @ weights)


def _lowest_first_phase(
    chain: _Chain, v: np.ndarray, faces: _Faces, per: dict, dev_ax: int | None, has_sel: bool
) -> tuple[np.ndarray, float, float]:
    """Apply one weapon's save rolls resolved lowest first (05.04 Inflict Damage): the n dice
    are rolled together; for each result f = 1..6 in turn, the number showing f among the r
    still unresolved is Binomial(r, P(f) / P(result >= f)), and each of them passes or fails
    against the group current when it is resolved (``faces.kernels[f]``). The count of dice
    left is a last axis of the array, gone once every result is resolved. Returns what
    :func:`_weapon_phase` does."""
    x_all = _by_count(chain, v, per, dev_ax, has_sel)
    n1 = x_all.shape[-1]
    shape = (-1,) + (1,) * (x_all.ndim - 1)
    acc = np.zeros(v.shape)
    fs = fig = 0.0
    for mask, probs in faces.classes:
        x = x_all * mask.reshape(shape)
        for f in range(1, 7):
            rest = probs[f:].sum()
            if probs[f] <= 0.0 or rest <= 0.0:
                continue
            k = faces.kernels[f]
            assert k is not None
            b, tail = _binomials(n1, min(1.0, probs[f] / rest))
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
        acc += x[..., 0]
    return acc, fs, fig


def _devastating_phase(
    chain: _Chain, v: np.ndarray, k: _Kernel, axis: int
) -> tuple[np.ndarray, float, float]:
    """Inflict each pending devastating Critical Wound (no spill-over) and drop its axis."""
    z = v.copy()
    size = z.shape[axis]
    mw = fig = 0.0
    for i in range(size - 1):
        idx = [slice(None)] * z.ndim
        idx[axis] = slice(i + 1, None)
        sub = z[tuple(idx)]
        mw += _total(sub, k.mortal)
        fig += _total(sub, k.figure_mean)
        z[tuple(idx)] = chain.step(np.ascontiguousarray(sub), k)
    return z.sum(axis=axis), mw, fig


def _independent_figure(
    act: Activation,
    joints: list[dict],
    normal_k: list[_Kernel],
    dev_k: list[_Kernel | None],
    before_k: list[_Kernel],
) -> np.ndarray:
    """Distribution of the damage figure when it does not depend on the target's state: each
    weapon's is a compound sum over its (n, m) wound counts; sources add by convolution."""
    total = np.ones(1)
    for src, k in zip(act.before, before_k, strict=True):
        q = k.probs[0]
        part = np.zeros(1)
        power = np.ones(1)
        for c, p in enumerate(src.count):
            if c:
                power = np.convolve(power, q)
            if p:
                part = _pad1(part, p * power)
        total = np.convolve(total, part)
    for per, nk, dk in zip(joints, normal_k, dev_k, strict=True):
        p2 = next(iter(per.values()))[0]
        q = nk.probs[0]
        u = dk.probs[0] if dk is not None else np.ones(1)
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
    k = _Kernel(probs, NORMAL, np.zeros(space.size), np.zeros(space.size))
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
