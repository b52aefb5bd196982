"""Speed and memory of both engines (``make bench``).

Figures land in the benchmark table and in each benchmark's ``extra_info`` (trials per second,
the sampler/numpy ratio, seconds, peak memory); none is asserted: speed targets are reported.

Sampler: the main job (5 Lootas shoot 10 Boyz) and 10 Lootas into 20 Boyz, resolved once from
the shipped datasheets; the ratio of the sampler's time to the time numpy alone takes to draw,
in one call, one int8 D6 per attack (11 per trial: what rolling every Hit roll would take at
the least); 10^6 trials of the main job; the peak memory of 10^7 trials (``heavy``: only with
``--benchmark-enable``).

Exact engine: 60 attacks with D6 damage into a 20-model W3 unit; 40 attacks into one W26
model; a 30-model W1 unit with a W5 Leader attached and [PRECISION] weapons; the main job.
"""

from __future__ import annotations

import resource
import statistics
import time
import tracemalloc

import pytest
from measure import numpy_d6_seconds, seconds
from profiles import Kind, activation, main_job, unit, weapon

from wh40k_calc.engine import memo
from wh40k_calc.engine.allocation import AllocationSpace
from wh40k_calc.engine.exact import run_exact
from wh40k_calc.engine.sample import run_sample

SEED = 40_000
TRIALS = 100_000
ATTACKS = 11  # the main job: 4 Lootas x 2 (Deffgun) + 1 Spanner x 3 (Big shoota)


@pytest.fixture(scope="module")
def job():
    """5 Lootas shoot 10 Boyz, resolved once."""
    return main_job()


@pytest.fixture(scope="module")
def big_job():
    """10 Lootas shoot 20 Boyz, resolved once."""
    return main_job(models=10, target_models=20)


def _rate(benchmark, trials: int) -> None:
    mean, best = seconds(benchmark), seconds(benchmark, "min")
    benchmark.extra_info["trials"] = trials
    if mean:
        benchmark.extra_info["seconds_mean"] = round(mean, 4)
        benchmark.extra_info["trials_per_second_mean"] = round(trials / mean)
        benchmark.extra_info["trials_per_second_best"] = round(trials / best)


# ---------------------------------------------------------------------------------------------
# Sampler


def test_sampler_main_job(benchmark, job) -> None:
    out = benchmark(run_sample, job, trials=TRIALS, seed=SEED)
    _rate(benchmark, TRIALS)
    benchmark.extra_info["dice_drawn"] = out.dice_drawn
    assert out.trials == TRIALS


def test_sampler_10_lootas_vs_20_boyz(benchmark, big_job) -> None:
    out = benchmark(run_sample, big_job, trials=TRIALS, seed=SEED)
    _rate(benchmark, TRIALS)
    benchmark.extra_info["dice_drawn"] = out.dice_drawn
    assert out.trials == TRIALS


@pytest.mark.parametrize("trials", [TRIALS, 1_000_000])
def test_sampler_vs_numpy_draw(benchmark, job, trials: int) -> None:
    """The sampler's time over numpy's time to draw one int8 D6 per attack in one call (11 per
    trial), each round paired with its own numpy draw just before it so that a busy machine
    slows both (the sampler draws counts, so ``random_numbers_drawn`` is far below the dice it
    simulates)."""
    attacks = ATTACKS * trials
    numpy_s: list[float] = []
    times: list[float] = []

    def pair() -> None:
        numpy_s.append(numpy_d6_seconds(attacks, repeats=3))

    def run():
        t = time.perf_counter()
        out = run_sample(job, trials=trials, seed=SEED)
        times.append(time.perf_counter() - t)
        return out

    out = benchmark.pedantic(run, setup=pair, rounds=7, iterations=1)
    assert round(out.expected["attacks"]) == ATTACKS
    ratios = [t / n for t, n in zip(times, numpy_s, strict=True)]
    benchmark.extra_info.update(
        {
            "trials": trials,
            "attacks": attacks,
            "random_numbers_drawn": out.dice_drawn,
            "sampler_seconds_best": round(min(times), 4),
            "numpy_int8_d6_per_attack_seconds_best": round(min(numpy_s), 4),
            "sampler_over_numpy_int8_per_attack_median": round(statistics.median(ratios), 2),
            "sampler_over_numpy_int8_per_attack_best_over_best": round(
                min(times) / min(numpy_s), 2
            ),
        }
    )


def test_sampler_main_job_1e6(benchmark, job) -> None:
    trials = 1_000_000
    out = benchmark.pedantic(
        run_sample, args=(job,), kwargs={"trials": trials, "seed": SEED}, rounds=3, iterations=1
    )
    _rate(benchmark, trials)
    assert out.trials == trials


@pytest.mark.heavy
def test_sampler_peak_memory_1e7(benchmark, job) -> None:
    """10^7 trials of the main job: time (benchmark), then peak traced memory (tracemalloc
    sees numpy's buffers) and the process's peak RSS in a second, untimed run."""
    trials = 10_000_000
    out = benchmark.pedantic(
        run_sample, args=(job,), kwargs={"trials": trials, "seed": SEED}, rounds=1, iterations=1
    )
    _rate(benchmark, trials)
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        run_sample(job, trials=trials, seed=SEED)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    benchmark.extra_info["peak_traced_mib"] = round(peak / 2**20, 1)
    benchmark.extra_info["process_peak_rss_mib"] = round(rss / 1024, 1)
    assert out.trials == trials


# ---------------------------------------------------------------------------------------------
# Exact engine


def _exact_bench(benchmark, act) -> None:
    # each round from cold: nothing kept from the round before (engine/memo.py)
    out = benchmark.pedantic(run_exact, args=(act,), setup=memo.clear, rounds=50, iterations=1)
    benchmark.extra_info["states"] = AllocationSpace(act.target).size
    benchmark.extra_info["expected_models_destroyed"] = round(out.expected["models_destroyed"], 4)
    mean = seconds(benchmark)
    if mean:
        benchmark.extra_info["seconds_mean"] = round(mean, 5)


def test_exact_60_d6_attacks_into_20_w3(benchmark) -> None:
    kinds = (Kind(W=3, Sv=3, name="Gravis"),)
    gun = weapon(kinds, "heavy gun", models=30, A=2, skill=3, S=6, T=6, AP=-2, D="D6")
    _exact_bench(benchmark, activation(gun, unit(kinds, [(0, 20)])))


def test_exact_40_attacks_into_one_w26(benchmark) -> None:
    kinds = (Kind(W=26, Sv=3, invuln=5, name="Knight"),)
    las = weapon(kinds, "lascannon", models=20, A=2, skill=3, S=12, T=11, AP=-3, D="D6+1")
    _exact_bench(benchmark, activation(las, unit(kinds, [(0, 1)])))


def test_exact_30_w1_with_w5_leader_and_precision(benchmark) -> None:
    kinds = (Kind(W=1, Sv=5, name="Boy"), Kind(W=5, Sv=4, invuln=5, name="Warboss"))
    target = unit(kinds, [(0, 30)], [(1, 1)])
    sniper = weapon(kinds, "sniper", models=5, A=2, skill=3, S=5, T=5, AP=-2, D=3, precision=True)
    pistol = weapon(kinds, "pistol", models=10, A=1, skill=3, S=5, T=5, AP=-1, D=2, precision=True)
    bolter = weapon(kinds, "bolter", models=10, A=2, skill=3, S=4, T=5, AP=0, D=1)
    _exact_bench(benchmark, activation((sniper, pistol, bolter), target))


def test_exact_main_job(benchmark, job) -> None:
    _exact_bench(benchmark, job)
