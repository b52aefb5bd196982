"""The Monte Carlo sampler: the exact engine's independent second opinion.

It reads the same :class:`~wh40k_calc.profile.Activation` and uses the same allocation policy
(:class:`~wh40k_calc.engine.allocation.AllocationSpace`), but rolls the dice. Dice that are
independent and alike are drawn as counts, one draw per trial and stage (``counts.py``: how
many of a weapon's Hit rolls miss, hit or are Critical Hits, re-rolls included; the same for its
Wound rolls, its models' Attacks, Sustained Hits, the points Feel No Pain ignores); a die whose
effect depends on the model it is allocated to is rolled on its own, wound by wound (saves
against mixed saves, Damage rolls, Devastating Wounds), except where a table of where failed
saves leave the target makes the order irrelevant (:class:`_SaveJumps`). Work is vectorised
with numpy across trials, in chunks so memory stays bounded; the only Python loops run over
weapons and over the position of a wound in a trial's sequence (each pass handles that wound for
every trial at once), never over trials or dice. It never draws from the exact engine's
distributions: it shares only the resolved profiles and the allocation policy.
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
    HIT,
    SAVE_FAILED,
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
from .counts import Counts, die_classes, draw_counts
from .outcome import LOSS_FIELDS, TOTAL_FIELDS, WASTE_FIELDS, WEAPON_FIELDS, Outcome, WeaponResult

CHUNK_TRIALS = 1 << 15  # trials per chunk: the per-chunk Python work is spread thin, and the
# chunk's arrays (256 KB of int64 each) stay in the processor's cache
DICE_PER_CHUNK = 1 << 20  # entries of the widest array of a chunk (8 MB of int64) at most


@dataclass
class _Moments:
    """Running sums for means and standard errors of per-trial figures."""

    n: int = 0
    sums: dict[str, float] = field(default_factory=dict)
    squares: dict[str, float] = field(default_factory=dict)

    def add(self, name: str, values: np.ndarray) -> None:
        v = values.astype(np.int64, copy=False)
        self.sums[name] = self.sums.get(name, 0.0) + float(v.sum())
        self.squares[name] = self.squares.get(name, 0.0) + float(np.einsum("i,i->", v, v))

    def mean(self, name: str) -> float:
        return self.sums.get(name, 0.0) / self.n if self.n else 0.0

    def se(self, name: str) -> float:
        if self.n < 2:
            return 0.0
        m = self.mean(name)
        var = max(self.squares.get(name, 0.0) / self.n - m * m, 0.0) * self.n / (self.n - 1)
        return float(np.sqrt(var / self.n))


class _Dice:
    """The chunk's random source; counts the random numbers drawn (for the benchmark): one per
    die rolled singly, one per trial and stage for a count of many dice."""

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

    def counts(self, n: np.ndarray, probs: np.ndarray) -> Counts:
        """Per entry of ``n``: how many of ``n[i]`` independent dice land in each outcome class
        of ``probs`` (``counts[j]``: class j per entry; see :func:`~.counts.draw_counts`)."""
        c = draw_counts(self.rng, n, probs)
        self.drawn += c.drawn
        return c

    def total(self, pmf: np.ndarray, n: np.ndarray) -> np.ndarray:
        """Per entry of ``n``: the sum of ``n[i]`` independent values drawn from ``pmf``
        (index = value), from the count of each value."""
        values = np.flatnonzero(pmf)
        if len(values) == 1:
            return n * values[0]
        c = self.counts(n, pmf[values])
        return sum((int(v) * c[j] for j, v in enumerate(values)), np.zeros(n.size, np.int64))

    def roll(self, table: RollTable, n: int | tuple[int, ...]) -> np.ndarray:
        """``n`` rolls of ``table``: the unmodified face, re-rolled once where the table says."""
        faces = self.d6(n)
        if any(table.reroll):
            again = _REROLL[table.reroll][faces]
            k = int(again.sum())
            if k:
                faces[again] = self.d6(k)
        return faces


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


@dataclass
class _Dealt:
    """Per trial, the damage points inflicted on the target so far: ``figure`` through Feel
    No Pain (the damage figure: every point, overkill too) and, when the damage wasted is
    counted (``run_sample(waste=True)``; None otherwise), ``raw`` before Feel No Pain and
    ``after`` through Feel No Pain onto a unit with every model destroyed. With the wounds the
    target lost they give the points wasted (WASTE_FIELDS, :meth:`wasted`)."""

    figure: np.ndarray
    raw: np.ndarray | None = None
    after: np.ndarray | None = None

    @classmethod
    def zeros(cls, n: int, waste: bool = True) -> _Dealt:
        return cls(*(np.zeros(n, dtype=np.int64) for _ in range(3 if waste else 1)))

    def _parts(self) -> tuple[np.ndarray | None, ...]:
        return self.figure, self.raw, self.after

    def copy(self) -> _Dealt:
        return _Dealt(*(None if a is None else a.copy() for a in self._parts()))

    def take(self, sel: np.ndarray) -> _Dealt:
        """The trials ``sel`` (a copy)."""
        return _Dealt(*(None if a is None else a[sel] for a in self._parts()))

    def put(self, sel: np.ndarray, part: _Dealt) -> None:
        """Write ``part`` back to the trials ``sel``."""
        for mine, theirs in zip(self._parts(), part._parts(), strict=True):
            if mine is not None:
                mine[sel] = theirs

    def add(self, act: np.ndarray, raw: np.ndarray, through: np.ndarray, wiped) -> None:
        """Trials ``act`` inflict ``raw`` points, ``through`` of them through Feel No Pain,
        onto a unit destroyed (``wiped``, per trial) or not."""
        self.figure[act] += through
        if self.raw is not None and self.after is not None:
            self.raw[act] += raw
            self.after[act] += np.where(wiped, through, 0)

    def wasted(self, since: _Dealt, lost: np.ndarray) -> dict[str, np.ndarray]:
        """Per trial, the points of WASTE_FIELDS wasted since ``since`` in which the target
        lost ``lost`` wounds (both counting them)."""
        assert self.raw is not None and self.after is not None
        assert since.raw is not None and since.after is not None
        figure = self.figure - since.figure
        after = self.after - since.after
        return {
            "beyond_wounds_left": figure - lost - after,
            "feel_no_pain": self.raw - since.raw - figure,
            "after_destruction": after,
        }


def _fnp_threshold(p_ignore: float) -> int:
    """The X of Feel No Pain X+ from the probability of ignoring a point (7: none)."""
    return round(7 - 6 * p_ignore)


def _points_through(dice: _Dice, damage: np.ndarray, threshold: np.ndarray) -> np.ndarray:
    """Points that get through Feel No Pain (Core rules: Feel No Pain): each point of an
    attack's ``damage`` is ignored on a D6 of ``threshold``+ (7: the model has none, and no die
    is rolled); the points one attack loses are drawn as one count."""
    rolls = threshold < 7
    if damage.size == 0 or not rolls.any():
        return damage
    through = damage.copy()
    for x in np.unique(threshold[rolls]):
        sel = np.flatnonzero((threshold == x) & (damage > 0))
        if sel.size:
            ignored = dice.counts(damage[sel], np.array([x - 1, 7 - x]) / 6)[1]
            through[sel] -= ignored
    return through


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


def _attacks(dice: _Dice, w: AttackProfile, alive: np.ndarray) -> np.ndarray:
    """Per trial: the attacks of the ``w.models`` models (Core rules: Attacks), each rolling
    its Attacks characteristic (drawn as the count of models rolling each value), plus
    [BLAST]'s bonus per model for every five models of the target (``alive`` per trial)."""
    models = np.full(alive.size, w.models, dtype=np.int64)
    attacks = dice.total(w.attacks, models)
    if w.blast:
        attacks = attacks + w.models * w.blast * (alive // 5)
    return attacks


def _hit_rolls(dice: _Dice, w: AttackProfile, attacks: np.ndarray) -> tuple[np.ndarray, ...]:
    """Per trial: (normal hits, Critical Hits) of ``attacks`` Hit rolls (Core rules: Hit Roll),
    drawn as counts; [TORRENT] attacks hit automatically and never score a Critical Hit."""
    if w.hit is None:
        return attacks, np.zeros_like(attacks)
    c = dice.counts(attacks, die_classes(w.hit, 3))
    return c[HIT], c[CRIT]


def _wound_rolls(
    dice: _Dice,
    w: AttackProfile,
    own: np.ndarray,
    extra: np.ndarray | None,
    command_reroll: np.ndarray | None,
) -> tuple[np.ndarray, np.ndarray]:
    """Per trial: (normal wounds, Critical Wounds) of the Wound rolls of ``own`` hits and
    ``extra`` hits (Sustained Hits; None: none), drawn as counts (Core rules: Wound Roll).

    ``command_reroll`` (per trial: still available) spends the Command Re-roll on a failed
    Wound roll of an own hit that was not already re-rolled (a die is never re-rolled twice);
    the trials that spend it are set to False."""
    if command_reroll is None:
        c = dice.counts(own if extra is None else own + extra, die_classes(w.wound, 3))
        return c[WOUND], c[CRIT_WOUND]
    c = dice.counts(own, die_classes(w.wound, 3, marked=True))
    normal, critical = c[WOUND + 1], c[CRIT_WOUND + 1]
    rows = np.flatnonzero((c[0] > 0) & command_reroll)  # a failure not yet re-rolled
    if rows.size:
        again = _OUTCOME[w.wound.outcome][dice.d6(rows.size)]
        normal[rows] += again == WOUND
        critical[rows] += again == CRIT_WOUND
        command_reroll[rows] = False
    if extra is not None:
        e = dice.counts(extra, die_classes(w.wound, 3))
        normal += e[WOUND]
        critical += e[CRIT_WOUND]
    return normal, critical


def _weapon_wounds(
    dice: _Dice,
    w: AttackProfile,
    attacks: np.ndarray,
    chunk: int,
    command_reroll: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One weapon's Hit and Wound rolls for every trial: per trial (hits, normal wounds,
    devastating Critical Wounds), each stage drawn as counts.

    A Critical Hit scores the extra hits of [SUSTAINED HITS X] (not rolled to hit; they roll to
    wound) and, with [LETHAL HITS], wounds automatically without a Wound roll (a normal wound).
    With [DEVASTATING WOUNDS] the Critical Wounds are returned apart; otherwise they join the
    normal wounds. ``command_reroll``: see :func:`_wound_rolls`."""
    hits, crits = _hit_rolls(dice, w, attacks.astype(np.int64, copy=False))
    extra = None
    if w.sustained is not None and crits.any():
        extra = dice.total(w.sustained, crits)
    own = hits if w.lethal else hits + crits
    normal, critical = _wound_rolls(dice, w, own, extra, command_reroll)
    if w.lethal:
        normal = normal + crits
    n_hits = hits + crits if extra is None else hits + crits + extra
    if w.devastating:
        return n_hits, normal, critical
    return n_hits, normal + critical, np.zeros(chunk, dtype=np.int64)


class _SaveJumps:
    """Normal wounds of one weapon resolved from counts, where nothing but the saving throw is
    left to chance and nothing depends on the model a wound is allocated to before the save:
    every model kind has the same saving throw, a fixed Damage and no Feel No Pain.

    Then a trial's failed saves are one binomial count, and where ``j`` failed saves leave the
    target from any state is a table built once by applying them one at a time with the shared
    allocation policy (:meth:`AllocationSpace.apply`: wounded model first, excess damage lost;
    Core rules: Allocating Attacks, Inflict Damage). ``jump[j * size + s]`` is that state and
    ``dealt[j * size + s]`` the damage those ``j`` failed saves inflict (counted in full, as
    the damage figure is; ``after[j * size + s]`` the part of it inflicted once every model
    was destroyed); past ``j = last`` the state no longer changes and each failed save adds
    ``rate[s]`` (``rate_after[s]`` of it with every model destroyed)."""

    MAX_ENTRIES = 1 << 21  # states x failed saves tabulated

    def __init__(
        self,
        space: AllocationSpace,
        w: AttackProfile,
        routing: int,
        damage: np.ndarray,
        order: int = 0,
    ):
        size = space.size
        state = np.arange(size)
        wiped = space.destroyed >= space.target.models
        jumps, dealt = [state], [np.zeros(size, dtype=np.int64)]
        after_dealt = [dealt[0]]
        while True:
            hit = damage[space.kind_of(state, routing, order)]
            nxt = space.apply(state, hit, routing, order)
            if (nxt == state).all():
                break
            jumps.append(nxt)
            dealt.append(dealt[-1] + hit)
            after_dealt.append(after_dealt[-1] + np.where(wiped[state], hit, 0))
            state = nxt
        self.size, self.last = size, len(jumps) - 1
        self.jump = np.concatenate(jumps)
        self.dealt = np.concatenate(dealt)
        self.after = np.concatenate(after_dealt)
        self.rate = damage[space.kind_of(state, routing, order)]
        self.rate_after = np.where(wiped[state], self.rate, 0)
        self.fails = die_classes(w.vs[0].save, 2) if w.vs[0].save is not None else None

    @staticmethod
    def damage_of(space: AllocationSpace, w: AttackProfile) -> np.ndarray | None:
        """The fixed Damage per model kind when the conditions above hold and the table fits
        :attr:`MAX_ENTRIES`; None otherwise."""
        if any(v.save != w.vs[0].save or v.fnp > 0 for v in w.vs):
            return None
        damage = []
        for v in w.vs:
            values = {f for f, p in zip(v.damage.final, v.damage.probs, strict=True) if p > 0}
            if len(values) != 1:
                return None
            damage.append(values.pop())
        bound = int(space.target.wounds) + 2  # each failed save changes a wound
        if space.size * bound > _SaveJumps.MAX_ENTRIES:
            return None
        return np.array(damage, dtype=np.int64)

    @classmethod
    def of(
        cls, space: AllocationSpace, w: AttackProfile, routing: int, order: int = 0
    ) -> _SaveJumps | None:
        """The table for ``w``'s normal wounds in allocation order ``order``, or None (see
        :meth:`damage_of`)."""
        damage = cls.damage_of(space, w)
        return None if damage is None else cls(space, w, routing, damage, order)

    def inflict(
        self,
        dice: _Dice,
        states: np.ndarray,
        counts: np.ndarray,
        dealt: _Dealt,
        failed: np.ndarray,
    ) -> np.ndarray:
        """Each trial's ``counts`` normal wounds: failed saves drawn as one count, then the
        table; tallies failed saves and damage (no Feel No Pain: every point is through it);
        returns the new states."""
        lost = counts if self.fails is None else dice.counts(counts, self.fails)[SAVE_FAILED]
        failed += lost
        if int(lost.max(initial=0)) <= self.last:
            at = lost * self.size + states
            points, after = self.dealt[at], self.after[at]
        else:
            j = np.minimum(lost, self.last)
            at = j * self.size + states
            points = self.dealt[at] + (lost - j) * self.rate[states]
            after = self.after[at] + (lost - j) * self.rate_after[states]
        dealt.figure += points
        if dealt.raw is not None and dealt.after is not None:
            dealt.raw += points
            dealt.after += after
        return self.jump[at]


class _Inflict:
    """Applies wounds of one weapon to the target states, one position at a time.

    With ``lowest_first`` (edition 11, 05.04 Inflict Damage) and models whose saves differ,
    each trial's save rolls are rolled together (re-rolled against the group current when
    rolled), sorted, and resolved from the lowest result to the highest, each against the group
    current when it is resolved."""

    def __init__(self, space: AllocationSpace, w: AttackProfile, lowest_first: bool = False):
        self.space = space
        self.w = w
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
        self.jumps: dict[int, _SaveJumps | None] = {}  # per allocation order, when tabulated
        self.tabulated = not self.lowest_first and _SaveJumps.damage_of(space, w) is not None

    def normal(
        self,
        dice: _Dice,
        states: np.ndarray,
        counts: np.ndarray,
        dealt: _Dealt,
        failed: np.ndarray,
        order: np.ndarray | int = 0,
    ) -> np.ndarray:
        """Each trial's ``counts`` normal wounds: save, Damage, Feel No Pain, allocation (in
        each trial's allocation order ``order``)."""
        if self.tabulated:
            done = self._by_jumps(dice, states, counts, dealt, failed, order)
            if done is not None:
                return done
        return self._wounds(dice, states, counts, dealt, failed, None, False, order)

    def _by_jumps(self, dice, states, counts, dealt, failed, order) -> np.ndarray | None:
        """:class:`_SaveJumps` for each allocation order the trials use (None: no table)."""
        if states.size == 0:
            return states
        orders = np.asarray(order)
        # one order for every trial (the usual case) without searching the whole array
        one = orders.min() == orders.max()
        used = [int(orders.flat[0])] if one else np.unique(orders).tolist()
        for o in used:
            if o not in self.jumps:
                self.jumps[o] = _SaveJumps.of(self.space, self.w, self.routing, o)
            if self.jumps[o] is None:
                return None
        if len(used) == 1:
            return self.jumps[used[0]].inflict(dice, states, counts, dealt, failed)
        for o in used:
            sel = np.flatnonzero(orders == o)  # several orders: ``order`` is an array
            part, fail = dealt.take(sel), failed[sel]
            states[sel] = self.jumps[o].inflict(dice, states[sel], counts[sel], part, fail)
            dealt.put(sel, part)
            failed[sel] = fail
        return states

    def devastating(
        self,
        dice: _Dice,
        states: np.ndarray,
        counts: np.ndarray,
        dealt: _Dealt,
        mortal: np.ndarray,
        order: np.ndarray | int = 0,
    ) -> np.ndarray:
        """Each trial's ``counts`` devastating Critical Wounds: mortal wounds equal to the
        Damage, no save, no spill-over."""
        return self._wounds(dice, states, counts, dealt, None, mortal, True, order)

    def _wounds(
        self,
        dice: _Dice,
        states: np.ndarray,
        counts: np.ndarray,
        dealt: _Dealt,
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
            dealt.add(act, dmg, through, sp.destroyed[st] >= sp.target.models)
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
            faces[where] = dice.roll(table, int(where.sum()))
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
    dealt: _Dealt,
) -> np.ndarray:
    """Mortal wounds applied one at a time, spilling over from model to model."""
    for i in range(int(count.max(initial=0))):
        act = np.nonzero(count > i)[0]
        st = states[act]
        kinds = space.kind_of(st, NORMAL)
        one = np.ones(act.size, dtype=np.int64)
        through = _points_through(dice, one, thresholds[kinds])
        dealt.add(act, one, through, space.destroyed[st] >= space.target.models)
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
    sink = _Dealt.zeros(chunk, waste=False)
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


def chunk_size(act: Activation) -> int:
    """Trials per chunk: :data:`CHUNK_TRIALS`, fewer when a trial needs a wide array (one
    column per value of a random Attacks characteristic or Sustained Hits X, one per Hazardous
    test), so that no array of a chunk exceeds :data:`DICE_PER_CHUNK` entries; at least 256."""
    width = [1, act.hazard.tests if act.hazard is not None else 0]
    for w in act.weapons:
        width.append(int(np.count_nonzero(w.attacks)))
        if w.sustained is not None:
            width.append(int(np.count_nonzero(w.sustained)))
    return int(np.clip(DICE_PER_CHUNK // max(width), 256, CHUNK_TRIALS))


def tabulated(space: AllocationSpace, w: AttackProfile) -> bool:
    """True when ``w``'s normal wounds are resolved from counts and a table of where failed
    saves leave the target, not one wound at a time (:class:`_SaveJumps`)."""
    return _SaveJumps.damage_of(space, w) is not None


def _binomial_se(p: float, n: int) -> float:
    """Standard error of a proportion ``p`` estimated from ``n`` trials."""
    if n < 2:
        return 0.0
    return float(np.sqrt(max(p * (1.0 - p), 0.0) / (n - 1)))


def run_sample(
    act: Activation,
    trials: int = 100_000,
    seed: int | np.random.Generator = 40_000,
    progress: Callable[[int, int], None] | None = None,
    start: TargetStates | None = None,
    keep_states: bool = False,
    waste: bool = False,
) -> Outcome:
    """Estimate one activation's outcome from ``trials`` seeded simulated activations.

    Args:
        act: the resolved profiles (the same the exact engine reads).
        trials: number of simulated activations (>= 1).
        seed: numpy ``default_rng`` seed; the same seed gives the same result. A Generator
            is used as it is: calls with one Generator continue one stream (runs of a
            multiple of :func:`chunk_size` trials then draw what one longer run draws).
        progress: called after each chunk with (trials done, trials).
        start: the target's state before the activation (default ``act.start``, else
            unharmed): one state per trial (``weights`` None, ``trials`` rows, e.g. an earlier
            run's ``final_states``), or a distribution each trial draws its state from.
        keep_states: return each trial's final state in ``final_states`` (trial order).
        waste: count the damage wasted per trial (``WeaponResult.wasted`` and
            ``standard_error["wasted"]``, for ``--explain``): a few more array operations per
            weapon and wound; without it the rows' ``wasted`` are empty.

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
    chunk = chunk_size(act)
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
        lost_at_start = space.wounds_lost[states] if waste else None
        dealt = _Dealt.zeros(n, waste)
        figure = dealt.figure
        before_counts = []
        for si, (src, thr) in enumerate(zip(act.before, before_thr, strict=True)):
            count = dice.from_pmf(src.count, n)
            before_counts.append(count)
            d0 = dealt.copy()
            wl0 = space.wounds_lost[states] if waste else None
            states = _spill(dice, space, states, count, thr, dealt)
            smom[si].n += n
            smom[si].add("mortal_wounds", count)
            smom[si].add("damage", figure - d0.figure)
            if waste:
                for f, v in dealt.wasted(d0, space.wounds_lost[states] - wl0).items():
                    smom[si].add(f, v)
        alive = n_models - space.destroyed[states]
        totals = {f: np.zeros(n, dtype=np.int64) for f in WEAPON_FIELDS}
        totals["mortal_wounds"] += sum((c for c in before_counts), np.zeros(n, dtype=np.int64))
        pending = []
        for wi, (w, inf) in enumerate(zip(act.weapons, inflicts, strict=True)):
            attacks = _attacks(dice, w, alive)
            cp = np.ones(n, dtype=bool) if w.command_reroll else None
            hits, normal, crit = _weapon_wounds(dice, w, attacks, n, cp)
            failed = np.zeros(n, dtype=np.int64)
            d0 = dealt.copy()
            wl0 = space.wounds_lost[states] if waste else None
            orders = act.policy.index(wi, normal, crit) if act.policy is not None else 0
            declared = space.declared(states, orders)  # a wounded group first (05.03)
            states = inf.normal(dice, states, normal, dealt, failed, declared)
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
            wasted = dealt.wasted(d0, space.wounds_lost[states] - wl0) if waste else {}
            pending.append((crit, figure - d0.figure, wasted, orders))
        for wi, (w, inf) in enumerate(zip(act.weapons, inflicts, strict=True)):
            crit, fig_normal, wasted, orders = pending[wi]
            mortal = np.zeros(n, dtype=np.int64)
            d0 = dealt.copy()
            if w.devastating:
                wl0 = space.wounds_lost[states]
                states = inf.devastating(dice, states, crit, dealt, mortal, orders)
                if waste:
                    more = dealt.wasted(d0, space.wounds_lost[states] - wl0)
                    wasted = {f: v + more[f] for f, v in wasted.items()}
            wmom[wi].add("mortal_wounds", mortal)
            wmom[wi].add("damage", fig_normal + (figure - d0.figure))
            for f, v in wasted.items():
                wmom[wi].add(f, v)
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
        if waste:
            for f, v in dealt.wasted(_Dealt.zeros(n), lost - lost_at_start).items():
                moments.add(f"wasted_{f}", v)
        moments.add("hazard_mortal_wounds", hz_mw)
        moments.add("hazard_models_destroyed", hz_dead)
        moments.add("hazard_at_least_one", hz_dead > 0)
        md_counts += np.bincount(destroyed, minlength=n_models + 1)[: n_models + 1]
        wl_counts += np.bincount(lost, minlength=act.target.wounds + 1)[: act.target.wounds + 1]
        ch_counts += space.character_dead[:, states].sum(axis=1)
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
    for row, m in zip(rows, smom, strict=True):
        if waste:
            row.wasted.update({f: m.mean(f) for f in WASTE_FIELDS})
            row.wasted_se.update({f: m.se(f) for f in WASTE_FIELDS})
    for w, m in zip(act.weapons, wmom, strict=True):
        rows.append(
            WeaponResult(
                w.name,
                w.models,
                {f: m.mean(f) for f in WEAPON_FIELDS},
                {f: m.se(f) for f in WEAPON_FIELDS},
                {f: m.mean(f) for f in WASTE_FIELDS} if waste else {},
                {f: m.se(f) for f in WASTE_FIELDS} if waste else {},
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
            "wasted": {f: moments.se(f"wasted_{f}") for f in WASTE_FIELDS} if waste else {},
        },
    )
    out.standard_error["kill_table"] = [_binomial_se(p, trials) for p in out.kill_table]
    finals_kept = TargetStates(space.shape, np.concatenate(finals)) if keep_states else None
    return out.replaced(dice_drawn=dice.drawn, final_states=finals_kept)
