"""Results unchanged by the speed work of issue 12 (second round): the exact engine's kept wound
counts, kernels and state spaces (``engine/memo.py``, ``allocation.space_for``), and Horner's
scheme for the state pass's counts, give what the engine computes without them.

* Random activations (the hypothesis strategies of test_properties) resolved with every cache
  bypassed (the plain functions called each time) and then with the caches warm from other
  activations (in the order drawn and reversed): every expectation, distribution and chosen
  order the same within 1e-12. A key that left out something a kept result depends on would
  hand one activation another's counts or kernels and show here.
* Activations that differ from one another in exactly one input of a kept result, resolved
  one after the other: each as it is alone.
* The same activations with the state pass's counts summed one count at a time (the general
  loop) instead of by Horner's scheme.
* A batch's JSON from one process with cold caches, with caches warm from another batch, and
  from ``--jobs 2``.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_properties import MAX_ELEMENTS, PROPS, activations
from typer.testing import CliRunner

from wh40k_calc.cli import app
from wh40k_calc.engine import allocation, exact, kernels, memo
from wh40k_calc.engine.exact import ExactUnsupported, run_exact
from wh40k_calc.engine.kernels import face_kernels, wound_kernel
from wh40k_calc.engine.wounds import joint_cost, wound_joint
from wh40k_calc.profile import RollTable
from wh40k_calc.records import replace

TOL = 1e-12


def _figures(o, damage: bool = True) -> list[np.ndarray]:
    """Every number an exact outcome gives, as arrays in a fixed order (``damage``: with the
    damage distribution, computed when read)."""
    out = [np.array([o.expected[k] for k in sorted(o.expected)])]
    out += [np.array([w.expected[k] for k in sorted(w.expected)]) for w in o.weapons]
    out += [
        o.models_destroyed_distribution,
        o.wounds_lost_distribution,
        o.damage_distribution if damage else np.zeros(0),
        np.array(o.characters_destroyed),
        np.array([o.attacker_losses[k] for k in sorted(o.attacker_losses)]),
        o.final_states.lost.ravel(),
        o.final_states.weights,
    ]
    if o.policy is not None:
        out += [t for t in o.policy.tables if t is not None]
    return out


def _same(a, b, damage: bool = True) -> None:
    fa, fb = _figures(a, damage), _figures(b, damage)
    assert len(fa) == len(fb)
    for x, y in zip(fa, fb, strict=True):
        assert x.shape == y.shape
        assert np.allclose(x, y, rtol=0, atol=TOL)


def _bypassed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every kept result computed afresh each time (the engine before the caches)."""

    def profile(ap):  # a profile, or memo.counts_of it
        return ap.value if isinstance(ap, memo._Keyed) else ap

    monkeypatch.setattr(memo, "cost", lambda ap, sel: joint_cost(profile(ap), sel))
    monkeypatch.setattr(
        memo,
        "joint",
        lambda ap, sel, trim: (
            trim(wound_joint(profile(ap), sel)[0]),
            wound_joint(profile(ap), sel)[1],
        ),
    )
    monkeypatch.setattr(memo, "kernel", wound_kernel)
    monkeypatch.setattr(memo, "faces", face_kernels)
    monkeypatch.setattr(memo, "figure", lambda counts, points, compound: compound(counts, points))
    monkeypatch.setattr(allocation, "_space", allocation.AllocationSpace)
    monkeypatch.setattr(memo, "of_objects", lambda fn, objects, values: fn(*objects, *values))
    monkeypatch.setattr(kernels, "_row", kernels._row.__wrapped__)


def _exact_or_none(act):
    try:
        return run_exact(act, max_elements=MAX_ELEMENTS)
    except ExactUnsupported:
        return None


@settings(PROPS, max_examples=60)
@given(acts=st.lists(activations(), min_size=2, max_size=4))
def test_kept_results_change_nothing(acts) -> None:
    with pytest.MonkeyPatch.context() as mp:
        _bypassed(mp)
        fresh = [_exact_or_none(a) for a in acts]
    memo.clear()
    for order in (acts, acts[::-1]):
        warm = {id(a): _exact_or_none(a) for a in order}
        for a, ref in zip(acts, fresh, strict=True):
            got = warm[id(a)]
            assert (got is None) == (ref is None)
            if ref is not None:
                _same(got, ref)


def _variants(act):
    """``act`` and activations whose first weapon differs from it in one thing a kept result
    may read (attacks, models, Blast, Hit and Wound rolls, Sustained/Lethal/Devastating,
    Command Re-roll, [PRECISION] routing, what it does to a model kind): a cache key missing
    any of them would serve one of these another's counts or kernels."""
    w = act.weapons[0]
    better = RollTable((0, 0, 1, 1, 1, 1, 2))  # 2+, Critical on a 6
    save = RollTable((0, 0, 0, 1, 1, 1, 1))  # 3+
    changes = [
        {"attacks": np.concatenate([[0.0], w.attacks])},
        {"models": w.models + 1},
        {"blast": w.blast + 1},
        {"hit": None if w.hit is not None else better},
        {"wound": better if w.wound != better else RollTable((0, 0, 0, 1, 1, 1, 2))},
        {"sustained": None if w.sustained is not None else np.array([0.0, 1.0])},
        {"lethal": not w.lethal},
        {"devastating": not w.devastating},
        {"command_reroll": not w.command_reroll},
        {"precision": not w.precision},
        {"precision_mortals": not w.precision_mortals},
        {"vs": (*w.vs[:-1], replace(w.vs[-1], fnp=0.5 if w.vs[-1].fnp != 0.5 else 0.0))},
        {"vs": (replace(w.vs[0], save=None if w.vs[0].save is not None else save), *w.vs[1:])},
    ]
    return [act] + [replace(act, weapons=(replace(w, **c), *act.weapons[1:])) for c in changes]


@settings(PROPS, max_examples=25)
@given(act=activations())
def test_no_kept_result_serves_another_profile(act) -> None:
    variants = _variants(act)
    with pytest.MonkeyPatch.context() as mp:
        _bypassed(mp)
        fresh = [_exact_or_none(a) for a in variants]
    memo.clear()
    for a, ref in zip(variants, fresh, strict=True):
        got = _exact_or_none(a)
        assert (got is None) == (ref is None)
        if ref is not None:
            _same(got, ref, damage=False)


@settings(PROPS, max_examples=80)
@given(act=activations())
def test_horner_counts_are_the_loop(act) -> None:
    fast = _exact_or_none(act)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(exact._Pass, "_count_scalar", exact._Pass._count_loop)
        loop = _exact_or_none(act)
    assert (fast is None) == (loop is None)
    if fast is not None:  # the damage distribution's pass never takes the Horner sums
        _same(fast, loop, damage=False)


BATCH = """\
title: memo
targets: [boyz, {name: intercessor-squad, models: 10}, terminator-squad]
runs:
  - attacker: lootas
  - attacker: lootas
    conditions: [stationary]
  - attacker: {name: lootas, models: 10}
    conditions: [half-range, cover]
  - attacker: boyz
    phase: fight
    conditions: [charged]
  - attacker: boyz
    phase: fight
    edition: 11
  - attacker: {name: intercessor-squad, models: 10}
    targets: [boyz, lootas]
"""

OTHER = """\
targets: [lootas, boyz]
runs:
  - attacker: terminator-squad
  - attacker: {name: boyz, models: 20}
    conditions: [stationary]
"""


def _compare_json(path: Path, *extra: str) -> list:
    res = CliRunner().invoke(app, ["compare", str(path), "--json", *extra])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def _close(a, b) -> None:
    if isinstance(a, dict):
        assert a.keys() == b.keys()
        for k in a:
            _close(a[k], b[k])
    elif isinstance(a, list):
        assert len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            _close(x, y)
    elif isinstance(a, float) or isinstance(b, float):
        assert abs(a - b) <= TOL
    else:
        assert a == b


def test_batch_json_cold_warm_and_in_workers(tmp_path: Path) -> None:
    path = tmp_path / "batch.yaml"
    path.write_text(BATCH, encoding="utf-8")
    other = tmp_path / "other.yaml"
    other.write_text(OTHER, encoding="utf-8")
    memo.clear()
    cold = _compare_json(path, "--jobs", "1")
    _compare_json(other, "--jobs", "1")
    warm = _compare_json(path, "--jobs", "1")
    memo.clear()
    workers = _compare_json(path, "--jobs", "2")
    assert len(cold) == 17  # 5 runs x 3 targets, 1 run x 2
    _close(warm, cold)
    _close(workers, cold)
