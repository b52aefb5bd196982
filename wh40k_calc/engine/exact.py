"""The exact engine: probability distributions, composed with numpy, no sampling.

Per weapon profile, the outcome of its attacks is a small two-dimensional distribution over
(normal wounds, Critical Wounds that become mortal wounds) (:mod:`~wh40k_calc.engine.wounds`).
The target is then a Markov chain over the states of
:class:`~wh40k_calc.engine.allocation.AllocationSpace`: each wound that reaches the target is
one transition (saving throw, Damage roll, Feel No Pain, allocation;
:mod:`~wh40k_calc.engine.kernels`), so kill tables are exact.

Order (DESIGN.md; Core rules: Devastating Wounds, Mortal Wounds): mortal wounds inflicted before
the attacks (Grenade, Bloody Stampede), then each weapon's normal damage in the given order,
then the mortal wounds of Devastating Wounds, weapon by weapon. In edition 11 a weapon's save
rolls can be resolved lowest first (05.04) and the defender's allocation order chosen per weapon
and count (:mod:`~wh40k_calc.engine.defender`).

Two passes over the same phases, tracking only what each output needs:

* the **state pass** (array V[s, 1, ...]): the distribution of the target's states, with one
  extra axis per Devastating Wounds weapon for its pending Critical Wounds (and the order the
  defender chose for them), and one for the Blast bracket when mortal wounds before the attacks
  or a damaged start change the models a Blast weapon sees. Kill tables, wounds lost, every
  expectation and the defender's orders come from it. Its cost grows linearly with the number
  of wounds. From the unharmed unit, a weapon's counts use its kernel's kept *orbit* (the
  states after 0, 1, 2, ... wounds, :func:`_orbit`) while it is small: two products of a few
  dozen entries, where Horner's scheme over the counts would take a product per count.
* the **figure pass**, run only when the damage distribution is asked for: when a wound's damage
  depends on the model it reaches (different saves, Feel No Pain, Damage re-rolls by wounds
  left), the damage total must travel with the state; it does so as its discrete Fourier
  transform (V[s, k, ...] complex, k a frequency), where adding d points is a multiplication,
  so Devastating Wounds whose mortal wounds do the same to every model fold in at once instead
  of waiting on a pending axis. Otherwise the damage figure is a plain compound convolution.
"""

from __future__ import annotations

import copy
from math import comb

import numpy as np
from msgspec import Struct

from ..dice import thin
from ..profile import Activation, AttackProfile, HazardProfile, OrderPolicy, TargetStates
from ..records import replace
from . import lowest, lumping, memo, work
from .allocation import NORMAL, AllocationSpace, legal_orders, saves_differ, space_for
from .arrays import distinct
from .defender import choose_orders
from .kernels import (
    Faces,
    Kernel,
    mean,
    routing_of,
)
from .lowest import TAIL_EPS
from .outcome import WASTE_FIELDS, Outcome, WeaponResult

MAX_ELEMENTS = 6_000_000  # size of the chain's largest probability array the engine accepts
MAX_WORK = 400_000_000  # operations of one weapon's wound counts (wounds.joint_cost) accepted
PENDING = 2  # the first pending-devastating axis of the chain array (after states and figure)
CHUNK_ELEMENTS = 2_000_000  # a lowest-first resolution works on at most this many at once
LUMP_STATES = 64  # figure passes on more target states than this first merge them (lumping.py)
ORBIT_ELEMENTS = 1 << 12  # entries (states x counts) of the largest orbit a kernel keeps (_orbit)
_ONE = np.ones(1)  # the weight of the one start state of an unharmed unit (read only)
_ONE.flags.writeable = False


class ExactUnsupported(RuntimeError):
    """The selection is too large for the exact engine; the message says why (use --method
    sample)."""


# ---------------------------------------------------------------------------------------------
# The chain


class _Chain:
    """Transitions of one pass. Arrays are V[s, f, ...]: s a target state; f the damage figure
    axis: of size 1 in the state pass; in the figure pass either the damage total itself
    (``spectral`` False: adding d points shifts it by d) or its discrete Fourier transform
    (``length`` // 2 + 1 complex bins: adding d points is a product); then pending-devastating
    axes and the Blast bracket.

    A kernel is applied in whichever of three forms costs least (:func:`work.step_costs` over
    ``work.TYPICAL_REST`` elements per state, plus the form's fixed cost per call): a dense
    matrix product (few states); *offsets*, one scaled and shifted add per distinct jump
    (next state - state; a kernel moves states along the mixed-radix index by a few strides,
    so a handful of contiguous adds do it); or sparse entries sorted by next state (a gather
    and a segmented sum, for kernels with many distinct jumps, e.g. on merged states)."""

    def __init__(self, space: AllocationSpace, length: int = 0, spectral: bool = False):
        self.space = space
        self.length = length
        self.figure = length > 0
        self.spectral = spectral
        self.bins = (length // 2 + 1 if spectral else length) if length else 1
        self.cache: dict[int, tuple] = {}
        self.rates: dict[int, tuple[float, float]] = {}  # per kernel: ns per element, per call

    def phase(self, d: np.ndarray) -> np.ndarray:
        """exp(-2 pi i d k / length) per entry d (rows) and bin k (columns): adding d points."""
        k = np.arange(self.bins)
        return np.exp(-2j * np.pi * np.outer(d, k) / self.length)

    def _entries(self, k: Kernel, d: int | None = None) -> tuple[np.ndarray, ...]:
        """(state, next state, probability, points) of every move of ``k`` (of d points)."""
        parts = []
        for dd, nxt in k.targets(self.space):
            if d is not None and dd != d:
                continue
            live = np.nonzero(k.probs[:, dd])[0]
            parts.append((live, nxt[live], k.probs[live, dd], np.full(len(live), dd)))
        return tuple(np.concatenate(a) for a in zip(*parts, strict=True))

    @staticmethod
    def _sorted(src, tgt, *more) -> tuple:
        """Entries sorted by next state, with segment starts and the distinct next states."""
        order = np.argsort(tgt, kind="stable")
        src, tgt = src[order], tgt[order]
        starts = np.concatenate([[0], np.nonzero(np.diff(tgt))[0] + 1])
        return (src, *(m[order] for m in more), starts, tgt[starts])

    def _transition(self, k: Kernel) -> tuple:
        """The kernel's cheapest form, (kind, data): kept with the kernel in the state pass
        (kernels are shared), with the chain in the figure pass (it depends on the bins)."""
        key = id(k)
        if key in self.cache:
            return self.cache[key]
        if not self.figure:
            out = k.forms.get("state")
            if out is None:
                out = k.forms["state"] = self._form(k)
                k.forms["rates"] = self.rates[key]
            self.rates[key] = k.forms["rates"]
        else:
            out = self._form(k)
        self.cache[key] = out
        return out

    def step_ns(self, k: Kernel, rest: float) -> float:
        """Estimated nanoseconds of one step of ``k`` over an array of S x ``rest`` elements
        (:mod:`~wh40k_calc.engine.work`), its form chosen if it is not yet: in the state pass
        built at once (the pass uses it), in the figure pass not built (an estimate costs
        little even where the figure pass's forms are large)."""
        key = id(k)
        if key not in self.rates:
            if not self.figure:  # the state pass's form is built once and kept with k
                self._transition(k)
            else:
                self._choose(k, self._entries(k))
        per_element, call = self.rates[key]
        return per_element * rest * (work.COMPLEX if self.spectral else 1.0) + call

    def _choose(self, k: Kernel, entries: tuple) -> str:
        """The cheapest form of ``k`` (its ``entries``), its rates kept in ``rates``."""
        src, tgt, _, d = entries
        jumps = tgt - src
        keys = jumps if self.spectral or not self.figure else jumps * (k.probs.shape[1] + 1) + d
        jumps_n = len(distinct(keys))
        costs = work.step_costs(self.space.size, len(src), jumps_n, not self.figure)
        kind = min(costs, key=lambda f: costs[f] * work.TYPICAL_REST + work.call_ns(f, jumps_n))
        self.rates[id(k)] = (costs[kind], work.call_ns(kind, jumps_n))
        return kind

    def _form(self, k: Kernel) -> tuple:
        src, tgt, p, d = entries = self._entries(k)
        jumps = tgt - src
        kind = self._choose(k, entries)
        if kind == "dense":
            out = np.zeros((self.space.size, self.space.size))
            np.add.at(out, (tgt, src), p)
            return kind, out
        if kind == "offsets":
            return kind, self._offsets(src, jumps, p, d)
        if self.figure and not self.spectral:
            return kind, [
                (dd, self._sorted(*self._entries(k, dd)[:3])) for dd, _ in k.targets(self.space)
            ]
        coef = p[:, None] * self.phase(d) if self.spectral else p[:, None]
        return kind, self._sorted(src, tgt, coef)

    def _offsets(self, src, jumps, p, d) -> list[tuple]:
        """Per distinct jump (and, on the damage total, points): (jump, points, first and
        last state that moves so, the factor per state between them: (states,) or (states,
        bins))."""
        S = self.space.size
        out = _Offsets()
        plain = self.figure and not self.spectral
        for key in distinct(jumps * (int(d.max()) + 1) + d if plain else jumps):
            jump, dd = divmod(key, int(d.max()) + 1) if plain else (key, 0)
            sel = (jumps == jump) & ((d == dd) if plain else True)
            rows = src[sel]
            lo, hi = int(rows.min()), int(rows.max()) + 1
            if self.spectral:
                c: np.ndarray = np.zeros((S, self.bins), dtype=complex)
                np.add.at(c, rows, p[sel, None] * self.phase(d[sel]))
            else:
                c = np.zeros(S)
                np.add.at(c, rows, p[sel])
            out.append((jump, dd, lo, hi, c[lo:hi]))
        if not self.figure:
            out.stack(S)
        return out

    def step(self, v: np.ndarray, k: Kernel) -> np.ndarray:
        """One wound (or one mortal wound) of kernel ``k`` applied to every slice of ``v``."""
        shape = v.shape
        S = shape[0]
        kind, t = self._transition(k)
        if kind == "dense":
            return (t @ v.reshape(S, -1)).reshape(shape)
        flat = v.reshape(S, shape[1], -1)
        if (
            kind == "offsets"
            and t.gather is not None
            and t.gather[0].size * flat[0].size <= (_Offsets.GATHERED)
        ):
            src, coef = t.gather
            terms = np.take(flat, src, axis=0)
            terms *= coef
            return terms.sum(axis=0, initial=0.0).reshape(shape)
        out = np.zeros_like(flat)
        if kind == "offsets":
            X = shape[1]
            for jump, d, lo, hi, c in t:
                if d >= X:
                    continue
                cc = c[:, :, None] if c.ndim == 2 else c[:, None, None]
                out[lo + jump : hi + jump, d:] += cc * flat[lo:hi, : X - d]
            return out.reshape(shape)
        if self.figure and not self.spectral:  # the damage total moves by the points
            X = shape[1]
            for d, (src, p, starts, uniq) in t:
                if d < X:
                    vals = flat[src, : X - d, :] * p[:, None, None]
                    out[uniq, d:, :] += np.add.reduceat(vals, starts, axis=0)
            return out.reshape(shape)
        src, coef, starts, uniq = t
        out[uniq] = np.add.reduceat(flat[src] * coef[:, :, None], starts, axis=0)
        return out.reshape(shape)


class _Offsets(list):
    """A kernel's offsets (:meth:`_Chain._offsets`: per distinct jump, (jump, points, first and
    last state that moves so, the factor per state)) and, in the state pass, the same as one
    gather (``gather``: the source state and factor of each jump and state, (J, S), the factor
    0 where the jump does not reach the state), so that a step over a small array is one
    gather, one product and one sum over the jumps instead of a few numpy calls per jump. The
    sum adds the jumps in the same order from 0, as the loop does (each state's terms in the
    same order, the zeros exactly nothing): the same figures."""

    GATHERED = 1 << 16  # a step gathers at most this many elements (jumps x states x rest)

    gather: tuple[np.ndarray, np.ndarray] | None = None

    def stack(self, S: int) -> None:
        """Build :attr:`gather` for a space of ``S`` states."""
        src = np.zeros((len(self), S), dtype=np.int64)
        coef = np.zeros((len(self), S))
        for j, (jump, _, lo, hi, c) in enumerate(self):
            src[j, lo + jump : hi + jump] = np.arange(lo, hi)
            coef[j, lo + jump : hi + jump] = c
        self.gather = (src, coef[:, :, None, None])


def _per_state(v: np.ndarray) -> np.ndarray:
    """``v`` summed over every axis but the states' (the first); with one entry per state,
    0 + that entry, as numpy's sum of one term is (a -0.0 becomes 0.0), in one call."""
    flat = v.reshape(v.shape[0], -1)
    return flat[:, 0] + 0.0 if flat.shape[1] == 1 else flat.sum(axis=1)


def _total(v: np.ndarray, vec: np.ndarray) -> float:
    return float(vec @ v.reshape(v.shape[0], -1).sum(axis=1))


def _figures(v: np.ndarray, k: Kernel) -> np.ndarray:
    """The kernel's per-state figures (:attr:`Kernel.figures`: the damage figure and the
    points wasted) weighted by the mass of each state of ``v``: an array of 4."""
    return v.reshape(v.shape[0], -1).sum(axis=1).real @ k.figures


def _expectations(k: Kernel) -> np.ndarray:
    """Per state, the expected failed saves of one wound of ``k`` and its figures
    (:attr:`Kernel.figures`): (states, 5), kept with the kernel (read only), so that a
    distribution over states gives all five in one product."""
    out = k.forms.get("expect")
    if out is None:
        out = k.forms["expect"] = np.column_stack([k.fail, k.figures])
        out.flags.writeable = False
    return out


def _scalar_weights(counts: _Counts) -> tuple[np.ndarray, np.ndarray]:
    """(P(n) for each count the state pass deposits, P(N > n) for each it carries on from)
    of one bracket's counts (:meth:`_Pass._count_scalar`), kept with a weapon's kept counts."""
    p2 = counts.joints[None][0]
    if not counts.share and not p2.flags.writeable:  # a weapon's kept counts (memo.py)
        return memo.of_kept(_kept_weights, p2)
    return _weights_of(p2, counts.tails(None))


def _weights_of(p2: np.ndarray, tails: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    live = int(np.count_nonzero(tails > TAIL_EPS))  # tails never increase
    n_dep = min(live + 1, p2.shape[0])
    return p2[:n_dep, 0].copy(), tails[: min(live, n_dep)].copy()


def _kept_weights(p2: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    p, t = _weights_of(p2, memo.tails(p2))
    p.flags.writeable = t.flags.writeable = False
    return p, t


def _orbit(chain: _Chain, k: Kernel, n: int) -> tuple[np.ndarray, np.ndarray] | None:
    """The state pass's distributions of the target's states after 0 .. n - 1 wounds of ``k``
    from the unharmed unit (rows of (n, states)) and each one's :func:`_expectations` (n, 5),
    kept with the kernel and extended when more counts are asked for; None when they would
    hold more than ``ORBIT_ELEMENTS`` entries."""
    S = chain.space.size
    if S * n > ORBIT_ELEMENTS:
        return None
    kept = k.forms.get("orbit")
    if kept is not None and len(kept[0]) >= n:
        return kept
    rows = np.zeros((n, S))
    first = 0
    if kept is None:
        rows[0, 0] = 1.0  # the unit unharmed
    else:
        first = len(kept[0]) - 1
        rows[: first + 1] = kept[0]
    kind, t = chain._transition(k)
    if kind == "dense":  # Chain.step's product, row by row in place
        for i in range(first + 1, n):
            np.dot(t, rows[i - 1], out=rows[i])
    else:
        cur = rows[first].reshape(S, 1)
        for i in range(first + 1, n):
            cur = chain.step(cur, k)
            rows[i] = cur[:, 0]
    per_row = rows @ _expectations(k)
    rows.flags.writeable = per_row.flags.writeable = False
    k.forms["orbit"] = (rows, per_row)
    return rows, per_row


def _split(fig) -> tuple[float, dict[str, float]]:
    """A figures array (:func:`_figures`, or 0.0 where nothing was counted) as the damage
    figure and the wasted points by :data:`~.outcome.WASTE_FIELDS`."""
    # each figure + 0.0, as adding it to zeros did (a -0.0 becomes 0.0)
    f = [x + 0.0 for x in fig.tolist()] if isinstance(fig, np.ndarray) else [fig + 0.0] * 4
    return f[0], dict(zip(WASTE_FIELDS, f[1:], strict=True))


# ---------------------------------------------------------------------------------------------
# Setting up one activation


class _Weapon(Struct):
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


def _weapon_parts(
    w: AttackProfile,
    space: AllocationSpace,
    n_models: int,
    brackets: tuple[int | None, ...],
    selected: int,
    n_orders: int,
    lowest_first: bool,
) -> _Weapon:
    """:meth:`_Setup._weapon`: the wound counts of ``w`` per Blast bracket (``selected``
    models when selected without one), its kernels in ``space`` under each of its
    ``n_orders`` orders, and its save rolls' faces where they are resolved lowest first and
    the models it reaches save differently.

    Raises:
        ExactUnsupported: its wound counts would take more than MAX_WORK operations against
            ``n_models`` models.
    """
    keyed = memo.counts_of(w)
    cost = memo.cost(keyed, n_models)
    if cost > MAX_WORK:
        raise ExactUnsupported(
            f"{w.name} makes too many attacks to combine exactly (about {cost:.1g} operations)"
        )
    joints = {}
    for b in brackets:
        joints[b] = memo.joint(keyed, selected if b is None else b * 5, _trim_tails)
    orders = range(n_orders)
    by_faces = lowest_first and saves_differ(space, w.vs, routing_of(w, False))
    return _Weapon(
        w,
        joints,
        [memo.kernel(space, w, False, o) for o in orders],
        [memo.kernel(space, w, True, o) for o in orders] if w.devastating else None,
        [memo.faces(space, w, o) for o in orders] if by_faces else None,
    )


class _Setup:
    """The state space, kernels and wound distributions of one activation.

    Raises:
        ExactUnsupported: the selection is too large to resolve exactly, or ``start`` does not
            fit the target.
    """

    def __init__(self, act: Activation, max_elements: int, start: TargetStates | None):
        self.act = act
        once = [w.name for w in act.weapons if w.reroll_one_damage]
        if once:
            raise ExactUnsupported(
                f"{once[0]}: a single Damage re-roll is sampled, not computed exactly"
            )
        fixed = [w.name for w in act.weapons if w.substituted and w.substituted.damage]
        if fixed:
            raise ExactUnsupported(
                f"{fixed[0]}: a substituted Damage roll is sampled, not computed exactly"
            )
        orders = None
        if act.policy is not None:
            orders = act.policy.orders
        elif act.best_allocation:
            orders = legal_orders(act.target)
        try:
            self.space = space = space_for(act.target, orders, start)
            self.start = space.states_of(start, on_track=True)  # space_for checked the track
        except ValueError as exc:
            raise ExactUnsupported(str(exc)) from None
        if start is not None and start.weights is None:
            raise ExactUnsupported("the exact engine starts from a distribution (weights)")
        self.start_p = _ONE if start is None or start.weights is None else start.weights
        self.n_models = n_models = act.target.models
        self.n_orders = len(space.orders)  # preference orders, then those declared from them
        self.n_given = space.n_given
        self.before = [memo.spill(space, src.fnp) for src in act.before]
        # models alive when the unit is selected (Blast): known, or per Blast bracket
        alive = (
            {n_models}  # the unit unharmed: state 0, no model destroyed
            if start is None
            else set((n_models - space.destroyed[self.start]).tolist())
        )
        blast = any(w.blast for w in act.weapons)
        self.blast_axis = blast and (bool(act.before) or len({a // 5 for a in alive}) > 1)
        self.selected = max(alive)
        self.brackets = list(range(n_models // 5 + 1)) if self.blast_axis else [None]
        self.weapons = [self._weapon(w) for w in act.weapons]
        self._lumped: _Setup | None = None
        self._check_budget(max_elements)

    def _weapon(self, w: AttackProfile) -> _Weapon:
        """The weapon's wound counts and kernels (each built once per process, memo.py), put
        together once per profile object and what else they read of the setup (a batch's
        candidates and runs resolve the same kept profiles against the same space again and
        again; a _Weapon is never changed)."""
        return memo.of_objects(
            _weapon_parts,
            (w, self.space),
            (
                self.n_models,
                tuple(self.brackets),
                self.selected,
                self.n_orders,
                self.act.lowest_first,
            ),
        )

    def kernels(self) -> list[Kernel]:
        """Every kernel the passes may apply."""
        out = list(self.before)
        for w in self.weapons:
            out += [k for k in w.normal + (w.dev or []) if k is not None]
            for fc in w.faces or []:
                out += [k for k in fc.kernels if k is not None] if fc is not None else []
        return out

    def figure_max(self) -> int:
        """The largest damage figure the activation can reach."""
        total = sum(len(src.count) - 1 for src in self.act.before)
        for w in self.weapons:
            total += (w.n_max - 1) * (w.normal[0].probs.shape[1] - 1)
            if w.dev is not None:
                total += (w.m_max - 1) * (w.dev[0].probs.shape[1] - 1)
        return total

    def _check_budget(self, max_elements: int) -> None:
        """Refuse a state pass whose estimate (:meth:`estimate`, one allocation order per
        weapon) exceeds ``work.STATE_SECONDS`` or whose largest array exceeds
        ``max_elements`` probabilities; :func:`run_exact` checks again where the defender
        chooses several orders for one weapon."""
        self.max_elements = max_elements
        policy = self.act.policy
        tables = None if policy is None else list(policy.tables)
        self.chain = _Chain(self.space)  # the state pass's (its forms chosen here)
        self.refuse_if_over(self.estimate(self.chain, tables))

    def refuse_if_over(self, est: _Estimate) -> None:
        """Raise :class:`ExactUnsupported` when ``est`` is over the state pass's budget."""
        big = est.largest > self.max_elements
        slow = est.seconds > work.STATE_SECONDS
        if big or slow:
            over = []  # each limit crossed, with the limit
            if slow:
                over.append(
                    f"an estimated {work.seconds_text(est.seconds)}, over {work.STATE_SECONDS:g} s"
                )
            if big:
                over.append(
                    f"arrays of {est.largest:,.0f} probabilities, over {self.max_elements:,}"
                )
            raise ExactUnsupported(
                f"the selection is too large to resolve exactly ({self.space.size:,} target "
                f"states; {' and '.join(over)})"
            )

    def figure_independent(self) -> bool:
        """Whether no wound's damage depends on the target's state (a plain convolution)."""
        return not self.blast_axis and all(k.state_independent() for k in self.kernels())

    def estimate(self, chain: _Chain, tables: list | None) -> _Estimate:
        """The pass ``chain`` makes (state or figure pass), estimated from the shapes it works
        on (:mod:`~wh40k_calc.engine.work`): the mortal wounds before the attacks; per weapon,
        the defender's choice (state pass), and for each order it uses (``tables``: the state
        pass's, None: one order) and each behaviour its declared orders give, the resolution
        of its counts (one at a time, or lowest first); then the pending Devastating Wounds
        mortal wounds. Also the largest array."""
        est = _Estimate()
        S = self.space.size
        rest: float = chain.bins * (len(self.brackets) if self.blast_axis else 1)
        for src, k in zip(self.act.before, self.before, strict=True):
            per = chain.step_ns(k, rest) + work.elements_ns(2 * S * rest, chain.spectral)
            est.add((len(src.count) - 1) * per)
        pending = []
        for j, w in enumerate(self.weapons):
            table = tables[j] if tables is not None else None
            used = [0] if table is None else _orders_used(w, table)
            if not chain.figure and tables is None and self.n_given > 1 and not self.act.policy:
                est.add(self._defender_ns(chain, w))
            reps, _ = _dev_groups(w, used, self.space)
            folds = (
                chain.spectral
                and w.dev is not None
                and all(w.dev[o].state_independent() for o in used)
            )
            M = w.m_max if w.dev is not None and not folds else 0
            for o in used:
                joints = w.joints if table is None else _masked(w.joints, table, o)
                B = len(self.brackets) if self.blast_axis else 1
                total = _totals(joints, B) if w.faces is not None else None
                for eo in self.parts(w, o, first=j == 0):
                    self._resolve_cost(est, chain, w, eo, total, rest, M, joints)
            if M:
                rest *= M * len(reps)
                pending.append((w, reps))
            est.array(S * rest)
        for w, reps in pending:
            assert w.dev is not None  # pending: the weapon has Devastating Wounds
            per = rest / (w.m_max * len(reps))
            step = chain.step_ns(w.dev[reps[0]], per) + work.elements_ns(3 * S * per)
            est.add(len(reps) * w.m_max * step)
            rest = per
        return est

    def parts(self, w: _Weapon, o: int, first: bool) -> list[int]:
        """The declared orders a weapon's counts are resolved under when the defender prefers
        ``o``, one per behaviour (orders giving the same kernels are one part): from the
        states the weapon can start in (the first weapon: the start states, unless mortal
        wounds came before; the others: every state)."""
        if not self.space.product:  # one track: every state declares order 0
            return [0]
        states = self.start if first and not self.act.before else np.arange(self.space.size)
        eos = distinct(self.space.declared(states, o))
        reps: list[int] = []
        for e in eos:
            if not any(_same_behaviour(w, e, r, self.space) for r in reps):
                reps.append(e)
        return reps

    def _resolve_cost(
        self,
        est: _Estimate,
        chain: _Chain,
        w: _Weapon,
        eo: int,
        total: np.ndarray | None,
        rest: float,
        M: int,
        joints: dict,
    ) -> None:
        """Add one part's resolution (:meth:`_Pass.count` or :meth:`_Pass.lowest_first`);
        ``total``: :func:`_totals` of ``joints`` (read for save rolls lowest first only)."""
        S, cx = self.space.size, chain.spectral
        n = max(p.shape[0] for p, _ in joints.values())  # the rows of _totals
        slots = max(M, 1) + (0 if chain.figure else 1)  # the state pass's expectation slot
        if w.faces is None:
            scalar = not chain.figure and not M and not self.blast_axis
            per = chain.step_ns(w.normal[eo], 2 * rest if scalar else rest)
            est.add(n * (per + work.elements_ns(S * rest * (2 * slots + 2), cx)))
            return
        fc = w.faces[eo]
        assert total is not None
        unit = S * chain.bins * (len(self.brackets) if self.blast_axis else 1)
        for _, probs in fc.classes:
            classes = lowest.fail_classes(fc, probs)
            n1, keep = lowest.steps(total, classes)
            _lowest_cost(est, chain, classes, n, n1, keep, slots, rest)
            held = _working(n, slots, len(classes))  # chunked over the pending counts
            est.array(min(S * rest * held, max(CHUNK_ELEMENTS, unit * held)))

    def _defender_ns(self, chain: _Chain, w: _Weapon) -> float:
        """The defender's choice for one weapon (:func:`~.defender.choose_orders`): per order,
        the mortal wounds pulled back, the start distribution pushed through every count."""
        S, n, m = self.space.size, w.n_max, w.m_max
        B = len(self.brackets) if self.blast_axis else 1
        est = _Estimate()
        for o in range(self.n_given):
            if w.dev is not None:
                est.add(m * work.elements_ns(6 * S * w.dev[o].probs.shape[1]))
            for eo in self.parts(w, o, first=False):
                if w.faces is None:
                    est.add(n * (chain.step_ns(w.normal[eo], B) + work.elements_ns(S * B)))
                    continue
                for _, probs in w.faces[eo].classes:
                    classes = lowest.fail_classes(w.faces[eo], probs)
                    _lowest_cost(est, chain, classes, n, n, n, n, B)
            est.add(work.elements_ns(2 * S * n * m * B))
        return est.seconds * 1e9

    def lumped(self, tables: list) -> _Setup:
        """This setup on the classes of states the damage figure cannot tell apart, for the
        orders ``tables`` uses (the state pass's)."""
        if self._lumped is None:
            self._lumped = _lumped(self, tables)
        return self._lumped

    def initial(self, chain: _Chain) -> np.ndarray:
        """The chain array before anything happens: the start distribution (default: the unit
        unharmed), with no damage yet (a total of 0; every Fourier bin of it is 1)."""
        if self.start_p is _ONE and not chain.spectral:  # the unit unharmed: state 0, total 0
            out = np.zeros((self.space.size, chain.bins))
            out[0, 0] = 1.0
            return out
        v = np.zeros(self.space.size, dtype=complex if chain.spectral else float)
        if self.start_p is _ONE:  # the unit unharmed: all its mass in state 0
            v[0] = 1.0
        else:
            np.add.at(v, self.start, self.start_p)
        if chain.spectral:
            return np.repeat(v[:, None], chain.bins, axis=1)
        out = np.zeros((self.space.size, chain.bins), dtype=v.dtype)
        out[:, 0] = v
        return out


class _Estimate(Struct):
    """A pass's estimated seconds (on the development machine) and largest array."""

    seconds: float = 0.0
    largest: float = 0.0

    def add(self, ns: float) -> None:
        self.seconds += ns * 1e-9

    def array(self, elements: float) -> None:
        self.largest = max(self.largest, elements)


def _lowest_cost(
    est: _Estimate, chain: _Chain, classes: list, n: int, n1: int, keep: int, slots: int, rest
) -> None:
    """Add one :func:`~wh40k_calc.engine.lowest.resolve` call on S x ``rest`` elements (see
    there): the first class's powers, the matrix products over the counts, the middle classes'
    sweeps and Horner's scheme for the last class."""
    S, cx = chain.space.size, chain.spectral
    size = S * rest
    if not classes:
        est.add(work.elements_ns(size * slots, cx))
        return
    est.add(max(0, n1 - 1) * chain.step_ns(classes[0].kernel, rest))
    est.add(work.elements_ns(2 * n1 * size, cx))
    if len(classes) == 1:
        est.add(work.product_ns(n1 * slots * size, cx))
        return
    per = chain.step_ns(classes[-1].kernel, slots * rest) + work.elements_ns(2 * slots * size, cx)
    if len(classes) == 2:
        est.add(keep * (per + work.product_ns(n1 * slots * size, cx)))
        return
    est.add(work.product_ns(n1 * n * slots * size, cx))
    for mid in classes[1:-1]:
        for c in range(n):
            left = (n - c) * slots
            est.add(chain.step_ns(mid.kernel, left * rest) + work.elements_ns(3 * left * size, cx))
    est.add(keep * (per + work.product_ns(n * slots * size, cx)))


def _totals(joints: dict, B: int) -> np.ndarray:
    """P_b(n) per count n and Blast bracket b (N, B): what the counts' cut-offs read."""
    N = max(p.shape[0] for p, _ in joints.values())
    total = np.zeros((N, B))
    for b, (p2, _) in joints.items():
        total[: p2.shape[0], 0 if b is None else b] = p2.sum(axis=1)
    return total


def _trim_tails(p2: np.ndarray) -> np.ndarray:
    """P[n, m] without the counts beyond which less than TAIL_EPS of the mass lies (at most
    1e-15 left out: the state distribution is renormalised at the end)."""
    rows = np.cumsum(p2.sum(axis=1)[::-1])[::-1] >= TAIL_EPS
    cols = np.cumsum(p2.sum(axis=0)[::-1])[::-1] >= TAIL_EPS
    n = max(1, int(np.flatnonzero(rows)[-1]) + 1) if rows.any() else 1
    m = max(1, int(np.flatnonzero(cols)[-1]) + 1) if cols.any() else 1
    return p2[:n, :m]


# ---------------------------------------------------------------------------------------------
# Counting a weapon's wounds into the chain


class _Counts(Struct):
    """A weapon's wound counts as one phase deposits them, for one allocation order: per
    bracket P_b[n, m]; the Critical Wounds m go to the pending ``axis`` at slot m * K + k (k of
    the K orders used), or, in the figure pass when their mortal wounds do the same to every
    state (``fold``: Fourier bins of one mortal wound's points), straight into the figure."""

    joints: dict
    axis: int | None
    slot: tuple[int, int]
    fold: np.ndarray | None = None
    share: bool = False  # the joints are this order's share of the counts (tails from their sum)

    @property
    def n_max(self) -> int:
        return max(p.shape[0] for p, _ in self.joints.values())

    def coefficients(self, b, bins: int) -> np.ndarray:
        """Per count n, the factor on the figure axis: sum_m P_b(n, m) U^m (folded), or
        P_b(n, 0) (no pending Critical Wounds): array (n, bins)."""
        p2 = self.joints[b][0]
        if self.fold is None:
            return np.repeat(p2[:, :1], bins, axis=1)
        powers = np.ones((p2.shape[1], len(self.fold)), dtype=complex)  # U^m per bin
        if p2.shape[1] > 1:
            powers[1:] = np.cumprod(np.broadcast_to(self.fold, powers[1:].shape), axis=0)
        return p2 @ powers

    def tails(self, b) -> np.ndarray:
        """P(N > n) of this share of the counts (read only)."""
        p2 = self.joints[b][0]
        if not self.share and not p2.flags.writeable:  # a weapon's kept counts (memo.py)
            return memo.tails(p2)
        return (float(p2.sum()) if self.share else 1.0) - np.cumsum(p2.sum(axis=1))


def _put(acc: np.ndarray, axis: int | None, slot, bracket, values: np.ndarray) -> None:
    idx: list = [slice(None)] * acc.ndim
    if axis is not None:
        idx[axis] = slot
    if bracket is not None:
        idx[-1] = bracket
    acc[tuple(idx)] += values


def _deposit(
    acc: np.ndarray, counts: _Counts, src: np.ndarray, n: int, b, coef: np.ndarray | None
) -> None:
    """Add ``src`` (the array after n wounds) weighted by the counts' P(n, ...) into ``acc``."""
    if coef is not None:  # folded (or no Critical Wounds): a factor on the figure axis
        shape = (1, -1) + (1,) * (src.ndim - 2)
        _put(acc, None, None, b, src * coef[n].reshape(shape))
        return
    row = counts.joints[b][0][n]
    k, K = counts.slot
    if counts.axis is None:  # nothing pending: one count of Critical Wounds (none)
        _put(acc, None, None, b, row[0] * src)
        return
    dims = [1] * src.ndim
    dims.insert(counts.axis, len(row))
    vals = np.expand_dims(src, counts.axis) * row.reshape(dims)
    _put(acc, counts.axis, slice(k, len(row) * K, K), b, vals)


def _deposit_slots(acc: np.ndarray, counts: _Counts, y: np.ndarray, p0: int = 0) -> None:
    """Add ``y`` (S, F, P, slots, B: one slot per pending count m, or one; the pending counts
    so far from ``p0`` on) into ``acc``: slot m to the counts' pending axis at m * K + k, or
    (one slot) straight in."""
    S, F, P, slots, B = y.shape
    view = acc.reshape(S, F, -1, 1 if counts.axis is None else acc.shape[counts.axis], B)
    if counts.axis is None:
        view[:, :, p0 : p0 + P, 0] += y[:, :, :, 0]
        return
    k, K = counts.slot
    view[:, :, p0 : p0 + P, k::K][:, :, :, :slots] += y


def _working(n: int, slots: int, classes: int) -> int:
    """Elements per state (and figure bin and bracket) a lowest-first resolution holds at
    once, per pending count so far: the first class's powers, the counts left between the
    first and the last class (three classes or more), Horner's scheme."""
    return n + 3 * slots + (n * slots if classes >= 3 else 0)


# ---------------------------------------------------------------------------------------------
# Phases


class _Pass:
    """One pass over the phases: the state pass (``chain.figure`` False: expectations, the
    defender's orders) or the figure pass (the damage distribution, following the orders the
    state pass chose)."""

    def __init__(self, setup: _Setup, chain: _Chain, tables: list | None = None):
        self.setup = setup
        self.chain = chain
        self.tables = tables  # the state pass's orders (figure pass), else chosen here
        self.expect = not chain.figure
        self.unharmed: np.ndarray | None = None  # the state pass's start when the unit is unharmed

    def start(self) -> np.ndarray:
        """The chain array before anything happens (:meth:`_Setup.initial`), remembered as
        :attr:`unharmed` in the state pass when it is the unharmed unit."""
        v = self.setup.initial(self.chain)
        if self.expect and self.setup.start_p is _ONE:
            self.unharmed = v
        return v

    # ---- mortal wounds before the attacks ------------------------------------------------

    def before(self, v: np.ndarray) -> tuple[np.ndarray, list[WeaponResult]]:
        """Mortal wounds inflicted before the attacks: they spill over, one at a time."""
        rows = []
        for src, k in zip(self.setup.act.before, self.setup.before, strict=True):
            acc = np.zeros_like(v)
            cur = v
            fig = 0.0
            tail = 1.0 - np.cumsum(src.count)
            for c, p in enumerate(src.count):
                if p:
                    acc += p * cur
                if c + 1 < len(src.count):
                    if self.expect:
                        fig = fig + tail[c] * _figures(cur, k)
                    cur = self.chain.step(cur, k)
            v = acc
            damage, wasted = _split(fig)
            rows.append(WeaponResult.mortal_source(src.name, mean(src.count), damage))
            rows[-1].wasted.update(wasted)
        return v, rows

    def split_brackets(self, v: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        """With Blast after mortal wounds or from a damaged start, a last axis for the number
        of models (in fives) when the unit is selected as the target; each bracket's
        probability."""
        setup = self.setup
        if not setup.blast_axis:
            return v, None
        alive = setup.n_models - setup.space.destroyed
        split = np.zeros((*v.shape, len(setup.brackets)), dtype=v.dtype)
        for b in setup.brackets:
            mask = (alive // 5) == b
            split[mask, ..., b] = v[mask]
        weights = split.reshape(split.shape[0], split.shape[1], -1, len(setup.brackets))
        return split, weights[:, 0].real.sum(axis=(0, 1))

    def masses(self, v: np.ndarray) -> dict:
        """Per Blast bracket, the distribution over target states (other axes summed)."""
        setup = self.setup
        S = setup.space.size
        if not setup.blast_axis:
            return {None: v.reshape(S, -1).sum(axis=1)}
        flat = v.reshape(S, -1, len(setup.brackets)).sum(axis=1)
        return {b: flat[:, b] for b in setup.brackets}

    # ---- one weapon's normal wounds --------------------------------------------------------

    def orders_for(self, j: int, w: _Weapon, v: np.ndarray):
        """The defender's order per (n, m) for weapon ``j`` and P(n, m) (None: one order for
        every count)."""
        setup = self.setup
        if self.tables is not None:
            return self.tables[j], None
        if setup.n_given == 1:
            return None, None
        if setup.act.policy is not None:
            probs = setup.act.policy.probabilities
            return setup.act.policy.tables[j], (probs[j] if j < len(probs) else None)
        space = setup.space
        return choose_orders(
            space, w.joints, self.masses(v), w.normal, w.faces, w.dev, self.chain.step
        )

    def weapon(
        self, w: _Weapon, v: np.ndarray, table: np.ndarray | None
    ) -> tuple[np.ndarray, float, np.ndarray | float, list[int], bool]:
        """Apply one weapon's normal wounds to ``v``, each count in the allocation order
        ``table`` gives (None: order 0), a group with a wounded model declared first. Its
        devastating Critical Wounds go on a new pending axis, or fold into the figure. Returns
        the new array, the expected failed saves and damage figure, the orders used and
        whether the Critical Wounds were folded."""
        setup = self.setup
        used = [0] if table is None else _orders_used(w, table)
        K = len(used)
        reps, group = _dev_groups(w, used, setup.space)
        fold = None
        if (
            self.chain.spectral
            and w.dev is not None
            and all(w.dev[o].state_independent() for o in used)
        ):
            fold = _fourier(w.dev[used[0]].probs[0], self.chain)
        pending = w.dev is not None and fold is None
        axis = PENDING + _pending_axes(setup, v) if pending else None
        shape = list(v.shape)
        if axis is not None:
            shape.insert(axis, w.m_max * len(reps))
        acc = np.zeros(shape, dtype=v.dtype)
        fs = 0.0
        fig: np.ndarray | float = 0.0
        S = setup.space.size
        product = setup.space.product
        mass = np.abs(v.reshape(S, -1)).sum(axis=1) > 0 if product else None
        for k, o in enumerate(used):
            joints = w.joints if table is None else _masked(w.joints, table, o)
            counts = _Counts(joints, axis, (group[k], len(reps)), fold, share=K > 1)
            declared: np.ndarray | None = None
            eos = [0]  # one track: every state declares order 0 (the chain has mass)
            if product:
                declared = setup.space.declared(np.arange(S), o)
                eos = distinct(declared[mass])  # a wounded group first (05.03)
            for eo in eos:
                if setup.n_orders == 1 or declared is None:  # a track space has one order
                    part = v
                else:
                    part = _only(v, np.asarray(declared == eo))
                if w.faces is not None:
                    a, b = self.lowest_first(part, acc, w.faces[eo], counts)
                else:
                    a, b = self.count(part, acc, w.normal[eo], counts)
                fs, fig = fs + a, fig + b
        return acc, fs, fig, reps, not pending

    def _coefficients(self, counts: _Counts) -> dict:
        """Per bracket, the figure-axis factors of the counts (figure pass, nothing pending),
        else None (the state pass, or Critical Wounds waiting on a pending axis)."""
        if not self.chain.spectral or counts.axis is not None:
            return {b: None for b in counts.joints}
        return {b: counts.coefficients(b, self.chain.bins) for b in counts.joints}

    def count(
        self, v: np.ndarray, acc: np.ndarray, k: Kernel, counts: _Counts
    ) -> tuple[float, np.ndarray | float]:
        """Saves one at a time: for each count n, the array after n wounds, weighted by P(n, m)
        into ``acc``. Returns the expected failed saves and damage figure."""
        if self.expect and counts.axis is None and not self.setup.blast_axis:
            return self._count_scalar(v, acc, k, counts)
        return self._count_loop(v, acc, k, counts)

    def _count_loop(
        self, v: np.ndarray, acc: np.ndarray, k: Kernel, counts: _Counts
    ) -> tuple[float, np.ndarray | float]:
        """:meth:`count`, one count at a time (any pass, pending axes and Blast brackets)."""
        has_sel = self.setup.blast_axis
        coefs = self._coefficients(counts)
        tails = {b: counts.tails(b) for b in counts.joints}
        S = v.shape[0]
        cur = v
        seen = np.zeros(S)  # sum over n of P(N > n) x the state distribution after n wounds
        for n in range(counts.n_max):
            live = False
            for b, (p2, _) in counts.joints.items():
                src = cur[..., b] if has_sel else cur
                if n < p2.shape[0]:
                    _deposit(acc, counts, src, n, b, coefs[b])
                t = tails[b][n] if n < len(tails[b]) else 0.0
                if t > TAIL_EPS:
                    live = True
                    if self.expect:
                        seen += t * src.reshape(S, -1).sum(axis=1)
            if not live:
                break
            cur = self.chain.step(cur, k)
        if not self.expect:
            return 0.0, 0.0
        return float(k.fail @ seen), seen @ k.figures

    def _count_scalar(
        self, v: np.ndarray, acc: np.ndarray, k: Kernel, counts: _Counts
    ) -> tuple[float, np.ndarray | float]:
        """:meth:`count` in the state pass when each count n only scales the array (one Blast
        bracket, no Critical Wounds pending): sum_n P(n) K^n v and the expectations' sum_n
        P(N > n) K^n v. The same counts as the loop: deposits up to the first n whose tail is
        below TAIL_EPS (or the last count), tails before it (:func:`_scalar_weights`).

        From the unharmed unit (``v`` the pass's start, one state) the distributions K^n v
        are the kernel's kept :func:`_orbit` when it is small: two products of a few dozen
        entries. Otherwise both sums by Horner's scheme in one sweep, v x (P(n), P(N > n)) on
        a last axis."""
        p, t = _scalar_weights(counts)
        n_dep = len(p)
        if v is self.unharmed:
            kept = _orbit(self.chain, k, n_dep)
            if kept is not None:
                rows, per_row = kept
                acc[:, 0] += p @ rows[:n_dep]
                e = t @ per_row[: len(t)]
                return float(e[0]), e[1:]
        weights = np.zeros((n_dep, 2))
        weights[:, 0] = p
        weights[: len(t), 1] = t
        terms = v[None, ..., None] * weights.reshape((n_dep,) + (1,) * v.ndim + (2,))
        kind, tr = self.chain._transition(k)
        if kind == "dense":  # Chain.step's dense product, on the terms as (n, S, rest)
            flat = terms.reshape(n_dep, v.shape[0], -1)
            y2 = flat[-1]
            if n_dep > 1:  # y <- terms[n] + t @ y, the product and the sum into two buffers
                prod, y2 = np.empty_like(y2), y2.copy()
                for n in range(n_dep - 2, -1, -1):
                    np.dot(tr, y2, out=prod)  # the same product as t @ y2 (BLAS), kept
                    np.add(flat[n], prod, out=y2)
            y = y2.reshape(terms.shape[1:])
        else:
            y = terms[-1]
            for n in range(n_dep - 2, -1, -1):
                y = terms[n] + self.chain.step(y, k)
        acc += y[..., 0]
        e = _per_state(y[..., 1]) @ _expectations(k)
        return float(e[0]), e[1:]

    def lowest_first(
        self, v: np.ndarray, acc: np.ndarray, faces: Faces, counts: _Counts
    ) -> tuple[float, np.ndarray | float]:
        """Save rolls resolved lowest first (05.04 Inflict Damage): the n dice are rolled
        together and each passes or fails against the group current when it is resolved
        (:mod:`~wh40k_calc.engine.lowest`), per class of start states whose dice stand at the
        same face probabilities. Deposits into ``acc`` as :meth:`count` does and returns what
        it does."""
        S, F = v.shape[:2]
        B = len(self.setup.brackets) if self.setup.blast_axis else 1
        v4 = v.reshape(S, F, -1, B)
        P = v4.shape[2]
        g, total = self._weights(counts, B)
        fs = 0.0
        fig: np.ndarray | float = 0.0
        for mask, probs in faces.classes:
            if not mask.any():
                continue
            classes = lowest.fail_classes(faces, probs)
            # the pending counts so far are independent slices: a few at a time bounds memory
            per = S * F * B * _working(len(g), g.shape[1] + self.expect, len(classes))
            chunk = max(1, min(P, CHUNK_ELEMENTS // per))
            for p0 in range(0, P, chunk):
                part = v4[:, :, p0 : p0 + chunk]
                part = part if mask.all() else part * mask.reshape(-1, 1, 1, 1)
                res = lowest.resolve(part, g, total, classes, self.chain.step, self.expect)
                _deposit_slots(acc, counts, res.y, p0)
                fs, fig = fs + res.failed, fig + res.figure
        return fs, fig

    def _weights(self, counts: _Counts, B: int) -> tuple[np.ndarray, np.ndarray]:
        """The counts as weights per output slot (:func:`~wh40k_calc.engine.lowest.resolve`):
        g[n, m, f, b] = P_b(n, m) into pending slot m, or the Fourier factor of P_b(n, .) with
        the folded mortal wounds (figure pass), or P_b(n, 0) (nothing pending); and P_b(n)."""
        N = counts.n_max
        coefs = self._coefficients(counts) if counts.fold is not None else {}
        pending = counts.axis is not None
        M = max(p.shape[1] for p, _ in counts.joints.values()) if pending else 1
        F = self.chain.bins if coefs else 1
        g = np.zeros((N, M, F, B), dtype=complex if coefs else float)
        total = _totals(counts.joints, B)
        for b, (p2, _) in counts.joints.items():
            j = 0 if b is None else b
            n = p2.shape[0]
            if coefs:
                g[:n, 0, :, j] = coefs[b]
            elif pending:
                g[:n, : p2.shape[1], 0, j] = p2
            else:
                g[:n, 0, 0, j] = p2[:, 0]
        return g, total

    # ---- Devastating Wounds' mortal wounds ---------------------------------------------------

    def devastating(
        self, v: np.ndarray, w: _Weapon, used: list[int]
    ) -> tuple[np.ndarray, float, np.ndarray | float]:
        """Inflict one weapon's pending devastating Critical Wounds (no spill-over), each in
        the order the defender chose for it (``used``: one order per kind of mortal wound the
        pending axis keeps apart, :func:`_dev_groups`), and drop its pending axis (the first
        one left): for each order, Horner's scheme over the count m (apply one, add those with
        one fewer left) takes one step per pending count."""
        K = len(used)
        assert w.dev is not None
        total = None
        mw = 0.0
        fig: np.ndarray | float = 0.0
        for k, o in enumerate(used):
            z = np.take(v, np.arange(k, v.shape[PENDING], K), axis=PENDING)
            kern = w.dev[o]
            size = z.shape[PENDING]
            cur = np.take(z, size - 1, axis=PENDING)
            for m in range(size - 2, -1, -1):
                if self.expect:
                    mw += _total(cur, kern.mortal)
                    fig = fig + _figures(cur, kern)
                cur = self.chain.step(cur, kern) + np.take(z, m, axis=PENDING)
            total = cur if total is None else total + cur
        assert total is not None
        return total, mw, fig


def _fourier(pmf: np.ndarray, chain: _Chain) -> np.ndarray:
    """Fourier bins of a distribution of points (index = points)."""
    return np.fft.rfft(pmf, n=chain.length)


def _only(v: np.ndarray, mask: np.ndarray) -> np.ndarray:
    return v * mask.reshape((-1,) + (1,) * (v.ndim - 1))


def _pending_axes(setup: _Setup, v: np.ndarray) -> int:
    return v.ndim - PENDING - (1 if setup.blast_axis else 0)


def _dev_groups(w: _Weapon, used: list[int], space) -> tuple[list[int], list[int]]:
    """The orders whose Devastating Wounds mortal wounds the pending axis must keep apart
    (one per distinct kernel: where two orders send a mortal wound to the same place with the
    same points, their pending counts share slots), and the group of each order of ``used``."""
    if w.dev is None:
        return [used[0]], [0] * len(used)
    reps: list[int] = []
    group = []
    for o in used:
        same = [i for i, r in enumerate(reps) if _same_moves(w.dev[r], w.dev[o], space)]
        if not same:
            reps.append(o)
        group.append(same[0] if same else len(reps) - 1)
    return reps, group


def _same_moves(a: Kernel, b: Kernel, space) -> bool:
    """Whether two kernels move every state alike (same points, same next states) and count
    the same mortal wounds."""
    if a is b:
        return True
    if not (np.array_equal(a.probs, b.probs) and np.array_equal(a.mortal, b.mortal)):
        return False
    return all(
        da == db and np.array_equal(na, nb)
        for (da, na), (db, nb) in zip(a.targets(space), b.targets(space), strict=True)
    )


def _orders_used(w: _Weapon, table: np.ndarray) -> list[int]:
    used: set[int] = set()
    for p2, _ in w.joints.values():
        t = table[: p2.shape[0], : p2.shape[1]]
        used.update(distinct(t[p2 > 0]))
    return sorted(used) or [0]


def _masked(joints: dict, table: np.ndarray, order: int) -> dict:
    return {
        b: (p2 * (table[: p2.shape[0], : p2.shape[1]] == order), meta)
        for b, (p2, meta) in joints.items()
    }


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
        the distribution of the target's state after the activation (``final_states``). The
        state distribution is renormalised to sum to 1 (the mass a loop's 1e-15 tail cut and
        rounding leave out, well below 1e-12, is spread proportionally), so expectations stay
        within the unit (no more models destroyed than it has). The damage distribution is
        computed when first read.

    Raises:
        ExactUnsupported: the selection is too large to resolve exactly, or ``start`` does
            not fit the target.
    """
    setup = _Setup(act, max_elements, start if start is not None else act.start)
    state = _Pass(setup, setup.chain)
    v, rows = state.before(state.start())
    v, bracket_w = state.split_brackets(v)
    expected, tables, weights, used_by, figs = [], [], [], [], []
    for j, w in enumerate(setup.weapons):
        table, p = state.orders_for(j, w, v)
        tables.append(table)
        weights.append(p)
        if table is not None and act.policy is None and len(_orders_used(w, table)) > 1:
            # the defender switches orders with the counts: the estimate grows
            rest = [None] * (len(setup.weapons) - j - 1)
            setup.refuse_if_over(setup.estimate(state.chain, tables + rest))
        v, fs, fig, used, _ = state.weapon(w, v, table)
        used_by.append(used)
        expected.append({**_counted(w, bracket_w), "failed_saves": fs, "mortal_wounds": 0.0})
        figs.append(fig)
    for j, w in enumerate(setup.weapons):
        if w.dev is not None:
            v, mw, fig = state.devastating(v, w, used_by[j])
            expected[j]["mortal_wounds"] = mw
            figs[j] = figs[j] + fig
    for aw, e, fig in zip(act.weapons, expected, figs, strict=True):
        e["damage"], wasted = _split(fig)
        rows.append(WeaponResult(aw.name, aw.models, e, wasted=wasted))
    state_p = _per_state(v)
    out = _read(setup, state_p, rows, _Figure(setup, tables))
    if setup.n_given > 1:
        given = setup.space.orders[: setup.n_given]
        out = out.replaced(policy=OrderPolicy(given, tuple(tables), tuple(weights)))
    return out


def state_estimate(
    act: Activation, start: TargetStates | None = None, max_elements: int = MAX_ELEMENTS
) -> _Estimate:
    """The state pass :func:`run_exact` would make for ``act`` from ``start``, estimated before
    it runs (:mod:`~wh40k_calc.engine.work`; seconds on the development machine, largest array
    in probabilities), with the defender's orders ``act.policy`` gives (else one order per
    weapon, as the admission check).

    Raises:
        ExactUnsupported: as :func:`run_exact` (the selection is over the state pass's budget,
            or ``start`` does not fit the target).
    """
    setup = _Setup(act, max_elements, start if start is not None else act.start)
    policy = act.policy
    return setup.estimate(_Chain(setup.space), None if policy is None else list(policy.tables))


def _counted(w: _Weapon, bracket_w: np.ndarray | None) -> dict[str, float]:
    """Expected attacks, hits and wounds (over the Blast bracket reached when selecting)."""
    if bracket_w is None:
        return dict(next(iter(w.joints.values()))[1])
    return {
        f: sum(bracket_w[b] * w.joints[b][1][f] for b in w.joints)
        for f in ("attacks", "hits", "wounds")
    }


def _read(setup: _Setup, state_p: np.ndarray, rows: list[WeaponResult], figure) -> Outcome:
    """The outcome from the final state distribution (renormalised; see :func:`run_exact`)."""
    space, act = setup.space, setup.act
    n_models = setup.n_models
    wounds = space.total_wounds
    n_chars = len(space.character_dead)
    state_p = np.maximum(state_p, 0.0)  # numpy's clip to (0, None)
    state_p /= np.add.reduce(state_p)  # its sum (as .sum() adds), in place
    md = np.bincount(space.destroyed, weights=state_p, minlength=n_models + 1)
    wl = np.bincount(space.wounds_lost, weights=state_p, minlength=wounds + 1)
    chars = [float(state_p[dead].sum()) for dead in space.character_dead] if n_chars else []
    totals: dict[str, float] = dict.fromkeys(rows[0].expected, 0) if rows else {}
    for r in rows:  # each total from 0, row by row (as sum() adds them)
        e = r.expected
        for f in totals:
            totals[f] += e[f]
    totals["wounds_lost"] = min(float(np.dot(_counts(space.wound_counts, wl), wl)), float(wounds))
    destroyed = float(np.dot(_counts(space.model_counts, md), md))
    totals["models_destroyed"] = min(destroyed, float(n_models))
    return Outcome(
        method="exact",
        weapons=rows,
        expected=totals,
        models_destroyed_distribution=md,
        damage_distribution=figure,
        wounds_lost_distribution=wl,
        characters_destroyed=chars,
        attacker_losses=hazard_losses(act),
        final_states=space.to_states(state_p),
    )


def _counts(kept: np.ndarray, dist: np.ndarray) -> np.ndarray:
    """0, 1, ... as long as ``dist``: ``kept`` (the space's) when it is, else made (the same
    dot product as with ``np.arange``: numpy turns the integers into these floats)."""
    return kept if len(kept) == len(dist) else np.arange(len(dist), dtype=float)


# ---------------------------------------------------------------------------------------------
# The damage figure


class _Figure:
    """The damage figure's distribution, computed when first read (the :class:`Outcome`
    calls it): a compound convolution when no wound's damage depends on the target's state,
    else the figure pass, on the states merged where the figure cannot tell them apart.
    :meth:`affordable` says whether the figure pass is within its own budget (its
    :meth:`estimate` within ``work.FIGURE_SECONDS``, its largest array within
    ``work.FIGURE_ARRAYS`` times the state pass's limit), so that a caller can choose another
    way when it is not (``resolve.py`` then gives the sampler's distribution and says so);
    called anyway, it computes it."""

    def __init__(self, setup: _Setup, tables: list):
        self.setup = setup
        self.tables = tables
        self._plan: tuple[_Setup, _Chain | None, _Estimate] | None = None

    def plan(self) -> tuple[_Setup, _Chain | None, _Estimate]:
        """The setup (merged states or not), the figure pass's chain (None: a plain
        convolution) and its estimate."""
        if self._plan is None:
            setup = self.setup
            if setup.figure_independent():
                self._plan = (setup, None, _Estimate())
                return self._plan
            length = int(setup.figure_max()) + 1
            if setup.space.size > LUMP_STATES:
                setup = setup.lumped(self.tables)
            # Fourier bins when a Devastating Wounds weapon's mortal wounds can fold in at once
            spectral = any(w.dev is not None for w in setup.weapons)
            if spectral:
                length = 1 << max(1, length.bit_length())
            chain = _Chain(setup.space, length, spectral)
            self._plan = (setup, chain, setup.estimate(chain, self.tables))
        return self._plan

    def estimate(self) -> _Estimate:
        """The figure pass's estimated seconds and largest array (complex: counted twice)."""
        _, chain, est = self.plan()
        if chain is not None and chain.spectral:
            return _Estimate(est.seconds, 2 * est.largest)
        return est

    def affordable(self, seconds: float | None = None) -> bool:
        """Whether computing the distribution exactly is within the figure pass's budget:
        ``seconds`` (estimated; None: the whole of ``work.FIGURE_SECONDS``, less where a
        caller shares that budget between several figures) and its largest array."""
        return not self.over_budget(seconds)

    def over_budget(self, seconds: float | None = None) -> list[str]:
        """Each limit of the figure pass's budget its estimate crosses, in words with the
        limit ("an estimated 3.1 s, over 2 s"); empty when it is within the budget.
        ``seconds``: as :meth:`affordable`."""
        est = self.estimate()
        limit = work.FIGURE_ARRAYS * self.setup.max_elements
        budget = work.FIGURE_SECONDS if seconds is None else seconds
        over = []
        if est.seconds > budget:
            over.append(
                f"an estimated {work.seconds_text(est.seconds)}, over {work.seconds_text(budget)}"
            )
        if est.largest > limit:
            over.append(f"arrays of {est.largest:,.0f} probabilities, over {limit:,.0f}")
        return over

    def __call__(self) -> np.ndarray:
        setup, chain, _ = self.plan()
        if chain is None:
            return _independent_figure(setup)
        return _figure_pass(setup, chain, self.tables)


def _figure_pass(setup: _Setup, chain: _Chain, tables: list) -> np.ndarray:
    """The figure pass: the phases again with the damage total on the chain's figure axis
    (its Fourier bins when spectral), following the orders ``tables`` (the state pass's)."""
    fig = _Pass(setup, chain, tables)
    v, _ = fig.before(fig.start())
    v, _ = fig.split_brackets(v)
    used_by, folded = [], []
    for j, w in enumerate(setup.weapons):
        v, _, _, used, done = fig.weapon(w, v, tables[j])
        used_by.append(used)
        folded.append(done)
    for j, w in enumerate(setup.weapons):
        if w.dev is not None and not folded[j]:
            v, _, _ = fig.devastating(v, w, used_by[j])
    total = v.reshape(setup.space.size, fig.chain.bins, -1).sum(axis=(0, 2))
    if not chain.spectral:
        return _trim1(np.clip(total, 0.0, None) / total.sum())
    dist = np.fft.irfft(total, n=chain.length)
    dist[np.abs(dist) < 1e-15] = 0.0  # rounding noise of the transform (about 1e-17)
    dist = np.clip(dist, 0.0, None)
    return _trim1(dist / dist.sum())


class _Classes:
    """The target's states merged into classes (:mod:`~wh40k_calc.engine.lumping`), with what
    the figure pass asks of a space."""

    def __init__(self, space: AllocationSpace, cls: np.ndarray, reps: np.ndarray):
        self.space, self.cls, self.reps = space, cls, reps
        self.size = len(reps)
        self.product = space.product
        self.destroyed = space.destroyed[reps]

    def declared(self, states: np.ndarray, order: np.ndarray | int = 0) -> np.ndarray:
        return self.space.declared(self.reps[states], order)


def _lumped(setup: _Setup, tables: list) -> _Setup:
    """``setup`` on the classes of states the damage figure cannot tell apart, for the orders
    ``tables`` (the state pass's) use: those with the same rows in every kernel the figure
    pass may apply, the same Blast bracket, the same behaviour of each weapon from them (the
    kernels of the order it declares there, and its save-roll class), whose successors are
    again alike. Kernels the figure pass never applies are left out (None)."""
    space = setup.space
    labels = []
    if setup.blast_axis:
        labels.append((setup.n_models - space.destroyed) // 5)
    needed: dict[int, Kernel] = {id(k): k for k in setup.before}
    for j, w in enumerate(setup.weapons):
        used = [0] if tables[j] is None else _orders_used(w, tables[j])
        declared = [space.declared(np.arange(space.size), o) for o in used]
        eos = sorted(set().union(*(distinct(d) for d in declared)))
        labels += _behaviour_labels(w, eos, declared, space)
        for e in eos:
            ks = [w.normal[e]] if w.faces is None else w.faces[e].kernels
            needed.update((id(k), k) for k in ks if k is not None)
        needed.update((id(w.dev[o]), w.dev[o]) for o in used if w.dev is not None)
    kernels = list(needed.values())
    targets = [k.targets(space) for k in kernels]
    cls = lumping.classes(space.size, kernels, targets, labels)
    reps = np.zeros(cls.max() + 1, dtype=np.int64)
    reps[cls[::-1]] = np.arange(space.size)[::-1]  # the first state of each class
    mapped = {
        id(k): lumping.quotient(k, cls, reps, t) for k, t in zip(kernels, targets, strict=True)
    }

    def faces(fc: Faces) -> Faces | None:
        if any(k is not None and id(k) not in mapped for k in fc.kernels):
            return None
        ks = [None if k is None else mapped[id(k)] for k in fc.kernels]
        return Faces(ks, [(m[reps], p) for m, p in fc.classes])

    out = copy.copy(setup)
    out.space = _Classes(space, cls, reps)  # type: ignore[assignment]
    out.start = cls[setup.start]
    out.before = [mapped[id(k)] for k in setup.before]
    out.weapons = [
        replace(
            w,
            normal=[mapped.get(id(k)) for k in w.normal],
            dev=None if w.dev is None else [mapped.get(id(k)) for k in w.dev],
            faces=None if w.faces is None else [faces(fc) for fc in w.faces],
        )
        for w in setup.weapons
    ]
    return out


def _behaviour_labels(
    w: _Weapon, eos: list[int], declared: list[np.ndarray], space
) -> list[np.ndarray]:
    """Per order the weapon uses, a label per state of what the weapon does from there: the
    same for two states whose declared orders give the same kernels (e.g. orders that differ
    only in a [PRECISION] pick the weapon never makes) and the same save-roll class."""
    canon: dict[int, int] = {}
    for e in eos:
        canon[e] = next((canon[f] for f in canon if _same_behaviour(w, e, f, space)), len(canon))
    face_ids: dict[tuple, int] = {}
    out = []
    for d in declared:
        label = np.array([canon.get(e, -1) for e in range(max(eos) + 1)])[d]
        if w.faces is not None:
            face = np.zeros(space.size, dtype=np.int64)
            for e in distinct(d):
                for mask, probs in w.faces[e].classes:
                    key = tuple(np.round(probs, 15))
                    face[mask & (d == e)] = face_ids.setdefault(key, len(face_ids))
            label = label * (len(face_ids) + 1) + face
        out.append(label)
    return out


def _same_behaviour(w: _Weapon, e: int, f: int, space) -> bool:
    """Whether declared orders ``e`` and ``f`` give the weapon the same kernels."""
    if w.faces is None:
        return _same_moves(w.normal[e], w.normal[f], space)
    a, b = w.faces[e], w.faces[f]
    return (
        all(
            (x is None and y is None)
            or (x is not None and y is not None and _same_moves(x, y, space))
            for x, y in zip(a.kernels, b.kernels, strict=True)
        )
        and all(
            np.array_equal(ma, mb) and np.array_equal(pa, pb)
            for (ma, pa), (mb, pb) in zip(a.classes, b.classes, strict=True)
        )
        and len(a.classes) == len(b.classes)
    )


def _trim1(a: np.ndarray) -> np.ndarray:
    nz = np.nonzero(a > 0)[0]
    return a[: nz[-1] + 1] if len(nz) else a[:1]


def _independent_figure(setup: _Setup) -> np.ndarray:
    """Distribution of the damage figure when it does not depend on the target's state: each
    weapon's is a compound sum over its (n, m) wound counts (Horner's scheme over n, then over
    m); sources add by convolution."""
    total = None
    for src, k in zip(setup.act.before, setup.before, strict=True):
        total = _added(total, _compound(src.count, k.probs[0]))
    parts = len(setup.act.before)
    for w in setup.weapons:
        p2 = next(iter(w.joints.values()))[0]
        dev = None if w.dev is None else w.dev[0]
        if p2.flags.writeable:  # counts not kept (memo.py bypassed)
            part = _weapon_figure(p2, w.normal[0], dev)
        else:
            part = memo.of_kept(_weapon_figure, p2, w.normal[0], dev)
        total = _added(total, part)
        parts += 1
    if total is None:
        return np.ones(1)
    # one weapon's figure is trimmed already (its trailing zeros cut: _weapon_figure)
    return total if parts == 1 and not setup.act.before else _trim1(total)


def _weapon_figure(p2: np.ndarray, k: Kernel, dev: Kernel | None) -> np.ndarray:
    """One weapon's damage figure (counts P[n, m], the kernel of its wounds and of its
    Devastating Wounds mortal wounds, both the same in every state): sum_m U^{*m} *
    (sum_n P(n, m) Q^{*n}), without trailing zeros (read only). Convolving figures without
    their trailing zeros leaves out only products that are exactly 0: the same sums."""
    q = k.probs[0]
    per_m = [memo.figure(p2[:, m], q, _compound) for m in range(p2.shape[1])]
    out = _trim1(per_m[0] if dev is None else _compound_list(per_m, dev.probs[0]))
    out.flags.writeable = False
    return out


def _added(total: np.ndarray | None, part: np.ndarray) -> np.ndarray:
    """The distribution of the sum of two independent figures (None: nothing yet, a total of
    0 for sure): their convolution, which for the first is ``part + 0.0`` (convolving with
    [1] makes each entry one product with 1 added to 0: the same floats, as a new array)."""
    return part + 0.0 if total is None else np.convolve(total, part)


def _compound(counts: np.ndarray, q: np.ndarray) -> np.ndarray:
    """sum_n counts[n] Q^{*n} by Horner's scheme."""
    out = np.array([counts[-1]])
    for c in counts[-2::-1]:
        out = np.convolve(out, q)
        out[0] += c
    return out


def _compound_list(parts: list[np.ndarray], u: np.ndarray) -> np.ndarray:
    """sum_m U^{*m} * parts[m] by Horner's scheme."""
    out = parts[-1]
    for part in parts[-2::-1]:
        out = _pad1(np.convolve(out, u), part)
    return out


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
    return dict(_hazard_losses(hz))


@memo.kept  # the same Hazardous weapons again and again in a sequence or a batch
def _hazard_losses(hz: HazardProfile) -> dict[str, float]:
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
    chain = _Chain(space)
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
