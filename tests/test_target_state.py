"""The target's state in and out: ``--target-wounds-left N`` (batch: ``wounds_left: N``), and
the engines' API that starts from a state (distribution or per trial) and hands back the final
one, keyed by the target's model structure, so that states carry across activations.

Rules quoted:

* seeds README, "Allocating attacks": "a model that has already lost wounds [...] must be
  picked first" (10th edition); Save Rolls, 2. Allocation Order (seed 004): "If a
  non-CHARACTER group contains a model that has lost one or more wounds, that group must be
  first in the allocation order."
* README "How it resolves an activation", 6: damage goes "to that one model; excess normal damage
  is lost" — so a single model dies when the summed damage of all attacks reaches its W.

Expected values are worked out by hand, by convolution of one volley's damage, or with the
oracle of :mod:`save_oracle`.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction as F
from functools import partial
from pathlib import Path

import numpy as np
import pytest
from helpers import check_final_states, cli
from profiles import Kind, activation, unit, weapon
from save_oracle import G, engine_case, resolve_counts
from typer.testing import CliRunner

from wh40k_calc.cli import app
from wh40k_calc.engine.exact import ExactUnsupported, run_exact
from wh40k_calc.engine.sample import run_sample
from wh40k_calc.profile import Activation, TargetStates
from wh40k_calc.records import replace

DATA = Path(__file__).parent / "data" / "alloc"
TRIALS = 60_000
SEED = 777


calc = partial(cli, dirs=[DATA])  # calc ARGS with the test datasheets


# ---------------------------------------------------------------------------------------------
# --target-wounds-left


def test_damaged_vehicle_by_hand():
    """3 [TORRENT] S8 attacks into a T10 W10 Sv3+ Tank left on 2 wounds: each wounds on 5+
    (1/3) and is unsaved on 1-2 (1/3): damage ~ Binomial(3, 1/9). Destroyed iff 2 or more:
    3 * (1/9)^2 * 8/9 + (1/9)^3 = 25/729. Wounds lost this activation: min(damage, 2):
    3 * 1/9 * (8/9)^2 + 2 * 25/729 = 242/729."""
    res = calc(
        "shoot", "marksmen", "--weapon", "Breacher x3", "-t", "tank", "--target-wounds-left", "2",
        "--json", "--method", "both", "--trials", str(TRIALS), "--seed", str(SEED),
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["target"]["wounds_left"] == 2
    assert out["expected"]["models_destroyed"] == pytest.approx(25 / 729, abs=1e-9)
    assert out["expected"]["wounds_lost"] == pytest.approx(242 / 729, abs=1e-9)
    assert out["models_destroyed_distribution"][1] == pytest.approx(25 / 729, abs=1e-9)
    se = math.sqrt(25 / 729 * (1 - 25 / 729) / TRIALS)
    assert abs(out["sample"]["expected"]["models_destroyed"] - 25 / 729) <= 5 * se
    text = calc("shoot", "marksmen", "--weapon", "Breacher x3", "-t", "tank",
                "--target-wounds-left", "2")  # fmt: skip
    words = " ".join(text.stdout.split())  # the header may wrap
    assert "Tank on 2 of 10" in words
    assert "of 2 · models destroyed" in words


@pytest.mark.parametrize(
    ("target", "n", "message"),
    [
        ("tank", "10", "has W10; give 1 to 9"),
        ("tank", "0", "a model left with no wounds is destroyed: give 1 or more"),
        ("grunts", "1", "has W1 and cannot be left wounded"),
    ],
)
def test_wounds_left_out_of_range_is_refused(target, n, message):
    res = calc("shoot", "marksmen", "-t", target, "--target-wounds-left", n)
    assert res.exit_code == (2 if n == "0" else 1)  # below 1 whatever the W: a usage error
    assert message in res.stderr
    assert "Traceback" not in res.output


def test_batch_wounds_left(tmp_path):
    batch = tmp_path / "b.yaml"
    batch.write_text(
        f"datasheets: [{DATA}]\n"
        "targets: [{name: tank, wounds_left: 2}]\n"
        "runs:\n  - attacker: {name: marksmen, weapons: ['Breacher x3']}\n",
        encoding="utf-8",
    )
    res = CliRunner().invoke(app, ["compare", str(batch), "--json"])
    assert res.exit_code == 0, res.output
    (row,) = json.loads(res.stdout)
    assert row["target"]["wounds_left"] == 2
    assert row["expected"]["models_destroyed"] == pytest.approx(25 / 729, abs=1e-9)
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        f"datasheets: [{DATA}]\ntargets: [tank]\n"
        "runs:\n  - attacker: {name: marksmen, wounds_left: 2}\n",
        encoding="utf-8",
    )
    res = CliRunner().invoke(app, ["compare", str(bad), "--json"])
    assert res.exit_code == 1
    # an attacker's wounds_left is --wounds-left (fixes3 item 13): one model only
    assert "attacker.wounds_left: wounds_left 2: only for an attacker of one model" in res.stderr


# ---------------------------------------------------------------------------------------------
# The API: start from a state, hand back the final one

KNIGHT = (Kind(W=8, Sv=3, invuln=5, name="Knight"),)


def _volley() -> Activation:
    gun = weapon(KNIGHT, "lascannon", models=3, A=1, skill=3, S=12, T=11, AP=-3, D="D6")
    return activation(gun, unit(KNIGHT, [(0, 1)]))


def test_two_volleys_into_one_model_are_a_convolution():
    """One volley's damage figure d (all its unsaved damage, none lost: a single model loses
    every point until it dies) convolved with itself gives two volleys' total; the model has
    lost min(total, 8) after both, and is destroyed when the total reaches 8."""
    one = run_exact(_volley())
    d = one.damage_distribution
    total = np.convolve(d, d)
    want = np.concatenate([total[:8], [total[8:].sum()]])
    two = run_exact(_volley(), start=one.final_states)
    np.testing.assert_allclose(two.wounds_lost_distribution, want, atol=1e-12)
    assert two.models_destroyed_distribution[1] == pytest.approx(total[8:].sum(), abs=1e-12)
    # the sampler, trial by trial: each trial's state carried into the next volley
    s1 = run_sample(_volley(), trials=TRIALS, seed=SEED, keep_states=True)
    assert s1.final_states.lost.shape == (TRIALS, 1)
    s2 = run_sample(_volley(), trials=TRIALS, seed=SEED + 1, start=s1.final_states)
    for k, p in enumerate(want):
        se = max(math.sqrt(p * (1 - p) / TRIALS), 1 / TRIALS)
        assert abs(s2.wounds_lost_distribution[k] - p) <= 5 * se, k


BOYZ = (Kind(W=1, Sv=5, name="Boy"), Kind(W=2, Sv=5, name="Nob"), Kind(W=5, Sv=4, name="Boss"))


@pytest.mark.parametrize("lowest_first", [False, True])
def test_two_weapons_equal_two_activations(lowest_first):
    """Normal damage carries from weapon to weapon as it does from activation to activation:
    one activation of (w1, w2) equals w1 alone, then w2 started from w1's final states."""
    target = unit(BOYZ, [(0, 6), (1, 1)], [(2, 1)])
    w1 = weapon(BOYZ, "shoota", models=6, A=2, skill=5, S=4, T=5, D=1)
    w2 = weapon(BOYZ, "rokkit", models=2, A=1, skill=4, S=9, T=5, AP=-2, D=3, precision=True)
    both = replace(activation((w1, w2), target), lowest_first=lowest_first)
    first = run_exact(replace(both, weapons=(w1,)))
    second = run_exact(replace(both, weapons=(w2,)), start=first.final_states)
    one = run_exact(both)
    np.testing.assert_allclose(
        second.models_destroyed_distribution, one.models_destroyed_distribution, atol=1e-12
    )
    np.testing.assert_allclose(
        second.wounds_lost_distribution, one.wounds_lost_distribution, atol=1e-12
    )
    np.testing.assert_allclose(second.characters_destroyed, one.characters_destroyed, atol=1e-12)


def test_a_wounded_model_out_of_order_takes_the_next_attack():
    """10th edition, Boyz listed Boys first: a start with the Boss Nob wounded (1 of 2) and
    every Boy unharmed is not on the listed order's track; the wounded Nob must be picked
    first, so one unsaved D1 wound destroys it."""
    kinds = BOYZ[:2]
    target = unit(kinds, [(0, 3), (1, 1)])
    gun = weapon((Kind(W=1, Sv=7), Kind(W=2, Sv=7)), A=1, skill=None, S=10, T=5, D=1)
    gun = replace(gun, wound=replace(gun.wound, outcome=(0, 1, 1, 1, 1, 1, 1)))
    start = TargetStates(
        run_exact(activation(gun, target)).final_states.shape, np.array([[0, 1]]), np.ones(1)
    )
    out = run_exact(activation(gun, target), start=start)
    assert out.final_states.lost.tolist() == [[0, 2]]
    assert out.models_destroyed_distribution[1] == pytest.approx(1.0)


def test_edition11_wounded_group_goes_first_whatever_the_best_order():
    """X (one W1 Sv2+) and Y (two W2 Sv4+): for 4 save rolls the defender's best order puts X
    first (test_defender_order). With a Y model already wounded, 05.03 puts Y first: every count
    must match the oracle resolving Y, X from that state."""
    groups = [G(1, 1, 2), G(2, 2, 4)]
    wound = {"none": F(1, 2), "save": F(1, 2)}
    act = replace(engine_case(groups, 4, wound, "1"), best_allocation=True)
    shape = run_exact(act).final_states.shape
    start = TargetStates(shape, np.array([[0, 1]]), np.ones(1))
    out = run_exact(act, start=start)
    final: dict = {}
    for n in range(5):
        pn = F(math.comb(4, n), 16)
        order = [groups[1], groups[0]]
        got = resolve_counts(order, n, 0, {1: F(1)}, start=((0, 1), (0, 0)))
        for st, p in got.items():
            final[st[::-1]] = final.get(st[::-1], F(0)) + pn * p
    check_final_states(out, act, final, groups, TRIALS, SEED, start=start)


def test_a_start_of_another_unit_is_refused():
    start = TargetStates(run_exact(_volley()).final_states.shape, np.array([[1]]), np.ones(1))
    other = activation(weapon(BOYZ[:1], A=1), unit(BOYZ[:1], [(0, 3)]))
    with pytest.raises(ExactUnsupported, match="another structure"):
        run_exact(other, start=start)
    with pytest.raises(ValueError, match="another structure"):
        run_sample(other, trials=10, start=start)
    per_trial = TargetStates(start.shape, np.zeros((5, 1), dtype=np.int64))
    with pytest.raises(ValueError, match="one row per trial"):
        run_sample(_volley(), trials=10, start=per_trial)
