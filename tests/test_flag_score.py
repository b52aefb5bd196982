"""The '!' of the "Exact vs sampled" tables: a sampled probability is compared with the exact
one in the exact figure's standard error, sqrt(p(1 - p)/n), not the sample's own (a noisy
estimate: at p = 0.9996 and 20,000 trials, one miss gave 5e-5 against the true 1.4e-4, and a
false '!'). Checked statistically (the flag rate at a fixed threshold, over many binomial
samples drawn by numpy, against the rate summed from the binomial distribution itself) and on
the trial's command."""

from __future__ import annotations

import json
import math
import re

import numpy as np
from helpers import cli

from wh40k_calc.report import count_sd, flag_score, probability_sd


def _binomial_rate(p: float, n: int, threshold: float) -> float:
    """P(|X/n - p| > threshold * sqrt(p(1-p)/n)) for X ~ Binomial(n, p), summed exactly."""
    se = math.sqrt(p * (1 - p) / n)
    out = 0.0
    for x in range(n + 1):
        if abs(x / n - p) > threshold * se:
            log = math.lgamma(n + 1) - math.lgamma(x + 1) - math.lgamma(n - x + 1)
            log += x * math.log(p) + (n - x) * math.log1p(-p)
            out += math.exp(log)
    return out


def test_the_flag_rate_is_the_nominal_one_near_certainty():
    """p = 0.9996, 20,000 trials (8 misses expected), threshold 2 standard errors: over 20,000
    samples the flag rate is the binomial one (within 4 of its standard errors) and near the
    normal 4.55%; the sample's own SE flagged about twice as often."""
    p, n, threshold, draws = 0.9996, 20_000, 2.0, 20_000
    rng = np.random.default_rng(12345)
    hits = rng.binomial(n, p, size=draws) / n
    scores = [
        flag_score(p, float(h), math.sqrt(h * (1 - h) / n), probability_sd(p), n)[1] for h in hits
    ]
    rate = sum(z > threshold for z in scores) / draws
    expected = _binomial_rate(p, n, threshold)
    assert abs(rate - expected) < 4 * math.sqrt(expected * (1 - expected) / draws)
    assert abs(expected - 0.0455) < 0.01
    own = [flag_score(p, float(h), math.sqrt(h * (1 - h) / n), None, n)[1] for h in hits]
    assert sum(z > threshold for z in own) / draws > 1.5 * expected  # what it was


def test_a_mean_uses_the_exact_spread_of_the_count():
    """A count of 0, 1 or 2 with P = 0.25, 0.5, 0.25: mean 1, variance 0.5 (by hand)."""
    assert math.isclose(count_sd([0.75, 0.25]), math.sqrt(0.5))
    used, z = flag_score(1.0, 1.01, 0.0001, math.sqrt(0.5), 10_000)
    assert math.isclose(used, math.sqrt(0.5) / 100) and math.isclose(z, 0.01 / used)
    used, _ = flag_score(0.5, 0.5, 0.0, None, 100)
    assert used == 0.01  # no spread known and none sampled: 1/trials


def test_the_trials_false_flag():
    args = ["sequence", "--target", "intercessor-squad", "--target-models", "10",
            "shoot lootas --models 10 --stationary",
            "fight boyz --models 20 --charged --effect waaagh",
            "--method", "both", "--trials", "20000"]  # fmt: skip
    res = cli(*args, env={"COLUMNS": "120"})
    assert res.exit_code == 0, res.output
    row = next(line for line in res.stdout.splitlines() if "P(≥ 5 destroyed)" in line)
    cells = [c.strip() for c in row.split("│")[1:-1]]
    out = json.loads(cli(*args, "--json").stdout)
    exact = out["kill_table"][4]["at_least"]
    sampled = out["sample"]["kill_table"][4]["at_least"]
    assert out["sample"]["standard_error"]["kill_table"][4] == 5e-05  # the sample's: 1 miss
    want = abs(exact - sampled) / math.sqrt(exact * (1 - exact) / 20_000)  # 2.3
    assert re.fullmatch(r"\d+\.\d", cells[4]) and abs(float(cells[4]) - want) <= 0.05
    assert cells[5] == ""  # no '!'
