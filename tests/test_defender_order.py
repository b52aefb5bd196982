"""Edition 11, 05.03 Allocation Order: the defender declares the order after the Wound rolls, so
the calculator declares, for each weapon profile and each number of save rolls (and Devastating
Wounds mortal wounds), the legal order with the fewest expected models destroyed (then wounds
lost) for that weapon's resolution.

Rules quoted (seed 004, Save Rolls):

* "2. Allocation Order: Declare the order in which those groups will have attacks allocated to
  them, applying all of the following: If a non-CHARACTER group contains a model that has lost
  one or more wounds, that group must be first in the allocation order. No CHARACTER group can
  be earlier in the allocation order than a non-CHARACTER group. CHARACTER groups containing a
  model that has lost one or more wounds must be earlier in the allocation order than CHARACTER
  groups containing no wounded models."
* "3. Make Save Rolls" comes after the order is declared; the wound rolls are already made.

The values to beat come from :mod:`save_oracle` (every die enumerated, in fractions) for each
order, and from case P9 by hand.
"""

from __future__ import annotations

import math
from fractions import Fraction as F
from functools import partial
from pathlib import Path

import pytest
from helpers import both_json, check_final_states, cli
from save_oracle import G, engine_case, models_dist, resolve_counts, wounds_dist

from wh40k_calc.engine.allocation import legal_orders
from wh40k_calc.engine.exact import run_exact
from wh40k_calc.engine.sample import run_sample
from wh40k_calc.profile import TargetModel, TargetProfile
from wh40k_calc.records import replace

DATA = Path(__file__).parent / "data" / "alloc"
TRIALS = 60_000
SEED = 503


calc = partial(both_json, dirs=[DATA], trials=TRIALS, seed=SEED)  # exact and sampled JSON


def test_p9_the_defender_puts_the_sv3_model_first():
    """P9's unit, edition 11 without --allocation: the defender's best order puts Heavy (Sv3+)
    first for both counts. n = 1 (10/36): Heavy fails on 1-2: 2/6. n = 2 (25/36): the lower die
    meets Heavy: fails unless both are 3+ (1 - 16/36 = 20/36); if Heavy dies (lower die 1-2),
    the higher meets Light and fails on 1-5: P(lower <= 2 and higher <= 5) = 25/36 - 9/36 =
    16/36. E = 10/36 * 2/6 + 25/36 * 36/36 = 170/216 (Light first: 1275/1296, more)."""
    out = calc("shoot", "marksmen", "--weapon", "Breacher x2", "-t", "pair", "--edition", "11")
    assert out["expected"]["models_destroyed"] == pytest.approx(170 / 216, abs=1e-9)
    assert out["target"]["allocation_order"] == ["Heavy", "Light"]
    said = [c for c in out["choices"] if "defender's allocation order" in c]
    assert said == [
        "Breacher: defender's allocation order (05.03, fewest models destroyed): "
        "Heavy, Light for 1-2 save rolls"
    ]
    se = math.sqrt(170 / 216 * (1 - 170 / 216) / TRIALS) * 2  # models destroyed: 0-2
    assert abs(out["sample"]["expected"]["models_destroyed"] - 170 / 216) <= 5 * se


def test_allocation_best_is_refused_in_10th_edition():
    res = cli(
        "shoot", "marksmen", "--weapon", "Breacher x2", "-t", "pair", "--allocation", "best",
        dirs=[DATA],
    )  # fmt: skip
    assert res.exit_code == 1
    assert "attack by attack" in res.output


def test_allocation_best_is_the_edition_11_default():
    a = calc("shoot", "marksmen", "--weapon", "Breacher x2", "-t", "pair", "--edition", "11")
    b = calc(
        "shoot", "marksmen", "--weapon", "Breacher x2", "-t", "pair", "--edition", "11",
        "--allocation", "best",
    )  # fmt: skip
    assert a["expected"] == b["expected"]


# ---------------------------------------------------------------------------------------------
# The best order per count, against the oracle


def _best(groups: list[G], n: int, m: int, dmg: dict[int, F]) -> tuple[int, dict]:
    """The oracle's choice between the two orders of two groups (0: as listed): fewest models
    destroyed, then wounds lost, the listed order on a tie; and its state distribution."""
    options = []
    for o, order in enumerate((groups, groups[::-1])):
        dist = resolve_counts(list(order), n, m, dmg)
        md = sum(k * p for k, p in enumerate(models_dist(dist, list(order))))
        wl = sum(k * p for k, p in enumerate(wounds_dist(dist, list(order))))
        options.append(((md, wl, o), dist, order))
    (_, _, o), dist, order = min(options, key=lambda x: x[0])
    if o == 1:  # back to the listing's group order
        dist = {st[::-1]: p for st, p in dist.items()}
    return o, dist


def _binom(n: int, p: F) -> list[F]:
    return [math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]


def test_best_order_switches_with_the_number_of_save_rolls():
    """X: one W1 Sv2+ model; Y: two W2 Sv4+ models; D1; 4 attacks wounding on 4+ (n ~
    Binomial(4, 1/2)). The oracle finds Y first best for 1-3 save rolls, X first for 4."""
    groups = [G(1, 1, 2), G(2, 2, 4)]
    wound = {"none": F(1, 2), "save": F(1, 2)}
    act = engine_case(groups, 4, wound, "1")
    act = replace(act, best_allocation=True)
    out = run_exact(act)
    assert out.policy is not None
    table = out.policy.tables[0]
    want_orders = [_best(groups, n, 0, {1: F(1)})[0] for n in range(1, 5)]
    assert set(want_orders) == {0, 1}, "the case must switch order"
    assert [int(table[n, 0]) for n in range(1, 5)] == want_orders
    final: dict = {}
    for n, pn in enumerate(_binom(4, F(1, 2))):
        for st, p in _best(groups, n, 0, {1: F(1)})[1].items():
            final[st] = final.get(st, F(0)) + pn * p
    check_final_states(out, act, final, groups, TRIALS, SEED)


def test_best_order_with_devastating_wounds_counts_both():
    """The same groups, D2 with [DEVASTATING WOUNDS]: each of 3 attacks is no wound (1/6), a
    save roll (3/6) or a Critical Wound (2/6: 2 mortal wounds, one model at most). For each
    (n, m) the order must be the oracle's best for n save rolls then m mortal-wound hits."""
    groups = [G(1, 1, 2), G(2, 2, 4)]
    wound = {"none": F(1, 6), "save": F(3, 6), "mortal": F(2, 6)}
    act = replace(engine_case(groups, 3, wound, "2"), best_allocation=True)
    out = run_exact(act)
    table = out.policy.tables[0]
    final: dict = {}
    for n in range(4):
        for m in range(4 - n):
            p_nm = (
                F(
                    math.factorial(3),
                    math.factorial(n) * math.factorial(m) * math.factorial(3 - n - m),
                )
                * wound["save"] ** n
                * wound["mortal"] ** m
                * wound["none"] ** (3 - n - m)
            )
            o, dist = _best(groups, n, m, {2: F(1)})
            if n + m:
                assert int(table[n, m]) == o, (n, m)
            for st, p in dist.items():
                final[st] = final.get(st, F(0)) + p_nm * p
    check_final_states(out, act, final, groups, TRIALS, SEED)


def test_the_sampler_needs_the_policy():
    act = replace(
        engine_case([G(1, 1, 2), G(2, 2, 4)], 2, {"save": F(1)}, "1"), best_allocation=True
    )
    with pytest.raises(ValueError, match="policy"):
        run_sample(act, trials=10)


def test_legal_orders_put_character_groups_last():
    """Two non-CHARACTER groups and two CHARACTER models: 2 x 2 orders, every one with both
    non-CHARACTER groups first; the listing order first."""
    bg = (TargetModel("A", 1, 0), TargetModel("A", 1, 0), TargetModel("B", 2, 1))
    ch = (TargetModel("Leader", 5, 2), TargetModel("Support", 4, 3))
    orders = legal_orders(TargetProfile("T", bg, ch, ("a", "b", "l", "s")))
    assert orders[0] == (0, 1, 2, 3)
    assert sorted(orders) == [(0, 1, 2, 3), (0, 1, 3, 2), (1, 0, 2, 3), (1, 0, 3, 2)]
