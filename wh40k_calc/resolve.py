"""From a Selection to results: plan with the rules layer, make the player's whole-activation
choices, then run the exact engine, the sampler, or both.

Whole-activation choices (DESIGN.md) maximise expected models destroyed, then expected wounds
lost: the option each model group attacks with (pistols or other weapons, which melee weapon or
profile), abilities a stratagem lets the player pick, and with ``--order best`` the weapon
order. Each candidate is scored with the exact engine.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np
from msgspec import Struct, field

from .engine import work
from .engine.allocation import legal_orders, order_models
from .engine.exact import ExactUnsupported, run_exact
from .engine.outcome import Outcome
from .kept import HashedKey, Kept
from .profile import Activation, TargetStates
from .records import replace
from .rules import get_rules
from .rules.miracle import attackers_view
from .rules.plan import Plan
from .rules.unread import unread_conditions
from .selection import Selection, SelectionError, selection_key
from .wording import compress_names, count, models_doing

if TYPE_CHECKING:
    from .explain import Attribution

METHODS = ("exact", "sample", "both")
DEFAULT_TRIALS = 100_000  # sampler trials when none are given (fewer if they would be slow)
MAX_ORDER_PROFILES = 6
MAX_CANDIDATES = 720


class AllocationChoice(Struct, frozen=True):
    """One weapon profile's sentence of the defender's allocation orders (05.03), in parts for
    the text to lay out: ``head`` ("Boltgun: defender's allocation order (...)"), then one
    part per order used (``"Boy ×9, Boss Nob for 1-10 save rolls"``); ``sentence`` is the
    whole, as ``choices`` holds it. ``names``: each part's order (``"Boy ×9, Boss Nob"``) and
    ``counts`` the numbers of save rolls it is used for (None: for some of them only with some
    numbers of Devastating Wounds), for :func:`merged_allocation`."""

    head: str
    orders: tuple[str, ...]
    names: tuple[str, ...] = ()
    counts: tuple[tuple[int, ...] | None, ...] = ()

    @property
    def sentence(self) -> str:
        """``head: order; order``."""
        return f"{self.head}: " + "; ".join(self.orders)


def merged_allocation(choices: Sequence[AllocationChoice]) -> list[AllocationChoice]:
    """``choices`` (of several activations, each once) with those of one weapon profile (one
    head) made one sentence, each order's counts of save rolls joined: an exchange's turn,
    resolved from each number of models the attacker has left, said "Boss Nob, Boy ×19 for
    1-27 save rolls" once rather than for 1-27, 1-25, ... 1-3 save rolls in ten sentences.
    A head with a part whose counts are split by Devastating Wounds is left as it is."""
    by_head: dict[str, list[AllocationChoice]] = {}
    for c in choices:
        by_head.setdefault(c.head, []).append(c)
    out: list[AllocationChoice] = []
    for head, same in by_head.items():
        if len(same) == 1 or any(not c.names or None in c.counts for c in same):
            out += same
            continue
        counts: dict[str, set[int]] = {}
        for c in same:
            for name, n in zip(c.names, c.counts, strict=True):
                counts.setdefault(name, set()).update(n or ())
        names = tuple(counts)
        joined = tuple(tuple(sorted(counts[n])) for n in names)
        parts = tuple(
            f"{n} for {_ranges(k)} save rolls" for n, k in zip(names, joined, strict=True)
        )
        out.append(AllocationChoice(head, parts, names, joined))
    return out


class Result(Struct, frozen=True):
    """Everything the report needs about one activation, made once by :func:`resolve`.

    ``choices`` and ``notes`` are lists: reading the exact outcome's lazy damage distribution
    may add the note saying it is the sampler's (:func:`_damage_within_budget`). ``by_state``
    (an activation started from earlier ones' states whose effects read the target's state:
    ``Plan.state_split``) splits given states into classes, each with its own activation (the
    same choices); the engines' figures here are those of the classes, mixed.
    ``attribution``: what each rule adds (``--explain``, :mod:`wh40k_calc.explain`), else
    None; the report then shows it and the damage wasted.
    """

    selection: Selection
    plan: Plan
    activation: Activation
    method: str
    exact: Outcome | None = None
    sample: Outcome | None = None
    choices: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    allocation_order: list[str] = field(default_factory=list)
    allocation_best: bool = False  # the order is the defender's best (edition 11, 05.03)
    exact_declined: str | None = None  # why the exact engine declined (the sampler answers)
    attribution: Attribution | None = None
    by_state: Callable[[TargetStates], list[tuple[np.ndarray, Activation]]] | None = None
    allocation_choices: tuple[AllocationChoice, ...] = ()  # the defender's orders' sentences

    @property
    def primary(self) -> Outcome:
        """The outcome the top-level numbers come from (the sampler's with --method sample)."""
        out = self.sample if self.method == "sample" else self.exact
        assert out is not None
        return out


PLANS_KEPT = 256
_PLANS: Kept[tuple, tuple[Selection, Plan]] = Kept(PLANS_KEPT)  # plans made, see planned


def planned(sel: Selection, words: bool = True) -> Plan:
    """``get_rules(sel.edition).plan(sel, words=words)``, each selection (and ``words``)
    planned once per process: a
    sequence resolves its repeated steps, and the player's choices their candidates, from the
    same selection again and again. Selections are matched by value, their datasheets by
    identity (the kept selection holds them, so an id is not reused while kept), and a
    condition the plan cannot read (``rules.unread``: ``--charged`` in a fight without
    effects or [LANCE], without words) as if it were not set: a batch's runs with and without
    it share one plan, and so its weapon profiles and activations. A plan is
    frozen and its ``build`` keeps nothing but the weapon profiles it made (the same for every
    caller), so sharing one changes nothing. At most PLANS_KEPT are kept (all dropped when
    full); errors are not kept.

    Raises:
        SelectionError: as the plan does.
        ValueError: an unknown edition.
    """
    key = _selection_key(sel)
    unread = unread_conditions(sel, words)
    if unread:  # the same key as the selection without them
        cond = replace(sel.conditions, **dict.fromkeys(unread, False))
        key = (*key[:_CONDITIONS], cond, *key[_CONDITIONS + 1 :])
    if not words:
        key = (*key, "without words")
    kept = _PLANS.get(key)
    if kept is not None:
        return kept[1]
    plan = get_rules(sel.edition).plan(sel, words=words)
    _PLANS.put(key, (sel, plan))
    return plan


_CONDITIONS = Selection.__struct_fields__.index("conditions")  # its place in a selection key


def _selection_key(sel: Selection) -> tuple:
    """Every field of ``sel``, its units' datasheets (and Leaders') by identity."""
    return selection_key(sel)


_OUTCOMES: dict[HashedKey, Outcome | ExactUnsupported] = {}  # exact outcomes, see exact_outcome
OUTCOMES_KEPT = 256


def exact_outcome(act: Activation) -> Outcome:
    """``run_exact(act)``, each activation resolved once per process: in a batch, runs that
    differ only in what changes none of the profiles (a condition no weapon reads, a
    Leader's note) resolve the same activation, and the player's choices score candidates
    that other runs resolve too. Activations are matched by every field the engine reads
    (:func:`activation_key`: the profiles' arrays by value, the start and the defender's
    orders too), and by the exact engine's admission budget (``work.STATE_SECONDS``, read
    when the engine runs: a refusal kept under one budget must not answer under another).
    Each caller gets its own copy of the kept Outcome (:meth:`Outcome.replaced`: the same
    figures, dicts and arrays, the arrays made read-only), so that reading its lazy damage
    distribution computes it into that copy and never into the kept one: callers that ask
    whether it is still to be computed (the sequence's figure budget charges only those)
    see the same whatever ran before them. At most OUTCOMES_KEPT are kept (the least
    recently used dropped first: a batch resolves its runs grouped by target,
    ``compare/runner.py``); the engine's refusals are kept too, and raised again.

    Raises:
        ExactUnsupported: as :func:`~wh40k_calc.engine.exact.run_exact`.
    """
    key = HashedKey((activation_key(act), work.STATE_SECONDS))
    kept = _OUTCOMES.pop(key, None)
    if kept is None:
        try:
            kept = _read_only(run_exact(act))
        except ExactUnsupported as exc:
            kept = exc
        if len(_OUTCOMES) >= OUTCOMES_KEPT:
            del _OUTCOMES[next(iter(_OUTCOMES))]
    _OUTCOMES[key] = kept  # the most recently used last
    if isinstance(kept, ExactUnsupported):
        raise ExactUnsupported(*kept.args)
    return kept.replaced()


def activation_key(act: Activation) -> tuple:
    """Everything :func:`~wh40k_calc.engine.exact.run_exact` reads of ``act``: the record's
    own equality (which leaves out the arrays, the start, the defender's orders and the
    notes), each profile's attack and Sustained Hits distributions by value, the counts of
    the mortal wounds before the attacks, the start's states and weights, and the orders'
    tables and probabilities (given orders' P(n, m) come back in the Outcome's ``policy``,
    which the report's allocation sentences read)."""
    start, policy = act.start, act.policy
    return (
        act,
        tuple((_array_key(w.attacks), _array_key(w.sustained)) for w in act.weapons),
        tuple(_array_key(m.count) for m in act.before),
        None if start is None else (start, _array_key(start.lost), _array_key(start.weights)),
        None
        if policy is None
        else (
            policy,
            tuple(_array_key(t) for t in policy.tables),
            tuple(_array_key(p) for p in policy.probabilities),
        ),
    )


def _array_key(a: np.ndarray | None) -> tuple | None:
    return None if a is None else (a.dtype, a.shape, a.tobytes())  # a dtype compares by value


def _read_only(out: Outcome) -> Outcome:
    """``out`` with its arrays made read-only (an Outcome kept and shared)."""
    arrays: list[np.ndarray | None] = [
        out.models_destroyed_distribution,
        out.wounds_lost_distribution,
    ]
    if out.final_states is not None:
        arrays += [out.final_states.lost, out.final_states.weights]
    for a in arrays:
        if isinstance(a, np.ndarray):
            a.setflags(write=False)
    return out


class _Scorer:
    """Scores candidate activations with the exact engine, each (picks, variant, weapon order)
    once; the winner's Outcome is then reused instead of being computed again. With ``keep``,
    outcomes are kept across activations too (:func:`exact_outcome`): a batch's runs and the
    player's choices share them. An activation from a carried start (a sequence's later
    steps, an exchange's turns) does not keep: it starts from states no other activation of
    its command meets, so keeping would only cost (hashing the states, a copy per call: each
    activation 5-14% slower in ``benchmarks/sequence_probe.py``)."""

    def __init__(self, keep: bool = True) -> None:
        self.outcomes: dict[tuple, Outcome] = {}
        self.run = exact_outcome if keep else run_exact

    def exact(self, act: Activation) -> Outcome:
        """The exact outcome of ``act`` (kept across activations with ``keep``)."""
        return self.run(act)

    @staticmethod
    def key(picks: tuple[int, ...], variant: int, act: Activation) -> tuple:
        return picks, variant, tuple(w.name for w in act.weapons)

    def __call__(self, picks: tuple[int, ...], variant: int, act: Activation) -> tuple:
        """(expected models destroyed, expected wounds lost) of ``act`` as the attacker sees
        it when it chooses: without the defender's Miracle dice (``rules.miracle.
        attackers_view``; kept apart from the outcome of ``act`` itself)."""
        view = attackers_view(act)
        k = self.key(picks, variant, act)
        if view is not act:
            k = (*k, "without the defender's Miracle dice")
        if k not in self.outcomes:
            self.outcomes[k] = self.exact(view)
        o = self.outcomes[k]
        return o.expected["models_destroyed"], o.expected["wounds_lost"]


def _better(a: tuple, b: tuple, eps: float = 1e-12) -> bool:
    """Whether score ``a`` (expected models destroyed, wounds lost) beats ``b``: the first
    figure that differs by more than ``eps`` decides (rounding noise, or a chance of 1e-19
    to destroy a model, never outweighs a better next figure); equals keep ``b``."""
    for x, y in zip(a, b, strict=True):
        if x > y + eps:
            return True
        if x < y - eps:
            return False
    return False


def choose(
    plan: Plan, sel: Selection, score: _Scorer | None = None
) -> tuple[tuple[int, ...], int, tuple[str, ...] | None, list[str]]:
    """Pick the option of each group, the variant and the weapon order.

    Returns (picks, variant, order, choice sentences); ``score`` keeps the outcomes it
    computed.

    Raises:
        SelectionError: ``--order best`` with more than six weapon profiles.
    """
    score = score if score is not None else _Scorer()
    choices: list[str] = []
    explicit = tuple(sel.order) if isinstance(sel.order, (tuple, list)) else None
    parts: dict[tuple[int, ...], list[int]] = {}
    for v, d in enumerate(plan.variant_defender or [()]):
        parts.setdefault(d, []).append(v)
    # the defender's part whose attacker's best lets fewest be destroyed: (score, picks, variant)
    best: tuple[tuple | None, tuple[int, ...], int] | None = None
    for variants in parts.values():
        picks, variant = _best_attacker(plan, variants, explicit, score)
        if len(parts) == 1:
            best = (None, picks, variant)
            break
        try:
            value = score(picks, variant, plan.build(picks, variant, explicit))
        except ExactUnsupported:
            value = None
        if best is None or (value is not None and (best[0] is None or value < best[0])):
            best = (value, picks, variant)
    assert best is not None
    _, picks, variant = best
    if any(len(g.options) > 1 for g in plan.groups) or plan.variants:
        choices += _choice_sentences(plan, picks, variant, len(parts) > 1)
    order = explicit
    if sel.order == "best":
        order, sentence = _best_order(plan, picks, variant, score)
        choices.append(sentence)
    return picks, variant, order, choices


def _best_attacker(
    plan: Plan, variants: list[int], order: tuple[str, ...] | None, score: _Scorer
) -> tuple[tuple[int, ...], int]:
    """The attacker's best (picks, variant) among ``variants`` (the variants of one defender
    choice): every candidate, or coordinate ascent when there are too many."""
    if len(variants) == 1 and all(len(g.options) == 1 for g in plan.groups):
        return tuple(0 for _ in plan.groups), variants[0]  # the one candidate (most runs)
    ranges = [range(len(g.options)) for g in plan.groups]
    candidates = list(itertools.product(itertools.product(*ranges), variants))
    picks, variant = candidates[0]
    if len(candidates) == 1:
        return picks, variant
    if len(candidates) > MAX_CANDIDATES:  # coordinate ascent, group by group
        return _ascent(plan, order, variants, score)
    return _best_candidate(plan, candidates, order, score) or (picks, variant)


def _best_candidate(
    plan: Plan, candidates: list, order: tuple[str, ...] | None, score: _Scorer
) -> tuple[tuple[int, ...], int] | None:
    """The (picks, variant) of ``candidates`` with the most expected models destroyed, then
    wounds lost (the first of equals); None when the exact engine can score none of them."""
    best = None
    for p, v in candidates:
        try:
            value = score(p, v, plan.build(p, v, order))
        except ExactUnsupported:
            continue
        if best is None or _better(value, best[0]):
            best = (value, p, v)
    return None if best is None else (best[1], best[2])


def _choice_sentences(
    plan: Plan, picks: tuple[int, ...], variant: int, defender: bool = False
) -> list[str]:
    """One sentence per group that had a choice (what it attacks with, rather than what),
    and one for the options of choice rules and the abilities the effects let the players
    pick (``defender``: the defender picked some, for the fewest models destroyed)."""
    out = []
    for g, i in zip(plan.groups, picks, strict=True):
        if len(g.options) > 1:
            others = [o.label for j, o in enumerate(g.options) if j != i]
            out.append(
                f"{models_doing(g.group.count, g.group.label, g.what)} "
                f"{g.options[i].label} (rather than {' or '.join(others)}): "
                "most models destroyed"
            )
    if plan.variants and len(plan.variants) > 1:
        labels = plan.variants[variant]
        why = (
            "the defender's fewest models destroyed, the attacker's most"
            if defender
            else "most models destroyed"
        )
        out.append(f"chose {'; '.join(labels)} ({why})")
    return out


def _best_order(
    plan: Plan, picks: tuple[int, ...], variant: int, score: _Scorer
) -> tuple[tuple[str, ...], str]:
    """``--order best``: the weapon order with the most expected models destroyed (then
    wounds lost; the first of equals) of every order of the chosen activation's profiles,
    and the sentence saying so.

    Raises:
        SelectionError: more than :data:`MAX_ORDER_PROFILES` weapon profiles.
    """
    act = plan.build(picks, variant, None)
    names = [w.name for w in act.weapons]
    if len(names) > MAX_ORDER_PROFILES:
        raise SelectionError(
            f"--order best tries every order of up to {MAX_ORDER_PROFILES} "
            f"weapon profiles; this activation has {len(names)}: give "
            "--order with the names instead"
        )
    best_order = None
    n = 0
    for perm in itertools.permutations(act.weapons):  # same profiles, another order
        n += 1
        value = score(picks, variant, replace(act, weapons=perm))
        if best_order is None or _better(value, best_order[0]):
            best_order = (value, tuple(w.name for w in perm))
    assert best_order is not None
    order = best_order[1]
    return order, f"weapon order {', '.join(order)}: most models destroyed of {count(n, 'order')}"


def _ascent(
    plan: Plan, order: tuple[str, ...] | None, variants: list[int], score: _Scorer
) -> tuple[tuple[int, ...], int]:
    """Coordinate ascent over the groups' options and ``variants``, for too many candidates
    to try every combination."""
    picks = [0] * len(plan.groups)
    variant = variants[0]

    def value(p: tuple[int, ...], v: int) -> tuple:
        return score(p, v, plan.build(p, v, order))

    for _ in range(3):
        changed = False
        for gi, g in enumerate(plan.groups):
            best = None
            for i in range(len(g.options)):
                trial = (*picks[:gi], i, *picks[gi + 1 :])
                got = value(trial, variant)
                if best is None or _better(got, best[0]):
                    best = (got, i)
            if best and best[1] != picks[gi]:
                picks[gi] = best[1]
                changed = True
        for v in variants:
            if value(tuple(picks), v) > value(tuple(picks), variant):
                variant, changed = v, True
        if not changed:
            break
    return tuple(picks), variant


class Carried(Struct, frozen=True):
    """The target's state carried into an activation from earlier ones (``calc sequence``).

    ``exact`` is the distribution the exact engine (and the player's choices, and edition 11's
    defender) start from; ``sample`` gives the sampler one state per trial. None means the
    selection's own start (unharmed, or ``--target-wounds-left``).
    """

    exact: TargetStates | None = None
    sample: TargetStates | None = None

    def applied_to(self, plan: Plan) -> Plan:
        """``plan`` whose activations start from ``exact`` (when given)."""
        if self.exact is None:
            return plan
        build, start = plan.build, self.exact

        def started(picks: tuple[int, ...], variant: int, order: tuple[str, ...] | None):
            return replace(build(picks, variant, order), start=start)

        return replace(plan, build=started)


def resolve(
    sel: Selection,
    method: str = "exact",
    trials: int | None = None,
    seed: int | np.random.Generator = 40_000,
    progress: Callable[[int, int], None] | None = None,
    carried: Carried | None = None,
    *,
    stand_in: bool = True,
    waste: bool = False,
    warn: Callable[[str], None] | None = None,
    damage: bool = True,
    words: bool = True,
) -> Result:
    """Resolve one activation with ``method`` ("exact", "sample" or "both").

    Args:
        sel: the selection.
        method: which engine(s) to run.
        trials: sampler trials, run exactly; None: :data:`DEFAULT_TRIALS`, or fewer where the
            sampler's cost estimate says they would take more than a few seconds (said in
            ``notes``).
        seed: sampler seed, or a numpy Generator whose stream the sampler continues.
        progress: called by the sampler as (trials done, trials) for a progress bar.
        carried: start from the state earlier activations left (a sequence step): the
            outcomes then count models destroyed and wounds lost from the unharmed unit, as
            the engines do, and the sampler's keeps each trial's final state. With
            ``carried.sample`` the sampler runs one trial per row of it.
        stand_in: when the exact engine declines, the sampler stands in for it; False: the
            Result is returned at once, with ``exact_declined`` and no figures (for a caller
            that then samples on its own, e.g. a whole sequence).
        waste: the sampler counts the damage wasted too (``--explain``; the exact engine
            always does).
        warn: called before the sampler rolls anything when ``trials`` are far beyond its
            time budget by its estimate (the message says how long; ``engine/budget.py``).
        damage: the caller may read the exact damage distribution (prepared within its
            budget: :func:`_damage_within_budget`); False: it never does (``calc compare``'s
            table and CSV), and it is left as the engine gave it, never computed.
        words: False: the caller shows no note (``calc compare --csv``): the notes only
            words need are not worked out (the rules' ``plan(sel, words=False)``), and the
            Result's ``notes`` lack them; every figure and choice is the same.

    Raises:
        SelectionError: an impossible selection.
        ValueError: an unknown method or edition; a carried state of another unit.
    """
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r} (choose {', '.join(METHODS)})")
    plan = planned(sel, words)
    if carried is not None:
        plan = carried.applied_to(plan)
    scorer = _Scorer(keep=carried is None)  # kept across activations: exact_outcome
    act, choices, notes, key, picked = _chosen(sel, plan, scorer)
    by_state = None
    if carried is not None and plan.state_split is not None:
        by_state = _state_classes(sel, plan, picked)
        read = plan.reading_states()  # an effect idle at the start may act in a state
        notes = [n for n in notes if n in read.notes or n not in plan.notes]
        plan = read
    exact, declined = None, None
    if method in ("exact", "both"):
        if by_state is not None and carried is not None and carried.exact is not None:
            exact, declined = _run_exact_by_state(by_state, carried.exact, notes)
        else:
            exact, declined = _run_exact_engine(act, scorer, key, notes)
    run = "sample" if declined is not None else method  # the sampler stands in
    if declined is not None and not stand_in:
        return Result(
            sel,
            plan,
            act,
            run,
            choices=choices,
            notes=notes,
            allocation_order=list(plan.allocation_order),
            exact_declined=declined,
        )
    if exact is not None and exact.policy is not None:
        act = replace(act, policy=exact.policy)
    sample = None
    if run in ("sample", "both"):
        act, sample = _run_sampler(
            act, notes, trials, seed, progress, carried, warn, by_state, waste
        )
    if exact is not None and carried is None and damage:
        exact = _damage_within_budget(exact, act, sample, notes, trials, seed)
    if act.start is not None and carried is None:  # this activation's figures only
        exact = exact.since(act.start) if exact else None
        sample = sample.since(act.start) if sample else None
    allocation_order, best = list(plan.allocation_order), False
    said: tuple[AllocationChoice, ...] = ()
    if act.policy is not None:
        allocation_order, said = describe_allocation(act)
        best = True
        choices.extend(c.sentence for c in said)
    return Result(
        sel,
        plan,
        act,
        run,
        exact,
        sample,
        choices=choices,
        notes=notes,
        allocation_order=allocation_order,
        allocation_best=best,
        exact_declined=declined,
        by_state=by_state,
        allocation_choices=said,
    )


def _state_classes(sel: Selection, plan: Plan, picked: tuple):
    """``Result.by_state``: the given states split into classes by what the effects'
    target-state conditions say in them (:class:`~wh40k_calc.rules.when.StateSplit`), each
    with the activation of the same choices ``picked`` (picks, variant, order) planned with
    the conditions read in that class (each class planned once)."""
    split = plan.state_split
    assert split is not None
    made: dict[int, Activation] = {}

    def classes(states: TargetStates) -> list[tuple[np.ndarray, Activation]]:
        codes = split.codes(states.models_destroyed, states.wounds_lost)
        out = []
        for code in np.unique(codes):
            mask = codes == code
            c = int(code)
            if c not in made:
                i = int(np.flatnonzero(mask)[0])
                u = split.state(int(states.models_destroyed[i]), int(states.wounds_lost[i]))
                p = get_rules(sel.edition).plan(sel, target_state=u)
                made[c] = p.build(*picked)
            out.append((mask, made[c]))
        return out

    return classes


def _run_exact_by_state(
    by_state, states: TargetStates, notes: list[str]
) -> tuple[Outcome | None, str | None]:
    """The exact outcome from ``states`` (a distribution) with each class of states resolved
    by its own activation, mixed by the classes' probabilities; or None and why the engine
    declined."""
    w = np.asarray(states.weights, dtype=float)
    parts = []
    for mask, act in by_state(states):
        mass = float(w[mask].sum())
        start = TargetStates(states.shape, states.lost[mask], w[mask] / mass)
        try:
            parts.append((mass, run_exact(replace(act, start=start))))
        except ExactUnsupported as exc:
            notes.append(f"the exact engine declined ({exc}); the figures are the sampler's")
            return None, str(exc)
    return mix_outcomes(parts), None


def blended(weights: list[float], arrays) -> np.ndarray:
    """The weighted sum of distributions (arrays of P(k), k = 0..) of different lengths,
    each padded with zeros to the longest."""
    out = np.zeros(max(len(a) for a in arrays))
    for w, a in zip(weights, arrays, strict=True):
        out[: len(a)] += w * np.asarray(a, dtype=float)
    return out


def mix_outcomes(parts: list[tuple[float, Outcome]]) -> Outcome:
    """Exact outcomes of a partition of the start states (each with its probability mass)
    as one: every figure the mass-weighted sum, the final states joined."""
    if len(parts) == 1:
        return parts[0][1]
    total = sum(m for m, _ in parts)
    ws = [m / total for m, _ in parts]
    outs = [o for _, o in parts]

    def blend(arrays) -> np.ndarray:
        return blended(ws, arrays)

    first = outs[0]
    weapons = [
        replace(
            row,
            expected={
                f: sum(wt * o.weapons[i].expected[f] for wt, o in zip(ws, outs, strict=True))
                for f in row.expected
            },
        )
        for i, row in enumerate(first.weapons)
    ]
    finals = [o.final_states for o in outs if o.final_states is not None]
    final = None
    if len(finals) == len(outs):
        final = TargetStates(
            finals[0].shape,
            np.concatenate([f.lost for f in finals]),
            np.concatenate(
                [wt * np.asarray(f.weights, dtype=float) for wt, f in zip(ws, finals, strict=True)]
            ),
        )

    def damage() -> np.ndarray:
        return blend([o.damage_distribution for o in outs])

    return replace(
        first,
        weapons=weapons,
        expected={
            f: sum(wt * o.expected[f] for wt, o in zip(ws, outs, strict=True))
            for f in first.expected
        },
        models_destroyed_distribution=blend([o.models_destroyed_distribution for o in outs]),
        wounds_lost_distribution=blend([o.wounds_lost_distribution for o in outs]),
        damage_distribution=damage,
        characters_destroyed=[
            sum(wt * o.characters_destroyed[i] for wt, o in zip(ws, outs, strict=True))
            for i in range(len(first.characters_destroyed))
        ],
        attacker_losses={
            k: sum(wt * o.attacker_losses[k] for wt, o in zip(ws, outs, strict=True))
            for k in first.attacker_losses
        },
        final_states=final,
    )


def _chosen(
    sel: Selection, plan: Plan, scorer: _Scorer
) -> tuple[Activation, list[str], list[str], tuple, tuple]:
    """The activation the player's whole-activation choices make (:func:`choose`; their
    defaults where the exact engine cannot score them), the choice sentences and notes so
    far, the scorer's key of that activation and the choices (picks, variant, order)."""
    notes = [*sel.notes, *plan.notes]
    try:
        picks, variant, order, choices = choose(plan, sel, scorer)
    except ExactUnsupported:
        picks, variant, order, choices = tuple(0 for _ in plan.groups), 0, None, []
        notes.append(
            "choices left at their defaults: the exact engine cannot score them"
            + ("; --order best: the datasheet's weapon order" if sel.order == "best" else "")
        )
    act = plan.build(picks, variant, order)
    for w in act.weapons:
        choices.extend(w.choices)
    notes.extend(act.notes)
    return act, choices, notes, _Scorer.key(picks, variant, act), (picks, variant, order)


def _run_exact_engine(
    act: Activation, scorer: _Scorer, key: tuple, notes: list[str]
) -> tuple[Outcome | None, str | None]:
    """The exact engine's outcome of ``act`` (the scorer's, when it scored that activation
    already), and None; or None and why the engine declined, said in ``notes`` (the figures
    are then the sampler's)."""
    try:
        return scorer.outcomes.get(key) or scorer.exact(act), None
    except ExactUnsupported as exc:
        # --method exact or both: the figures are the sampler's, and say so
        notes.append(f"the exact engine declined ({exc}); the figures are the sampler's")
        return None, str(exc)


def _run_sampler(
    act: Activation,
    notes: list[str],
    trials: int | None,
    seed: int | np.random.Generator,
    progress: Callable[[int, int], None] | None,
    carried: Carried | None,
    warn: Callable[[str], None] | None = None,
    by_state=None,
    waste: bool = False,
) -> tuple[Activation, Outcome]:
    """The sampler's outcome of ``act``, and ``act`` with the defender's allocation orders
    the exact engine chose (which the sampler ran): ``trials`` trials (one per carried state
    of a sequence step; None: as many as the time budget allows, said in ``notes``);
    ``warn``: see :func:`resolve`."""
    from .engine.sample import run_sample  # lazy: numpy sampling code

    act = _with_policy(act, notes)
    carry: dict = {}  # a sequence step: from each trial's state, keeping the final ones
    if carried is not None:
        carry = {"start": carried.sample, "keep_states": True}
        if carried.sample is not None:
            trials = len(carried.sample.lost)
    if trials is None:
        trials = _affordable_trials(act, DEFAULT_TRIALS, notes)
    elif warn is not None and carried is None:
        from .engine.budget import estimate, slow_trials_warning

        slow = slow_trials_warning(estimate(act).seconds(trials), trials, FALLBACK_SECONDS)
        if slow is not None:
            warn(slow)
    if waste:  # asked for only when wanted: callers and stubs of run_sample need not know it
        carry["waste"] = True
    if by_state is not None and carried is not None and carried.sample is not None:
        parts = [
            (m, run_sample(a, trials=int(m.sum()), seed=seed, start=_rows(carried.sample, m),
                           keep_states=True))
            for m, a in by_state(carried.sample)
        ]  # fmt: skip
        return act, pool_samples(parts, len(carried.sample.lost))
    sample = run_sample(act, trials=trials, seed=seed, progress=progress, **carry)
    if trials < 1000:
        notes.append(few_trials_note(trials))
    return act, sample


def _rows(states: TargetStates, mask: np.ndarray) -> TargetStates:
    """The states of the trials ``mask`` marks (one per trial)."""
    return TargetStates(states.shape, states.lost[mask])


def pool_samples(parts: list[tuple[np.ndarray, Outcome]], trials: int) -> Outcome:
    """Sampler outcomes of a partition of the trials (``parts``: each trial mask and its
    outcome) as one: means weighted by trials, standard errors of the pooled trials (each
    class's variance and the spread of the class means), the final states back in trial
    order."""
    if len(parts) == 1:
        return parts[0][1]
    ns = [float(m.sum()) for m, _ in parts]
    ws = [n / trials for n in ns]
    outs = [o for _, o in parts]

    def mean(values) -> float:
        return float(sum(w * v for w, v in zip(ws, values, strict=True)))

    def se(means, ses) -> float:
        m = mean(means)
        var = sum(
            w * (s * s * n + (x - m) ** 2) for w, n, x, s in zip(ws, ns, means, ses, strict=True)
        )
        return float(np.sqrt(var / trials))

    def blend(arrays) -> np.ndarray:
        return blended(ws, arrays)

    def pooled_se(key: str, values_of) -> object:
        got = [o.standard_error[key] for o in outs]
        vals = [values_of(o) for o in outs]
        if isinstance(got[0], dict):
            return {k: se([v[k] for v in vals], [g[k] for g in got]) for k in got[0]}
        return [se([v[i] for v in vals], [g[i] for g in got]) for i in range(len(got[0]))]

    first = outs[0]
    weapons = []
    for i, row in enumerate(first.weapons):
        rows = [o.weapons[i] for o in outs]
        weapons.append(
            replace(
                row,
                expected={f: mean([r.expected[f] for r in rows]) for f in row.expected},
                standard_error={
                    f: se([r.expected[f] for r in rows], [r.standard_error[f] for r in rows])
                    for f in row.standard_error
                },
            )
        )
    final = first.final_states
    assert final is not None  # a sampler outcome keeps each trial's final state
    lost = np.zeros((trials, final.lost.shape[1]), dtype=np.int64)
    for m, o in parts:
        assert o.final_states is not None
        lost[m] = o.final_states.lost
    values = {
        "expected": lambda o: o.expected,
        "attacker_losses": lambda o: o.attacker_losses,
        "characters_destroyed": lambda o: o.characters_destroyed,
        "kill_table": lambda o: o.kill_table,
    }
    standard_error = {k: pooled_se(k, values[k]) for k in first.standard_error if k in values}
    return replace(
        first,
        weapons=weapons,
        expected={f: mean([o.expected[f] for o in outs]) for f in first.expected},
        models_destroyed_distribution=blend([o.models_destroyed_distribution for o in outs]),
        wounds_lost_distribution=blend([o.wounds_lost_distribution for o in outs]),
        damage_distribution=blend([o.damage_distribution for o in outs]),
        characters_destroyed=[
            mean([o.characters_destroyed[i] for o in outs])
            for i in range(len(first.characters_destroyed))
        ],
        attacker_losses={
            k: mean([o.attacker_losses[k] for o in outs]) for k in first.attacker_losses
        },
        trials=trials,
        dice_drawn=sum(o.dice_drawn for o in outs),
        final_states=TargetStates(final.shape, lost),
        standard_error=standard_error,
    )


def _damage_within_budget(
    exact: Outcome,
    act: Activation,
    sample: Outcome | None,
    notes: list[str],
    trials: int | None,
    seed: int | np.random.Generator,
) -> Outcome:
    """``exact`` whose damage distribution is computed when first read (``--json``): the
    exact engine's when its figure pass fits its own budget (``engine/work.py``'s
    FIGURE_SECONDS and largest array, estimated before it runs), else the sampler's
    (``sample``, the run ``--method both`` made, or one run of ``act`` then), and reading it
    then adds a note to ``notes`` saying so. Every other figure stays exact."""
    figure = exact.__dict__["_damage"]
    if not callable(getattr(figure, "affordable", None)):
        return exact

    def damage() -> np.ndarray:
        if figure.affordable():
            return figure()
        sampled = sample
        if sampled is None:
            from .engine.sample import run_sample  # lazy: numpy sampling code

            n = trials or _affordable_trials(act, DEFAULT_TRIALS, [])
            sampled = run_sample(act, trials=n, seed=seed)
        notes.append(
            f"the exact damage distribution was left out ({' and '.join(figure.over_budget())}"
            f"): damage_distribution is the sampler's ({sampled.trials:,} trials); every other "
            "figure is exact"
        )
        return sampled.damage_distribution

    return exact.replaced(damage_distribution=damage)


def sampler_unused_note(given: list[str] | tuple[str, ...]) -> str | None:
    """The note for sampler settings given to a run only the exact engine answered
    (``--method exact``, the engine not declining): ``given`` names them as the player wrote
    them (``--trials``, ``--seed``; a batch file's ``trials``, ``seed``). None when nothing
    was given. Worded as the other no-effect notes (``rules/idle.py``)."""
    if not given:
        return None
    from .notes import OptionNote
    from .wording import join_words

    said = "no effect: the exact engine rolls no dice (method sample or both runs the sampler)"
    if len(given) == 1 and given[0].startswith("--"):  # one option: a note about it
        return OptionNote(given[0], said)
    return f"{join_words(list(given))}: {said}"


def few_trials_note(trials: int) -> str:
    """The note for a sampler run of fewer than 1,000 trials."""
    return (
        f"only {count(trials, 'sampler trial')}: the standard errors are rough (1,000 or more "
        "give a fair picture)"
    )


def _with_policy(act: Activation, notes: list[str]) -> Activation:
    """``act`` with the defender's allocation orders the exact engine chooses (edition 11's
    best order), for the sampler, which only reads them; where the exact engine declines, the
    listed order, said in ``notes``."""
    if act.policy is not None or not act.best_allocation or len(legal_orders(act.target)) < 2:
        return act
    try:
        policy = run_exact(act).policy
    except ExactUnsupported:
        notes.append(
            "the defender's best allocation order is chosen with the exact engine, which "
            "declined: the listed allocation order is used"
        )
        return replace(act, best_allocation=False)
    return replace(act, policy=policy)


def describe_allocation(act: Activation) -> tuple[list[str], tuple[AllocationChoice, ...]]:
    """The defender's allocation order for the most likely count of save rolls (model names)
    and one sentence per weapon profile naming each order it used and for which counts
    (:class:`AllocationChoice`)."""
    policy = act.policy
    if policy is None:
        return [], ()
    best: tuple[float, int] = (-1.0, 0)
    sentences: list[AllocationChoice] = []
    for j, w in enumerate(act.weapons):
        table = policy.tables[j] if j < len(policy.tables) else None
        probs = policy.probabilities[j] if j < len(policy.probabilities) else None
        if table is None or probs is None:
            continue
        live = probs > 0
        live[0, 0] = False  # nothing to allocate
        if live.any():
            n, m = np.unravel_index(np.argmax(np.where(live, probs, -1.0)), probs.shape)
            best = max(best, (float(probs[n, m]), int(table[n, m])))
        parts, named, plain = [], [], []
        for o in sorted(set(table[live].tolist())):
            names = compress_names(order_models(act.target, policy.orders[o]))
            mask = live & (table == o)
            parts.append(f"{names} for {_counts(mask, live)}")
            named.append(names)
            plain.append(_plain_counts(mask, live))
        if len(parts) > 0:
            head = f"{w.name}: defender's allocation order (05.03, fewest models destroyed)"
            sentences.append(AllocationChoice(head, tuple(parts), tuple(named), tuple(plain)))
    return order_models(act.target, policy.orders[best[1]]), tuple(sentences)


def _plain_counts(mask: np.ndarray, live: np.ndarray) -> tuple[int, ...] | None:
    """The save-roll counts ``mask`` uses for every live number of Devastating Wounds (as
    :func:`_counts` words them), or None where it uses some count for only some of them."""
    out = []
    for n in range(mask.shape[0]):
        ms = np.flatnonzero(mask[n])
        if not len(ms):
            continue
        if not np.array_equal(ms, np.flatnonzero(live[n])):
            return None
        out.append(n)
    return tuple(out)


def _counts(mask: np.ndarray, live: np.ndarray) -> str:
    """``mask[n, m]`` (the counts using one order, among the ``live`` ones: n save rolls, m
    Devastating Wounds) as text: the save-roll counts as ranges ("1-10 save rolls"), and where
    only some Devastating Wounds counts of a save-roll count use this order, that count with
    them ("0 save rolls with 1-9 Devastating Wounds"), joined by ", or "."""
    plain, split = [], []
    for n in range(mask.shape[0]):
        ms = np.flatnonzero(mask[n])
        if not len(ms):
            continue
        if np.array_equal(ms, np.flatnonzero(live[n])):
            plain.append(n)
        else:
            split.append(f"{n} save rolls with {_ranges(ms)} Devastating Wounds")
    parts = ([f"{_ranges(plain)} save rolls"] if plain else []) + split
    return ", or ".join(parts)


def _ranges(values) -> str:
    values = sorted(int(v) for v in values)
    parts: list[str] = []
    start: int | None = None
    prev = 0
    for v in values:
        if start is None:
            start = prev = v
        elif v == prev + 1:
            prev = v
        else:
            parts.append(f"{start}" if start == prev else f"{start}-{prev}")
            start = prev = v
    if start is not None:
        parts.append(f"{start}" if start == prev else f"{start}-{prev}")
    return ", ".join(parts)


FALLBACK_SECONDS = 3.0  # the stand-in sampler's time budget: "a few seconds"
FALLBACK_MIN_TRIALS = 100  # fewer would say too little, whatever the budget


def _affordable_trials(act: Activation, trials: int, notes: list[str]) -> int:
    """Trials for a sampler run whose trials were not given (``--method sample`` or ``both``
    without ``--trials``, or the sampler standing in for the exact engine): as many as
    asked, but no more than its cost, estimated from the profiles before anything is rolled
    (:func:`~wh40k_calc.engine.budget.estimate`), fits in :data:`FALLBACK_SECONDS` (and never
    fewer than :data:`FALLBACK_MIN_TRIALS`); says so in ``notes`` when it cuts them."""
    from .engine.budget import estimate

    cost = estimate(act)
    cap = max(FALLBACK_MIN_TRIALS, cost.trials_within(FALLBACK_SECONDS))
    if cap < trials:
        notes.append(
            f"the sampler ran {cap:,} trials (about {cost.seconds(cap):.1f} s by its estimate) "
            "to finish in seconds; --method sample --trials N runs more"
        )
        return cap
    return trials
