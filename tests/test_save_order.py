"""Edition 11, 05.04 Inflict Damage: a weapon profile's save rolls are made together and resolved
from the lowest result to the highest, each against the allocation group current when it is
resolved.

Rules quoted (seed 004 and the seeds README):

* Save Rolls, 3. Make Save Rolls: "The opposing player makes one save roll for each attack that
  wounded the target by rolling one D6."
* 05.04.01 Current Allocation Group: "The first group in the allocation order begins as the
  current group. Once all models in an allocation group are destroyed, the next group in the
  allocation order becomes the current one."
* seeds README, "Edition-11 rules file 004 implies but does not print" (05.04 Inflict Damage):
  the save rolls "are resolved one at a time, from the lowest result to the highest; each one is
  checked against the allocation group that is current when it is resolved [...] When the whole
  unit is destroyed, the remaining results are lost."
* 24.28 [PRECISION]: the chosen CHARACTER group "is the current allocation group" until those
  attacks are resolved or it is destroyed.
* 24.10 [DEVASTATING WOUNDS]: a critical wound ends the attack sequence (no save roll); its
  mortal wounds "are inflicted after resolving any normal damage", one model at most each.

Expected values come from case P9 worked by hand, and from :func:`brute_force`, an enumeration
of every die in exact fractions written for these tests (it shares nothing with the engines).
Save re-rolls: the calculator re-rolls a save roll when the table of the group current *when the
dice are rolled* says so, before they are sorted (documented in the README).
"""

from __future__ import annotations

import math
from fractions import Fraction as F
from functools import partial
from pathlib import Path

import numpy as np
import pytest
from helpers import both_json
from profiles import Kind, activation, disagreements, unit, weapon
from save_oracle import SAVE, G, brute_force, engine_case, models_dist, wounds_dist

from wh40k_calc.engine.exact import run_exact
from wh40k_calc.engine.sample import run_sample
from wh40k_calc.records import replace

DATA = Path(__file__).parent / "data" / "alloc"
TRIALS = 60_000
SEED = 5_004


calc = partial(both_json, dirs=[DATA], trials=TRIALS, seed=SEED)  # exact and sampled JSON


def se_p(p: float) -> float:
    return max(math.sqrt(p * (1 - p) / TRIALS), 1 / TRIALS)


# ---------------------------------------------------------------------------------------------
# P9, by hand


def test_p9_lowest_result_meets_the_first_group():
    """P9: 2 [TORRENT] S8 AP0 D1 attacks into T4 (2+ to wound: 5/6 each), "Light" (W1, Sv6+)
    first, then "Heavy" (W1, Sv3+).

    n = 1 wound (10/36): Light fails on 1-5: 5/6. n = 2 (25/36): the lower result meets Light
    and fails unless both dice are 6 (35/36); then the higher meets Heavy and fails on 1-2, so
    both fail only if both dice are 1-2 (4/36). E = 10/36 * 5/6 + 25/36 * 39/36 = 1275/1296;
    P(both) = 25/36 * 4/36 = 100/1296."""
    out = calc(
        "shoot", "marksmen", "--weapon", "Breacher x2", "-t", "pair", "--edition", "11",
        "--allocation", "Light,Heavy",
    )  # fmt: skip
    assert out["expected"]["models_destroyed"] == pytest.approx(1275 / 1296, abs=1e-9)
    dist = out["models_destroyed_distribution"]
    want = [1 - F(10, 36) * F(5, 6) - F(25, 36) * F(35, 36), None, F(100, 1296)]
    want[1] = 1 - want[0] - want[2]
    for got, p in zip(dist, want, strict=True):
        assert got == pytest.approx(float(p), abs=1e-9)
    for got, p in zip(out["sample"]["models_destroyed_distribution"], want, strict=True):
        assert abs(got - float(p)) <= 5 * se_p(float(p))


def test_p9_in_10th_edition_saves_one_at_a_time():
    """10th edition: each wound is allocated and saved on its own. n = 2: the first die meets
    Light (fails 5/6: then the second meets Heavy, failing 2/6), else the second meets Light
    (5/6): E = 5/6 * (1 + 2/6) + 1/6 * 5/6 = 45/36; total 10/36 * 5/6 + 25/36 * 45/36 =
    1425/1296."""
    out = calc(
        "shoot", "marksmen", "--weapon", "Breacher x2", "-t", "pair", "--edition", "10",
        "--allocation", "Light,Heavy",
    )  # fmt: skip
    assert out["expected"]["models_destroyed"] == pytest.approx(1425 / 1296, abs=1e-9)


# ---------------------------------------------------------------------------------------------
# Brute force: every die enumerated


D1 = {1: F(1)}
D2 = {2: F(1)}
D3 = {1: F(1, 3), 2: F(1, 3), 3: F(1, 3)}

CASES = {
    # name: (groups, attacks, wound outcomes, damage, damage text, reroll ones, precision)
    "light-light-heavy-d1": ([G(2, 1, 6), G(1, 1, 3)], 3, SAVE, D1, "1", False, False),
    "three-groups-d2": ([G(1, 1, 5), G(1, 2, 2), G(2, 1, 4)], 3, SAVE, D2, "2", False, False),
    "d3-fnp-second-group": ([G(1, 2, 6), G(2, 3, 4, fnp=5)], 3, SAVE, D3, "D3", False, False),
    "no-save-then-sv3": ([G(1, 1, 7), G(1, 1, 3)], 3, SAVE, D1, "1", False, False),
    "save-reroll-ones": ([G(1, 1, 4), G(2, 1, 6)], 3, SAVE, D1, "1", True, False),
    "precision-character-first": ([G(1, 3, 2), G(2, 1, 5)], 3, SAVE, D2, "2", False, True),
    "devastating-after-saves": (
        [G(1, 2, 5), G(1, 2, 2, fnp_mortal=4)],
        3,
        {"none": F(1, 6), "save": F(3, 6), "mortal": F(2, 6)},
        D2,
        "2",
        False,
        False,
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_lowest_first_matches_brute_force(name):
    groups, attacks, wound, dmg, d_text, ones, precision = CASES[name]
    want = brute_force(groups, attacks, wound, dmg, ones)
    out = run_exact(engine_case(groups, attacks, wound, d_text, ones, precision))
    np.testing.assert_allclose(
        out.models_destroyed_distribution, models_dist(want, groups), atol=1e-12
    )
    np.testing.assert_allclose(out.wounds_lost_distribution, wounds_dist(want, groups), atol=1e-12)


@pytest.mark.parametrize("name", list(CASES))
def test_lowest_first_sampler_agrees(name):
    groups, attacks, wound, _, d_text, ones, precision = CASES[name]
    act = engine_case(groups, attacks, wound, d_text, ones, precision)
    bad = disagreements(run_exact(act), run_sample(act, trials=TRIALS, seed=SEED))
    assert not bad, bad[:5]


def test_lowest_first_differs_from_one_at_a_time():
    """The first case differs between the two readings (the brute force of the random-order
    reading is not needed: the engine's own 10th-edition path is that reading)."""
    act = engine_case([G(2, 1, 6), G(1, 1, 3)], 3, SAVE, "1")
    a = run_exact(act).expected["models_destroyed"]
    b = run_exact(replace(act, lowest_first=False)).expected["models_destroyed"]
    assert abs(a - b) > 0.01


@pytest.mark.parametrize(
    "kinds",
    [
        (Kind(W=1, Sv=4), Kind(W=2, Sv=4, fnp=5)),  # same save, different W and FNP
        (Kind(W=2, Sv=5, invuln=5), Kind(W=3, Sv=6, invuln=5)),  # AP -3: both save on 5+
    ],
)
def test_same_saves_resolve_as_one_at_a_time(kinds):
    """When every group saves on the same results, the order in which the results are resolved
    cannot matter: each passes or fails alike wherever it is allocated."""
    gun = weapon(kinds, models=4, A=3, skill=3, S=5, T=4, AP=-3, D="D3")
    act = activation(gun, unit(kinds, [(0, 3), (1, 2)]))
    a = run_exact(replace(act, lowest_first=True))
    b = run_exact(act)
    np.testing.assert_allclose(a.models_destroyed_distribution, b.models_destroyed_distribution)
    np.testing.assert_allclose(a.damage_distribution, b.damage_distribution)
