"""``calc compare --army LIST``: an army list's units and the whole army in sequence as
``calc compare`` jobs, one set per target.

Each resolved unit of each list is one run against each target: its activation (or, with
both phases, its shooting then its melee as a sequence), ranked among the others by the
comparison's sort; the army is one more run per target, every unit's shooting then every
unit's melee in list order, as ``calc army`` resolves it. Efficiency (points destroyed per
100 points) counts the list's points (:attr:`~wh40k_calc.compare.jobs.Job.points`). The runs
are ordinary jobs (:class:`~wh40k_calc.compare.jobs.Job`): the comparison resolves, ranks,
prints and writes them as any other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..records import replace
from ..selection import Conditions

if TYPE_CHECKING:
    from ..catalog import Catalog
    from ..compare.jobs import Job, RunError
    from ..sequence.steps import Step
    from .resolve import ResolvedArmy

ARMY_RUN = "army in sequence"


def army_jobs(
    paths: list[str],
    cat: Catalog,
    targets: list,
    *,
    phase: str = "both",
    conditions: Conditions | None = None,
    edition: str | None = None,
    default_edition: str = "10",
    default_source: str = "the default",
    method: str = "exact",
    trials: int | None = None,
    seed: int = 40_000,
    allies: tuple[str, ...] = (),
    factions: dict[str, str | None] | None = None,
) -> list[Job | RunError]:
    """The jobs of ``calc compare --army PATH... --target T...``: every resolved unit of each
    list against each target, and each list's army in sequence against each target; an
    error in place of a list that cannot be read or a target that cannot be found."""
    from ..compare.jobs import RunError, option_targets
    from .detect import read_list
    from .model import ListError, UnitCountError
    from .resolve import resolve_army

    out: list[Job | RunError] = []
    armies: list[tuple[str, ResolvedArmy]] = []
    for i, path in enumerate(paths, start=1):
        try:
            resolved = resolve_army(
                read_list(path), cat, edition, default_edition, allies, default_source
            )
        except ListError as exc:
            said = f"{path}: {exc}" if isinstance(exc, UnitCountError) else str(exc)
            out.append(RunError(None, said, f"--army {path}"))
            continue
        name = resolved.army.name or (f"list {i}" if len(paths) > 1 else "")
        armies.append((f"{name}: " if len(paths) > 1 else "", resolved))
    by_edition: dict[str, dict] = {}
    for _, resolved in armies:
        if resolved.edition not in by_edition:
            choices, errors = option_targets(cat, targets, resolved.edition, factions)
            out += errors
            by_edition[resolved.edition] = choices
    for prefix, resolved in armies:
        for label, (choice, spec) in by_edition[resolved.edition].items():
            out += _target_jobs(
                prefix, resolved, label, choice, spec, phase, conditions or Conditions(),
                method, trials, seed, cat,
            )  # fmt: skip
    return out


def _target_jobs(
    prefix: str,
    resolved: ResolvedArmy,
    label: str,
    choice,
    spec,
    phase: str,
    conditions: Conditions,
    method: str,
    trials: int | None,
    seed: int,
    cat: Catalog,
) -> list[Job]:
    from ..batch import names
    from ..compare.jobs import Job
    from ..selection import allocation_choice
    from .army import TargetSide, plan_units

    side = TargetSide(
        choice,
        allocation_choice(names(spec.allocation)),
        spec.wounds_left,
    )
    plans = plan_units(resolved, side, conditions, phase, cat)
    jobs: list[Job] = []
    army: list = []
    for p in plans:
        if not p.steps:
            continue
        u = p.unit
        run = f"{prefix}{u.name} ({', '.join(map(str, u.positions))})"
        first = p.steps[0].selection
        own = p.steps if len(p.steps) > 1 else ()
        jobs.append(Job(run, first, method, trials, seed, label, steps=own, points=u.points))
        army.append(p)
    steps: list[Step] = []
    for ph in ("shooting", "fight"):
        for p in army:
            steps += [replace(s, index=len(steps) + 1) for s in p.steps if s.selection.phase == ph]
    if steps:
        missing = [
            f"not in the army: {u.name} ({', '.join(map(str, u.positions))}): {u.reason}"
            for u in resolved.units
            if u.choice is None
        ]
        first = replace(
            steps[0],
            selection=replace(steps[0].selection, notes=(*steps[0].selection.notes, *missing)),
        )
        steps[0] = first
        points = [p.unit.points for p in army if p.unit.points is not None]
        jobs.append(
            Job(
                f"{prefix}{ARMY_RUN}",
                steps[0].selection,
                method,
                trials,
                seed,
                label,
                steps=tuple(steps),
                points=sum(points) if points else None,
            )
        )
    return jobs
