"""`calc exchange` speed (issue 20): 20 Boyz led by a Warboss charge 10 Intercessors led by a
Captain, two battle rounds (eight activations), exact: goal under 0.5 s beyond start-up.
`make bench` runs it; figures in ``extra_info``, none asserted.

* the exchange resolved exactly from its setup (the sides parsed, the order made): the joint
  distribution carried through every activation, one resolution per attack class;
* the same with the setup built (the datasheets found, the sides parsed and planned);
* the eight activations resolved alone at full strength (``calc fight`` each), measured in the
  same run: the ratio is what carrying both units' states costs;
* the sampler carrying both units' states per trial (20,000 trials).
"""

from __future__ import annotations

import time

import pytest
from measure import seconds

from wh40k_calc.exchange.run import run_exchange
from wh40k_calc.exchange.setup import build_setup
from wh40k_calc.exchange.sides import build_side
from wh40k_calc.options import EngineOptions, catalog
from wh40k_calc.resolve import resolve

SIDE_A = "fight boyz --models 20 --leader warboss --charged"
SIDE_B = "fight intercessor-squad --models 10 --leader captain"
TURNS = 4  # two battle rounds


def _setup():
    cat = catalog(None)
    a, b = build_side("a", [SIDE_A], cat), build_side("b", [SIDE_B], cat)
    return build_setup(a, b, cat, EngineOptions(), TURNS)


@pytest.fixture(scope="module")
def setup():
    return _setup()


def _alone_seconds(setup, rounds: int = 10) -> float:
    """Best time of the exchange's activations resolved alone, at full strength, unharmed."""
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        for sel in setup.selections:
            resolve(sel, "exact")
        best = min(best, time.perf_counter() - t0)
    return best


def test_exchange_exact_2_rounds_boyz_warboss_vs_intercessors_captain(benchmark, setup) -> None:
    out = benchmark(run_exchange, setup, "exact")
    best = seconds(benchmark, "min")
    if best:
        alone = _alone_seconds(setup)
        benchmark.extra_info["seconds_mean"] = round(seconds(benchmark), 4)
        benchmark.extra_info["seconds_best"] = round(best, 4)
        benchmark.extra_info["eight_alone_seconds_best"] = round(alone, 4)
        benchmark.extra_info["ratio_to_eight_alone"] = round(best / alone, 2)
        benchmark.extra_info["resolutions"] = sum(f.resolutions for f in out.exact.steps)
    assert len(out.exact.steps) == 8


def test_exchange_exact_with_setup(benchmark) -> None:
    out = benchmark(lambda: run_exchange(_setup(), "exact"))
    if seconds(benchmark):
        benchmark.extra_info["seconds_mean"] = round(seconds(benchmark), 4)
    assert out.exact is not None


def test_exchange_sampled_20k_trials(benchmark, setup) -> None:
    out = benchmark(run_exchange, setup, "sample", 20_000, 40_000)
    if seconds(benchmark):
        benchmark.extra_info["seconds_mean"] = round(seconds(benchmark), 4)
    assert out.sample.trials == 20_000
