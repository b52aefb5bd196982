"""The exact engine at the edges of what it takes: very many attacks, and the damage
distribution computed only when read.

Issue 12: "exact distributions sum to 1 within 1e-9 (at 1000 attacks 'models destroyed' [...]
exceeds the unit size by 8e-12: clamp or renormalise honestly)". The engine renormalises the
state distribution (the mass a 1e-15 tail cut and rounding leave out is spread
proportionally), so no expectation leaves the unit's range.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from profiles import Kind, activation, unit, weapon

from wh40k_calc.engine.exact import run_exact


@pytest.mark.parametrize(("W", "models"), [(1, 10), (2, 20), (3, 5)])
def test_a_thousand_attacks_stay_within_the_unit(W: int, models: int) -> None:
    """1000 attacks of D3 (hits on 3+, wounds on 4+, Sv4+) into a unit with a Leader: every
    model is destroyed for certain (to within 1e-9), never more."""
    kinds = (Kind(W=W, Sv=4, name="m"), Kind(W=5, Sv=3, invuln=4, name="Leader"))
    gun = weapon(kinds, models=500, A=2, skill=3, S=4, T=4, D="D3")
    out = run_exact(activation(gun, unit(kinds, [(0, models)], [(1, 1)])))
    n = models + 1
    md = out.models_destroyed_distribution
    assert abs(md.sum() - 1.0) <= 1e-9
    assert abs(out.wounds_lost_distribution.sum() - 1.0) <= 1e-9
    assert abs(out.damage_distribution.sum() - 1.0) <= 1e-9
    assert (md >= 0).all() and len(md) == n + 1
    assert out.expected["models_destroyed"] <= n
    assert out.expected["models_destroyed"] == pytest.approx(n, abs=1e-9)
    assert out.kill_table[-1] == pytest.approx(1.0, abs=1e-9)


def test_the_damage_distribution_is_computed_when_read() -> None:
    """The state figures come first; the damage distribution (a second pass when the damage
    depends on the model hit) is computed on first reading, and the same every time."""
    kinds = (Kind(W=1, Sv=5, name="Boy"), Kind(W=6, Sv=4, invuln=5, name="Boss"))
    gun = weapon(kinds, models=20, A=2, skill=3, S=4, T=5, D="D3")
    out = run_exact(activation(gun, unit(kinds, [(0, 10)], [(1, 1)])))
    assert callable(out.__dict__["_damage"])
    first = out.damage_distribution
    assert not callable(out.__dict__["_damage"])
    np.testing.assert_array_equal(first, out.damage_distribution)
    mean = float(np.dot(np.arange(len(first)), first))
    assert mean == pytest.approx(out.expected["damage"], abs=1e-9)


LOOTAS_INTO_BOYZ = (
    "shoot", "lootas", "--models", "10", "-t", "boyz", "--target-models", "10",
    "--target-leader", "warboss", "--edition", "11", "--add-ability", "devastating wounds",
)  # fmt: skip
SAMPLED_DAMAGE = "damage_distribution is the sampler's"


def test_a_figure_pass_over_its_budget_gives_the_samplers_damage_distribution(monkeypatch):
    """The damage distribution is the exact engine's while its figure pass fits its budget
    (engine/work.py); over it (a budget below every estimate), the JSON's damage_distribution
    is the sampler's, the notes say so, and every other figure stays the exact engine's. The
    sampled distribution is checked against the exact one (5 standard errors per value)."""
    from helpers import cli, cli_json, se_mean, se_p

    from wh40k_calc.engine import work

    exact = cli_json(*LOOTAS_INTO_BOYZ)
    assert not any(SAMPLED_DAMAGE in n for n in exact["notes"])
    dist = exact["damage_distribution"]
    mean = sum(d * p for d, p in enumerate(dist))
    assert mean == pytest.approx(exact["expected"]["damage"], abs=1e-9)

    monkeypatch.setattr(work, "FIGURE_SECONDS", -1.0)
    trials = 20_000
    out = cli_json(*LOOTAS_INTO_BOYZ, "--trials", str(trials), "--seed", "3")
    assert out["method"] == "exact"
    (note,) = [n for n in out["notes"] if SAMPLED_DAMAGE in n]
    assert re.search(r"\(an estimated [0-9.e+-]+ s, over -1 s\)", note), note  # names its limit
    for key in ("expected", "kill_table", "models_destroyed_distribution", "weapons"):
        assert out[key] == exact[key]
    sampled = out["damage_distribution"]
    assert sum(sampled) == pytest.approx(1.0, abs=1e-9)
    assert sampled != pytest.approx(dist, abs=1e-12)  # not the exact distribution
    for d in range(max(len(dist), len(sampled))):
        p = dist[d] if d < len(dist) else 0.0
        q = sampled[d] if d < len(sampled) else 0.0
        assert abs(q - p) <= 5 * se_p(p, trials), d
    se = se_mean(dict(enumerate(dist)), trials)
    assert abs(sum(d * q for d, q in enumerate(sampled)) - mean) <= 5 * se
    # the text report shows no damage distribution: nothing is sampled, nothing said
    text = cli(*LOOTAS_INTO_BOYZ).output
    assert "sampler" not in text and "· exact" in text


def test_method_both_reuses_its_sampler_run_for_a_damage_distribution_over_budget(monkeypatch):
    """--method both over the figure pass's budget: the top-level damage_distribution is the
    sampler run's own (the "sample" block's), not a second run."""
    from helpers import cli_json

    from wh40k_calc.engine import work

    monkeypatch.setattr(work, "FIGURE_SECONDS", -1.0)
    out = cli_json(*LOOTAS_INTO_BOYZ, "--method", "both", "--trials", "2000")
    assert out["method"] == "both"
    assert any(SAMPLED_DAMAGE in n for n in out["notes"])
    assert out["damage_distribution"] == out["sample"]["damage_distribution"]


def test_the_state_pass_is_admitted_by_its_estimate_before_it_runs(monkeypatch) -> None:
    """The exact engine decides before it runs: a selection whose estimated state pass is over
    work.STATE_SECONDS is declined, with the estimate in the message, before any step of the
    chain; under the budget the same selection resolves."""
    from wh40k_calc.engine import exact, work

    kinds = (Kind(W=1, Sv=5, name="Boy"), Kind(W=6, Sv=4, invuln=5, name="Boss"))
    gun = weapon(kinds, models=10, A=2, skill=3, S=5, T=5, D="D3", devastating=True)
    act = activation(gun, unit(kinds, [(0, 10)], [(1, 1)]))
    assert run_exact(act).expected["models_destroyed"] > 0

    def no_step(*args, **kwargs):
        raise AssertionError("a step ran before the budget was checked")

    monkeypatch.setattr(work, "STATE_SECONDS", 1e-9)
    monkeypatch.setattr(exact._Chain, "step", no_step)
    with pytest.raises(exact.ExactUnsupported, match=r"an estimated [0-9.e+-]+ s, over 1e-09 s\)"):
        run_exact(act)


def test_order_best_when_the_exact_engine_declines_says_what_order_was_used(monkeypatch):
    """A fresh-user trial: with `--order best` and a selection the exact engine declines, the
    datasheet's weapon order was used and the note did not mention --order."""
    from helpers import cli_json

    from wh40k_calc.engine import work

    monkeypatch.setattr(work, "STATE_SECONDS", 1e-9)  # every selection declined
    notes = cli_json(*LOOTAS_INTO_BOYZ, "--order", "best")["notes"]
    assert any(n.endswith("--order best: the datasheet's weapon order") for n in notes), notes
