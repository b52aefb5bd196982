"""A resolved army against a target: each unit's activations, and the whole army in sequence.

Each resolved unit (an Attached unit is one) gets one activation per phase asked for in which
it has a weapon that attacks there: its shooting, then its melee. A unit's own row is those
activations as a sequence (:func:`wh40k_calc.sequence.run.run_sequence`) into a fresh target;
the army is every unit's shooting in order (the list's, or the rows' ranking), then every
unit's melee, into one target whose state is carried from step to step exactly as ``calc
sequence`` carries it. Nothing here resolves an attack: the steps are
:class:`~wh40k_calc.sequence.steps.Step` values with an ordinary
:class:`~wh40k_calc.selection.Selection`, run by the sequence machinery (and, for ``calc
compare --army``, by the batch runner).

Effects of the list (its detachment's attacker-side rules) join an activation only where
their own conditions hold (:func:`wh40k_calc.effects.check`); where they do not, a note says
why (a rule for another phase is silent).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..records import replace
from ..selection import (
    Conditions,
    Modifiers,
    NothingAfterAdvanceError,
    Selection,
    SelectionError,
    UnitChoice,
)
from ..sequence.steps import Step
from .resolve import ResolvedArmy, ResolvedUnit

if TYPE_CHECKING:
    from ..catalog import Catalog
    from ..options import TargetOptions
    from ..sequence.run import SequenceResult

PHASES = {"shoot": ("shooting",), "fight": ("fight",), "both": ("shooting", "fight")}
VERBS = {"shooting": "shoot", "fight": "fight"}
MAX_ARMY_STEPS = 120  # activations of the whole army in sequence


@dataclass(frozen=True)
class UnitPlan:
    """A row's activations: ``unit`` the resolved unit, ``steps`` its activations in phase
    order (none: it has no weapon for the phases asked), ``notes`` what was left out and
    why."""

    unit: ResolvedUnit
    steps: tuple[Step, ...]
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class UnitRow:
    """A row's figures against the target: the unit's activations as a sequence into a
    fresh target (``seq``; None when it has no step), and the figures the table shows."""

    plan: UnitPlan
    seq: SequenceResult | None
    damage: float = 0.0
    models_destroyed: float = 0.0
    p_one: float = 0.0
    p_all: float = 0.0
    # P(no model destroyed), P(not every model): the complements of p_one and p_all summed
    # from the small side, for the table never to print a possible outcome as certain
    p_none: float = 1.0
    p_short: float = 1.0
    per_100: float | None = None
    weapons: tuple[tuple[str, int], ...] = ()
    error: str | None = None


@dataclass
class ArmyRun:
    """Everything ``calc army`` shows: the rows ranked best first, the army's sequence (None
    when no unit can attack) and its steps' order, and notes."""

    resolved: ResolvedArmy
    rows: list[UnitRow]
    seq: SequenceResult | None
    order: str
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class TargetSide:
    """The target of an army and what the player says about it: ``choice`` the unit,
    ``allocation`` its allocation order (as the Selection takes it), ``wounds_left`` its
    wounded model's wounds left, ``stealth`` Stealth whatever its datasheet says."""

    choice: UnitChoice
    allocation: tuple[str, ...] | str | None = None
    wounds_left: int | None = None
    stealth: bool = False


def target_side(cat: Catalog, opts: TargetOptions, edition: str | None = None) -> TargetSide:
    """The target of ``calc army`` from its target options (found as ``calc sequence`` finds
    it), in ``edition``'s data (default: the catalog's).

    Raises:
        UnknownUnitError, DatasheetError: a unit that cannot be found or loaded.
        SelectionError: a malformed --allocation.
    """
    from ..request import split_names, target_choice
    from ..selection import allocation_choice

    return TargetSide(
        target_choice(cat, opts, edition),
        allocation_choice(split_names(opts.allocation, "--allocation")),
        opts.target_wounds_left,
        opts.target_stealth,
    )


def plan_units(
    resolved: ResolvedArmy,
    side: TargetSide,
    conditions: Conditions,
    phase: str,
    cat: Catalog | None = None,
) -> list[UnitPlan]:
    """Each resolved row's activations against the target in the phases of ``phase``
    ("shoot", "fight" or "both"), with the target's allocation, wounded model and Stealth and
    ``conditions`` for every activation."""
    from ..units import build_unit

    out = []
    target = side.choice
    modifiers = Modifiers(target_stealth=side.stealth)
    for unit in resolved.resolved():
        assert unit.choice is not None
        built = build_unit(unit.choice, "attacker", resolved.edition)
        kinds = {"fight" if w.is_melee else "shooting" for g in built.groups for w in g.weapons}
        steps: list[Step] = []
        notes: list[str] = []
        for ph in PHASES[phase]:
            if ph not in kinds:
                if len(PHASES[phase]) == 1 or not kinds:
                    what = "ranged" if ph == "shooting" else "melee"
                    notes.append(f"{unit.name} has no {what} weapon: it does not {VERBS[ph]}")
                continue
            sheets = [unit.choice.datasheet, *unit.choice.leaders, target.datasheet]
            sel = Selection(
                phase=ph,
                attacker=unit.choice,
                target=target,
                conditions=conditions,
                modifiers=modifiers,
                edition=resolved.edition,
                allocation=side.allocation,
                target_wounds_left=side.wounds_left,
                notes=cat.duplicate_notes(sheets) if cat is not None else (),
            )
            effects, why = _effects_for(unit, sel)
            notes += why
            sel = replace(sel, effects=effects)
            if ph == "shooting" and conditions.advanced and not _shoots_after_advance(sel):
                notes.append(
                    f"{unit.name} has no weapon that shoots after an Advance ([ASSAULT], or a "
                    "rule that lets it shoot anyway): it does not shoot"
                )
                continue
            text = f"{VERBS[ph]} {unit.name} (list {_positions(unit)})"
            steps.append(Step(1, len(steps) + 1, sel, text))
        out.append(UnitPlan(unit, tuple(steps), tuple(notes)))
    return out


def _shoots_after_advance(sel: Selection) -> bool:
    """Whether the unit of shooting activation ``sel`` (with ``--advanced``) has a weapon that
    may shoot after its Advance move (``rules/advanced.py``); any other refusal is left for
    the activation to give."""
    from ..resolve import planned

    try:
        planned(sel)
    except NothingAfterAdvanceError:
        return False
    except (SelectionError, LookupError, ValueError):
        return True
    return True


def _positions(unit: ResolvedUnit) -> str:
    return "unit " + " and ".join(str(p) for p in unit.positions)


def _effects_for(unit: ResolvedUnit, sel: Selection) -> tuple[tuple[str, ...], list[str]]:
    """The unit's effects that apply to its activation ``sel`` (``rules.applied.refusal``: an
    effect's own conditions, its faction), and a note for each that cannot (except one for
    another phase)."""
    from ..rules import get_rules
    from ..rules.activation import built_units
    from ..rules.applied import refusal

    applied, notes = [], []
    attacker, target = built_units(sel)
    edition = get_rules(sel.edition).edition
    for eid in unit.effects:
        why = refusal(sel, attacker, target, eid, edition)
        if why is None:
            applied.append(eid)
        elif "phase only" not in why:
            notes.append(f"{unit.name}: {eid} not applied ({why.removeprefix('--effect ')})")
    return tuple(applied), notes


def run_units(plans: list[UnitPlan], method: str, trials: int | None, seed: int) -> list[UnitRow]:
    """Each row's activations as a sequence into a fresh target, ranked by expected models
    destroyed (ties in list order); a row whose activation cannot be resolved keeps its error
    and ranks last."""
    from ..sequence.run import run_sequence
    from ..sequence.steps import StepError

    rows = []
    for p in plans:
        if not p.steps:
            rows.append(UnitRow(p, None))
            continue
        try:
            seq = run_sequence(list(p.steps), method, trials, seed)
        except (StepError, SelectionError, LookupError, ValueError) as exc:
            rows.append(UnitRow(p, None, error=str(exc)))
            continue
        rows.append(_figures(p, seq))
    order = sorted(
        range(len(rows)),
        key=lambda i: (rows[i].seq is None, -rows[i].models_destroyed, i),
    )
    return [rows[i] for i in order]


def _figures(p: UnitPlan, seq: SequenceResult) -> UnitRow:
    """A row's figures from its sequence: the steps' own expected damage added up, the
    models destroyed after the last step, P(at least one) and P(every model), and target
    points destroyed per 100 of the list's points."""
    last = seq.primary(len(seq.steps) - 1)
    target = seq.steps[0].result.plan.target
    n = target.models
    md = last.models_destroyed_distribution
    engine = "sample" if seq.method == "sample" else "exact"
    damage = sum(getattr(sr.result, engine).expected["damage"] for sr in seq.steps)
    models = float(last.expected["models_destroyed"])
    per_100 = None
    points = p.unit.points
    if points and target.points_listed and n:
        per_100 = target.points / n * models / points * 100
    used: dict[str, int] = {}
    for sr in seq.steps:
        for w in getattr(sr.result, engine).weapons:
            if w.count:
                used[w.name] = max(used.get(w.name, 0), w.count)
    return UnitRow(
        p,
        seq,
        damage=float(damage),
        models_destroyed=models,
        p_one=float(last.kill_table[0]) if len(last.kill_table) else 0.0,
        p_all=float(md[n]) if len(md) > n else 0.0,
        p_none=float(md[0]) if len(md) else 1.0,
        p_short=last.p_some_left(n) if len(md) else 1.0,
        per_100=per_100,
        weapons=tuple(used.items()),
    )


def army_steps(rows: list[UnitRow], plans: list[UnitPlan], order: str) -> list[Step]:
    """The whole army's activations: every unit's shooting, in the list's order (``order``
    "list") or the rows' ranking ("ranked"), then every unit's melee in the same order;
    numbered 1.. in that order. Rows whose activations could not be resolved are left out.

    Raises:
        ValueError: more than MAX_ARMY_STEPS activations.
    """
    from ..records import replace

    usable = [r.plan for r in rows if r.seq is not None]
    if order == "list":
        keep = {id(p) for p in usable}
        usable = [p for p in plans if id(p) in keep]
    out: list[Step] = []
    for ph in ("shooting", "fight"):
        for p in usable:
            for s in p.steps:
                if s.selection.phase == ph:
                    out.append(replace(s, index=len(out) + 1))
    if len(out) > MAX_ARMY_STEPS:
        raise ValueError(
            f"the army has {len(out)} activations; at most {MAX_ARMY_STEPS} are resolved in "
            "sequence (give --phase shoot or fight)"
        )
    return out


def run_army(
    resolved: ResolvedArmy,
    cat: Catalog,
    target_opts: TargetOptions,
    conditions: Conditions,
    phase: str = "both",
    order: str = "list",
    method: str = "exact",
    trials: int | None = None,
    seed: int = 40_000,
) -> ArmyRun:
    """Every row against the target, then the army in sequence (see the module docstring).

    Raises:
        UnknownUnitError, DatasheetError, SelectionError: the target cannot be found or
            built.
        ValueError: too many activations for one sequence, or no row could be resolved
            (the first row's reason: an impossible --allocation, ...).
    """
    from ..sequence.run import run_sequence

    target = target_side(cat, target_opts, resolved.edition)
    plans = plan_units(resolved, target, conditions, phase, cat)
    rows = run_units(plans, method, trials, seed)
    errors = [r.error for r in rows if r.error]
    if errors and all(r.seq is None for r in rows):  # the target side is at fault
        raise ValueError(errors[0])
    notes = [n for p in plans for n in p.notes]
    notes += [f"{r.plan.unit.name}: {r.error}" for r in rows if r.error]
    steps = army_steps(rows, plans, order)
    seq = run_sequence(steps, method, trials, seed) if steps else None
    return ArmyRun(resolved, rows, seq, order, notes)
