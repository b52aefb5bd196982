"""The exact engine's exchange: the joint distribution of both units' states, activation by
activation.

Before each activation the joint distribution P(a, b) is known (:mod:`.states`). The acting
unit X acts only in its states where it is alive and the unit it attacks, Y, is too (a
destroyed unit cannot be selected to shoot or fight, nor be targeted: 05.04.04 Destroyed; in
10th edition it is removed from the battlefield). Its states are grouped by attack class
(:mod:`.track`): every state of a class attacks alike. For a class c, the activation is a map
T_c from a distribution of Y's states to the distribution after it; the exact engine computes
it from any start ("start from this state, hand back the state", DESIGN.md), and it is linear
in that start once the player's choices are made. So:

1. the class is resolved once (``resolve``, the player's choices and edition 11's defender's
   orders made as ``calc shoot`` makes them) from μ_c, the distribution of Y's alive states
   given the class: its expected attacks, hits, ... are the class's (each state's figures are
   linear in its start, and μ_c is the mass-weighted mix of its states' starts);
2. each state x of the class needs T_c applied to its own row P(x, ·) of Y's states. Rows
   that are combinations of rows already resolved (at first only μ_c; most classes have rows
   that are all proportional to it) take the same combination of their images; any other
   row is resolved from itself with the class's activation, choices fixed, and joins them.
3. the class's Hazardous tests move X's state as well (:mod:`.hazard`), independently of the
   attack's dice, from the state x it attacked in.

Classes whose probability is below :data:`NEGLECTED` (the exact engine's own tails are cut
near 1e-15) are left as they were; their total is reported (``Chain.neglected``).
"""

from __future__ import annotations

import numpy as np

from ..engine.exact import ExactUnsupported, run_exact
from ..engine.outcome import WEAPON_FIELDS
from ..profile import TargetStates
from ..resolve import Carried, Result, resolve
from .hazard import hazard_step
from .result import Chain, StepFigures, summary_of
from .setup import ExchangeError, Setup, activation_notes
from .states import Joint, StateIndex
from .track import AttackClass

NEGLECTED = 1e-13  # an attack class less likely than this is not resolved
SPAN_TOLERANCE = 1e-12  # a row within this (sum of absolute differences) of a combination


class Declined(Exception):
    """The exact engine declined an activation: the whole exchange is sampled instead."""

    def __init__(self, k: int, reason: str):
        super().__init__(reason)
        self.k = k
        self.reason = reason


def exact_chain(setup: Setup) -> tuple[Chain, list[dict[AttackClass, Result]]]:
    """Every activation resolved exactly, in order, from both units' starting states.

    Returns the chain and, per activation, the Result of each attack class resolved (their
    activations are what ``--method both``'s sampler runs).

    Raises:
        Declined: the exact engine declined an activation.
        ExchangeError: an activation that cannot be resolved at full strength.
    """
    joint = Joint.start(setup.initial["a"], setup.initial["b"])
    steps: list[StepFigures] = []
    decided: list[dict[AttackClass, Result]] = []
    resolver = _Resolver(setup)
    k = 0
    while k < len(setup.steps):
        if setup.steps[k].order_by_state:  # a Fight phase ordered per state: both at once
            for figures, results in _phase_by_state(setup, k, joint, resolver):
                steps.append(figures)
                decided.append(results)
            k += 2
            continue
        figures, results = _step(setup, k, joint, resolver)
        steps.append(figures)
        decided.append(results)
        k += 1
    summary = summary_of(setup, joint.a.rows, joint.b.rows, joint.matrix)
    return Chain("exact", steps, summary, neglected=joint.neglected), decided


def _phase_by_state(
    setup: Setup, k: int, joint: Joint, resolver: _Resolver
) -> list[tuple[StepFigures, dict[AttackClass, Result]]]:
    """Fight activations ``k`` and ``k + 1``, whose order is decided per state of both
    units at the start of their Fight phase (``Planned.order_by_state``): the distribution is
    split where activation ``k``'s side fights first (:meth:`~.setup.Setup.leads`) and where
    it does not; each part runs both activations in its order; the parts are joined again.
    Each activation's figures are the sum of its figures in both parts (every figure is
    unconditional), and a note says how often its side fights first."""
    joint.pad()
    lead = setup.leads(k, {"a": joint.a.rows, "b": joint.b.rows})
    first, second = joint.part(lead), joint.part(~lead)
    alive = np.outer(
        ~setup.tracks["a"].destroyed(joint.a.rows), ~setup.tracks["b"].destroyed(joint.b.rows)
    )
    both = float(joint.matrix[alive].sum())
    p_first = float(first.matrix[alive].sum()) / both if both > 0 else 1.0
    done = {}
    for part, order in ((first, (k, k + 1)), (second, (k + 1, k))):
        for j in order:
            done[(id(part), j)] = _step(setup, j, part, resolver)
    joint.join(first, second)
    out = []
    for j in (k, k + 1):
        (f1, r1), (f2, r2) = done[(id(first), j)], done[(id(second), j)]
        results = {**r2, **r1}
        figures = _summed(f1, f2)
        figures.classes = len(results)
        out.append((figures, results))
    side = setup.steps[k].side.upper()
    out[0][0].notes.insert(0, fights_first_share(side, p_first))
    return out


def fights_first_share(side: str, share: float) -> str:
    """The note of a Fight phase ordered per state: how often ``side`` fights first."""
    return (
        f"side {side} fights first in {share:.2%} of the exchanges where both units are alive "
        "at the start of this Fight phase (Fights First read from their states)"
    )


def _summed(f1: StepFigures, f2: StepFigures) -> StepFigures:
    """One activation's figures over two disjoint parts of the distribution."""
    out = StepFigures(
        f1.p_made + f2.p_made, {f: f1.expected[f] + f2.expected[f] for f in f1.expected}
    )
    out.resolutions = f1.resolutions + f2.resolutions
    for name in ("choices", "notes", "not_modelled", "allocation"):
        into = getattr(out, name)
        for t in (*getattr(f1, name), *getattr(f2, name)):
            if t not in into:
                into.append(t)
    return out


def _step(
    setup: Setup, k: int, joint: Joint, resolver: _Resolver
) -> tuple[StepFigures, dict[AttackClass, Result]]:
    joint.pad()
    planned = setup.steps[k]
    x, y = planned.side, planned.other
    tx, ty = setup.tracks[x], setup.tracks[y]
    ix, iy = joint.index[x], joint.index[y]
    p = joint.oriented(x)
    x_rows, y_rows = ix.rows, iy.rows
    before_x = _models_destroyed(tx, x_rows, p.sum(axis=1))
    before_y = _models_destroyed(ty, y_rows, p.sum(axis=0))
    wounds_y = float(p.sum(axis=0) @ y_rows.sum(axis=1))
    x_alive = ~tx.destroyed(x_rows)
    y_live = np.flatnonzero(~ty.destroyed(y_rows))
    classes, class_of = tx.classes(x_rows)
    out = p.copy()
    adds: list[tuple[int, np.ndarray]] = []  # (X state, its new row of Y's states)
    p_made = float(p[np.ix_(np.flatnonzero(x_alive), y_live)].sum())  # both units alive
    figures = StepFigures(p_made, dict.fromkeys(WEAPON_FIELDS, 0.0))
    results: dict[AttackClass, Result] = {}
    hazards = False  # some class took Hazardous tests (the acting unit's state moved)
    for c, cls in enumerate(classes):
        members = np.flatnonzero((class_of == c) & x_alive)
        if not len(members) or not len(y_live):
            continue
        block = p[np.ix_(members, y_live)]
        mass = float(block.sum())
        if mass < NEGLECTED:
            joint.neglected += mass
            continue
        mu = block.sum(axis=0) / mass
        got = resolver(k, cls, _states(ty.shape, y_rows[y_live], mu))
        if got is None:  # the survivors have no weapon for this phase: they do not attack
            continue
        res, outcome = got
        results[cls] = res
        _tally(figures, res, outcome, mass)
        out[np.ix_(members, y_live)] = 0.0
        try:
            images = _images(res.activation, outcome, block, mu, y_rows[y_live], iy, figures)
        except ExactUnsupported as exc:
            raise Declined(k, str(exc)) from None
        hazard = _hazard(setup, k, cls, res, figures)
        hazards = hazards or hazard is not None
        for row, member in enumerate(members):
            m = float(block[row].sum())
            if m <= 0.0:
                continue
            moved = m * images[row]
            if hazard is None:
                adds.append((int(member), moved))
                continue
            start = hazard.start(x_rows[[member]], np.ones(1))
            final = run_exact(hazard.act, start=start).final_states
            assert final is not None and final.weights is not None
            figures.resolutions += 1
            after = ix.add(
                hazard.written_back(np.repeat(x_rows[[member]], len(final.lost), 0), final.lost)
            )
            for target, w in zip(after, final.weights, strict=True):
                adds.append((int(target), float(w) * moved))
    figures.classes = len(results)
    new = np.zeros((len(ix), len(iy)))
    new[: out.shape[0], : out.shape[1]] = out
    for k, moved_row in adds:
        new[k, : len(moved_row)] += moved_row
    joint.set_oriented(x, new)
    q = joint.oriented(x)
    figures.expected["models_destroyed"] = _models_destroyed(ty, iy.rows, q.sum(axis=0)) - before_y
    figures.expected["wounds_lost"] = float(q.sum(axis=0) @ iy.rows.sum(axis=1)) - wounds_y
    own = _models_destroyed(tx, ix.rows, q.sum(axis=1)) - before_x if hazards else 0.0
    figures.expected["own_models_lost"] = own
    return figures, results


def _states(shape: tuple, rows: np.ndarray, weights: np.ndarray) -> TargetStates:
    keep = weights > 0
    return TargetStates(shape, rows[keep], weights[keep])


def _models_destroyed(track, rows: np.ndarray, weights: np.ndarray) -> float:
    return float(weights @ (track.models - track.models_left(rows)))


class _Resolver:
    """Resolves an activation for one attack class from a start, as ``resolve`` does (the
    player's choices, edition 11's defender's orders), each (activation, class) once: where
    that activation leaves nothing to choose (one way for each group to attack, no ability to
    pick, no ``--order best``, no defender's order to declare), its activation is the same
    whatever the start, so a later turn's start is resolved with the engine alone."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.fixed: dict[tuple[int, AttackClass], Result] = {}

    def __call__(self, k: int, cls: AttackClass, start: TargetStates):
        """(the class's Result, the exact Outcome from ``start``), or None when the class (not
        the whole unit) has no weapon it can attack with.

        Raises:
            Declined: the exact engine declined.
            ExchangeError: the activation cannot be made (at full strength).
        """
        key = (id(self.setup.selections[k]), cls)
        res = self.fixed.get(key)
        if res is not None:
            try:
                return res, run_exact(res.activation, start=start)
            except ExactUnsupported as exc:
                raise Declined(k, str(exc)) from None
        res = _resolved(self.setup, k, cls, start)
        if res is None:
            return None
        if nothing_to_choose(res):
            self.fixed[key] = res
        assert res.exact is not None
        return res, res.exact


def nothing_to_choose(res: Result) -> bool:
    """Whether the activation of ``res`` would be the same from any start."""
    plan, act = res.plan, res.activation
    return (
        all(len(g.options) == 1 for g in plan.groups)
        and len(plan.variants) <= 1
        and res.selection.order != "best"
        and act.policy is None
        and not act.best_allocation
    )


def _resolved(setup: Setup, k: int, cls: AttackClass, start: TargetStates) -> Result | None:
    """The activation ``k`` made by class ``cls`` from ``start``; None when the class (not
    the whole unit) has no weapon it can attack with.

    Raises:
        Declined: the exact engine declined.
        ExchangeError: the activation cannot be made (at full strength).
    """
    from ..selection import SelectionError

    sel = setup.selection(k, cls)
    try:
        res = resolve(sel, "exact", 1, 0, None, Carried(exact=start), stand_in=False)
    except SelectionError as exc:
        if sel.attacker_alive is not None and "weapon" in str(exc):
            return None
        raise ExchangeError(f"{setup.label(k)}: {exc}") from None
    except (LookupError, ValueError) as exc:
        raise ExchangeError(f"{setup.label(k)}: {exc}") from None
    if res.exact_declined is not None:
        raise Declined(k, res.exact_declined)
    return res


def _tally(figures: StepFigures, res: Result, outcome, mass: float) -> None:
    """Add one class's figures (``outcome``'s, weighted by its probability) and the words of
    its Result."""
    figures.resolutions += 1
    for f in WEAPON_FIELDS:
        figures.expected[f] += mass * outcome.expected[f]
    figures.add_choices(res)
    for text, into in (
        (activation_notes(res.notes, res.plan.unmet), figures.notes),
        (res.plan.not_modelled, figures.not_modelled),
    ):
        for t in text:
            if t not in into:
                into.append(t)


def _images(
    act,
    outcome,
    block: np.ndarray,
    mu: np.ndarray,
    rows: np.ndarray,
    index: StateIndex,
    figures: StepFigures,
) -> list[np.ndarray]:
    """Each row of ``block`` (one X state's probabilities over Y's alive states ``rows``),
    normalised, carried through the class's activation: a distribution over ``index``.

    Raises:
        ExactUnsupported: the exact engine declined a row's start.
    """
    assert outcome.final_states is not None
    shape = index.shape
    first = index.dense(outcome.final_states)
    mass = block.sum(axis=1)
    norm = np.divide(block, mass[:, None], out=np.zeros_like(block), where=mass[:, None] > 0)
    if np.abs(norm - mu).sum(axis=1).max() < SPAN_TOLERANCE:
        return [first] * len(block)
    basis, images = [mu], [first]
    out: list[np.ndarray] = [first] * len(block)
    for row in np.argsort(-mass):
        if mass[row] <= 0:
            continue
        r = norm[row]
        b = np.array(basis)
        coef, *_ = np.linalg.lstsq(b.T, r, rcond=None)
        if np.abs(coef @ b - r).sum() < SPAN_TOLERANCE:
            size = len(index)
            out[row] = sum(
                (c * _padded(img, size) for c, img in zip(coef, images, strict=True)),
                np.zeros(size),
            )
            continue
        final = run_exact(act, start=_states(shape, rows, r)).final_states
        assert final is not None
        figures.resolutions += 1
        image = index.dense(final)
        basis.append(r)
        images.append(image)
        out[row] = image
    size = len(index)
    return [np.clip(_padded(v, size), 0.0, None) for v in out]


def _padded(v: np.ndarray, size: int) -> np.ndarray:
    if len(v) >= size:
        return v
    return np.concatenate([v, np.zeros(size - len(v))])


def _hazard(setup: Setup, k: int, cls: AttackClass, res: Result, figures: StepFigures):
    """The class's Hazardous tests as a step on its own unit (None: none), or None with a
    note when they cannot be carried."""
    try:
        return hazard_step(setup.tracks[setup.steps[k].side], cls.alive, res.activation.hazard)
    except ValueError as exc:
        note = f"Hazardous losses not carried in the unit's state ({exc})"
        if note not in figures.notes:
            figures.notes.append(note)
        return None
