"""`calc compare` on a 200-run batch (exact engine), end to end through the CLI: load and
validate the batch, resolve every run, render the table. `make bench` runs it."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from wh40k_calc.cli import app
from wh40k_calc.datasheet import norm_name
from wh40k_calc.engine import memo
from wh40k_calc.rules.common import damage_table

RUNS = 200

# (attacker, sizes, loadouts, phase) from the shipped datasheets
ATTACKERS = [
    ("lootas", [5, 10], ["default", "kustom-mega-blastas", "rokkit-launchas"], "shooting"),
    ("boyz", [10, 20], ["default"], "fight"),
    ("intercessor-squad", [5, 10], ["default"], "shooting"),
    ("terminator-squad", [5], ["default"], "fight"),
    ("necron-warriors", [10, 20], ["default"], "shooting"),
    ("cadian-shock-troops", [10], ["default"], "shooting"),
    ("custodian-guard", [4, 5], ["default"], "fight"),
    ("termagants", [10, 20], ["default"], "shooting"),
]
TARGETS = ["boyz", "intercessor-squad", "terminator-squad", "rhino", "termagants", "carnifexes"]
CONDITIONS = [[], ["stationary"], ["half-range"], ["cover"]]


def batch_runs() -> list[dict]:
    """200 runs, each an attacker option against one target."""
    options = [
        (name, models, loadout, phase)
        for name, sizes, loadouts, phase in ATTACKERS
        for models in sizes
        for loadout in loadouts
    ]
    runs = []
    for i in range(RUNS):  # 13 options, 6 targets, 4 conditions: every pairing turns up
        name, models, loadout, phase = options[i % len(options)]
        runs.append(
            {
                "name": f"run {i}",
                "phase": phase,
                "attacker": {"name": name, "models": models, "loadout": loadout},
                "target": TARGETS[i % len(TARGETS)],
                "conditions": CONDITIONS[(i // len(options)) % len(CONDITIONS)],
            }
        )
    return runs


@pytest.fixture(scope="module")
def batch_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("bench") / "batch200.yaml"
    path.write_text(
        yaml.safe_dump({"method": "exact", "runs": batch_runs()}, sort_keys=False),
        encoding="utf-8",
    )
    return path


def _cold() -> None:
    """Each round as a fresh process would run it: nothing the engine or the rules kept from
    the round before (a round repeating the same batch would find every result kept)."""
    memo.clear()
    damage_table.cache_clear()
    norm_name.cache_clear()


def test_compare_200_runs(benchmark, batch_file: Path) -> None:
    runner = CliRunner()

    def go():
        return runner.invoke(app, ["compare", str(batch_file), "--csv", "-"])

    res = benchmark.pedantic(go, setup=_cold, rounds=3, iterations=1, warmup_rounds=1)
    assert res.exit_code == 0, res.output
    assert res.stdout.count("\n") == RUNS + 1  # header + one row per run
