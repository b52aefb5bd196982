"""The exact engine's rows of issue 12's speed table (``make bench``), as figures in each
benchmark's ``extra_info``; nothing is asserted.

* row 2, 60 attacks with D6 damage into 20 W3 models: the time of the engine before the speed
  work (``baseline.py``, loaded from git) and now, in the same run, and their ratio
  (``speedup_vs_baseline``; target at least 1.4). Both compute everything, the damage
  distribution included.
* rows 3 and 4, a unit with a Leader whose save differs (60 attacks D3 [DEVASTATING WOUNDS] into
  20 W2 or 30 W1 models; 100 and 300 attacks into 30 W1): in-process ``resolve`` plus the JSON
  (so every distribution is computed) from datasheets written for the benchmark, and the same
  for the main job (5 Lootas shoot 10 Boyz); ``beyond_main_job_seconds`` is the difference
  (target at most 0.5 s). The profile-level time and the baseline's (refused, or its time)
  are recorded too.
* issue 21, the engine's fixed cost per activation: ``run_exact`` on last round's problems
  (10 and 60 D6-damage attacks into 20 W3 models, 60 into a Knight, the main job, 10 Lootas
  into 20 Boyz with a Warboss), cold (nothing kept: one ``calc`` run) and warm (what a batch or
  a sequence pays after its first activation), now and as main was at ``baseline.BEFORE_SPEED``
  (loaded from git), interleaved, CPU time of this thread (medians), with the largest
  difference between their figures. The issue's goals against 40kdice's exact engine are
  measured side by side in ``test_bench_40kdice.py`` (with a local copy of its ``dice.js``).
"""

from __future__ import annotations

import gc
import statistics
import time
from pathlib import Path

import numpy as np
import pytest
import yaml
from baseline import load_baseline, load_before_speed
from profiles import Kind, activation, selection, unit, weapon

from wh40k_calc.catalog import Catalog
from wh40k_calc.engine import memo
from wh40k_calc.engine.allocation import AllocationSpace
from wh40k_calc.engine.exact import run_exact
from wh40k_calc.report import to_json
from wh40k_calc.resolve import resolve
from wh40k_calc.rules.common import damage_table
from wh40k_calc.selection import Selection, UnitChoice


def _full(act):
    """Everything the exact engine can tell, the damage distribution included (read lazily)."""
    out = run_exact(act)
    out.damage_distribution  # noqa: B018 - computing it is the point
    return out


def _cold() -> None:
    """Nothing kept from the repeat before (engine/memo.py, the rules' damage tables): each
    repeat costs what one `calc` run of it does."""
    memo.clear()
    damage_table.cache_clear()


def _best(fn, *args, repeats: int = 5) -> float:
    best = float("inf")
    for _ in range(repeats):
        _cold()
        t = time.perf_counter()
        fn(*args)
        best = min(best, time.perf_counter() - t)
    return best


def _baseline(benchmark, act, new_seconds: float) -> None:
    before = load_baseline()
    if before is None:
        benchmark.extra_info["baseline"] = "unavailable (no git or no commit)"
        return
    try:
        old = _best(before, act, repeats=3)
    except Exception as exc:  # the baseline's own refusal (ExactUnsupported of its module)
        benchmark.extra_info["baseline"] = f"refused: {exc}"
        return
    benchmark.extra_info["baseline_seconds_best"] = round(old, 6)
    benchmark.extra_info["speedup_vs_baseline"] = round(old / new_seconds, 2)


def test_exact_60_d6_attacks_into_20_w3(benchmark) -> None:
    """Row 2: at least 1.4x faster than the baseline."""
    kinds = (Kind(W=3, Sv=3, name="Gravis"),)
    gun = weapon(kinds, "heavy gun", models=30, A=2, skill=3, S=6, T=6, AP=-2, D="D6")
    act = activation(gun, unit(kinds, [(0, 20)]))
    out = benchmark.pedantic(_full, args=(act,), setup=_cold, rounds=20, iterations=1)
    new = _best(_full, act, repeats=20)
    benchmark.extra_info["states"] = AllocationSpace(act.target).size
    benchmark.extra_info["seconds_best"] = round(new, 6)
    benchmark.extra_info["expected_models_destroyed"] = round(out.expected["models_destroyed"], 4)
    _baseline(benchmark, act, new)
    benchmark.extra_info["seconds_best_without_damage_distribution"] = round(
        _best(run_exact, act, repeats=20), 6
    )


# ---------------------------------------------------------------------------------------------
# Rows 3 and 4: from datasheets, against the main job


def _model(name: str, W: int, Sv: int, T: int = 4, invuln=None, kw=()) -> dict:
    return {
        "name": name, "M": 6, "T": T, "Sv": Sv, "W": W, "Ld": 7, "OC": 1,
        "invuln": invuln, "keywords": list(kw), "equipped": ["gun"],
    }  # fmt: skip


def _sheet(folder: Path, name: str, models: list[dict], counts: dict, gun: dict, **extra) -> None:
    data = {
        "name": name,
        "faction": "Bench",
        "keywords": ["INFANTRY", *extra.pop("keywords", [])],
        "models": models,
        "sizes": [{"models": counts, "points": 100}],
        "weapons": [{"name": "Gun", "range": 24, **gun}],
        "source": "benchmark datasheet",
        **extra,
    }
    (folder / f"{name.lower().replace(' ', '-')}.yaml").write_text(
        yaml.safe_dump(data, sort_keys=False), encoding="utf-8"
    )


@pytest.fixture(scope="module")
def sheets(tmp_path_factory) -> Catalog:
    folder = tmp_path_factory.mktemp("bench-sheets")
    dev = {"A": 2, "skill": 3, "S": 5, "AP": -1, "D": "D3", "abilities": ["devastating wounds"]}
    _sheet(folder, "Dev Squad", [_model("Gunner", 1, 3)], {"Gunner": 30}, dev)
    for attacks in (100, 300):  # 50 models
        shoota = {"A": attacks // 50, "skill": 3, "S": 4, "AP": 0, "D": 1}
        _sheet(folder, f"Mob {attacks}", [_model("Gunner", 1, 5)], {"Gunner": 50}, shoota)
    plain = {"A": 1, "skill": 3, "S": 4, "AP": 0, "D": 1}
    _sheet(folder, "Marines", [_model("Marine", 2, 3)], {"Marine": 20}, plain)
    _sheet(folder, "Guards", [_model("Guard", 1, 3)], {"Guard": 30}, plain)
    _sheet(folder, "Orks", [_model("Ork", 1, 5, T=5)], {"Ork": 30}, plain)
    _sheet(
        folder, "Captain", [_model("Captain", 5, 2, invuln=4, kw=["CHARACTER"])],
        {"Captain": 1}, plain, keywords=["CHARACTER"], leader_of=["Marines", "Guards"],
    )  # fmt: skip
    _sheet(
        folder, "Boss", [_model("Boss", 6, 4, T=5, invuln=5, kw=["CHARACTER"])],
        {"Boss": 1}, plain, keywords=["CHARACTER"], leader_of=["Orks"],
    )  # fmt: skip
    return Catalog([folder], use_env=False)


def _resolved_json(sel: Selection) -> dict:
    return to_json(resolve(sel, "exact"))


def _against_main_job(benchmark, sel: Selection) -> None:
    out = benchmark.pedantic(_resolved_json, args=(sel,), setup=_cold, rounds=5, iterations=1)
    assert out["method"] == "exact", out["notes"]
    main = selection("lootas", "boyz")
    run = _best(_resolved_json, sel)
    base = _best(_resolved_json, main)
    benchmark.extra_info["seconds_best"] = round(run, 5)
    benchmark.extra_info["main_job_seconds_best"] = round(base, 5)
    benchmark.extra_info["beyond_main_job_seconds"] = round(run - base, 5)
    act = resolve(sel, "exact").activation
    benchmark.extra_info["states"] = AllocationSpace(act.target).size
    benchmark.extra_info["engine_seconds_best"] = round(_best(_full, act), 5)
    _baseline(benchmark, act, _best(_full, act))


def _sel(cat: Catalog, attacker: str, target: str, leader: str) -> Selection:
    return Selection(
        phase="shooting",
        attacker=UnitChoice(cat.find(attacker)),
        target=UnitChoice(cat.find(target), None, None, (), (cat.find(leader),)),
    )


@pytest.mark.parametrize("target", ["Marines", "Guards"])
def test_exact_60_d3_devastating_into_unit_with_leader(benchmark, sheets, target: str) -> None:
    """Row 3: 30 models x 2 attacks, D3 [DEVASTATING WOUNDS], into 20 W2 (Sv3+) or 30 W1
    (Sv3+) models led by a W5 Sv2+ 4++ Captain."""
    _against_main_job(benchmark, _sel(sheets, "Dev Squad", target, "Captain"))


@pytest.mark.parametrize("attacks", [100, 300])
def test_exact_attacks_into_30_w1_with_a_leader_of_another_save(benchmark, sheets, attacks) -> None:
    """Row 4: 100 and 300 attacks into 30 W1 Sv5+ Orks led by a W6 Sv4+ 5++ Boss."""
    _against_main_job(benchmark, _sel(sheets, f"Mob {attacks}", "Orks", "Boss"))


# ---------------------------------------------------------------------------------------------
# Issue 21: the fixed cost per activation, cold and warm, against main at the start of that work


def _problems() -> dict:
    gravis = (Kind(W=3, Sv=3, name="Gravis"),)
    knight = (Kind(W=22, Sv=3, invuln=5, name="Knight"),)

    def d6(kinds, attacks: int, T: int):
        return weapon(kinds, "gun", models=attacks // 2, A=2, skill=3, S=6, T=T, AP=-2, D="D6")

    led = selection("lootas", "boyz", models=10, target_models=20, target_leaders=["warboss"])
    return {
        "10_d6_into_20_w3": activation(d6(gravis, 10, 6), unit(gravis, [(0, 20)])),
        "60_d6_into_20_w3": activation(d6(gravis, 60, 6), unit(gravis, [(0, 20)])),
        "60_d6_into_a_knight": activation(d6(knight, 60, 12), unit(knight, [(0, 1)])),
        "main_job": resolve(selection("lootas", "boyz"), "exact").activation,
        "10_lootas_into_20_boyz_and_warboss": resolve(led, "exact").activation,
    }


def _largest_difference(a, b) -> float:
    d = max(abs(a.expected[k] - b.expected[k]) for k in a.expected)
    for f in ("models_destroyed_distribution", "wounds_lost_distribution"):
        d = max(d, float(np.abs(getattr(a, f) - getattr(b, f)).max()))
    return d


def test_exact_fixed_cost_per_activation(benchmark) -> None:
    before = load_before_speed()
    old_memo = None if before is None else before.memo
    info: dict[str, object] = {}
    gc_was = gc.isenabled()
    gc.disable()  # a collection would land on one side of a pair
    try:
        for name, act in _problems().items():
            engines = {"now": run_exact}
            if before is not None:
                engines["before"] = before.run_exact
                info[f"{name}_largest_difference"] = _largest_difference(
                    run_exact(act), before.run_exact(act)
                )
            for temp in ("cold", "warm"):
                times: dict[str, list[float]] = {k: [] for k in engines}
                for _ in range(40):
                    for k, fn in engines.items():
                        if temp == "cold":
                            _cold()
                            if old_memo is not None:
                                old_memo.clear()
                        t = time.thread_time()
                        fn(act)
                        times[k].append(time.thread_time() - t)
                now = statistics.median(times["now"])
                info[f"{name}_{temp}_us"] = round(now * 1e6)
                if "before" in times:
                    old = statistics.median(times["before"])
                    info[f"{name}_{temp}_before_us"] = round(old * 1e6)
                    info[f"{name}_{temp}_before_over_now"] = round(old / now, 2)
    finally:
        if gc_was:
            gc.enable()
    benchmark.pedantic(_full, args=(_problems()["main_job"],), rounds=3, iterations=1)
    benchmark.extra_info.update(info)
