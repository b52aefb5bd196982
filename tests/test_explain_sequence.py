"""``--explain`` in ``calc sequence`` and ``calc compare``: per step, over the whole sequence,
and in each row of a comparison; the values worked out by hand (see test_explain.py for the
single activation and the oracle of Shapley values)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from helpers import cli, cli_json
from oracle import approx, attacker, melee, target
from test_explain import LANCE, shapley_by_orders

from wh40k_calc.explain import METRICS


def _rules(a: dict) -> dict[str, dict]:
    return {r["name"]: r for r in a["rules"]}


def test_two_charges_with_a_lance_by_hand(tmp_path) -> None:
    """Two fight steps, each one model A1 WS3+ S4 [LANCE] with --charged, into one T4 W1 model
    with no save. A step destroys it with p = 4/6 x 1/2 = 1/3, or 4/9 with the charge and
    Lance together, and acts only while it is alive.

    Whole sequence (one --charged and one [LANCE] player, switched in both steps): v = 1 - (1
    - p)^2: 5/9 without both, 56/81 with both: each adds (56/81 - 45/81) / 2 = 11/162.
    Step 2, from what step 1 left with its rules (alive 5/9): v = 5/9 x p: 5/27 or 20/81:
    each adds 5/162. Step 1: each 1/18 (as a single fight). W1, D1, one attack: wounds lost
    and damage are the same figures as models destroyed."""
    att = attacker(tmp_path, melee(LANCE, A=1, skill=3, S=4, abilities=["lance"]))
    tgt = target(tmp_path, models=1, T=4, Sv=7, W=1)
    step = f"fight {att} --charged"
    out = cli_json("sequence", step, step, "-t", tgt, "--explain", dirs=[tmp_path])
    names = ["--charged", f"{LANCE} [LANCE]"]

    def whole(s: frozenset) -> F:
        p = F(4, 9) if len(s) == 2 else F(1, 3)
        return 1 - (1 - p) ** 2

    def second(s: frozenset) -> F:
        return F(5, 9) * (F(4, 9) if len(s) == 2 else F(1, 3))

    want_whole = shapley_by_orders(names, whole)
    want_second = shapley_by_orders(names, second)
    assert want_whole == dict.fromkeys(names, F(11, 162))
    assert want_second == dict.fromkeys(names, F(5, 162))
    rules = _rules(out["attribution"])
    steps = [_rules(s["attribution"]) for s in out["steps"]]
    for name in names:
        for m in METRICS:
            assert rules[name][m] == approx(want_whole[name])
            assert steps[0][name][m] == approx(F(1, 18))
            assert steps[1][name][m] == approx(want_second[name])
    assert out["attribution"]["all"]["models_destroyed"] == approx(F(56, 81))
    assert out["wasted"]["total"]["damage"] == approx(out["expected"]["damage"])


def test_sequence_values_add_up_per_step_and_overall() -> None:
    """Lootas then Boyz with Waaagh! into Intercessors: each step's values add up to its own
    figures with all its rules less none, the whole sequence's to its figures less none;
    with all rules, the whole sequence's figures are the sequence's own."""
    out = cli_json(
        "sequence",
        "shoot lootas --stationary",
        "fight boyz --models 10 --effect waaagh",
        "-t",
        "intercessor-squad",
        "--explain",
    )
    blocks = [s["attribution"] for s in out["steps"]] + [out["attribution"]]
    for a in blocks:
        for m in METRICS:
            total = sum(r[m] for r in a["rules"])
            assert total == pytest.approx(a["all"][m] - a["none"][m], abs=1e-9)
    whole = out["attribution"]["all"]
    assert whole["models_destroyed"] == approx(out["expected"]["models_destroyed"])
    assert whole["damage"] == approx(out["expected"]["damage"])
    for s in out["steps"]:
        assert s["attribution"]["all"]["damage"] == approx(s["expected"]["damage"])
    assert set(_rules(out["attribution"])) == {
        "Dat's Our Loot!",
        "--stationary",
        "Deffgun [HEAVY]",
        "--effect waaagh",
    }


def test_compare_rows_carry_the_attribution() -> None:
    """``calc compare --explain --json``: each row's object has ``attribution`` and
    ``wasted``; the text shows each row's tables after the comparison."""
    rows = cli_json("compare", "lootas", "--target", "boyz", "--cover", "--explain")
    (row,) = rows
    rules = _rules(row["attribution"])
    assert set(rules) == {"Dat's Our Loot!", "--cover"}
    assert rules["--cover"]["models_destroyed"] < 0  # cover helps the target
    assert row["wasted"]["total"]["damage"] == approx(row["expected"]["damage"])
    text = cli("compare", "lootas", "--target", "boyz", "--cover", "--explain").stdout
    assert "lootas against boyz: what each rule adds" in text
    assert "lootas against boyz: where the damage went" in text
