"""The Monte Carlo sampler: the exact engine's independent second opinion.

It reads the same :class:`~wh40k_calc.profile.Activation` and uses the same allocation policy
(:class:`~wh40k_calc.engine.allocation.AllocationSpace`), but rolls the dice. Dice that are
independent and alike are drawn as counts, one draw per trial and stage (``counts.py``: how
many of a weapon's Hit rolls miss, hit or are Critical Hits, re-rolls included; the same for its
Wound rolls, its models' Attacks, Sustained Hits, the points Feel No Pain ignores). Where a
weapon's attacks are alike all the way to their saving throws (no Critical Hit or Wound that
does anything of its own, one save for every model, fixed Damage, no Feel No Pain), each
attack's Hit roll, Wound roll and save are drawn together: one count a trial of its attacks
that miss, do not wound, are saved and fail their save (:func:`attack_outcomes`). Where the
Damage is fixed and no model has Feel No Pain, a weapon's normal wounds are resolved from
counts of failed saves and a table of where they leave the target, whether the models' saves
are alike or differ (an attached Leader; edition 11's lowest-first save rolls): ``jumps.py``.
Otherwise a die whose effect depends on the model it is allocated to is rolled on its own,
wound by wound (random Damage, Feel No Pain, Devastating Wounds). Work is vectorised with numpy
across trials, in chunks so memory stays bounded; the only Python loops run over weapons, over
the changes of save in a trial's sequence, and over the position of a wound resolved on its
own (each pass handles that wound for every trial at once), never over trials or dice. It never
draws from the exact engine's distributions: it shares only the resolved profiles and the
allocation policy.

:func:`run_sample` runs each chunk of trials through the phases of the attack sequence in order
(:class:`_Phases`) and adds its figures to the running tallies (:class:`_Tally`). Asked to
(``waste``), it also counts the damage wasted per trial (:class:`_Waste`).
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
    MISS,
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
from .arrays import distinct
from .counts import Counts, die_classes, draw_counts
from .jumps import NEVER, MixedSaves, SaveJumps
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

    def add(self, name: str, values: np.ndarray | None, seen: dict | None = None) -> None:
        """Add one chunk's values of ``name`` (None: all zero, nothing to add); ``seen``
        keeps the sums of arrays added before (by identity), for an array added twice (a
        weapon's figure that is also the total)."""
        if values is None:
            return
        sums = None if seen is None else seen.get(id(values))
        if sums is None:
            v = values.astype(np.int64, copy=False)
            sums = (float(v.sum()), float(np.einsum("i,i->", v, v)))
            if seen is not None:
                seen[id(values)] = sums
        self.sums[name] = self.sums.get(name, 0.0) + sums[0]
        self.squares[name] = self.squares.get(name, 0.0) + sums[1]

    def add_constant(self, name: str, value: int, n: int) -> None:
        """Add ``n`` values of ``name`` that are all ``value``; the same sums as :meth:`add`."""
        self.sums[name] = self.sums.get(name, 0.0) + float(value * n)
        self.squares[name] = self.squares.get(name, 0.0) + float(value * value * n)

    def add_counts(self, name: str, counts: np.ndarray) -> None:
        """Add one chunk's values of ``name`` given as counts by value (``counts[k]``: trials
        of value k); the same sums as :meth:`add` of the values (integers, exact)."""
        k = np.arange(counts.size, dtype=np.int64)
        c = counts.astype(np.int64, copy=False)
        self.sums[name] = self.sums.get(name, 0.0) + float(np.dot(k, c))
        self.squares[name] = self.squares.get(name, 0.0) + float(np.dot(k * k, c))

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

    def beta_binomial(self, n: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Per entry: a beta-binomial draw (``n`` trials, shapes ``a`` and ``b``, both >= 1),
        as a beta then a binomial draw."""
        self.drawn += 2 * n.size
        return self.rng.binomial(n, self.rng.beta(a, b))


_SaveJumps = SaveJumps  # the single-save table (tests reach it by this name)


class _Lookup(dict):
    """Outcome or re-roll tables as small numpy arrays, indexed by face (cached)."""

    def __init__(self, dtype: type):
        super().__init__()
        self.dtype = dtype

    def __missing__(self, key: tuple) -> np.ndarray:
        arr: np.ndarray = np.asarray(key, dtype=self.dtype)
        self[key] = arr
        return arr


_OUTCOME = _Lookup(np.int8)  # RollTable.outcome -> array; index 0 (no die) is class 0
_REROLL = _Lookup(bool)


@dataclass
class _Waste:
    """Per trial of a chunk, the points the damage figure alone does not tell apart: ``raw``
    inflicted before Feel No Pain, and ``after`` through Feel No Pain onto a unit with every
    model destroyed. With the figure and the wounds the target lost they give the points
    wasted (WASTE_FIELDS, :meth:`wasted`)."""

    raw: np.ndarray
    after: np.ndarray

    @classmethod
    def zeros(cls, n: int) -> _Waste:
        return cls(np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64))

    def copy(self) -> _Waste:
        return _Waste(self.raw.copy(), self.after.copy())

    def add(self, act: np.ndarray, raw: np.ndarray, through: np.ndarray, wiped) -> None:
        """Trials ``act`` inflict ``raw`` points, ``through`` of them through Feel No Pain,
        on a unit destroyed (``wiped``, per trial) or not."""
        self.raw[act] += raw
        self.after[act] += np.where(wiped, through, 0)

    def wasted(self, since: _Waste, figure: np.ndarray, lost: np.ndarray) -> dict:
        """Per trial, the points of WASTE_FIELDS wasted since ``since``, in which the damage
        figure grew by ``figure`` and the target lost ``lost`` wounds."""
        after = self.after - since.after
        return {
            "beyond_wounds_left": figure - lost - after,
            "feel_no_pain": self.raw - since.raw - figure,
            "after_destruction": after,
        }


def _wiped(space: AllocationSpace, states: np.ndarray) -> np.ndarray:
    """Per state, whether every model of the unit is destroyed."""
    return space.destroyed[states] >= space.target.models


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

    def roll(
        self,
        dice: _Dice,
        kinds: np.ndarray,
        lefts: np.ndarray,
        once: np.ndarray | None = None,
    ) -> np.ndarray:
        """The damage of one Damage roll per entry, against models of ``kinds`` with ``lefts``
        wounds left (re-rolled where that model's table says; with ``once``, a per-entry
        "a single re-roll is still available" array, only there, and a re-roll spends it)."""
        out = np.zeros(kinds.size, dtype=np.int64)
        for k, sel in _by_kind(kinds):
            n = kinds.size if sel is None else int(sel.sum())
            left = lefts if sel is None else lefts[sel]
            idx = dice.from_pmf(self.probs[k], n)
            again = self.reroll[k][left, idx]
            if once is not None:
                avail = once if sel is None else once[sel]
                again = again & avail
                avail[again] = False
                if sel is not None:
                    once[sel] = avail
            m = int(again.sum())
            if m:
                idx[again] = dice.from_pmf(self.probs[k], m)
            if sel is None:
                out = self.final[k][idx]
            else:
                out[sel] = self.final[k][idx]
        return out


def _substituted_damage(tables: list[DamageTable], fixed: tuple[int, ...]) -> np.ndarray:
    """damage[kind, face]: what a Damage roll replaced by a D6 result of ``face`` (1-6) deals
    against each model kind's table (face 0 unused); empty without substituted rolls."""
    if not fixed:
        return np.zeros((0, 7), dtype=np.int64)
    rows = [[0] + [t.final[t.face_outcome(f)] for f in range(1, 7)] for t in tables]
    return np.array(rows, dtype=np.int64)


def _by_kind(kinds: np.ndarray):
    """(kind, mask) for each kind present; mask None when every entry is of that kind."""
    if kinds.size == 0:
        return []
    first = kinds[0]
    if (kinds == first).all():
        return [(int(first), None)]
    return [(int(k), kinds == k) for k in np.unique(kinds)]


def _fixed_attacks(w: AttackProfile) -> int | None:
    """The weapon's attacks when they are the same in every trial (a fixed Attacks
    characteristic and no [BLAST] bonus), else None."""
    values = np.flatnonzero(w.attacks)
    return int(w.models * values[0]) if len(values) == 1 and not w.blast else None


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
    drawn as counts; [TORRENT] attacks hit automatically and never score a Critical Hit. With
    ``reroll_one_hit``, a trial with a failed roll the table did not re-roll re-rolls one of
    them (the fresh result stands; with ``single_face``, a trial with a failed roll, re-rolled
    or not, turns one of them into that result). Substituted Hit rolls
    (``w.substituted.hits``): a trial's first attacks take those results."""
    if w.hit is None:
        return attacks, np.zeros_like(attacks)
    fixed = w.substituted.hits if w.substituted else ()
    if fixed:  # the first attacks' Hit rolls take the substituted results (not re-rolled)
        return _first_fixed(dice, attacks, fixed, w.hit)
    if not w.reroll_one_hit:
        c = dice.counts(attacks, die_classes(w.hit, 3))
        return c[HIT], c[CRIT]
    if w.single_face:  # a failed roll, re-rolled or not, becomes the fixed result
        c = dice.counts(attacks, die_classes(w.hit, 3))
        hits, crits = c[HIT].copy(), c[CRIT].copy()
        cls = w.hit.outcome[w.single_face]
        if cls != MISS:
            (hits if cls == HIT else crits)[c[MISS] > 0] += 1
        return hits, crits
    c = dice.counts(attacks, die_classes(w.hit, 3, marked=True))
    hits, crits = c[HIT + 1], c[CRIT + 1]
    rows = np.flatnonzero(c[0] > 0)  # a failure not yet re-rolled
    if rows.size:
        again = _OUTCOME[w.hit.outcome][dice.d6(rows.size)]
        hits[rows] += again == HIT
        crits[rows] += again == CRIT
    return hits, crits


def _first_fixed(
    dice: _Dice, rolls: np.ndarray, fixed: tuple[int, ...], table
) -> tuple[np.ndarray, np.ndarray]:
    """Per trial: (successes, Critical successes) of ``rolls`` rolls on ``table`` (a Hit or
    Wound roll table: MISS/HIT/CRIT are FAIL/WOUND/CRIT_WOUND's classes too) whose first
    ``len(fixed)`` results are the faces ``fixed`` (substituted dice: not re-rolled); a trial
    with fewer rolls takes only as many of them."""
    made = np.minimum(rolls, len(fixed))
    c = dice.counts(rolls - made, die_classes(table, 3))
    normal, critical = c[HIT].copy(), c[CRIT].copy()
    for i, f in enumerate(fixed):
        cls = table.outcome[f]
        if cls != MISS:
            (normal if cls == HIT else critical)[made > i] += 1
    return normal, critical


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
    the trials that spend it are set to False; with ``w.single_face`` it is spent on a failed
    Wound roll of an own hit, re-rolled or not, which becomes that result. Substituted Wound
    rolls (``w.substituted.wounds``) are the first of a trial's rolls (never with the Command
    Re-roll: ``AttackProfile.check_substituted``)."""
    fixed = w.substituted.wounds if w.substituted else ()
    if fixed:  # the first Wound rolls take the substituted results (not re-rolled)
        return _first_fixed(dice, own if extra is None else own + extra, fixed, w.wound)
    if command_reroll is None:
        c = dice.counts(own if extra is None else own + extra, die_classes(w.wound, 3))
        return c[WOUND], c[CRIT_WOUND]
    if w.single_face:  # a failed roll, re-rolled or not, becomes the fixed result
        c = dice.counts(own, die_classes(w.wound, 3))
        normal, critical = c[WOUND].copy(), c[CRIT_WOUND].copy()
        rows = np.flatnonzero((c[FAIL] > 0) & command_reroll)
        cls = w.wound.outcome[w.single_face]
        if cls != FAIL:
            (normal if cls == WOUND else critical)[rows] += 1
        command_reroll[rows] = False
    else:
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


# The outcome classes of one attack drawn whole (attack_outcomes)
MISSED, NOT_WOUNDED, SAVED_WOUND, FAILED_SAVE = 0, 1, 2, 3


def _alike_to_the_save(w: AttackProfile) -> bool:
    """True when nothing but whether an attack hits, wounds and is saved matters up to its
    saving throw: no Critical Hit or Critical Wound does anything of its own (no Sustained
    Hits, Lethal Hits or Devastating Wounds) and no re-roll taken once per activation (the
    Command Re-roll, a single Hit re-roll: one for all the attacks, not one each)."""
    once = w.command_reroll or w.reroll_one_hit or bool(w.substituted)
    return w.sustained is None and not (w.lethal or w.devastating or once)


def attack_outcomes(w: AttackProfile) -> np.ndarray:
    """P(one attack of ``w`` misses, hits but does not wound, wounds and is saved, wounds and
    its saving throw fails): indices MISSED, NOT_WOUNDED, SAVED_WOUND, FAILED_SAVE.

    For a weapon whose attacks are alike up to the save (:func:`_alike_to_the_save`) against a
    target whose models all make the same saving throw (the first model kind's stands for
    all), each attack goes through its Hit roll, Wound roll and saving throw independently of
    the others (Core rules: Hit Roll, Wound Roll, Saving Throw; [TORRENT]: it hits), so the
    attacks of a trial fall into these four classes as one multinomial count: one draw a trial
    instead of one per roll (DESIGN.md: the sampler draws what it must). Worked out from the
    roll tables here (:func:`~.counts.die_classes`), never from the exact engine."""
    hit = 1.0 if w.hit is None else 1.0 - float(die_classes(w.hit, 3)[MISS])
    wound = 1.0 - float(die_classes(w.wound, 3)[FAIL])
    save = w.vs[0].save
    fail = 1.0 if save is None else float(die_classes(save, 2)[SAVE_FAILED])
    out = np.array([1.0 - hit, hit * (1.0 - wound), hit * wound * (1.0 - fail), 0.0])
    out[FAILED_SAVE] = hit * wound * fail
    return out


def _weapon_wounds(
    dice: _Dice,
    w: AttackProfile,
    attacks: np.ndarray,
    command_reroll: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """One weapon's Hit and Wound rolls for every trial: per trial (hits, normal wounds,
    devastating Critical Wounds; None without [DEVASTATING WOUNDS]), each stage drawn as
    counts.

    A Critical Hit scores the extra hits of [SUSTAINED HITS X] (not rolled to hit; they roll to
    wound) and, with [LETHAL HITS], wounds automatically without a Wound roll (a normal wound).
    With [DEVASTATING WOUNDS] the Critical Wounds are returned apart; otherwise they join the
    normal wounds. ``command_reroll``: see :func:`_wound_rolls`."""
    attacks = attacks.astype(np.int64, copy=False)
    fixed = w.substituted is not None and bool(w.substituted.hits or w.substituted.wounds)
    if w.hit is not None and w.sustained is None and not (w.lethal or w.reroll_one_hit or fixed):
        # only the hits count: every attack that does not miss (one row of the counts)
        rolled = attacks - dice.counts(attacks, die_classes(w.hit, 3))[MISS]
        if not w.devastating and command_reroll is None:
            failed = dice.counts(rolled, die_classes(w.wound, 3))[FAIL]
            return rolled, rolled - failed, None
        normal, critical = _wound_rolls(dice, w, rolled, None, command_reroll)
        return (rolled, normal, critical) if w.devastating else (rolled, normal + critical, None)
    hits, crits = _hit_rolls(dice, w, attacks)
    extra = None
    if w.sustained is not None and crits.any():
        extra = dice.total(w.sustained, crits)
    rolled = hits + crits
    normal, critical = _wound_rolls(dice, w, hits if w.lethal else rolled, extra, command_reroll)
    if w.lethal:
        normal = normal + crits
    n_hits = rolled if extra is None else rolled + extra
    if w.devastating:
        return n_hits, normal, critical
    return n_hits, normal + critical, None


class _Inflict:
    """Applies wounds of one weapon to the target states, one position at a time.

    With ``lowest_first`` (edition 11, 05.04 Inflict Damage) and models whose saves differ,
    each trial's save rolls are rolled together (re-rolled against the group current when
    rolled), sorted, and resolved from the lowest result to the highest, each against the group
    current when it is resolved."""

    def __init__(self, space: AllocationSpace, w: AttackProfile, lowest_first: bool = False):
        w.check_substituted()
        self.space = space
        self.w = w
        self.routing = PRECISION if w.precision else NORMAL
        self.mortal_routing = PRECISION if w.precision_mortals else NORMAL
        max_left = int(space.left.max()) if space.size else 1
        self.damage = _DamageRoller([v.damage for v in w.vs], max_left)
        # the mortal wounds of a devastating Critical Wound, where they differ from the Damage
        differs = any(v.mortal_damage is not None for v in w.vs)
        tables = [v.devastating_damage for v in w.vs]
        self.mortal_damage = _DamageRoller(tables, max_left) if differs else self.damage
        self.saves = [v.save for v in w.vs]
        self.fnp = np.array([_fnp_threshold(v.fnp) for v in w.vs])
        self.fnp_mortal = np.array([_fnp_threshold(v.fnp_mortal) for v in w.vs])
        self.lowest_first = lowest_first and saves_differ(space, w.vs, self.routing)
        # fails_on[kind, face]: a save roll whose result stands at face fails (face 0 unused)
        self.fails_on = np.array([[v.save_fails_on(f) for f in range(7)] for v in w.vs])
        self.jumps: dict[int, SaveJumps | None] = {}  # per allocation order, when tabulated
        # the saves alike (then never lowest first: nothing to order), else mixed saves
        self.tabulated = _SaveJumps.damage_of(space, w) is not None
        self.mixed = not self.tabulated and MixedSaves.damage_of(space, w) is not None
        self.to_wipe: dict[int, tuple[np.ndarray, int]] = {}  # per order, for the waste
        self.fixed = w.substituted.damage if w.substituted else ()
        if w.reroll_one_damage or self.fixed:  # each Damage roll rolled: one is special
            self.tabulated = self.mixed = False
        # fixed_damage[kind, face]: the damage of a substituted Damage roll of that result
        self.fixed_damage = _substituted_damage([v.damage for v in w.vs], self.fixed)
        self.fixed_mortal = _substituted_damage(tables, self.fixed)
        self.once: np.ndarray | None = None  # per trial of a chunk: the single Damage re-roll
        self.fixed_left: np.ndarray | None = None  # per trial: substituted Damage rolls left
        # the whole of one attack up to its saving throw drawn as one count (see
        # attack_outcomes), its failed saves then taken through the table
        self.outcomes: np.ndarray | None = None
        if self.tabulated and _alike_to_the_save(w):
            self.jumps[0] = self._table(0)
            if self.jumps[0] is not None:
                self.outcomes = attack_outcomes(w)

    def start_chunk(self, n: int) -> None:
        """A new chunk of ``n`` trials: each has the weapon's single Damage re-roll, if any,
        and its substituted Damage rolls."""
        self.once = np.ones(n, dtype=bool) if self.w.reroll_one_damage else None
        self.fixed_left = np.full(n, len(self.fixed), dtype=np.int64) if self.fixed else None

    def normal(
        self,
        dice: _Dice,
        states: np.ndarray,
        counts: np.ndarray,
        figure: np.ndarray,
        failed: np.ndarray,
        order: np.ndarray | int = 0,
        waste: _Waste | None = None,
    ) -> np.ndarray:
        """Each trial's ``counts`` normal wounds: save, Damage, Feel No Pain, allocation (in
        each trial's allocation order ``order``); ``waste``: tally what :class:`_Waste`
        counts too."""
        if self.tabulated or self.mixed:
            start = (states.copy(), failed.copy(), figure.copy()) if waste is not None else None
            done = self._by_jumps(dice, states, counts, figure, failed, order)
            if done is not None:
                if waste is not None and start is not None:
                    self._jumps_waste(waste, start, failed, figure, order)
                return done
        return self._wounds(dice, states, counts, figure, failed, None, False, order, waste)

    def _jumps_waste(self, waste: _Waste, start, failed, figure, order) -> None:
        """What :class:`_Waste` counts of failed saves resolved by the tables (no Feel No
        Pain: every point is through it): the table's path from each trial's start state is
        the same however its failed saves are split (``MixedSaves`` moves along it), so those
        past the one that destroys the last model each land on a destroyed unit."""
        s0, f0, fig0 = start
        waste.raw += figure - fig0
        j = failed - f0
        orders = np.broadcast_to(np.asarray(order), s0.shape)
        for o in distinct(orders) if orders.size else ():
            to_wipe, rate = self._to_wipe(int(o))
            sel = orders == o
            waste.after[sel] += np.maximum(j[sel] - to_wipe[s0[sel]], 0) * rate

    def _to_wipe(self, order: int) -> tuple[np.ndarray, int]:
        """Per start state, the failed saves of the table of ``order`` after which every
        model is destroyed (:data:`~.jumps.NEVER`: never), and the damage each failed save
        does then."""
        if order not in self.to_wipe:
            t = self.jumps[order]
            assert t is not None
            path = t.jump.reshape(t.last + 1, t.size)
            wiped = _wiped(self.space, path)
            first = np.where(wiped.any(axis=0), wiped.argmax(axis=0), NEVER)
            dead = np.flatnonzero(_wiped(self.space, np.arange(t.size)))
            rate = int(t.rate[dead[0]]) if dead.size else 0
            self.to_wipe[order] = (first, rate)
        return self.to_wipe[order]

    def failed_saves(
        self, states: np.ndarray, lost: np.ndarray, order: np.ndarray | int = 0
    ) -> tuple[np.ndarray, np.ndarray]:
        """Each trial's ``lost`` failed saves, already drawn (:attr:`outcomes`), taken through
        the table of its allocation order ``order``: (the new states, the damage dealt)."""
        orders = np.asarray(order)
        if orders.ndim == 0 or orders.min() == orders.max():
            return self._jumps_of(int(orders.flat[0])).move(states, lost)
        states, dealt = states.copy(), np.zeros(states.size, dtype=np.int64)
        for o in np.unique(orders).tolist():
            sel = np.flatnonzero(orders == o)
            states[sel], dealt[sel] = self._jumps_of(o).move(states[sel], lost[sel])
        return states, dealt

    def _jumps_of(self, order: int) -> SaveJumps:
        """The table of allocation order ``order`` (built once; it exists where
        :attr:`outcomes` are drawn)."""
        if order not in self.jumps:
            self.jumps[order] = self._table(order)
        jumps = self.jumps[order]
        assert jumps is not None
        return jumps

    def _by_jumps(self, dice, states, counts, figure, failed, order) -> np.ndarray | None:
        """:class:`_SaveJumps` for each allocation order the trials use (None: no table)."""
        if states.size == 0:
            return states
        orders = np.asarray(order)
        # one order for every trial (the usual case) without searching the whole array
        one = orders.min() == orders.max()
        used = [int(orders.flat[0])] if one else np.unique(orders).tolist()
        tables = {}
        for o in used:
            if o not in self.jumps:
                self.jumps[o] = self._table(o)
            if (table := self.jumps[o]) is None:
                return None
            tables[o] = table
        if len(used) == 1:
            return tables[used[0]].inflict(dice, states, counts, figure, failed)
        for o in used:
            sel = np.flatnonzero(orders == o)  # several orders: ``order`` is an array
            fig, fail = figure[sel], failed[sel]
            states[sel] = tables[o].inflict(dice, states[sel], counts[sel], fig, fail)
            figure[sel], failed[sel] = fig, fail
        return states

    def _table(self, order: int) -> SaveJumps | None:
        """The table of where failed saves leave the target in allocation order ``order``."""
        if self.tabulated:
            return _SaveJumps.of(self.space, self.w, self.routing, order)
        return MixedSaves.of(self.space, self.w, self.routing, order, self.lowest_first)

    def devastating(
        self,
        dice: _Dice,
        states: np.ndarray,
        counts: np.ndarray,
        figure: np.ndarray,
        mortal: np.ndarray,
        order: np.ndarray | int = 0,
        waste: _Waste | None = None,
    ) -> np.ndarray:
        """Each trial's ``counts`` devastating Critical Wounds: mortal wounds equal to the
        Damage, no save, no spill-over."""
        return self._wounds(dice, states, counts, figure, None, mortal, True, order, waste)

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
        waste: _Waste | None = None,
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
                assert failed is not None  # given for normal wounds
                failed[act] += 1
            once = self.once
            spare = None if once is None else once[act]
            roller = self.mortal_damage if devastating else self.damage
            dmg = roller.roll(dice, kinds, lefts, spare)
            if once is not None:
                once[act] = spare
            if self.fixed_left is not None:  # the trial's first Damage rolls: substituted
                self._substitute(act, kinds, dmg, devastating)
            if devastating:
                assert mortal is not None  # given for devastating wounds
                mortal[act] += dmg
            through = _points_through(dice, dmg, fnp[kinds])
            figure[act] += through
            if waste is not None:
                waste.add(act, dmg, through, _wiped(sp, st))
            states[act] = sp.apply(st, through, routing, od)
        return states

    def _substitute(
        self, act: np.ndarray, kinds: np.ndarray, dmg: np.ndarray, devastating: bool
    ) -> None:
        """Replace the Damage rolls ``dmg`` of the trials ``act`` that still have a
        substituted Damage roll (``AttackProfile.substituted.damage``, in order) by its
        damage against their model kinds (the mortal wounds with ``devastating``), and use
        it up."""
        assert self.fixed_left is not None
        left = self.fixed_left[act]
        use = np.flatnonzero(left > 0)
        if use.size:
            faces = np.asarray(self.fixed)[len(self.fixed) - left[use]]
            table = self.fixed_mortal if devastating else self.fixed_damage
            dmg[use] = table[kinds[use], faces]
            self.fixed_left[act[use]] -= 1

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
    figure: np.ndarray,
    waste: _Waste | None = None,
) -> np.ndarray:
    """Mortal wounds applied one at a time, spilling over from model to model."""
    for i in range(int(count.max(initial=0))):
        act = np.nonzero(count > i)[0]
        st = states[act]
        kinds = space.kind_of(st, NORMAL)
        one = np.ones(act.size, dtype=np.int64)
        through = _points_through(dice, one, thresholds[kinds])
        figure[act] += through
        if waste is not None:
            waste.add(act, one, through, _wiped(space, st))
        states[act] = space.apply(st, through, NORMAL)
    return states


def _hazard(
    dice: _Dice, act: Activation, chunk: int, space: AllocationSpace
) -> tuple[np.ndarray, np.ndarray]:
    """Per trial: mortal wounds from failed Hazardous tests, attacker models destroyed
    (``space``: the states of the models carrying a Hazardous weapon)."""
    hz = act.hazard
    assert hz is not None  # called for an activation with a Hazardous weapon
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
    saves leave the target, not one wound at a time (:mod:`~.jumps`)."""
    return MixedSaves.damage_of(space, w) is not None


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

    Each chunk of trials goes through the phases of the attack sequence in order (as the exact
    engine's passes do): the mortal wounds before the attacks, each weapon's attacks and normal
    damage, then the mortal wounds of Devastating Wounds, then the Hazardous tests; the chunk's
    figures are then added to the running tallies (:class:`_Tally`).

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
    start = start if start is not None else act.start
    space = _space(act, start)
    starts = _Starts(space, start, trials, rng)
    phases = _Phases(act, space, _Dice(rng), waste)
    tally = _Tally(act, space, keep_states, waste)
    chunk = chunk_size(act)
    for done in range(0, trials, chunk):
        c = phases.chunk(starts.take(done, min(chunk, trials - done)))
        tally.add(c)
        if progress is not None:
            progress(done + c.n, trials)
    return tally.outcome(trials, seed, phases.dice.drawn)


@dataclass
class _Chunk:
    """One chunk of trials as the phases leave it (arrays: one entry per trial).

    Attributes:
        states: the target's state; figure: damage inflicted (every point, overkill too).
        totals: each of WEAPON_FIELDS summed over the activation (damage: set at the end;
            None for a figure that is 0 in every trial).
        sources: per mortal-wound source before the attacks, (mortal wounds, damage).
        weapons: per weapon, {field: values} of WEAPON_FIELDS (None: 0 in every trial).
        hazard: (mortal wounds to the attacker, attacker models destroyed); None without a
            Hazardous test.
        waste: what :class:`_Waste` counts (None: not asked for); ``wasted``: per source,
            then per weapon, {field: values} of WASTE_FIELDS; ``lost_at_start``: the wounds
            the target had lost when the chunk began.
    """

    states: np.ndarray
    figure: np.ndarray
    totals: dict[str, np.ndarray | None]
    sources: list[tuple[np.ndarray, np.ndarray]] = field(default_factory=list)
    weapons: list[dict[str, np.ndarray | None]] = field(default_factory=list)
    hazard: tuple[np.ndarray, np.ndarray] | None = None
    waste: _Waste | None = None
    wasted: list[dict[str, np.ndarray]] = field(default_factory=list)
    lost_at_start: np.ndarray | None = None

    @property
    def n(self) -> int:
        return self.states.size

    def add(self, name: str, values: np.ndarray) -> None:
        """Add ``values`` to the total ``name`` (never in place: the first values are kept as
        they are, as the weapon's own figure)."""
        total = self.totals[name]
        self.totals[name] = values if total is None else total + values


class _Phases:
    """The attack sequence for a chunk of trials, phase by phase (each a method)."""

    def __init__(self, act: Activation, space: AllocationSpace, dice: _Dice, waste: bool = False):
        self.act, self.space, self.dice, self.waste = act, space, dice, waste
        self.inflicts = [_Inflict(space, w, act.lowest_first) for w in act.weapons]
        self.before_fnp = [np.array([_fnp_threshold(p) for p in s.fnp]) for s in act.before]
        hz = act.hazard
        self.carriers = AllocationSpace(hz.carriers) if hz is not None and hz.tests else None
        self.fixed = [_fixed_attacks(w) for w in act.weapons]
        self.constants: dict[tuple[int, int], np.ndarray] = {}  # (attacks, trials) -> array

    def _attacks(self, w: AttackProfile, wi: int, alive: np.ndarray) -> np.ndarray:
        """Per trial, the attacks of weapon ``wi`` (:func:`_attacks`); fixed attacks are one
        read-only array per chunk size (no die is rolled for them)."""
        fixed = self.fixed[wi]
        if fixed is None:
            return _attacks(self.dice, w, alive)
        key = (fixed, alive.size)
        if key not in self.constants:
            self.constants[key] = np.full(alive.size, fixed, dtype=np.int64)
            self.constants[key].flags.writeable = False
        return self.constants[key]

    def chunk(self, states: np.ndarray) -> _Chunk:
        """Every phase for trials starting in ``states``."""
        n = states.size
        c = _Chunk(states, np.zeros(n, dtype=np.int64), dict.fromkeys(WEAPON_FIELDS))
        if self.waste:
            c.waste, c.lost_at_start = _Waste.zeros(n), self.space.wounds_lost[states]
        self.mortal_wounds_before(c)
        pending = self.attacks(c)
        self.devastating_wounds(c, pending)
        if self.carriers is not None:
            c.hazard = _hazard(self.dice, self.act, n, self.carriers)
        c.totals["damage"] = c.figure
        return c

    def mortal_wounds_before(self, c: _Chunk) -> None:
        """Mortal wounds inflicted before the attacks (Grenade, Bloody Stampede), one at a
        time, spilling over from model to model."""
        for src, thr in zip(self.act.before, self.before_fnp, strict=True):
            count = self.dice.from_pmf(src.count, c.n)
            fig0 = c.figure.copy()
            mark = self._mark(c)
            c.states = _spill(self.dice, self.space, c.states, count, thr, c.figure, c.waste)
            c.sources.append((count, c.figure - fig0))
            c.wasted.append(self._wasted(c, mark, c.figure - fig0))
            c.add("mortal_wounds", count)

    def _mark(self, c: _Chunk) -> tuple[_Waste, np.ndarray] | None:
        """Where :class:`_Waste`'s counts and the wounds lost stand before a phase (None: the
        waste is not counted)."""
        if c.waste is None:
            return None
        return c.waste.copy(), self.space.wounds_lost[c.states]

    def _wasted(self, c: _Chunk, mark, figure: np.ndarray) -> dict[str, np.ndarray]:
        """The points wasted since ``mark`` (the damage figure grew by ``figure``); empty when
        the waste is not counted."""
        if mark is None or c.waste is None:
            return {}
        since, lost0 = mark
        return c.waste.wasted(since, figure, self.space.wounds_lost[c.states] - lost0)

    def attacks(self, c: _Chunk) -> list[tuple[np.ndarray | None, np.ndarray, np.ndarray | int]]:
        """Each weapon in turn: Attacks, Hit and Wound rolls as counts, then its normal wounds
        on the target (saves, Damage, Feel No Pain, allocation). Returns per weapon its
        devastating Critical Wounds, the damage of its normal wounds and the allocation orders
        its trials used (for :meth:`devastating_wounds`)."""
        act, dice = self.act, self.dice
        alive = act.target.models - self.space.destroyed[c.states]  # when selected (Blast)
        pending = []
        for wi, (w, inf) in enumerate(zip(act.weapons, self.inflicts, strict=True)):
            inf.start_chunk(c.n)
            attacks = self._attacks(w, wi, alive)
            lost = None
            if inf.outcomes is not None:  # each attack's Hit, Wound and save: one count
                whole = dice.counts(attacks, inf.outcomes)
                hits = whole.sum_of((NOT_WOUNDED, SAVED_WOUND, FAILED_SAVE))
                normal = whole.sum_of((SAVED_WOUND, FAILED_SAVE))
                lost, crit = whole[FAILED_SAVE], None
            else:
                cp = np.ones(c.n, dtype=bool) if w.command_reroll else None
                hits, normal, crit = _weapon_wounds(dice, w, attacks, cp)
            wounds = normal if crit is None else normal + crit
            if w.substituted and w.substituted.saves:  # saved outright: no save to roll
                normal = np.maximum(normal - len(w.substituted.saves), 0)
            orders: np.ndarray | int = 0
            if act.policy is not None:
                orders = act.policy.index(wi, normal, 0 if crit is None else crit)
            # a wounded group first (05.03); one order for every trial without a product space
            declared = self.space.declared(c.states, orders) if self.space.product else 0
            mark = self._mark(c)
            if lost is not None:
                start = c.states
                c.states, dealt = inf.failed_saves(c.states, lost, declared)
                failed = lost
                if c.waste is not None:  # as the tables' normal wounds are counted
                    zero = np.zeros(c.n, dtype=np.int64)
                    inf._jumps_waste(c.waste, (start, zero, zero), failed, dealt, declared)
            else:
                failed = np.zeros(c.n, dtype=np.int64)
                dealt = np.zeros(c.n, dtype=np.int64)
                c.states = inf.normal(dice, c.states, normal, dealt, failed, declared, c.waste)
            c.figure += dealt
            c.wasted.append(self._wasted(c, mark, dealt))
            figures = {"attacks": attacks, "hits": hits, "wounds": wounds}
            figures["failed_saves"] = failed
            for f, v in figures.items():
                c.add(f, v)
            c.weapons.append(figures)
            pending.append((crit, dealt, orders))
        return pending

    def devastating_wounds(self, c: _Chunk, pending: list) -> None:
        """The mortal wounds of Devastating Wounds, weapon by weapon, after all normal damage
        (equal to the Damage, no save, no spill-over)."""
        rows = len(self.act.before)
        for i, (w, inf, figures, (crit, fig_normal, orders)) in enumerate(
            zip(self.act.weapons, self.inflicts, c.weapons, pending, strict=True)
        ):
            if not w.devastating:
                figures["mortal_wounds"] = None  # none: nothing to tally
                figures["damage"] = fig_normal
                continue
            mortal = np.zeros(c.n, dtype=np.int64)
            fig0 = c.figure.copy()
            mark = self._mark(c)
            c.states = inf.devastating(self.dice, c.states, crit, c.figure, mortal, orders, c.waste)
            more = self._wasted(c, mark, c.figure - fig0)
            mine = c.wasted[rows + i]
            c.wasted[rows + i] = {f: v + more[f] for f, v in mine.items()}
            figures["mortal_wounds"] = mortal
            figures["damage"] = fig_normal + (c.figure - fig0)
            c.add("mortal_wounds", mortal)


class _Tally:
    """The running sums over the chunks, and the :class:`Outcome` they give."""

    def __init__(
        self, act: Activation, space: AllocationSpace, keep_states: bool, waste: bool = False
    ):
        self.act, self.space, self.keep_states, self.waste = act, space, keep_states, waste
        self.moments = _Moments()
        self.weapons = [_Moments() for _ in act.weapons]
        self.sources = [_Moments() for _ in act.before]
        self.models = np.zeros(act.target.models + 1)
        self.wounds = np.zeros(act.target.wounds + 1)
        self.characters = np.zeros(len(act.target.characters))
        self.figure = np.zeros(1)
        self.finals: list[np.ndarray] = []
        # a weapon's attacks when they are the same in every trial (fixed A, no Blast)
        self.fixed = [_fixed_attacks(w) for w in act.weapons]
        self.fixed_total = None if None in self.fixed else sum(f or 0 for f in self.fixed)

    def add(self, c: _Chunk) -> None:
        """Add one chunk's trials."""
        space, n = self.space, c.n
        for m, (count, damage) in zip(self.sources, c.sources, strict=True):
            m.n += n
            m.add("mortal_wounds", count)
            m.add("damage", damage)
        seen: dict[int, tuple[float, float]] = {}  # the chunk's arrays are alive till the end
        for m, figures, fixed in zip(self.weapons, c.weapons, self.fixed, strict=True):
            m.n += n
            for f in WEAPON_FIELDS:
                if f == "attacks" and fixed is not None:
                    m.add_constant(f, fixed, n)
                else:
                    m.add(f, figures[f], seen)
        destroyed, lost = space.destroyed[c.states], space.wounds_lost[c.states]
        by_models = np.bincount(destroyed, minlength=self.models.size)[: self.models.size]
        by_wounds = np.bincount(lost, minlength=self.wounds.size)[: self.wounds.size]
        by_figure = np.bincount(c.figure)
        m = self.moments
        m.n += n
        m.add_counts("wounds_lost", by_wounds)
        m.add_counts("models_destroyed", by_models)
        for f, v in c.totals.items():
            if f == "damage":
                m.add_counts("total_damage", by_figure)
            elif f == "attacks" and self.fixed_total is not None:
                m.add_constant("total_attacks", self.fixed_total, n)
            else:
                m.add(f"total_{f}", v, seen)
        if c.waste is not None and c.lost_at_start is not None:
            rows = [*self.sources, *self.weapons]
            for mr, wasted in zip(rows, c.wasted, strict=True):
                for f, v in wasted.items():
                    mr.add(f, v)
            total = c.waste.wasted(_Waste.zeros(n), c.figure, lost - c.lost_at_start)
            for f, v in total.items():
                m.add(f"wasted_{f}", v)
        if c.hazard is not None:  # else no Hazardous test: nothing lost
            hz_mw, hz_dead = c.hazard
            m.add("hazard_mortal_wounds", hz_mw)
            m.add("hazard_models_destroyed", hz_dead)
            m.add("hazard_at_least_one", hz_dead > 0)
        self.models += by_models
        self.wounds += by_wounds
        self.characters += space.character_dead[:, c.states].sum(axis=1)
        fc = by_figure
        if len(fc) > len(self.figure):
            self.figure = np.concatenate([self.figure, np.zeros(len(fc) - len(self.figure))])
        self.figure[: len(fc)] += fc
        if self.keep_states:
            self.finals.append(space.lost_by_group(c.states).astype(np.int32))

    def outcome(self, trials: int, seed, drawn: int) -> Outcome:
        """The :class:`Outcome` of ``trials`` trials (means, distributions, standard errors)."""
        rows = [
            WeaponResult.mortal_source(
                src.name,
                m.mean("mortal_wounds"),
                m.mean("damage"),
                {"mortal_wounds": m.se("mortal_wounds"), "damage": m.se("damage")},
            )
            for src, m in zip(self.act.before, self.sources, strict=True)
        ]
        for w, m in zip(self.act.weapons, self.weapons, strict=True):
            rows.append(
                WeaponResult(
                    w.name,
                    w.models,
                    {f: m.mean(f) for f in WEAPON_FIELDS},
                    {f: m.se(f) for f in WEAPON_FIELDS},
                )
            )
        moments = self.moments
        if self.waste:
            for r, m in zip(rows, [*self.sources, *self.weapons], strict=True):
                r.wasted.update({f: m.mean(f) for f in WASTE_FIELDS})
                r.wasted_se.update({f: m.se(f) for f in WASTE_FIELDS})
        expected = {f: sum(r.expected[f] for r in rows) for f in WEAPON_FIELDS}
        se_expected = {f: moments.se(f"total_{f}") for f in WEAPON_FIELDS}
        for f in ("wounds_lost", "models_destroyed"):
            expected[f] = moments.mean(f)
            se_expected[f] = moments.se(f)
        names = {"hazard_mortal_wounds": "hazard_mortal_wounds"}
        names.update(models_destroyed="hazard_models_destroyed", at_least_one="hazard_at_least_one")
        characters = self.characters / trials
        out = Outcome(
            method="sample",
            weapons=rows,
            expected={f: expected[f] for f in TOTAL_FIELDS},
            models_destroyed_distribution=self.models / trials,
            damage_distribution=self.figure / trials,
            wounds_lost_distribution=self.wounds / trials,
            characters_destroyed=list(characters),
            attacker_losses={k: moments.mean(names[k]) for k in LOSS_FIELDS},
            trials=trials,
            seed=seed,
            standard_error={
                "expected": se_expected,
                "attacker_losses": {k: moments.se(names[k]) for k in LOSS_FIELDS},
                "characters_destroyed": [_binomial_se(p, trials) for p in characters],
                "wasted": {f: moments.se(f"wasted_{f}") for f in WASTE_FIELDS}
                if self.waste
                else {},
            },
            dice_drawn=drawn,
            final_states=(
                TargetStates(self.space.shape, np.concatenate(self.finals))
                if self.keep_states
                else None
            ),
        )
        out.standard_error["kill_table"] = [_binomial_se(p, trials) for p in out.kill_table]
        return out
