"""Helpers shared by the statistical tests: binomial distributions worked out exactly, the
sampler's standard errors, and the check of a models-destroyed distribution against both
engines' JSON output."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

TRIALS = 40_000  # sampler trials of the CLI-level statistical tests


def binom(n: int, p: Fraction) -> list[Fraction]:
    """P(k successes in n trials of probability p), k = 0..n, exactly."""
    return [math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]


def se_p(p: float, trials: int = TRIALS) -> float:
    """Standard error of a sampled probability p (floored at 1/trials)."""
    return max(math.sqrt(p * (1 - p) / trials), 1 / trials)


def se_mean(dist: dict, trials: int = TRIALS) -> float:
    """Standard error of the sampled mean of the distribution {value: probability}."""
    mean = sum(v * p for v, p in dist.items())
    var = sum(p * (v - mean) ** 2 for v, p in dist.items())
    return max(math.sqrt(float(var) / trials), 1 / trials)


def check_models(out: dict, dist: list) -> None:
    """The exact models-destroyed distribution and its mean (JSON, within 1e-6) and the
    sampled one (within 5 standard errors of TRIALS trials) against ``dist``."""
    n = len(out["models_destroyed_distribution"])
    want = [float(dist[k]) if k < len(dist) else 0.0 for k in range(n)]
    np.testing.assert_allclose(out["models_destroyed_distribution"], want, atol=1e-6)
    mean = sum(k * p for k, p in enumerate(want))
    assert out["expected"]["models_destroyed"] == pytest.approx(mean, abs=1e-6)
    sampled = out["sample"]["models_destroyed_distribution"]
    for k, p in enumerate(want):
        assert abs(sampled[k] - p) <= 5 * se_p(p), (k, sampled[k], p)
