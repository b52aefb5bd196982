"""``calc exchange --json``: one object for the whole exchange (its fields are documented in
the README's JSON section). Output only: every number comes from the ExchangeResult."""

from __future__ import annotations

from typing import Any

from ..engine.outcome import WEAPON_FIELDS
from ..report import _f
from ..show import data_json
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
        **_as_attacker_and_target(ex, chain),
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
        "data": data_json(unit.datasheets[0]),
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


def _as_attacker_and_target(ex: ExchangeResult, chain: Chain) -> dict[str, Any]:
    """Side A's view of the exchange, in the words of ``calc shoot --json`` (what ``calc
    compare`` ranks): ``attacker`` (side A), ``target`` (side B), ``expected`` (side A's
    activations added up; ``models_destroyed`` and ``wounds_lost``: side B's over the whole
    exchange), ``kill_table`` (side B's models destroyed) and ``attacker_losses`` (side A's
    models lost in the exchange, to side B's attacks and its own Hazardous tests)."""
    setup = ex.setup
    s = chain.summary
    ta, tb = setup.tracks["a"], setup.tracks["b"]
    expected = dict.fromkeys(WEAPON_FIELDS, 0.0)
    for p, f in zip(setup.steps, chain.steps, strict=True):
        if p.side == "a":
            for k in WEAPON_FIELDS:
                expected[k] += f.expected[k]
    left_b = s.models_left["b"]
    destroyed_b = tb.models - s.expected_models_left["b"]
    start_b = float(setup.initial["b"].wounds_lost[0])
    expected["models_destroyed"] = destroyed_b
    expected["wounds_lost"] = tb.wounds - start_b - s.wounds_left["b"]
    kill = [float(left_b[: tb.models - k + 1].sum()) for k in range(1, tb.models + 1)]
    lost_a = ta.models - s.expected_models_left["a"]
    attacker = _unit_brief(ta.unit, ta.models)
    target = {**_unit_brief(tb.unit, tb.models), "wounds": tb.wounds}
    target["wounds_left"] = setup.sides["b"].wounds_left
    target["wounded_model"] = _wounded_model(tb, setup.sides["b"].wounds_left)
    return {
        "attacker": attacker,
        "target": target,
        "expected": {k: _f(v) for k, v in expected.items()},
        "kill_table": [{"models": k + 1, "at_least": _f(p)} for k, p in enumerate(kill)],
        "attacker_losses": {
            "models_destroyed": _f(lost_a),
            "at_least_one": _f(1.0 - float(s.models_left["a"][ta.models])),
        },
    }


def _unit_brief(unit, models: int) -> dict[str, Any]:
    return {
        "name": unit.name,
        "faction": unit.datasheets[0].faction,
        "data": data_json(unit.datasheets[0]),
        "models": models,
        "points": _f(unit.points),
        "points_listed": unit.points_listed,
    }


def _wounded_model(track, wounds_left: int | None) -> dict[str, Any] | None:
    if wounds_left is None:
        return None
    first = (*track.profile.bodyguard, *track.profile.characters)[0]
    return {"name": first.name, "wounds_left": wounds_left, "W": first.W}


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
        "engaged": p.engaged,
        "fights_first": p.fights_first,
        "fights_first_by": list(p.fights_first_by),
        **_figures(f),
        "resolutions": f.resolutions,
        "attack_classes": f.classes,
        "choices": f.said_choices(),
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
