"""``calc army --json``: the resolution (every unit and weapon line with its status) and the
results (every row's figures, and the whole army in sequence as ``calc sequence --json``
gives it). The shape is documented in README ("Army lists").
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from ..report import SCHEMA, _f
from .army import ArmyRun
from .resolve import ResolvedArmy


def list_json(resolved: ResolvedArmy) -> dict[str, Any]:
    """The list as read (``list``) and as resolved (``resolution``)."""
    a = resolved.army
    return {
        "schema": SCHEMA,
        "list": {
            "format": a.format,
            "name": a.name,
            "faction": a.faction,
            "detachments": list(a.detachments),
            "points": a.points,
            "points_limit": a.points_limit,
            "edition": a.edition,
            "notes": list(a.notes),
        },
        "resolution": {
            "edition": resolved.edition,
            "edition_source": resolved.edition_source,
            "faction": {
                "listed": resolved.faction.listed,
                "ours": resolved.faction.faction,
                "keyword": resolved.faction.keyword,
                "fold": resolved.faction.fold,
            },
            "summary": resolved.summary(),
            "complete": resolved.complete,
            "units_by_status": resolved.unit_counts(),
            "weapons_by_status": resolved.weapon_counts(),
            "effects": {
                "applied": list(resolved.effects.attacker),
                "unused": list(resolved.effects.unused),
                "not_modelled": list(resolved.effects.not_modelled),
            },
            "units": [_unit(u) for u in resolved.units],
            "notes": list(resolved.notes),
        },
    }


def _unit(u) -> dict[str, Any]:
    return {
        "name": u.name,
        "positions": list(u.positions),
        "status": u.status,
        "faction": u.faction,
        "models": u.models,
        "points": u.points,
        "listed": [
            {
                "name": x.name,
                "models": x.model_count,
                "points": x.points,
                "enhancement": x.enhancement,
                "warlord": x.warlord,
                "attachment": asdict(x.attachment) if x.attachment else None,
                "ally": x.ally,
                "line": x.line,
            }
            for x in u.listed
        ],
        "reason": u.reason,
        "candidates": list(u.candidates),
        "folds": list(u.folds),
        "warnings": list(u.warnings),
        "default_loadout": u.default_loadout,
        "beyond_options": list(u.beyond_options),
        "below_minimum": list(u.below_minimum),
        "effects": list(u.effects),
        "weapons": [
            {
                "model": w.model,
                "listed": w.listed,
                "count": w.count,
                "status": w.status,
                "weapons": list(w.weapons),
                "fold": w.fold,
                "candidates": list(w.candidates),
            }
            for w in u.weapons
        ],
    }


def army_json(run: ArmyRun, phase: str) -> dict[str, Any]:
    """The whole ``calc army --json`` object: :func:`list_json` plus ``phase``,
    ``sequence_order``, ``target``, ``units`` (the rows, best first) and ``army`` (the
    whole army in sequence: ``calc sequence --json``'s object; null when no unit attacks)."""
    from ..report import target_block
    from ..sequence.output import to_json_sequence

    out = list_json(run.resolved)
    first = next((r.seq for r in run.rows if r.seq is not None), None)
    out["phase"] = phase
    out["sequence_order"] = run.order
    out["target"] = target_block(first.steps[0].result) if first is not None else None
    out["units"] = [
        {
            "name": r.plan.unit.name,
            "positions": list(r.plan.unit.positions),
            "models": r.plan.unit.models,
            "points": r.plan.unit.points,
            "steps": [s.text for s in r.plan.steps],
            "weapons_used": [{"name": n, "count": c} for n, c in r.weapons],
            "expected_damage": _f(r.damage),
            "models_destroyed": _f(r.models_destroyed),
            "p_at_least_one": _f(r.p_one),
            "p_all": _f(r.p_all),
            "per_100_points": None if r.per_100 is None else _f(r.per_100),
            "error": r.error,
            "notes": list(r.plan.notes),
        }
        for r in run.rows
    ]
    out["army"] = to_json_sequence(run.seq) if run.seq is not None else None
    out["notes"] = list(run.notes)
    return out
