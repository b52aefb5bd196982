"""A sequence's result for scripts: the JSON object of ``calc sequence --json`` (README, "JSON
output"), and the figures ``calc compare`` ranks plans by.

The object is ``calc shoot``'s contract turned inside out: ``steps`` holds one ``calc
shoot``-style object per activation (its own figures) plus ``cumulative`` (the whole sequence
after it); the top level holds the whole sequence's figures. ``attacker`` counts each attacking
unit of the plan once (:func:`attacking_units`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..engine.outcome import LOSS_FIELDS, WEAPON_FIELDS, Outcome
from ..notes import StepNote
from ..report import SCHEMA, _dist, _f, _weapon_not_modelled, roles, target_block, to_json
from ..resolve import Result
from ..show import data_json
from .budget import FigureBudget
from .figures import own_result
from .run import SequenceResult


def attacking_units(seq: SequenceResult) -> list[dict[str, Any]]:
    """The attacking units of the plan, each counted once: steps with the same attacker
    (datasheet, size, loadout or weapons, Leaders) are one unit for a shooting step and a
    fight step (it shoots, then charges), and as many units as it has shooting (or fight)
    steps in one pass through the list (a unit is selected to shoot once per Shooting phase and
    to fight once per Fight phase); a repeat is the same units again. Each entry: name,
    faction, models, points, ``units`` (how many such units) and ``steps`` (their indexes)."""
    by_key: dict[tuple, dict[str, Any]] = {}
    for sr in seq.steps:
        if sr.step.repeat != 1:
            continue
        unit = sr.result.plan.attacker
        c = sr.result.selection.attacker
        key = (
            c.datasheet.name,
            c.datasheet.faction,
            unit.models,
            c.loadout,
            c.weapons,
            tuple((d.name, d.faction) for d in c.leaders),
        )
        entry = by_key.setdefault(
            key,
            {
                "name": unit.name,
                "faction": unit.datasheets[0].faction,
                "data": data_json(unit.datasheets[0]),
                "models": unit.models,
                "points": _f(unit.points),
                "points_listed": unit.points_listed,
                "steps": [],
                "phases": [],
            },
        )
        entry["steps"].append(sr.step.index)
        entry["phases"].append(sr.result.selection.phase)
    out = []
    for entry in by_key.values():
        phases = entry.pop("phases")
        entry["units"] = max(phases.count("shooting"), phases.count("fight"))
        out.append(entry)
    return out


def _attacker_block(seq: SequenceResult) -> dict[str, Any]:
    units = attacking_units(seq)
    return {
        "name": " then ".join(
            u["name"] + (f" ×{u['units']}" if u["units"] > 1 else "") for u in units
        ),
        "models": sum(u["models"] * u["units"] for u in units),
        "points": _f(sum(u["points"] * u["units"] for u in units)),
        "points_listed": all(u["points_listed"] for u in units),
        "units": units,
    }


def _losses(seq: SequenceResult, engine: str) -> dict[str, float]:
    """Every step's Hazardous losses added up, and P(losing at least one model in some step).

    A step is made (and takes its Hazardous tests) only while the target is alive, so the
    steps made are the first L, L = the last step made: P(L >= k) = a_k, the step's
    P(alive). Given that it is made, a step's hazard rolls are dice of their own (they do not
    depend on the target): P(no loss) = sum over k of P(L = k) x prod over j <= k of
    (1 - h_j), with h_j = P(step j loses a model | it is made) = at_least_one_j / a_j."""
    rows = [getattr(sr.result, engine).attacker_losses for sr in seq.steps]
    alive = [sr.p_alive.get(engine, 1.0) for sr in seq.steps]
    spared, kept = 1.0 - alive[0], 1.0
    for k, (r, a) in enumerate(zip(rows, alive, strict=True)):
        kept *= 1.0 - (r["at_least_one"] / a if a > 0 else 0.0)
        after = alive[k + 1] if k + 1 < len(alive) else 0.0
        spared += (a - after) * kept
    out = {k: _f(sum(r[k] for r in rows)) for k in LOSS_FIELDS}
    out["at_least_one"] = _f(min(max(1.0 - spared, 0.0), 1.0))
    return out


def _cumulative(o: Outcome, n_models: int, characters: list) -> dict[str, Any]:
    md = o.models_destroyed_distribution
    block: dict[str, Any] = {
        "models_destroyed": _f(o.expected["models_destroyed"]),
        "wounds_lost": _f(o.expected["wounds_lost"]),
        "p_destroyed": _f(md[n_models] if len(md) > n_models else 0.0),
        "kill_table": [{"models": k + 1, "at_least": _f(p)} for k, p in enumerate(o.kill_table)],
    }
    if characters:
        block["characters_destroyed"] = [
            {"name": name, "role": role, "destroyed": _f(p)}
            for (name, role), p in zip(characters, o.characters_destroyed, strict=True)
        ]
    return block


def _characters(result: Result) -> list[tuple[str, str]]:
    """(name, role) of each CHARACTER model of the target: role "leader", "support" or
    "character"."""
    names = [m.name for m in result.activation.target.characters]
    return [(n, role.lower()) for n, role in zip(names, roles(result), strict=True)]


def _totals(seq: SequenceResult, engine: str) -> dict[str, float]:
    """The whole sequence's expectations: per-activation figures added up over the steps,
    wounds lost and models destroyed after the last."""
    last = seq.cumulative(len(seq.steps) - 1, engine)
    out = {
        f: _f(sum(getattr(sr.result, engine).expected[f] for sr in seq.steps))
        for f in WEAPON_FIELDS
    }
    out["wounds_lost"] = _f(last.expected["wounds_lost"])
    out["models_destroyed"] = _f(last.expected["models_destroyed"])
    return out


def _whole(seq: SequenceResult, engine: str) -> dict[str, Any]:
    last = seq.cumulative(len(seq.steps) - 1, engine)
    target = seq.steps[0].result.activation.target
    md = np.zeros(target.models + 1)
    md[: len(last.models_destroyed_distribution)] = last.models_destroyed_distribution
    out: dict[str, Any] = {
        "expected": _totals(seq, engine),
        "kill_table": [{"models": k + 1, "at_least": _f(p)} for k, p in enumerate(last.kill_table)],
        "models_destroyed_distribution": _dist(md),
        "wounds_lost_distribution": _dist(last.wounds_lost_distribution),
        "attacker_losses": _losses(seq, engine),
    }
    if target.characters:
        out["characters_destroyed"] = [
            {"name": name, "role": role, "destroyed": _f(p)}
            for (name, role), p in zip(
                _characters(seq.steps[0].result), last.characters_destroyed, strict=True
            )
        ]
    return out


def step_json(seq: SequenceResult, k: int, budget: FigureBudget | None = None) -> dict[str, Any]:
    """Step ``k``'s (0-based) object: ``calc shoot``'s contract with the step's own figures,
    ``repeat``, ``step``, the step's ``text``, and ``cumulative`` (the sequence so far; in the
    ``sample`` block too). ``budget``: which exact figures are computed (None: the sequence's
    own :class:`~.budget.FigureBudget`); the step's notes say which are the sampler's."""
    sr = seq.steps[k]
    target = sr.result.activation.target
    budget = budget if budget is not None else FigureBudget(seq)
    obj = to_json(own_result(seq, k, budget))
    obj["notes"] = obj["notes"] + budget.notes(k)  # a new list: the Result's is shared
    obj = {"repeat": sr.step.repeat, "step": sr.step.index, "text": sr.step.text, **obj}
    chars = _characters(sr.result)
    obj["cumulative"] = _cumulative(seq.primary(k), target.models, chars)
    if "sample" in obj:
        cum = seq.cumulative(k, "sample")
        block = _cumulative(cum, target.models, chars)
        se = cum.standard_error
        block["standard_error"] = {
            "models_destroyed": _f(se["expected"]["models_destroyed"]),
            "wounds_lost": _f(se["expected"]["wounds_lost"]),
            "kill_table": [_f(x) for x in se["kill_table"]],
        }
        obj["sample"]["cumulative"] = block
    return obj


def to_json_sequence(seq: SequenceResult, steps: bool = True) -> dict[str, Any]:
    """The ``calc sequence --json`` object (``schema`` 1). ``steps``: with the per-step
    objects (False: without ``steps``, for ``calc compare``'s table, which shows only the
    whole sequence's figures; their exact distributions are then never computed)."""
    first = seq.steps[0].result
    primary = "sample" if seq.method == "sample" else "exact"
    budget = FigureBudget(seq) if steps else None
    step_objs = [step_json(seq, k, budget) for k in range(len(seq.steps))] if steps else []
    out: dict[str, Any] = {
        "schema": SCHEMA,
        "edition": first.selection.edition,
        "data_versions": _data_versions(seq),
        "phase": "sequence",
        "method": seq.method,
        "repeat": max(sr.step.repeat for sr in seq.steps),
        "attacker": _attacker_block(seq),
        "target": target_block(first),
        "steps": step_objs,
        **_whole(seq, primary),
        "not_modelled": _not_modelled(seq),
        "notes": seq.notes + _step_notes(seq) + (_budget_notes(seq, budget) if budget else []),
    }
    if not steps:
        del out["steps"]
    if seq.method != "exact":
        out["sample"] = _sample_block(seq)
    if seq.attribution is not None:  # --explain
        from ..explained import attribution_json
        from .explain import wasted_whole

        out["attribution"] = attribution_json(seq.attribution)
        out["wasted"] = wasted_whole(seq, primary)
    return out


def _data_versions(seq: SequenceResult) -> list[int | str]:
    """The data versions of every datasheet the sequence uses ([912]; [] for hand-written
    files and the 10th-edition export)."""
    found: list[int | str] = []
    for sr in seq.steps:
        for ds in sr.result.selection.datasheets():
            if ds.data is not None and ds.data.version not in found:
                found.append(ds.data.version)
    return found


def _sample_block(seq: SequenceResult) -> dict[str, Any]:
    last = seq.cumulative(len(seq.steps) - 1, "sample")
    se = last.standard_error
    return {
        "trials": last.trials,
        "seed": seq.seed,
        **_whole(seq, "sample"),
        "standard_error": {
            "expected": {
                "models_destroyed": _f(se["expected"]["models_destroyed"]),
                "wounds_lost": _f(se["expected"]["wounds_lost"]),
            },
            "kill_table": [_f(x) for x in se["kill_table"]],
        },
    }


def _not_modelled(seq: SequenceResult) -> list[str]:
    out: list[str] = []
    for sr in seq.steps:
        for n in sr.result.plan.not_modelled + _weapon_not_modelled(sr.result):
            if n not in out:
                out.append(n)
    return out


def _budget_notes(seq: SequenceResult, budget: FigureBudget) -> list[str]:
    """Each step's note on the figures the budget left to the sampler (``step 2.1: ...``)."""
    return [
        StepNote(sr.step.index, n, sr.step.label(seq.repeated))
        for k, sr in enumerate(seq.steps)
        for n in budget.notes(k)
    ]


def _step_notes(seq: SequenceResult) -> list[str]:
    """Each step's notes once, prefixed with the step: ``step 2: ...`` when every repeat of
    step 2 has the note, else the repeats that have it (``step 2.2, 3.2: ...``); each a
    :class:`~wh40k_calc.notes.StepNote` of the step's own note."""
    where: dict[tuple[int, str], list[str]] = {}
    repeats: dict[int, int] = {}
    for sr in seq.steps:
        repeats[sr.step.index] = repeats.get(sr.step.index, 0) + 1
        for n in sr.result.notes:
            labels = where.setdefault((sr.step.index, n), [])
            if sr.step.label(seq.repeated) not in labels:
                labels.append(sr.step.label(seq.repeated))
    return [
        StepNote(index, n, None if len(labels) == repeats[index] else ", ".join(labels))
        for (index, n), labels in where.items()
    ]
