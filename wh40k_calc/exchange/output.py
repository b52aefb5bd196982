"""``calc exchange --json``: one object for the whole exchange (its fields are documented in
the README's JSON section). Output only: every number comes from the ExchangeResult."""

from __future__ import annotations

from typing import Any

from ..report import _f
from .result import Chain, ExchangeResult, StepFigures, Summary


def to_json_exchange(ex: ExchangeResult) -> dict[str, Any]:
    """The JSON object of an exchange (``schema`` 1)."""
    setup = ex.setup
    chain = ex.primary
    out: dict[str, Any] = {
        "schema": 1,
        "edition": setup.edition,
        "phase": "exchange",
        "method": ex.method,
        "turns": setup.turns,
        "rounds": (setup.turns + 1) // 2,
        "first": setup.steps[0].active if setup.steps else "a",
        "sides": {key: _side(ex, key) for key in ("a", "b")},
        "activations": [_activation(ex, k, f) for k, f in enumerate(chain.steps)],
        "result": _summary(chain.summary),
        "neglected": _f(ex.exact.neglected) if ex.exact is not None else 0.0,
        "not_modelled": _not_modelled(chain),
        "notes": list(ex.notes),
    }
    if ex.sample is not None:
        out["sample"] = _sample_block(ex, ex.sample)
    return out


def _side(ex: ExchangeResult, key: str) -> dict[str, Any]:
    side = ex.setup.sides[key]
    track = ex.setup.tracks[key]
    unit = track.unit
    models = (*track.profile.bodyguard, *track.profile.characters)
    return {
        "name": unit.name,
        "faction": unit.datasheets[0].faction,
        "models": track.models,
        "wounds": track.wounds,
        "points": _f(unit.points),
        "points_listed": unit.points_listed,
        "wounds_left": side.wounds_left,
        "allocation_order": [m.name for m in models],
        "kinds": {
            name: sum(unit.groups[i].count for i in groups) for name, groups in track.kinds()
        },
        "activations": [s.text for s in side.steps],
    }


def _figures(f: StepFigures) -> dict[str, Any]:
    return {"p_made": _f(f.p_made), "expected": {k: _f(v) for k, v in f.expected.items()}}


def _activation(ex: ExchangeResult, k: int, f: StepFigures) -> dict[str, Any]:
    p = ex.setup.steps[k]
    return {
        "number": p.number,
        "round": p.round,
        "turn": p.turn,
        "active": p.active,
        "side": p.side,
        "phase": p.step.phase,
        "text": p.step.text,
        "charged": p.step.charged,
        "fights_first": p.fights_first,
        **_figures(f),
        "resolutions": f.resolutions,
        "attack_classes": f.classes,
        "choices": list(f.choices),
        "not_modelled": list(f.not_modelled),
        "notes": list(f.notes),
    }


def _summary(s: Summary) -> dict[str, Any]:
    return {
        "p_destroyed": {k: _f(v) for k, v in s.p_destroyed.items()},
        "p_both_destroyed": _f(s.p_both),
        "expected_models_left": {k: _f(v) for k, v in s.expected_models_left.items()},
        "expected_wounds_left": {k: _f(v) for k, v in s.wounds_left.items()},
        "expected_models_left_by_kind": {
            k: {name: _f(v) for name, v in kinds.items()} for k, kinds in s.kinds_left.items()
        },
        "models_left_distribution": {k: [_f(x) for x in m] for k, m in s.models_left.items()},
        "joint_models_left": [[_f(x) for x in row] for row in s.joint],
    }


def _not_modelled(chain: Chain) -> list[str]:
    out: list[str] = []
    for f in chain.steps:
        for t in f.not_modelled:
            if t not in out:
                out.append(t)
    return out


def _sample_block(ex: ExchangeResult, s: Chain) -> dict[str, Any]:
    se = s.summary.standard_error
    return {
        "trials": s.trials,
        "seed": s.seed,
        "activations": [
            {
                "number": ex.setup.steps[k].number,
                **_figures(f),
                "standard_error": {k2: _f(v) for k2, v in f.standard_error.items()},
            }
            for k, f in enumerate(s.steps)
        ],
        "result": {
            **_summary(s.summary),
            "standard_error": {
                "p_destroyed": {k: _f(v) for k, v in se["p_destroyed"].items()},
                "p_both_destroyed": _f(se["p_both"]),
                "expected_models_left": {k: _f(v) for k, v in se["expected_models_left"].items()},
                "joint_models_left": [[_f(x) for x in row] for row in se["joint"]],
            },
        },
    }
