"""The Monte Carlo sampler: the exact engine's independent second opinion.

It reads the same :class:`~wh40k_calc.profile.Activation` and uses the same allocation policy
(:class:`~wh40k_calc.engine.allocation.AllocationSpace`), but rolls the dice: every Hit,
Wound, saving throw, Damage and Feel No Pain roll is a drawn integer, re-rolled where the
profile's table says so. Work is vectorised with numpy across trials, in chunks so memory stays
bounded; the only Python loops run over weapons and over the position of a wound in a trial's
sequence (each pass handles that wound for every trial at once), never over trials or dice.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..dice import pmf_sample
from ..profile import (
    ALWAYS_FAILS,
    CRIT,
    CRIT_WOUND,
    FAIL,
    HIT,
    SAVED,
    WOUND,
    Activation,
    AttackProfile,
    DamageTable,
    RollTable,
    TargetStates,
)
from .allocation import (
    NORMAL,
    PRECISION,
    AllocationSpace,
    legal_orders,
    saves_differ,
    space_for,
)
from .outcome import LOSS_FIELDS, TOTAL_FIELDS, WEAPON_FIELDS, Outcome, WeaponResult

DICE_PER_CHUNK = 1 << 22  # about 32 MB of int64 dice per array at most


@dataclass
class _Moments:
    """Running sums for means and standard errors of per-trial figures."""

    n: int = 0
    sums: dict[str, float] = field(default_factory=dict)
    squares: dict[str, float] = field(default_factory=dict)

    def add(self, name: str, values: np.ndarray) -> None:
        v = values.astype(np.int64, copy=False)
        self.sums[name] = self.sums.get(name, 0.0) + float(v.sum())
        self.squares[name] = self.squares.get(name, 0.0) + float(np.dot(v, v))

    def mean(self, name: str) -> float:
        return self.sums.get(name, 0.0) / self.n if self.n else 0.0

    def se(self, name: str) -> float:
        if self.n < 2:
            return 0.0
        m = self.mean(name)
        var = max(self.squares.get(name, 0.0) / self.n - m * m, 0.0) * self.n / (self.n - 1)
        return float(np.sqrt(var / self.n))


class _Dice:
    """The chunk's random source; counts every integer drawn (for the benchmark)."""

    def __init__(self, rng: np.random.Generator):
        self.rng = rng
        self.drawn = 0

    def d6(self, n: int | tuple[int, ...]) -> np.ndarray:
        """``n`` D6 (an int or a shape), as int8."""
        size = int(np.prod(n))
        self.drawn += size
        return self.rng.integers(1, 7, size=n, dtype=np.int8)

    def from_pmf(self, pmf: np.ndarray, n: int | tuple[int, ...]) -> np.ndarray:
        """``n`` values drawn from ``pmf`` (index = value); a certain value costs no draw."""
        nz = np.flatnonzero(pmf)
        if len(nz) == 1:
            return np.full(n, nz[0], dtype=np.int64)
        size = int(np.prod(n))
        self.drawn += size
        return pmf_sample(pmf, self.rng, size).reshape(n)

    def roll(self, table: RollTable, n: int | tuple[int, ...]) -> np.ndarray:
        """``n`` rolls of ``table``: the unmodified face, re-rolled once where the table says."""
        return self.roll_marked(table, n)[0]

    def roll_marked(
        self, table: RollTable, n: int | tuple[int, ...]
    ) -> tuple[np.ndarray, np.ndarray | None]:
        """As :meth:`roll`, with a mask of the dice already re-rolled (never re-rolled again);
        None when the table re-rolls nothing."""
        faces = self.d6(n)
        if not any(table.reroll):
            return faces, None
        again = _REROLL[table.reroll][faces]
        k = int(again.sum())
        if k:
            faces[again] = self.d6(k)
        return faces, again

    def roll_where(
        self, table: RollTable, where: np.ndarray, marked: bool = False
    ) -> tuple[np.ndarray, np.ndarray | None]:
        """Rolls of ``table`` in the True cells of ``where`` (face 0 elsewhere); with
        ``marked``, also the mask of the dice re-rolled (None: none could be)."""
        k = int(where.sum())
        if k == where.size:
            return self.roll_marked(table, where.shape)
        faces = np.zeros(where.shape, dtype=np.int8)
        again = np.zeros(where.shape, dtype=bool) if marked and any(table.reroll) else None
        if k:
            f, a = self.roll_marked(table, k)
            faces[where] = f
            if again is not None and a is not None:
                again[where] = a
        return faces, again


class _Lookup(dict):
    """Outcome or re-roll tables as small numpy arrays, indexed by face (cached)."""

    def __init__(self, dtype: type):
        super().__init__()
        self.dtype = dtype

    def __missing__(self, key: tuple) -> np.ndarray:
        arr = np.asarray(key, dtype=self.dtype)
        self[key] = arr
        return arr


_OUTCOME = _Lookup(np.int8)  # RollTable.outcome -> array; index 0 (no die) is class 0
_REROLL = _Lookup(bool)


def _fnp_threshold(p_ignore: float) -> int:
    """The X of Feel No Pain X+ from the probability of ignoring a point (7: none)."""
    return round(7 - 6 * p_ignore)


def _points_through(dice: _Dice, damage: np.ndarray, threshold: np.ndarray) -> np.ndarray:
    """Points that get through Feel No Pain: one D6 per point, ignored on ``threshold``+."""
    if damage.size == 0:
        return damage
    width = int(damage.max())
    if width == 0:
        return damage
    rolls = dice.d6((damage.size, width))
    counted = np.arange(width)[None, :] < damage[:, None]
    ignored = (rolls >= threshold[:, None]) & counted
    return damage - ignored.sum(axis=1)


class _DamageRoller:
    """Damage rolls of one weapon against each model kind, re-rolled per wounds left."""

    def __init__(self, tables: list[DamageTable], max_left: int):
        self.tables = tables
        self.probs = [np.asarray(t.probs, dtype=float) for t in tables]
        self.final = [np.asarray(t.final, dtype=np.int64) for t in tables]
        # reroll[kind][wounds_left, outcome]
        self.reroll = []
        for t in tables:
            mask = np.zeros((max_left + 1, len(t.probs)), dtype=bool)
            for w in range(max_left + 1):
                for i in t.rerolls_for(w):
                    mask[w, i] = True
            self.reroll.append(mask)

    def roll(self, dice: _Dice, kinds: np.ndarray, lefts: np.ndarray) -> np.ndarray:
        """The damage of one Damage roll per entry, against models of ``kinds`` with ``lefts``
        wounds left (re-rolled where that model's table says)."""
        out = np.zeros(kinds.size, dtype=np.int64)
        for k, sel in _by_kind(kinds):
            n = kinds.size if sel is None else int(sel.sum())
            left = lefts if sel is None else lefts[sel]
            idx = dice.from_pmf(self.probs[k], n)
            again = self.reroll[k][left, idx]
            m = int(again.sum())
            if m:
                idx[again] = dice.from_pmf(self.probs[k], m)
            if sel is None:
                out = self.final[k][idx]
            else:
                out[sel] = self.final[k][idx]
        return out


def _by_kind(kinds: np.ndarray):
    """(kind, mask) for each kind present; mask None when every entry is of that kind."""
    if kinds.size == 0:
        return []
    first = kinds[0]
    if (kinds == first).all():
        return [(int(first), None)]
    return [(int(k), kinds == k) for k in np.unique(kinds)]


def _rows(a: np.ndarray) -> np.ndarray:
    """Per-row count of True cells of a 2-D (or 3-D, rows first) boolean array, as int64.
    Narrow rows are summed column by column: numpy's row reductions are slow on them."""
    a = a.reshape(a.shape[0], -1)
    if a.shape[1] > 32:
        return a.sum(axis=1, dtype=np.int64)
    out = np.zeros(a.shape[0], dtype=np.int16)
    for j in range(a.shape[1]):
        out += a[:, j]
    return out.astype(np.int64)


def _weapon_wounds(
    dice: _Dice,
    w: AttackProfile,
    attacks: np.ndarray,
    chunk: int,
    command_reroll: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Roll one weapon's Hit and Wound rolls for every trial: per trial (hits, normal wounds,
    devastating Critical Wounds).

    Dice are laid out per trial and attack (a row per trial), so per-trial counts are row sums;
    only the attacks that need a roll get a die. ``command_reroll`` (per trial: still
    available) spends the Command Re-roll on the first failed Wound roll of an attack's own
    hit that was not already re-rolled."""
    zero = np.zeros(chunk, dtype=np.int64)
    amax = int(attacks.max(initial=0))
    if amax == 0:
        return zero, zero, zero
    valid = np.arange(amax)[None, :] < attacks[:, None]
    if w.hit is None:  # hits automatically, never a Critical Hit
        hit, crit = valid, np.zeros_like(valid)
    else:
        faces, _ = dice.roll_where(w.hit, valid)
        oc = _OUTCOME[w.hit.outcome][faces]
        hit, crit = oc == HIT, oc == CRIT
    rolls = hit | crit if not w.lethal else hit
    wf, rerolled = dice.roll_where(w.wound, rolls, marked=command_reroll is not None)
    table = _OUTCOME[w.wound.outcome]
    wo = table[wf]
    if command_reroll is not None:
        eligible = rolls & (wo == FAIL) & command_reroll[:, None]
        if rerolled is not None:
            eligible &= ~rerolled
        rows = np.flatnonzero(_rows(eligible))
        if rows.size:
            cols = eligible[rows].argmax(axis=1)
            wo[rows, cols] = table[dice.d6(rows.size)]
            command_reroll[rows] = False
    n_hits = _rows(hit) + _rows(crit)
    normal = _rows(wo == WOUND)
    critical = _rows(wo == CRIT_WOUND)
    if w.lethal:
        normal = normal + _rows(crit)
    if w.sustained is not None and crit.any():  # extra hits: not rolled to hit, roll to wound
        count = np.zeros(crit.shape, dtype=np.int64)
        count[crit] = dice.from_pmf(w.sustained, int(crit.sum()))
        extra = np.arange(len(w.sustained) - 1)[None, None, :] < count[:, :, None]
        ef, _ = dice.roll_where(w.wound, extra)
        eo = table[ef]
        n_hits = n_hits + count.sum(axis=1)
        normal = normal + _rows(eo == WOUND)
        critical = critical + _rows(eo == CRIT_WOUND)
    if w.devastating:
        return n_hits, normal, critical
    return n_hits, normal + critical, zero


class _Inflict:
    """Applies wounds of one weapon to the target states, one position at a time.

    With ``lowest_first`` (edition 11, 05.04 Inflict Damage) and models whose saves differ,
    each trial's save rolls are rolled together (re-rolled against the group current when
    rolled), sorted, and resolved from the lowest result to the highest, each against the group
    current when it is resolved."""

    def __init__(self, space: AllocationSpace, w: AttackProfile, lowest_first: bool = False):
        self.space = space
        self.routing = PRECISION if w.precision else NORMAL
        self.mortal_routing = PRECISION if w.precision_mortals else NORMAL
        max_left = int(space.left.max()) if space.size else 1
        self.damage = _DamageRoller([v.damage for v in w.vs], max_left)
        self.saves = [v.save for v in w.vs]
        self.fnp = np.array([_fnp_threshold(v.fnp) for v in w.vs])
        self.fnp_mortal = np.array([_fnp_threshold(v.fnp_mortal) for v in w.vs])
        self.lowest_first = lowest_first and saves_differ(space, w.vs, self.routing)
        # fails_on[kind, face]: a save roll whose result stands at face fails (face 0 unused)
        self.fails_on = np.array([[v.save_fails_on(f) for f in range(7)] for v in w.vs])

    def normal(
        self,
        dice: _Dice,
        states: np.ndarray,
        counts: np.ndarray,
        figure: np.ndarray,
        failed: np.ndarray,
        order: np.ndarray | int = 0,
    ) -> np.ndarray:
        """Each trial's ``counts`` normal wounds: save, Damage, Feel No Pain, allocation (in
        each trial's allocation order ``order``)."""
        return self._wounds(dice, states, counts, figure, failed, None, False, order)

    def devastating(
        self,
        dice: _Dice,
        states: np.ndarray,
        counts: np.ndarray,
        figure: np.ndarray,
        mortal: np.ndarray,
        order: np.ndarray | int = 0,
    ) -> np.ndarray:
        """Each trial's ``counts`` devastating Critical Wounds: mortal wounds equal to the
        Damage, no save, no spill-over."""
        return self._wounds(dice, states, counts, figure, None, mortal, True, order)

    def _wounds(
        self,
        dice: _Dice,
        states: np.ndarray,
        counts: np.ndarray,
        figure: np.ndarray,
        failed: np.ndarray | None,
        mortal: np.ndarray | None,
        devastating: bool,
        order: np.ndarray | int = 0,
    ) -> np.ndarray:
        """One pass per wound position over every trial that has that many wounds: the model
        each trial allocates to, its saving throw (none for devastating wounds), the Damage
        roll, Feel No Pain and the new state; tallies failed saves, mortal wounds, damage."""
        sp = self.space
        routing = self.mortal_routing if devastating else self.routing
        fnp = self.fnp_mortal if devastating else self.fnp
        faces = None
        if not devastating and self.lowest_first:
            faces = self._sorted_saves(dice, states, counts, order)
        order = np.broadcast_to(np.asarray(order), states.shape)
        for i in range(int(counts.max(initial=0))):
            act = np.nonzero(counts > i)[0]
            st, od = states[act], order[act]
            kinds = sp.kind_of(st, routing, od)
            lefts = sp.wounds_left_of(st, routing, od)
            if not devastating:
                if faces is None:
                    fails = self._save_fails(dice, kinds)
                else:
                    fails = self.fails_on[kinds, faces[act, i]]
                act, st, od = act[fails], st[fails], od[fails]
                kinds, lefts = kinds[fails], lefts[fails]
                failed[act] += 1
            dmg = self.damage.roll(dice, kinds, lefts)
            if devastating:
                mortal[act] += dmg
            through = _points_through(dice, dmg, fnp[kinds])
            figure[act] += through
            states[act] = sp.apply(st, through, routing, od)
        return states

    def _sorted_saves(
        self, dice: _Dice, states: np.ndarray, counts: np.ndarray, order: np.ndarray | int
    ) -> np.ndarray:
        """Per trial, its ``counts`` save rolls made together (each re-rolled as the table of
        the group current now says), sorted lowest first; unused cells hold 7."""
        width = int(counts.max(initial=0))
        faces = np.full((states.size, width), 7, dtype=np.int8)
        if width == 0:
            return faces
        valid = np.arange(width)[None, :] < counts[:, None]
        kinds = self.space.kind_of(states, self.routing, order)
        for k, sel in _by_kind(kinds):
            table = self.saves[k] or ALWAYS_FAILS  # no save here: roll, nothing re-rolled
            where = valid if sel is None else valid & sel[:, None]
            rolled, _ = dice.roll_where(table, where)
            faces[where] = rolled[where]
        faces.sort(axis=1)
        return faces

    def _save_fails(self, dice: _Dice, kinds: np.ndarray) -> np.ndarray:
        """One saving throw per entry against its model kind's table: True where it fails."""
        fails = np.ones(kinds.size, dtype=bool)
        for k, sel in _by_kind(kinds):
            table = self.saves[k]
            if table is None:
                continue
            n = kinds.size if sel is None else int(sel.sum())
            saved = _OUTCOME[table.outcome][dice.roll(table, n)] == SAVED
            if sel is None:
                fails = ~saved
            else:
                fails[sel] = ~saved
        return fails


def _spill(
    dice: _Dice,
    space: AllocationSpace,
    states: np.ndarray,
    count: np.ndarray,
    thresholds: np.ndarray,
    figure: np.ndarray,
) -> np.ndarray:
    """Mortal wounds applied one at a time, spilling over from model to model."""
    for i in range(int(count.max(initial=0))):
        act = np.nonzero(count > i)[0]
        st = states[act]
        kinds = space.kind_of(st, NORMAL)
        through = (dice.d6(act.size) < thresholds[kinds]).astype(np.int64)
        figure[act] += through
        states[act] = space.apply(st, through, NORMAL)
    return states


def _hazard(dice: _Dice, act: Activation, chunk: int) -> tuple[np.ndarray, np.ndarray]:
    """Per trial: mortal wounds from failed Hazardous tests, attacker models destroyed."""
    hz = act.hazard
    if hz is None or hz.tests == 0:
        return np.zeros(chunk), np.zeros(chunk, dtype=np.int64)
    space = AllocationSpace(hz.carriers)
    fail_on = round(6 * hz.fail_probability)
    fails = (dice.d6((chunk, hz.tests)) <= fail_on).sum(axis=1)
    states = np.zeros(chunk, dtype=np.int64)
    thresholds = np.array([_fnp_threshold(p) for p in hz.fnp])
    mw_total = np.zeros(chunk, dtype=np.int64)
    sink = np.zeros(chunk, dtype=np.int64)
    mw_pmf = hz.mortal_wounds.pmf
    if hz.spill:
        per = np.zeros(chunk, dtype=np.int64)
        for i in range(int(fails.max(initial=0))):
            act_ = fails > i
            per[act_] += dice.from_pmf(mw_pmf, int(act_.sum()))
        mw_total = per
        states = _spill(dice, space, states, per, thresholds, sink)
    else:
        for i in range(int(fails.max(initial=0))):
            act_ = np.nonzero(fails > i)[0]
            mw = dice.from_pmf(mw_pmf, act_.size)
            mw_total[act_] += mw
            st = states[act_]
            kinds = space.kind_of(st, NORMAL)
            through = _points_through(dice, mw, thresholds[kinds])
            states[act_] = space.apply(st, through, NORMAL)
    return mw_total, space.destroyed[states]


def _space(act: Activation, start: TargetStates | None) -> AllocationSpace:
    """The target's states with the allocation orders the exact engine chose (the sampler
    never chooses them itself).

    Raises:
        ValueError: the activation asks for the defender's best order but carries no policy;
            ``start`` does not fit the target.
    """
    if act.policy is not None:
        return space_for(act.target, act.policy.orders, start)
    if act.best_allocation and len(legal_orders(act.target)) > 1:
        raise ValueError("the defender's allocation orders come from the exact engine (policy)")
    return space_for(act.target, None, start)


class _Starts:
    """Each trial's start state: unharmed, given per trial, or drawn from a distribution."""

    def __init__(
        self, space: AllocationSpace, start: TargetStates | None, trials: int, rng
    ) -> None:
        self.rng = rng
        self.states = space.states_of(start) if start is not None else None
        self.weights = None if start is None else start.weights
        if self.states is not None and self.weights is None and len(self.states) != trials:
            raise ValueError("a per-trial start state needs one row per trial")
        if self.weights is not None:
            w = np.asarray(self.weights, dtype=float)
            self.cdf = np.cumsum(w / w.sum())

    def take(self, done: int, n: int) -> np.ndarray:
        """Start states of trials ``done .. done + n - 1``."""
        if self.states is None:
            return np.zeros(n, dtype=np.int64)
        if self.weights is None:
            return self.states[done : done + n].copy()
        rows = np.searchsorted(self.cdf, self.rng.random(n), side="right")
        return self.states[np.minimum(rows, len(self.states) - 1)]


def _binomial_se(p: float, n: int) -> float:
    """Standard error of a proportion ``p`` estimated from ``n`` trials."""
    if n < 2:
        return 0.0
    return float(np.sqrt(max(p * (1.0 - p), 0.0) / (n - 1)))


def run_sample(
    act: Activation,
    trials: int = 100_000,
    seed: int = 40_000,
    progress: Callable[[int, int], None] | None = None,
    start: TargetStates | None = None,
    keep_states: bool = False,
) -> Outcome:
    """Estimate one activation's outcome from ``trials`` seeded simulated activations.

    Args:
        act: the resolved profiles (the same the exact engine reads).
        trials: number of simulated activations (>= 1).
        seed: numpy ``default_rng`` seed; the same seed gives the same result.
        progress: called after each chunk with (trials done, trials).
        start: the target's state before the activation (default ``act.start``, else
            unharmed): one state per trial (``weights`` None, ``trials`` rows, e.g. an earlier
            run's ``final_states``), or a distribution each trial draws its state from.
        keep_states: return each trial's final state in ``final_states`` (trial order).

    Returns:
        An :class:`Outcome` with method "sample", its standard errors and ``trials``/``seed``.

    Raises:
        ValueError: ``trials`` < 1; a start state that does not fit the target or the trials;
            the defender's best order asked for without the exact engine's policy.
    """
    if trials < 1:
        raise ValueError("trials must be at least 1")
    rng = np.random.default_rng(seed)
    dice = _Dice(rng)
    start = start if start is not None else act.start
    space = _space(act, start)
    starts = _Starts(space, start, trials, rng)
    finals: list[np.ndarray] = []
    n_models = act.target.models
    per_trial_dice = 8 + sum(
        w.models * (len(w.attacks) + w.blast * (n_models // 5)) * 4 for w in act.weapons
    )
    chunk = int(np.clip(DICE_PER_CHUNK // max(per_trial_dice, 1), 256, 1 << 17))
    moments = _Moments()
    wmom = [_Moments() for _ in act.weapons]
    smom = [_Moments() for _ in act.before]
    md_counts = np.zeros(n_models + 1)
    wl_counts = np.zeros(act.target.wounds + 1)
    ch_counts = np.zeros(len(act.target.characters))
    fig_counts = np.zeros(1)
    inflicts = [_Inflict(space, w, act.lowest_first) for w in act.weapons]
    before_thr = [np.array([_fnp_threshold(p) for p in src.fnp]) for src in act.before]
    done = 0
    while done < trials:
        n = min(chunk, trials - done)
        states = starts.take(done, n)
        figure = np.zeros(n, dtype=np.int64)
        before_counts = []
        for si, (src, thr) in enumerate(zip(act.before, before_thr, strict=True)):
            count = dice.from_pmf(src.count, n)
            before_counts.append(count)
            fig0 = figure.copy()
            states = _spill(dice, space, states, count, thr, figure)
            smom[si].n += n
            smom[si].add("mortal_wounds", count)
            smom[si].add("damage", figure - fig0)
        alive = n_models - space.destroyed[states]
        totals = {f: np.zeros(n, dtype=np.int64) for f in WEAPON_FIELDS}
        totals["mortal_wounds"] += sum((c for c in before_counts), np.zeros(n, dtype=np.int64))
        pending = []
        for wi, (w, inf) in enumerate(zip(act.weapons, inflicts, strict=True)):
            per_model = dice.from_pmf(w.attacks, (n, w.models)) + (
                w.blast * (alive[:, None] // 5) if w.blast else 0
            )
            attacks = per_model.sum(axis=1)
            cp = np.ones(n, dtype=bool) if w.command_reroll else None
            hits, normal, crit = _weapon_wounds(dice, w, attacks, n, cp)
            failed = np.zeros(n, dtype=np.int64)
            fig0 = figure.copy()
            orders = act.policy.index(wi, normal, crit) if act.policy is not None else 0
            declared = space.declared(states, orders)  # a wounded group first (05.03)
            states = inf.normal(dice, states, normal, figure, failed, declared)
            m = wmom[wi]
            m.n += n
            m.add("attacks", attacks)
            m.add("hits", hits)
            m.add("wounds", normal + crit)
            m.add("failed_saves", failed)
            for f, v in (
                ("attacks", attacks),
                ("hits", hits),
                ("wounds", normal + crit),
                ("failed_saves", failed),
            ):
                totals[f] += v
            pending.append((crit, figure - fig0, orders))
        for wi, (w, inf) in enumerate(zip(act.weapons, inflicts, strict=True)):
            crit, fig_normal, orders = pending[wi]
            mortal = np.zeros(n, dtype=np.int64)
            fig0 = figure.copy()
            if w.devastating:
                states = inf.devastating(dice, states, crit, figure, mortal, orders)
            wmom[wi].add("mortal_wounds", mortal)
            wmom[wi].add("damage", fig_normal + (figure - fig0))
            totals["mortal_wounds"] += mortal
        hz_mw, hz_dead = _hazard(dice, act, n)
        destroyed = space.destroyed[states]
        lost = space.wounds_lost[states]
        moments.n += n
        moments.add("wounds_lost", lost)
        moments.add("models_destroyed", destroyed)
        totals["damage"] = figure
        for f, v in totals.items():
            moments.add(f"total_{f}", v)
        moments.add("hazard_mortal_wounds", hz_mw)
        moments.add("hazard_models_destroyed", hz_dead)
        moments.add("hazard_at_least_one", hz_dead > 0)
        md_counts += np.bincount(destroyed, minlength=n_models + 1)[: n_models + 1]
        wl_counts += np.bincount(lost, minlength=act.target.wounds + 1)[: act.target.wounds + 1]
        for i in range(len(ch_counts)):
            ch_counts[i] += float((space.characters_destroyed(states) > i).sum())
        fc = np.bincount(figure)
        if len(fc) > len(fig_counts):
            fig_counts = np.concatenate([fig_counts, np.zeros(len(fc) - len(fig_counts))])
        fig_counts[: len(fc)] += fc
        if keep_states:
            finals.append(space.lost_by_group(states).astype(np.int32))
        done += n
        if progress is not None:
            progress(done, trials)

    rows = [
        WeaponResult.mortal_source(
            src.name,
            m.mean("mortal_wounds"),
            m.mean("damage"),
            {"mortal_wounds": m.se("mortal_wounds"), "damage": m.se("damage")},
        )
        for src, m in zip(act.before, smom, strict=True)
    ]
    for w, m in zip(act.weapons, wmom, strict=True):
        rows.append(
            WeaponResult(
                w.name,
                w.models,
                {f: m.mean(f) for f in WEAPON_FIELDS},
                {f: m.se(f) for f in WEAPON_FIELDS},
            )
        )
    expected = {f: sum(r.expected[f] for r in rows) for f in WEAPON_FIELDS}
    expected["wounds_lost"] = moments.mean("wounds_lost")
    expected["models_destroyed"] = moments.mean("models_destroyed")
    se_expected = {f: moments.se(f"total_{f}") for f in WEAPON_FIELDS}
    se_expected["wounds_lost"] = moments.se("wounds_lost")
    se_expected["models_destroyed"] = moments.se("models_destroyed")
    losses = {
        "hazard_mortal_wounds": moments.mean("hazard_mortal_wounds"),
        "models_destroyed": moments.mean("hazard_models_destroyed"),
        "at_least_one": moments.mean("hazard_at_least_one"),
    }
    se_losses = {
        "hazard_mortal_wounds": moments.se("hazard_mortal_wounds"),
        "models_destroyed": moments.se("hazard_models_destroyed"),
        "at_least_one": moments.se("hazard_at_least_one"),
    }
    out = Outcome(
        method="sample",
        weapons=rows,
        expected={f: expected[f] for f in TOTAL_FIELDS},
        models_destroyed_distribution=md_counts / trials,
        damage_distribution=fig_counts / trials,
        wounds_lost_distribution=wl_counts / trials,
        characters_destroyed=list(ch_counts / trials),
        attacker_losses={k: losses[k] for k in LOSS_FIELDS},
        trials=trials,
        seed=seed,
        standard_error={
            "expected": se_expected,
            "attacker_losses": se_losses,
            "characters_destroyed": [_binomial_se(p, trials) for p in ch_counts / trials],
        },
    )
    out.standard_error["kill_table"] = [_binomial_se(p, trials) for p in out.kill_table]
    out.dice_drawn = dice.drawn
    if keep_states:
        out.final_states = TargetStates(space.shape, np.concatenate(finals))
    return out
